// SPDX-License-Identifier: Apache-2.0
/// \file
/// Frontend dispatch by file extension, and kernel selection by name.
#include "foresight/frontend/input.h"

#include <filesystem>

#include "foresight/frontend/cloop/cloop_frontend.h"
#include "foresight/frontend/cuda/cuda_input.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "foresight/frontend/summary/summary_frontend.h"
#include "foresight/frontend/kernel_name.h"

namespace foresight {

Expected<LoadedInput> loadInput(const std::string& path) { return loadInput(path, InputOptions{}); }

Expected<LoadedInput> loadInput(const std::string& path, const InputOptions& options) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".toml") return loadSummaryFile(path);
  if (ext == ".sk") return skeleton::loadSkeletonInput(path, options);
  if (ext == ".c") return cloop::loadCloopInput(path, options);
  if (ext == ".cu" || ext == ".ptx" || ext == ".cubin" || ext == ".sass") return loadCudaInput(path, options);
  return makeError("no frontend reads '" + (ext.empty() ? path : ext) +
                       "' files yet (supported: .toml workload summaries, docs/input-summary.md; "
                       ".sk skeletons, docs/skeleton-language.md; "
                       ".c loop nests, docs/input-cloop.md; .cu/.ptx/.cubin/.sass, docs/input-cuda.md)",
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
