// SPDX-License-Identifier: Apache-2.0
/// \file
/// Frontend dispatch by file extension, and kernel selection by name.
#include "foresight/frontend/input.h"

#include <filesystem>

#include "foresight/frontend/cloop/cloop_frontend.h"
#include "foresight/frontend/cuda/cuda_input.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "foresight/frontend/summary/summary_frontend.h"
#include "foresight/support/edit_distance.h"

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
  if (name.empty()) {
    if (input.kernels.size() == 1) return &input.kernels.front();
    std::vector<std::string> names;
    std::string list;
    for (const KernelInput& k : input.kernels) list += (list.empty() ? "" : ", ") + k.ir.name;
    return makeError("the input has " + std::to_string(input.kernels.size()) +
                         " kernels; choose one with --kernel (" + list + ")",
                     input.path, 0);
  }
  std::vector<std::string> names;
  for (const KernelInput& k : input.kernels) {
    if (k.ir.name == name) return &k;
    names.push_back(k.ir.name);
  }
  return makeError("kernel '" + name + "' not found" + didYouMean(name, names), input.path, 0);
}

}  // namespace foresight
