// SPDX-License-Identifier: Apache-2.0
/// \file
/// The public accuracy set (validation/public, issue 11): published times of public kernels,
/// each point citing where it was copied from. Checks the set's shape, not the models' accuracy.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "foresight/gpu/presets.h"
#include "foresight/support/text_file.h"
#include "foresight/validation/manifest.h"
#include "foresight/validation/measurement.h"

namespace foresight {
namespace {

const std::string kRoot = std::string(FORESIGHT_SOURCE_DIR) + "/validation/public";

TEST(PublicSet, ShapeSourcesAndKernels) {
  Expected<std::vector<Manifest>> corpus = loadCorpus(kRoot);
  ASSERT_TRUE(corpus.ok()) << corpus.error().format();
  std::map<std::pair<std::string, std::string>, const Manifest*> variants;
  for (const Manifest& m : *corpus) {
    ASSERT_TRUE(std::filesystem::exists(m.source)) << m.path << ": " << m.source;
    Expected<std::string> text = readTextFile(m.source);
    ASSERT_TRUE(text.ok()) << text.error().format();
    for (const LaunchSpec& l : m.launches) {
      const std::regex def("extern \"C\" __global__ void\\s+" + l.kernel + "\\(");
      EXPECT_TRUE(std::regex_search(*text, def)) << m.path << ": no extern \"C\" " << l.kernel;
    }
    for (const VariantSpec& v : m.variants) {
      EXPECT_TRUE(resolveVariant(m, v).ok()) << m.path << " variant " << v.name;
      variants[{m.name, v.name}] = &m;
    }
  }

  Expected<std::vector<MeasurementFile>> files = loadMeasurements(kRoot + "/measurements");
  ASSERT_TRUE(files.ok()) << files.error().format();
  int points = 0, ampereHopper = 0;
  std::set<std::string> sources;
  for (const MeasurementFile& f : *files) {
    // Ampere (sm_80) and Hopper (sm_90) presets; a file without a preset is kept but not scored.
    const bool newArch = f.gpu == "a100" || f.gpu == "a100-80" || f.gpu == "h100" ||
                         f.gpu == "h100-pcie" || f.gpu == "h200";
    std::ifstream in(f.path);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.empty()) continue;
      const nlohmann::json j = nlohmann::json::parse(line);
      const std::string where = f.path + ":" + std::to_string(n);
      ++points;
      if (newArch) ++ampereHopper;
      // Every point cites its source: repository, commit, path and line, the published row
      // verbatim, the published value with its unit, and the arithmetic that makes it a time.
      ASSERT_TRUE(j.contains("source") && j["source"].is_string()) << where;
      EXPECT_NE(j["source"].get<std::string>().find('/'), std::string::npos) << where;
      sources.insert(j["source"].get<std::string>());
      for (const char* key : {"source_path", "source_commit", "source_row", "derivation"}) {
        ASSERT_TRUE(j.contains(key) && j[key].is_string() && !j[key].get<std::string>().empty())
            << where << ": " << key;
      }
      EXPECT_EQ(j["source_commit"].get<std::string>().size(), 40u) << where;
      ASSERT_TRUE(j.contains("source_line") && j["source_line"].is_number_integer()) << where;
      EXPECT_GT(j["source_line"].get<int>(), 0) << where;
      ASSERT_TRUE(j.contains("published") && j["published"]["value"].is_number() &&
                  j["published"]["unit"].is_string())
          << where;
      EXPECT_EQ(j["samples_ms"].size(), 1u) << where;
      // The point's kernel and variant exist in the public corpus.
      const auto key =
          std::make_pair(j["experiment"].get<std::string>(), j["variant"].get<std::string>());
      EXPECT_TRUE(variants.count(key)) << where << ": " << key.first << "/" << key.second;
    }
  }
  // Issue 11: at least 60 points from at least 3 independent sources, at least half of them on
  // Ampere or Hopper.
  EXPECT_GE(points, 60);
  EXPECT_GE(sources.size(), 3u);
  EXPECT_GE(2 * ampereHopper, points);
}

TEST(PublicSet, PublishedBandwidthBecomesTime) {
  // h200.jsonl line 1 is gpu-roofline/h200.txt line 67: 3759 GB/s over 2 arrays of
  // 1056 * 256 * 4000 floats: 2 * 1081344000 * 4 B / 3759e9 B/s = 2.30134 ms.
  Expected<std::vector<MeasurementFile>> files = loadMeasurements(kRoot + "/measurements");
  ASSERT_TRUE(files.ok());
  const auto h200 = std::find_if(files->begin(), files->end(),
                                 [](const MeasurementFile& f) { return f.gpu == "h200"; });
  ASSERT_NE(h200, files->end());
  const Measurement& m = h200->measurements.at(0);
  EXPECT_EQ(m.experiment, "gpu_roofline");
  EXPECT_EQ(m.variant, "h200_n0");
  EXPECT_EQ(m.source, "te42kyfo/gpu-benches");
  EXPECT_NEAR(m.medianSeconds * 1e3, 2.30134, 1e-5);
}

}  // namespace
}  // namespace foresight
