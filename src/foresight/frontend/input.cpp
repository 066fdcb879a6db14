// SPDX-License-Identifier: Apache-2.0
/// \file
/// The frontend table, dispatch by file extension, and kernel selection by name.
#include "foresight/frontend/input.h"

#include <filesystem>

#include "foresight/frontend/cloop/cloop_frontend.h"
#include "foresight/frontend/cuda/cuda_input.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "foresight/frontend/summary/summary_frontend.h"
#include "foresight/frontend/kernel_name.h"

namespace foresight {

namespace {

Expected<LoadedInput> loadSummary(const std::string& path, const InputOptions&) { return loadSummaryFile(path); }

const std::vector<Frontend>& table() {
  static const std::vector<Frontend> kFrontends{
      {InputKind::Summary, "summary", {".toml"}, ".toml workload summaries", "docs/input-summary.md", loadSummary},
      {InputKind::Skeleton, "skeleton", {".sk"}, ".sk skeletons", "docs/skeleton-language.md",
       skeleton::loadSkeletonInput},
      {InputKind::CLoop, "cloop", {".c"}, ".c loop nests", "docs/input-cloop.md", cloop::loadCloopInput},
      {InputKind::Cuda, "cuda", {".cu", ".ptx", ".cubin", ".sass"}, ".cu/.ptx/.cubin/.sass", "docs/input-cuda.md",
       [](const std::string& path, const InputOptions& o) { return loadCudaInput(path, o); }},
  };
  return kFrontends;
}

}  // namespace

std::span<const Frontend> frontends() { return table(); }

const Frontend* frontendFor(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  for (const Frontend& f : table()) {
    for (const char* e : f.extensions) {
      if (ext == e) return &f;
    }
  }
  return nullptr;
}

const char* inputKindName(InputKind k) {
  for (const Frontend& f : table()) {
    if (f.kind == k) return f.name;
  }
  return "cuda";
}

InputKind inputKindOf(const std::string& path) {
  const Frontend* f = frontendFor(path);
  return f ? f->kind : InputKind::Cuda;
}

Expected<LoadedInput> loadInput(const std::string& path) { return loadInput(path, InputOptions{}); }

Expected<LoadedInput> loadInput(const std::string& path, const InputOptions& options) {
  if (const Frontend* f = frontendFor(path)) return f->load(path, options);
  const std::string ext = std::filesystem::path(path).extension().string();
  std::string supported;
  for (const Frontend& f : table()) {
    supported += std::string(supported.empty() ? "" : "; ") + f.description + ", " + f.docs;
  }
  return makeError("no frontend reads '" + (ext.empty() ? path : ext) + "' files yet (supported: " + supported + ")",
                   path, 0);
}

Expected<const KernelInput*> selectKernel(const LoadedInput& input, const std::string& name) {
  std::vector<KernelName> names;
  for (const KernelInput& k : input.kernels) names.push_back({k.ir.name, k.symbol});
  Expected<std::size_t> index = chooseKernel(names, name, input.path);
  if (!index) return std::move(index).takeError();
  return &input.kernels[*index];
}

}  // namespace foresight
