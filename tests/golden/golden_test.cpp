// SPDX-License-Identifier: Apache-2.0
/// \file
/// Golden CLI tests. Each tests/golden/**/<case>.cmd holds one command line (the arguments after
/// `foresight`) and, optionally, a line "# exit: N" (default 0). The CLI runs from the source
/// directory; its stdout must equal <case>.out and its stderr <case>.err (empty when absent).
/// scripts/update_golden.sh rewrites the expected files; review the diff.
#include <gtest/gtest.h>

#include "foresight/frontend/cloop/program.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;

struct GoldenCase {
  std::string name;  ///< path relative to tests/golden without extension
  fs::path cmd;
};

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<GoldenCase> findCases() {
  std::vector<GoldenCase> cases;
  const fs::path root = fs::path(FORESIGHT_SOURCE_DIR) / "tests" / "golden";
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".cmd") continue;
    fs::path rel = fs::relative(entry.path(), root);
    rel.replace_extension();
    cases.push_back({rel.string(), entry.path()});
  }
  std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return cases;
}

/// Names the case in failure messages instead of dumping its bytes.
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

class Golden : public testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, OutputMatches) {
  const GoldenCase& c = GetParam();
  std::istringstream cmdText(readFile(c.cmd));
  std::string args, line;
  int expectedExit = 0;
  while (std::getline(cmdText, line)) {
    if (line.rfind("# exit:", 0) == 0) {
      expectedExit = std::stoi(line.substr(7));
    } else if (line.rfind("# requires: llvm", 0) == 0 && !foresight::cloop::cloopAvailable()) {
      GTEST_SKIP() << "built without LLVM 14 (C loop frontend)";
    } else if (!line.empty() && line[0] != '#') {
      args = line;
    }
  }
  ASSERT_FALSE(args.empty()) << c.cmd << " has no command line";
  const fs::path errFile = fs::temp_directory_path() / ("foresight_golden_" + std::to_string(::getpid()) + ".err");
  // Progress lines appear once a search has run for seconds: how long depends on the machine
  // (and on sanitizers), so the goldens are taken without them.
  const std::string command = "cd '" FORESIGHT_SOURCE_DIR "' && FORESIGHT_PROGRESS=0 '" FORESIGHT_CLI_PATH "' " + args +
                              " 2>'" + errFile.string() + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  const std::string err = readFile(errFile);
  fs::remove(errFile);

  fs::path outPath = c.cmd, errPath = c.cmd;
  outPath.replace_extension(".out");
  errPath.replace_extension(".err");
  EXPECT_EQ(WEXITSTATUS(status), expectedExit) << "foresight " << args << "\nstderr: " << err;
  EXPECT_EQ(out, fs::exists(outPath) ? readFile(outPath) : "") << "stdout of: foresight " << args;
  EXPECT_EQ(err, fs::exists(errPath) ? readFile(errPath) : "") << "stderr of: foresight " << args;
}

INSTANTIATE_TEST_SUITE_P(Cli, Golden, testing::ValuesIn(findCases()),
                         [](const testing::TestParamInfo<GoldenCase>& info) {
                           std::string name = info.param.name;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
