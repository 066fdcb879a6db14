// SPDX-License-Identifier: Apache-2.0
/// \file
/// The real Toolchain: locates nvcc, ptxas and nvdisasm once, and runs them in a private
/// temporary folder with posix_spawn (no shell), capturing their output.
#include "foresight/support/text_file.h"
#include "foresight/frontend/cuda/system_toolchain.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#ifndef FORESIGHT_DEFAULT_TOOLS_DIR
#define FORESIGHT_DEFAULT_TOOLS_DIR ""
#endif

extern char** environ;

namespace foresight::cuda {

namespace fs = std::filesystem;

namespace {

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

/// A private temporary folder, removed on destruction.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "foresight-XXXXXX").string();
    if (::mkdtemp(tmpl.data())) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] bool ok() const { return !path_.empty(); }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/// Runs argv[0] with stdout/stderr into files of `dir`; returns the exit status and stderr.
struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

Expected<RunResult> runTool(const std::vector<std::string>& argv, const fs::path& dir) {
  const fs::path outPath = dir / "stdout.txt";
  const fs::path errPath = dir / "stderr.txt";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return makeError("cannot run '" + argv[0] + "'");
  int status = 0;
  if (::waitpid(pid, &status, 0) < 0) return makeError("waiting for '" + argv[0] + "' failed");
  RunResult r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (Expected<std::string> o = slurp(outPath)) r.out = std::move(*o);
  if (Expected<std::string> e = slurp(errPath)) r.err = std::move(*e);
  return r;
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
    desc_.kind = "system";
  }

  Expected<std::string> readFile(const std::string& path) override { return slurp(path); }

  Expected<std::string> compileToPtx(const CompileRequest& r) override { return nvcc(r, "-ptx", "out.ptx"); }
  Expected<std::string> compileToCubin(const CompileRequest& r) override { return nvcc(r, "-cubin", "out.cubin"); }

  Expected<std::string> assemble(const std::string& ptx, const std::string& arch,
                                 const std::string& name) override {
    if (desc_.ptxas.empty()) return missing("ptxas", name);
    TempDir dir;
    if (!dir.ok()) return makeError("cannot create a temporary folder");
    const fs::path in = dir.path() / "in.ptx";
    const fs::path out = dir.path() / "out.cubin";
    if (!(std::ofstream(in, std::ios::binary) << ptx)) return makeError("cannot write " + in.string());
    Expected<RunResult> run = runTool({desc_.ptxas, "-arch=" + arch, "-lineinfo", in.string(), "-o", out.string()}, dir.path());
    if (!run) return std::move(run).takeError();
    if (run->status != 0) return makeError("ptxas failed: " + firstLines(run->err, 3), name, 0);
    return slurp(out);
  }

  Expected<std::string> disassemble(const std::string& cubin, const std::string& arch,
                                    const std::string& name) override {
    if (desc_.nvdisasm.empty()) return missing("nvdisasm", name);
    if (!nvdisasmDecodes(arch)) {
      return makeError("nvdisasm 12.5 cannot decode " + arch + " (it decodes sm_75 … sm_90a)", name, 0);
    }
    TempDir dir;
    if (!dir.ok()) return makeError("cannot create a temporary folder");
    const fs::path in = dir.path() / "in.cubin";
    if (!(std::ofstream(in, std::ios::binary) << cubin)) return makeError("cannot write " + in.string());
    Expected<RunResult> run = runTool({desc_.nvdisasm, "-c", "-g", "-hex", in.string()}, dir.path());
    if (!run) return std::move(run).takeError();
    if (run->status != 0) return makeError("nvdisasm failed: " + firstLines(run->err, 3), name, 0);
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

  Expected<std::string> nvcc(const CompileRequest& r, const char* mode, const char* outName) {
    if (desc_.nvcc.empty()) return missing("nvcc", r.sourcePath);
    TempDir dir;
    if (!dir.ok()) return makeError("cannot create a temporary folder");
    const fs::path out = dir.path() / outName;
    std::vector<std::string> argv = {desc_.nvcc, mode, "-arch=" + r.arch};
    if (r.lineInfo) argv.push_back("-lineinfo");
    for (const auto& [name, value] : r.macros) argv.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    for (const std::string& d : r.includeDirs) argv.push_back("-I" + fs::absolute(d).string());
    for (const std::string& f : r.flags) argv.push_back(f);
    argv.push_back(fs::absolute(r.sourcePath).string());
    argv.push_back("-o");
    argv.push_back(out.string());
    Expected<RunResult> run = runTool(argv, dir.path());
    if (!run) return std::move(run).takeError();
    if (run->status != 0) return makeError("nvcc failed: " + firstLines(run->err, 4), r.sourcePath, 0);
    return slurp(out);
  }

  ToolchainDescription desc_;
  std::string toolsDir_;
};

}  // namespace

std::unique_ptr<Toolchain> createSystemToolchain(const SystemToolchainOptions& options) {
  return std::make_unique<SystemToolchain>(options);
}

}  // namespace foresight::cuda
