// SPDX-License-Identifier: Apache-2.0
/// \file
/// The real Toolchain: locates nvcc, ptxas and nvdisasm once, and runs them through
/// runProcess (no shell, a time limit per tool) on files of a private TempDir.
#include "foresight/frontend/cuda/system_toolchain.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "foresight/support/process.h"
#include "foresight/support/text_file.h"

#ifndef FORESIGHT_DEFAULT_TOOLS_DIR
#define FORESIGHT_DEFAULT_TOOLS_DIR ""
#endif

namespace foresight::cuda {

namespace fs = std::filesystem;

namespace {

/// The most nvdisasm output read back (a large cubin disassembles to tens of MiB).
constexpr std::size_t kMaxSassBytes = std::size_t{256} << 20;

std::string envOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

Expected<std::string> slurp(const fs::path& path) { return readTextFile(path.string()); }

bool isExecutable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

/// First executable `name` in `dirs`, or empty.
std::string findTool(const std::string& name, const std::vector<std::string>& dirs) {
  for (const std::string& d : dirs) {
    if (d.empty()) continue;
    fs::path p = fs::path(d) / name;
    if (isExecutable(p)) return p.string();
  }
  return {};
}

std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream s(path);
  std::string part;
  while (std::getline(s, part, ':')) out.push_back(part);
  return out;
}

/// The first `n` lines of a tool's stderr, joined with " | ": the lines that report an error
/// first (a compiler prints warnings before them, and a cut after the warnings would hide the
/// reason), then the others in order.
std::string firstLines(const std::string& text, int n) {
  std::vector<std::string> errors, others;
  std::stringstream s(text);
  std::string line;
  while (std::getline(s, line)) {
    if (line.empty()) continue;
    (line.find("error") != std::string::npos ? errors : others).push_back(line);
  }
  std::string out;
  for (const std::vector<std::string>* group : {&errors, &others}) {
    for (const std::string& l : *group) {
      if (n-- <= 0) return out;
      out += (out.empty() ? "" : " | ") + l;
    }
  }
  return out;
}

class SystemToolchain final : public Toolchain {
 public:
  explicit SystemToolchain(const SystemToolchainOptions& o) {
    const std::string cudaHome = o.cudaHome.empty() ? envOr("CUDA_HOME", "") : o.cudaHome;
    toolsDir_ = o.toolsDir.empty() ? envOr("FORESIGHT_TOOLS_DIR", FORESIGHT_DEFAULT_TOOLS_DIR)
                                   : o.toolsDir;
    std::vector<std::string> dirs;
    if (!cudaHome.empty()) dirs.push_back(cudaHome + "/bin");
    for (const std::string& d : splitPath(o.path.empty() ? envOr("PATH", "") : o.path)) dirs.push_back(d);
    desc_.nvcc = findTool("nvcc", dirs);
    desc_.ptxas = findTool("ptxas", dirs);
    // nvdisasm must be >= 12.4 to read CUDA-13 cubins; the project-local 12.5 comes first.
    std::vector<std::string> disasmDirs;
    if (!toolsDir_.empty()) disasmDirs.push_back(toolsDir_ + "/cuda-12.5/usr/bin");
    disasmDirs.insert(disasmDirs.end(), dirs.begin(), dirs.end());
    desc_.nvdisasm = findTool("nvdisasm", disasmDirs);
    // Volta: CUDA 13's ptxas dropped sm_70, the project-local 12.5 one still assembles it.
    if (!toolsDir_.empty()) legacyPtxas_ = findTool("ptxas", {toolsDir_ + "/cuda-12.5/usr/bin"});
    desc_.kind = "system";
    timeoutSeconds_ = o.toolTimeoutSeconds;
    progress_ = o.progress;
  }

  Expected<std::string> readFile(const std::string& path) override { return slurp(path); }

