// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight count-ptx FILE.c`: compiles a marked CPU function with nvcc as a single-thread
/// kernel and prints the PTX instruction count of every marked block — the `comp` values of a
/// skeleton (grophecy.md §2.4). Mark the function with GROPHECY_KERNEL and each basic block
/// with GROPHECY_BEGIN(id) ... GROPHECY_END(id); docs/skeleton-language.md shows an example.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../command.h"
#include "../common_options.h"
#include "foresight/frontend/cuda/system_toolchain.h"
#include "foresight/frontend/skeleton/ptx_counter.h"
#include "foresight/support/text_file.h"
#include "foresight/support/process.h"

namespace foresight::cli {

namespace {

struct CountPtxOptions {
  std::string input;
  std::string nvcc;
  std::string arch = "compute_75";
  std::vector<std::string> defines;
  std::vector<std::string> includes;
  std::string ptxFile;  ///< count an existing PTX file instead of compiling
  bool json = false;
  double toolTimeout = 0;  ///< --tool-timeout: limit of the nvcc run; 0 = 300 s
};

std::string findNvcc(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("NVCC"); env && *env) return env;
  for (const char* dir : {"/usr/local/cuda/bin/nvcc"}) {
    if (std::filesystem::exists(dir)) return dir;
  }
  return "nvcc";
}

Expected<std::string> readAll(const std::filesystem::path& p) { return readTextFile(p.string()); }

int runCountPtx(const CountPtxOptions& o) {
  namespace fs = std::filesystem;
  std::string ptx;
  std::string ptxName = o.ptxFile;
  if (!o.ptxFile.empty()) {
    Expected<std::string> text = readAll(o.ptxFile);
    if (!text) return reportError(text.error());
    ptx = *text;
  } else {
    if (!fs::exists(o.input))
      return reportError(makeError("cannot read input file '" + o.input + "'"));
    Expected<TempDir> dir = TempDir::create("foresight-count-ptx");
    if (!dir) return reportError(dir.error());
    const std::string wrapper = dir->file("wrapper.cu");
    const std::string out = dir->file("out.ptx");
    {
      std::ofstream w(wrapper);
      w << skeleton::ptxMarkerPrelude() << "#include " << '"' << fs::absolute(o.input).string()
        << '"' << "\n";
    }
    ProcessRequest nvcc;
    nvcc.argv = {findNvcc(o.nvcc), "-ptx", "-O3", "-arch=" + o.arch, "-x", "cu"};
    for (const std::string& d : o.defines) nvcc.argv.push_back("-D" + d);
    for (const std::string& i : o.includes) nvcc.argv.push_back("-I" + i);
    nvcc.argv.insert(nvcc.argv.end(), {"-o", out, wrapper});
    nvcc.name = "nvcc";
    nvcc.timeoutSeconds = o.toolTimeout > 0 ? o.toolTimeout : cuda::kNvccTimeoutSeconds;
    Expected<ProcessResult> run = runProcess(nvcc);
    if (!run) {
      const bool missing = run.error().message.rfind("cannot run '", 0) == 0;
      return reportError(makeError(
          run.error().message + (missing ? " (is nvcc installed? pass --nvcc PATH or set NVCC)" : ""), o.input, 0));
    }
    if (run->timedOut) {
      return reportError(makeError(describeFailure(nvcc, *run) + "; " + kToolTimeoutHint, o.input, 0));
    }
    if (!run->succeeded()) {
      std::string message = run->signal != 0 ? describeFailure(nvcc, *run) : "nvcc failed on '" + o.input + "'";
      const std::string log = run->err + run->out;
      if (!log.empty()) message += ":\n" + log;
      while (!message.empty() && message.back() == '\n') message.pop_back();
      return reportError(makeError(message));
    }
    Expected<std::string> text = readAll(out);
    if (!text) return reportError(text.error());
    ptx = *text;
    ptxName = o.input + " (PTX)";
  }
  Expected<skeleton::PtxCount> counts = skeleton::countPtxBlocks(ptx, ptxName);
  if (!counts) return reportError(counts.error());
  if (counts->blocks.empty()) {
    return reportError(
        makeError("no GROPHECY_BEGIN/GROPHECY_END markers found in the PTX; mark each "
                  "basic block of the GROPHECY_KERNEL function",
                  o.input, 0));
  }
  if (o.json) {
    nlohmann::json j;
    j["input"] = o.ptxFile.empty() ? o.input : o.ptxFile;
    j["arch"] = o.arch;
    j["outside_blocks"] = counts->outside;
    j["blocks"] = nlohmann::json::array();
    for (const auto& b : counts->blocks) {
      j["blocks"].push_back(
          {{"id", b.id}, {"comp", b.instructions}, {"occurrences", b.occurrences}});
    }
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout
      << "block                 comp   (PTX instructions between the markers; use as 'comp N')\n";
  for (const auto& b : counts->blocks) {
    std::cout << "  " << b.id << std::string(b.id.size() < 18 ? 18 - b.id.size() : 1, ' ')
              << b.instructions;
    if (b.occurrences > 1)
      std::cout << "   (emitted " << b.occurrences << " times; first copy counted)";
    std::cout << "\n";
  }
  std::cout << "outside blocks        " << counts->outside
            << "   (loop and branch code: the model adds Table 3's peripheral costs instead)\n";
  return kExitOk;
}

}  // namespace

std::function<int()> setupCountPtx(CLI::App& sub) {
  auto o = std::make_shared<CountPtxOptions>();
  sub.add_option("input", o->input,
                 "C/C++ file with a GROPHECY_KERNEL function and GROPHECY_BEGIN/END markers");
  sub.add_option("--ptx", o->ptxFile, "Count an existing PTX file instead of compiling");
  sub.add_option("--nvcc", o->nvcc,
                 "nvcc to use (default: $NVCC, /usr/local/cuda/bin/nvcc, nvcc on PATH)");
  sub.add_option("--arch", o->arch, "Virtual architecture for -arch")->capture_default_str();
  sub.add_option("-D", o->defines, "Macro for the compilation, NAME[=VALUE]");
  sub.add_option("-I", o->includes, "Include directory");
  sub.add_flag("--json", o->json, "Print one JSON object on stdout");
  addToolTimeoutOption(sub, o->toolTimeout, "Wall-clock limit of the nvcc run, seconds (default 300)");
  return [o]() -> int {
    if (o->input.empty() && o->ptxFile.empty()) {
      return reportError(makeError("count-ptx needs a C file (or --ptx FILE)"));
    }
    return runCountPtx(*o);
  };
}

}  // namespace foresight::cli
