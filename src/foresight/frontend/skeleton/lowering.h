// SPDX-License-Identifier: Apache-2.0
/// \file
/// Lowering a characterized layout to the common IR, so any model applies to a skeleton: the
/// KernelIR holds one block per instruction category (functional, shared-memory, peripheral,
/// barriers) and one per global-memory statement with a representative warp's lane addresses;
/// the launch follows the layout (A3). The KernelInput also carries the exact Table 2 summary,
/// which the MWP-CWP model uses as GROPHECY does; a model that re-derives it from the IR with
/// summarize() on the same GPU gets the same instruction counts.
#pragma once

#include "foresight/frontend/skeleton/characterizer.h"
#include "foresight/frontend/skeleton/layout.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/ir/launch.h"
#include "foresight/support/error.h"

namespace foresight::skeleton {

/// A layout as model input.
struct LoweredLayout {
  KernelInput kernel;
  Launch launch;
  LayoutStats stats;
};

/// Lowers one layout. `withSummary` = false leaves KernelInput::summary empty, so predict()
/// re-derives it from the lane addresses for whatever GPU it is given.
[[nodiscard]] Expected<LoweredLayout> lowerLayout(const Characterizer& ch, const Layout& layout,
                                                  bool withSummary = true);

/// The layout `loadInput` uses for a skeleton when no search runs: the largest power-of-two
/// block of at most 256 threads filled from the last dimension, no folding, staging or caching.
[[nodiscard]] Layout defaultLayout(const Skeleton& sk, const Characterizer& ch);

}  // namespace foresight::skeleton
