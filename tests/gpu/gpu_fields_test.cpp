// SPDX-License-Identifier: Apache-2.0
/// \file
/// The key tables of the GPU description (gpu_fields.h): the documentation lists exactly the keys
/// the loader reads, every preset writes back to text that loads to the same values, and the
/// positivity rule applies to the keys it names.
#include "foresight/gpu/gpu_fields.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "foresight/gpu/gpu_loader.h"
#include "foresight/gpu/gpu_writer.h"
#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

/// `section.key` for every key row of the first "| key" table under each "## [section]" heading
/// of docs/gpu-format.md.
std::set<std::string> documentedKeys() {
  std::ifstream in(std::string(FORESIGHT_SOURCE_DIR) + "/docs/gpu-format.md");
  EXPECT_TRUE(in.good());
  const std::regex heading(R"(^## \[([^\]]+)\])");
  const std::regex row(R"(^\| `([a-z0-9_]+)` \|)");
  std::set<std::string> out;
  std::string line, section;
  bool inTable = false, tableDone = true;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, heading)) {
      section = m[1];
      inTable = false;
      tableDone = false;
    } else if (!section.empty() && !tableDone && line.rfind("| key", 0) == 0) {
      inTable = true;
    } else if (inTable && std::regex_search(line, m, row)) {
      out.insert(section + "." + std::string(m[1]));
    } else if (inTable && line.rfind("|", 0) != 0) {
      inTable = false;
      tableDone = true;  // later tables of the section (the pipeline classes) list no keys
    }
  }
  return out;
}

TEST(GpuFields, TheDocumentationListsExactlyTheKeysTheLoaderReads) {
  const std::vector<std::string> keys = gpuDescriptionKeys();
  const std::set<std::string> known(keys.begin(), keys.end());
  EXPECT_EQ(known.size(), keys.size()) << "a key is listed twice";
  const std::set<std::string> documented = documentedKeys();
  for (const std::string& k : known) EXPECT_TRUE(documented.count(k)) << k << " is not in docs/gpu-format.md";
  for (const std::string& k : documented) EXPECT_TRUE(known.count(k)) << k << " is documented but no loader reads it";
  // 4 gpu + 9 sm + 16 limits + 2 pipelines + 28 memory + 9 mwp_cwp + 3 sgemm_mix + 2 register_banks + 3 barrier
  EXPECT_EQ(known.size(), 76u);
}

TEST(GpuFields, EveryPresetWritesTextThatLoadsBackIdentically) {
  for (const std::string& name : presetNames()) {
    Expected<Gpu> gpu = loadPreset(name);
    ASSERT_TRUE(gpu.ok()) << name;
    const std::string text = writeGpuToml(*gpu);
    Expected<Gpu> again = loadGpuFromString(text, name + ".written.toml");
    ASSERT_TRUE(again.ok()) << name << ": " << again.error().format();
    EXPECT_EQ(writeGpuToml(*again), text) << name;
  }
}

TEST(GpuFields, PositiveKeysRefuseZeroAtTheKey) {
  Expected<std::string_view> h100 = presetText("h100");
  ASSERT_TRUE(h100.ok());
  const std::string text(*h100);
  // Each replacement sets one positive key to zero; the message names the key.
  const std::pair<std::string, std::string> cases[] = {
      {"schedulers = { value = 4", "'sm.schedulers' must be positive"},
      {"departure_delay_coal = { value = ", "'mwp_cwp.departure_delay_coal' must be positive"},
  };
  for (const auto& [prefix, message] : cases) {
    const size_t at = text.find(prefix);
    ASSERT_NE(at, std::string::npos) << prefix;
    const size_t valueEnd = text.find_first_of(",}", at + prefix.size());
    const std::string bad = text.substr(0, at) + prefix.substr(0, prefix.find("= {") + 3) + " value = 0" +
                            text.substr(valueEnd);
    Expected<Gpu> g = loadGpuFromString(bad, "h100-bad.toml");
    ASSERT_FALSE(g.ok()) << prefix;
    EXPECT_EQ(g.error().message, message);
  }
}

}  // namespace
}  // namespace foresight