  Expected<std::string> compileToPtx(const CompileRequest& r) override {
    if (!needsLegacyPtxas(r.arch)) return nvcc(r, "-ptx", "out.ptx");
    // Volta: nvcc emits PTX for the oldest target it still has, retargeted to the GPU's own.
    CompileRequest oldest = r;
    oldest.arch = kOldestNvccArch;
    Expected<std::string> ptx = nvcc(oldest, "-ptx", "out.ptx");
    if (!ptx) return ptx;
    return retargetPtx(*ptx, r.arch);
  }
  Expected<std::string> compileToCubin(const CompileRequest& r) override {
    if (!needsLegacyPtxas(r.arch)) return nvcc(r, "-cubin", "out.cubin");
    Expected<std::string> ptx = compileToPtx(r);
    if (!ptx) return ptx;
    // nvcc hands -maxrregcount and -Xptxas options to its ptxas; here the legacy ptxas takes them.
    std::vector<std::string> ptxasFlags;
    auto addOptions = [&](const std::string& list) {  // -Xptxas a,b,c
      std::stringstream options(list);
      for (std::string o; std::getline(options, o, ',');) ptxasFlags.push_back(o);
    };
    for (size_t k = 0; k < r.flags.size(); ++k) {
      const std::string& f = r.flags[k];
      if (f.rfind("-maxrregcount=", 0) == 0 || f.rfind("--maxrregcount=", 0) == 0) {
        ptxasFlags.push_back("--maxrregcount=" + f.substr(f.find('=') + 1));
      } else if (f.rfind("-Xptxas=", 0) == 0 || f.rfind("--ptxas-options=", 0) == 0) {
        addOptions(f.substr(f.find('=') + 1));
      } else if ((f == "-Xptxas" || f == "--ptxas-options") && k + 1 < r.flags.size()) {
        addOptions(r.flags[++k]);
      }
    }
    return assembleWith(*ptx, r.arch, r.sourcePath, ptxasFlags);  // compileToPtx retargeted it
  }

  Expected<std::string> assemble(const std::string& ptx, const std::string& arch,
                                 const std::string& name) override {
    return assembleWith(needsLegacyPtxas(arch) ? retargetPtx(ptx, arch) : ptx, arch, name, {});
  }

  /// ptxas -arch=ARCH -lineinfo FLAGS: CUDA 12.5's for Volta (the PTX already retargeted), else
  /// the system's.
  Expected<std::string> assembleWith(const std::string& ptx, const std::string& arch, const std::string& name,
                                     const std::vector<std::string>& flags) {
    const bool legacy = needsLegacyPtxas(arch);
    const std::string& ptxas = legacy ? legacyPtxas_ : desc_.ptxas;
    if (ptxas.empty()) return legacy ? missingLegacyPtxas(arch, name) : missing("ptxas", name);
    Expected<TempDir> dir = TempDir::create();
    if (!dir) return std::move(dir).takeError();
    const std::string in = dir->file("in.ptx");
    const std::string out = dir->file("out.cubin");
    if (!(std::ofstream(in, std::ios::binary) << ptx)) return makeError("cannot write " + in);
    std::vector<std::string> argv = {ptxas, "-arch=" + arch, "-lineinfo"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {in, "-o", out});
    Expected<ProcessResult> run = runTool("ptxas", kPtxasTimeoutSeconds, std::move(argv), name);
    if (!run) return std::move(run).takeError();
    if (run->exitCode != 0) {
      Error e = failed("ptxas", *run, 3, name);
      if (legacy) e.message = "CUDA 12.5's " + e.message + " (assembling for " + arch + " the PTX nvcc emitted for " + kOldestNvccArch + ")";
      return e;
    }
    return slurp(out);
  }

  Expected<std::string> disassemble(const std::string& cubin, const std::string& arch,
                                    const std::string& name) override {
    if (desc_.nvdisasm.empty()) return missing("nvdisasm", name);
    if (!nvdisasmDecodes(arch)) {
      return makeError("nvdisasm 12.5 cannot decode " + arch + " (it decodes sm_70 … sm_90a)", name, 0);
    }
    Expected<TempDir> dir = TempDir::create();
    if (!dir) return std::move(dir).takeError();
    const std::string in = dir->file("in.cubin");
    if (!(std::ofstream(in, std::ios::binary) << cubin)) return makeError("cannot write " + in);
    Expected<ProcessResult> run =
        runTool("nvdisasm", kNvdisasmTimeoutSeconds, {desc_.nvdisasm, "-c", "-gi", "-hex", in}, name);
    if (!run) return std::move(run).takeError();
    if (run->exitCode != 0) return failed("nvdisasm", *run, 3, name);
    if (run->outTruncated) {
      return makeError("nvdisasm printed more than " + std::to_string(kMaxSassBytes >> 20) +
                           " MiB of SASS, more than Foresight reads",
                       name, 0);
    }
    return std::move(run->out);
  }

  bool canDisassemble(const std::string& arch) const override {
    return !desc_.nvdisasm.empty() && nvdisasmDecodes(arch);
  }
  ToolchainDescription describe() const override { return desc_; }

