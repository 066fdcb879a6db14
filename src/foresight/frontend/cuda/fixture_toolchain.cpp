// SPDX-License-Identifier: Apache-2.0
/// \file
/// The fixture-serving Toolchain of the tests: compile, assemble and disassemble look files up
/// by source stem and architecture instead of running tools.
#include "foresight/support/text_file.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace foresight::cuda {

namespace fs = std::filesystem;

namespace {

Expected<std::string> slurp(const fs::path& path) { return readTextFile(path.string()); }

class FixtureToolchain final : public Toolchain {
 public:
  explicit FixtureToolchain(FixtureToolchainOptions o) : o_(std::move(o)) {}

  Expected<std::string> readFile(const std::string& path) override { return slurp(path); }
  Expected<std::string> compileToPtx(const CompileRequest& r) override { return serve(r, ".ptx"); }
  Expected<std::string> compileToCubin(const CompileRequest& r) override { return serve(r, ".cubin"); }

  Expected<std::string> assemble(const std::string&, const std::string& arch,
                                 const std::string& name) override {
    return fixture(fs::path(name).stem().string(), arch, ".cubin", name);
  }
  Expected<std::string> disassemble(const std::string&, const std::string& arch,
                                    const std::string& name) override {
    if (!o_.withDisassembler) return makeError("nvdisasm not available (fixture toolchain)", name, 0);
    std::string stem = fs::path(name).filename().string();
    // "matmul.sm_90.cubin" or "matmul.cu" → "matmul"
    stem = stem.substr(0, stem.find('.'));
    return fixture(stem, arch, ".sass", name);
  }
  bool canDisassemble(const std::string& arch) const override {
    return o_.withDisassembler && nvdisasmDecodes(arch);
  }
  ToolchainDescription describe() const override {
    return {"", "", "", "fixtures:" + o_.directory};
  }

 private:
  Expected<std::string> serve(const CompileRequest& r, const char* ext) {
    if (!r.macros.empty() || !r.flags.empty()) {
      return makeError(std::string("the fixture toolchain cannot compile with ") + (r.macros.empty() ? "nvcc flags" : "-D macros"),
                       r.sourcePath, 0);
    }
    return fixture(fs::path(r.sourcePath).stem().string(), r.arch, ext, r.sourcePath);
  }
  Expected<std::string> fixture(const std::string& stem, const std::string& arch,
                                const char* ext, const std::string& forWhat) {
    const fs::path p = fs::path(o_.directory) / (stem + "." + arch + ext);
    Expected<std::string> data = slurp(p);
    if (!data) return makeError("no fixture " + p.string() + " for " + arch, forWhat, 0);
    return data;
  }
  FixtureToolchainOptions o_;
};

}  // namespace

std::unique_ptr<Toolchain> createFixtureToolchain(const FixtureToolchainOptions& options) {
  return std::make_unique<FixtureToolchain>(options);
}

}  // namespace foresight::cuda
