// SPDX-License-Identifier: Apache-2.0
/// \file
/// The on-disk compile cache: a Toolchain decorator keyed by FNV-1a hashes of every input that
/// determines a tool's output.
#include "foresight/frontend/cuda/compile_cache.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace foresight::cuda {

namespace fs = std::filesystem;

std::string contentHash(std::string_view data) {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a 64 offset basis
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  static const char* kHex = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[i] = kHex[h & 0xf];
  return out;
}

namespace {

std::string defaultDirectory() {
  if (const char* d = std::getenv("FORESIGHT_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/foresight/cuda";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/foresight/cuda";
  return {};
}

class CachingToolchain final : public Toolchain {
 public:
  CachingToolchain(std::unique_ptr<Toolchain> inner, std::string dir)
      : inner_(std::move(inner)), dir_(std::move(dir)) {
    const ToolchainDescription d = inner_->describe();
    // "-gi": listings with inlined-at line info (before, "-g" ones: a new key, not their cache).
    toolKey_ = d.kind + "|" + d.nvcc + "|" + d.ptxas + "|" + d.nvdisasm + "|-gi";
  }

  Expected<std::string> readFile(const std::string& path) override { return inner_->readFile(path); }

  Expected<std::string> compileToPtx(const CompileRequest& r) override {
    return cached(requestKey(r, "ptx"), ".ptx", [&] { return inner_->compileToPtx(r); });
  }
  Expected<std::string> compileToCubin(const CompileRequest& r) override {
    return cached(requestKey(r, "cubin"), ".cubin", [&] { return inner_->compileToCubin(r); });
  }
  Expected<std::string> assemble(const std::string& ptx, const std::string& arch,
                                 const std::string& name) override {
    return cached(toolKey_ + "|assemble|" + arch + "|" + ptx, ".cubin",
                  [&] { return inner_->assemble(ptx, arch, name); });
  }
  Expected<std::string> disassemble(const std::string& cubin, const std::string& arch,
                                    const std::string& name) override {
    return cached(toolKey_ + "|disassemble|" + arch + "|" + cubin, ".sass",
                  [&] { return inner_->disassemble(cubin, arch, name); });
  }
  bool canDisassemble(const std::string& arch) const override { return inner_->canDisassemble(arch); }
  ToolchainDescription describe() const override {
    ToolchainDescription d = inner_->describe();
    d.kind = "cached(" + d.kind + ")";
    return d;
  }

 private:
  std::string requestKey(const CompileRequest& r, const char* what) const {
    std::string key = toolKey_ + "|" + what + "|" + r.arch + "|" + (r.lineInfo ? "L" : "") + "|" +
                      fs::path(r.sourcePath).filename().string() + "|";
    for (const auto& [n, v] : r.macros) key += "-D" + n + "=" + v + "|";
    for (const std::string& d : r.includeDirs) key += "-I" + fs::absolute(d).string() + "|";
    for (const std::string& f : r.flags) key += "-X" + f + "|";
    key += std::to_string(r.includedText.size()) + "|" + r.includedText + "|";
    return key + r.source;
  }

  template <class F>
  Expected<std::string> cached(const std::string& key, const char* ext, F&& produce) {
    const fs::path file = fs::path(dir_) / (contentHash(key) + ext);
    if (!dir_.empty()) {
      std::ifstream in(file, std::ios::binary);
      if (in) {
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
      }
    }
    Expected<std::string> out = produce();
    if (out && !dir_.empty()) {
      std::error_code ec;
      fs::create_directories(dir_, ec);
      const fs::path tmp = file.string() + ".tmp" + std::to_string(::getpid());
      {
        std::ofstream o(tmp, std::ios::binary);
        o << *out;
      }
      fs::rename(tmp, file, ec);  // atomic publish; failures leave no partial entry
      if (ec) fs::remove(tmp, ec);
    }
    return out;
  }

  std::unique_ptr<Toolchain> inner_;
  std::string dir_;
  std::string toolKey_;
};

}  // namespace

std::unique_ptr<Toolchain> createCachingToolchain(std::unique_ptr<Toolchain> inner,
                                                  const CompileCacheOptions& options) {
  return std::make_unique<CachingToolchain>(std::move(inner),
                                            options.directory.empty() ? defaultDirectory() : options.directory);
}

}  // namespace foresight::cuda
