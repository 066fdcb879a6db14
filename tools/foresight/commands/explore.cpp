// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight explore FILE.sk`: every GPU code layout of a skeleton, ranked by projected time
/// (text, --json or --csv); `--gpu a,b,c` ranks on each GPU.
#include <CLI/CLI.hpp>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "../skeleton_report.h"

namespace foresight::cli {

std::function<int()> setupExplore(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  auto top = std::make_shared<long long>(20);
  auto csv = std::make_shared<bool>(false);
  addCommonOptions(sub, *options);
  sub.add_option("--top", *top, "Layouts shown per GPU (0 = all)")
      ->check(CLI::Validator([](std::string& s) -> std::string { return s.rfind('-', 0) == 0 ? "must be 0 (all) or a positive count" : ""; },
                             "N >= 0"))
      ->capture_default_str();
  sub.add_flag("--csv", *csv, "Print the ranking as CSV on stdout");
  return [options, top, csv] { return runSkeletonExplore(*options, *top, *csv); };
}

}  // namespace foresight::cli