 private:
  Error missing(const std::string& tool, const std::string& name) const {
    if (tool == "nvdisasm") {
      return makeError("nvdisasm not found (looked on PATH, in $CUDA_HOME/bin and in " +
                           (toolsDir_.empty() ? std::string(".tools") : toolsDir_) +
                           "/cuda-12.5/usr/bin); scripts/setup.sh downloads it from Debian's "
                           "nvidia-cuda-toolkit 12.5 package into .tools/",
                       name, 0);
    }
    return makeError(tool + " not found (looked in $CUDA_HOME/bin and on PATH); install the CUDA "
                            "toolkit (12.4 or newer) or set CUDA_HOME",
                     name, 0);
  }

  Error missingLegacyPtxas(const std::string& arch, const std::string& name) const {
    return makeError("compiling for " + arch + " needs the ptxas of CUDA 12.5 (CUDA 13 dropped Volta), looked in " +
                         (toolsDir_.empty() ? std::string(".tools") : toolsDir_) +
                         "/cuda-12.5/usr/bin; scripts/setup.sh unpacks it there from Debian's nvidia-cuda-toolkit 12.5",
                     name, 0);
  }

  Expected<std::string> nvcc(const CompileRequest& r, const char* mode, const char* outName) {
    if (desc_.nvcc.empty()) return missing("nvcc", r.sourcePath);
    Expected<TempDir> dir = TempDir::create();
    if (!dir) return std::move(dir).takeError();
    const std::string out = dir->file(outName);
    std::vector<std::string> argv = {desc_.nvcc, mode, "-arch=" + r.arch};
    if (r.lineInfo) argv.push_back("-lineinfo");
    for (const auto& [name, value] : r.macros) argv.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    for (const std::string& d : r.includeDirs) argv.push_back("-I" + fs::absolute(d).string());
    for (const std::string& f : r.flags) argv.push_back(f);
    argv.push_back(fs::absolute(r.sourcePath).string());
    argv.push_back("-o");
    argv.push_back(out);
    Expected<ProcessResult> run = runTool("nvcc", kNvccTimeoutSeconds, std::move(argv), r.sourcePath);
    if (!run) return std::move(run).takeError();
    if (run->exitCode != 0) return failed("nvcc", *run, 4, r.sourcePath);
    return slurp(out);
  }

  /// Runs one tool under its time limit (the --tool-timeout value, else `defaultTimeout`). An
  /// Error, located at `subject`, when the tool cannot start, times out or dies of a signal;
  /// a result (check exitCode) otherwise.
  Expected<ProcessResult> runTool(const char* tool, double defaultTimeout, std::vector<std::string> argv,
                                  const std::string& subject) const {
    ProcessRequest request;
    request.argv = std::move(argv);
    request.name = tool;
    request.timeoutSeconds = timeoutSeconds_ > 0 ? timeoutSeconds_ : defaultTimeout;
    request.maxCaptureBytes = kMaxSassBytes;  // stdout is SASS for nvdisasm; the others print little
    ProgressStage stage(progress_, std::string(tool) + " " + fs::path(subject).filename().string());
    Expected<ProcessResult> run = runProcess(request);
    if (!run) {
      Error e = std::move(run).takeError();
      e.file = subject;
      return e;
    }
    if (run->timedOut) return makeError(describeFailure(request, *run) + "; " + kToolTimeoutHint, subject, 0);
    if (run->signal != 0) return makeError(describeFailure(request, *run), subject, 0);
    return run;
  }

  /// "nvcc failed: <the first `lines` lines of stderr, errors first>", or the exit status when
  /// the tool printed nothing.
  static Error failed(const std::string& tool, const ProcessResult& run, int lines, const std::string& subject) {
    const std::string why = firstLines(run.err, lines);
    if (why.empty()) return makeError(tool + " exited with status " + std::to_string(run.exitCode), subject, 0);
    return makeError(tool + " failed: " + why, subject, 0);
  }

  ToolchainDescription desc_;
  std::string toolsDir_;
  std::string legacyPtxas_;  ///< CUDA 12.5's ptxas, for Volta (needsLegacyPtxas())
  static constexpr const char* kOldestNvccArch = "sm_75";  ///< the oldest target CUDA 13's nvcc emits
  double timeoutSeconds_ = 0;  ///< --tool-timeout; 0 = each tool's default
  ProgressCallback progress_;
};

}  // namespace

std::unique_ptr<Toolchain> createSystemToolchain(const SystemToolchainOptions& options) {
  return std::make_unique<SystemToolchain>(options);
}

}  // namespace foresight::cuda
