// SPDX-License-Identifier: Apache-2.0
/// \file
/// CGPredict's optimization advice (§4.4) for the kernels of a C loop program, each predicted by
/// the same model on the same GPU, and the program-level prediction (each kernel's time × its
/// launches per run). The C loop frontend (frontend/cloop/cloop_frontend.h) traces and fits; it
/// calls the advisor through InputOptions::cloopAdvisor while the trace still exists.
#pragma once

#include <vector>

#include "foresight/frontend/cloop/advice.h"
#include "foresight/frontend/cloop/cloop_frontend.h"
#include "foresight/gpu/gpu.h"
#include "foresight/model/model_options.h"
#include "foresight/support/error.h"

namespace foresight::cloop {

/// Transpose (uncoalesced and memory-bound), shared-memory tiling (shared data re-read in an
/// inner loop, memory-bound), padding (a tile read down a column; measured X >= 2 on hinted
/// arrays). The signature of InputOptions::cloopAdvisor.
[[nodiscard]] std::vector<Advice> adviseKernel(const AdviceContext& context);

/// analyzeCloop() with CGPredict's advice on every kernel.
[[nodiscard]] Expected<CloopProgram> analyzeCloopWithAdvice(const std::string& path, InputOptions options,
                                                            const CloopOptions& cloopOptions = {});

/// Predicted seconds of one program run: each kernel's time with `options` × its launches.
[[nodiscard]] Expected<double> predictProgramSeconds(const CloopProgram& program, const Gpu& gpu,
                                                     const ModelOptions& options);

}  // namespace foresight::cloop
