// SPDX-License-Identifier: Apache-2.0
/// \file
/// The one vocabulary of bound resources and modes, shared by every model, view and test.
/// Documented for users in docs/models.md ("Bound vocabulary").
#pragma once

#include <optional>
#include <string_view>

#include "foresight/gpu/gpu.h"

namespace foresight {

/// A resource that can bound a kernel.
enum class Resource {
  Issue,        ///< instruction issue slots of the schedulers
  Fp32,
  Fp64,
  Int,
  Sfu,
  Tensor,
  Shared,       ///< shared memory
  L1,
  L2,
  Dram,
  Constant,
  Texture,
  Barrier,      ///< synchronisation
  Parallelism,  ///< too few warps to hide latency
};
inline constexpr int kNumResources = 14;

/// Whether the resource limits by its latency (not enough independent work in flight) or by its
/// throughput (it is busy all the time).
enum class BoundMode { Latency, Throughput };

/// "issue", "fp32", ..., "parallelism".
[[nodiscard]] const char* resourceName(Resource r);
[[nodiscard]] std::optional<Resource> parseResource(std::string_view name);
/// "latency" or "throughput".
[[nodiscard]] const char* boundModeName(BoundMode m);

/// The resource a pipeline stands for in a bound: its own for the math pipes, L1 for the LD/ST
/// pipe (the LSU/MIO path into L1 and shared memory), issue for control.
[[nodiscard]] Resource resourceOfPipe(InstrClass c);

/// The bound of a prediction.
struct Bound {
  Resource resource = Resource::Issue;
  BoundMode mode = BoundMode::Throughput;
  bool operator==(const Bound&) const = default;
};

}  // namespace foresight
