// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight batch FILE.jsonl`: many requests (one JSON object per line: the Python module's
/// keys plus "command": predict | explain | explore) run on every core; one JSON line per
/// request on stdout, in input order: {"line": N, "result": {...}} or {"line": N, "error": "..."}.
/// `--shard I/N` runs the requests of lines L with (L - 1) % N == I.
#include <CLI/CLI.hpp>
#include <atomic>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../command.h"
#include "../common_options.h"
#include "../progress_line.h"
#include "foresight/api/requests.h"
#include "foresight/support/parallel.h"
#include "foresight/support/text_file.h"

namespace foresight::cli {

namespace {

struct BatchOptions {
  std::string file;
  std::string shard;
  unsigned jobs = 0;
};

/// One request line's outcome.
Expected<std::string> runLine(const std::string& line) {
  nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
  if (request.is_discarded() || !request.is_object()) return makeError("not a JSON object");
  const std::string command = request.value("command", std::string("predict"));
  request.erase("command");
  const std::string text = request.dump();
  if (command == "predict") return predictRequest(text);
  if (command == "explain") return explainRequest(text);
  if (command == "explore") return exploreRequest(text);
  return makeError("unknown command '" + command + "' (predict, explain or explore)");
}

int runBatch(const BatchOptions& o) {
  Expected<std::string> text = readTextFile(o.file);
  if (!text) return reportError(text.error());
  long long shard = 0, shards = 1;
  if (!o.shard.empty()) {
    Expected<std::pair<long long, long long>> sh = parseShard(o.shard);
    if (!sh) return reportError(sh.error());
    shard = sh->first;
    shards = sh->second;
  }
  // The requests: non-empty lines (1-based line numbers), this shard's.
  std::vector<std::pair<long long, std::string>> lines;
  std::istringstream in(*text);
  std::string line;
  for (long long n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if ((n - 1) % shards == shard) lines.emplace_back(n, line);
  }
  std::vector<Expected<std::string>> results(lines.size(), Expected<std::string>(std::string()));
  std::atomic<long long> done{0};
  const bool progress = progressWanted();
  parallelFor(
      lines.size(),
      [&](size_t i) {
        results[i] = runLine(lines[i].second);
        const long long d = ++done;
        if (progress) reportProgress({"batch: requests", d, static_cast<long long>(lines.size()), d == static_cast<long long>(lines.size())});
      },
      o.jobs);
  int failed = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    nlohmann::json out;
    out["line"] = lines[i].first;
    if (results[i]) {
      out["result"] = nlohmann::json::parse(*results[i]);
    } else {
      const Error& e = results[i].error();
      out["error"] = e.file.empty() ? e.message : e.format();
      ++failed;
    }
    std::cout << out.dump() << "\n";
  }
  if (failed) {
    std::cerr << "foresight: batch: " << failed << " of " << lines.size() << " requests failed (their lines carry \"error\")\n";
    return kExitError;
  }
  return kExitOk;
}

}  // namespace

std::function<int()> setupBatch(CLI::App& sub) {
  auto o = std::make_shared<BatchOptions>();
  sub.add_option("file", o->file, "Requests, one JSON object per line (docs/scale-out.md)")->required();
  sub.add_option("--shard", o->shard, "Only the lines L with (L - 1) % N == I (I/N, 0 <= I < N)");
  sub.add_option("--jobs", o->jobs, "Requests run at once (default: every core)")->check(CLI::PositiveNumber);
  return [o] { return runBatch(*o); };
}

}  // namespace foresight::cli
