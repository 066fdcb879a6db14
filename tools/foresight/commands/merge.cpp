// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight merge FILE...`: the --json reports of the shards of one `explore --shard I/N`
/// search put back together, ranked and printed as the unsplit search would print them.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "../command.h"
#include "../common_options.h"
#include "foresight/report/explore_view.h"
#include "foresight/support/text_file.h"

namespace foresight::cli {

namespace {

struct MergeOptions {
  std::vector<std::string> files;
  bool json = false;
  long long top = 20;
};

int runMerge(const MergeOptions& o) {
  std::vector<nlohmann::json> reports;
  for (const std::string& file : o.files) {
    Expected<std::string> text = readTextFile(file);
    if (!text) return reportError(text.error());
    nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_discarded()) return reportError(makeError("not a JSON report (explore --json --shard I/N)", file, 0));
    reports.push_back(std::move(j));
  }
  try {
    Expected<nlohmann::json> merged = mergeExploreReports(reports);
    if (!merged) return reportError(merged.error());
    if (o.json) {
      std::cout << merged->dump(2) << "\n";
    } else {
      printExploreText(*merged, o.top, std::cout);
    }
  } catch (const nlohmann::json::exception& e) {  // a report edited by hand: a value of the wrong type
    return reportError(makeError(std::string("a report holds a value of the wrong type: ") + e.what()));
  }
  return kExitOk;
}

}  // namespace

std::function<int()> setupMerge(CLI::App& sub) {
  auto o = std::make_shared<MergeOptions>();
  sub.add_option("files", o->files, "The --json reports of every shard (explore --json --shard I/N)")->required();
  sub.add_flag("--json", o->json, "Print the merged report as one JSON object (the unsplit explore --json)");
  sub.add_option("--top", o->top, "Ranked variants shown (0 = all)")->check(CLI::NonNegativeNumber)->capture_default_str();
  return [o] { return runMerge(*o); };
}

}  // namespace foresight::cli
