// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Launch`: how a kernel is started — grid and block shape, dynamic shared memory, scalar
/// kernel arguments and problem-size macros.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "foresight/ir/array_data.h"
#include "foresight/support/error.h"

namespace foresight {

/// A 3-D extent (grid in blocks, or block in threads).
struct Dim3 {
  long long x = 1;
  long long y = 1;
  long long z = 1;
  [[nodiscard]] long long count() const { return x * y * z; }
  bool operator==(const Dim3&) const = default;
};

/// A scalar kernel argument as given (`--arg NAME=VALUE`, a manifest scalar): an integer (also
/// a bool, an enum, or a pointer's base address) or a real number. The frontend stores it in the
/// parameter's own type: a real in an `f32` parameter as a float, in an `f64` as a double; an
/// integer in a floating-point parameter is converted; a real in an integer parameter is an error.
struct ArgValue {
  bool isReal = false;
  long long integer = 0;
  double real = 0;

  ArgValue() = default;
  ArgValue(long long v) : integer(v) {}  // NOLINT(google-explicit-constructor): args["n"] = 4096
  [[nodiscard]] static ArgValue fromReal(double v) {
    ArgValue a;
    a.isReal = true;
    a.real = v;
    return a;
  }
  [[nodiscard]] double asReal() const { return isReal ? real : static_cast<double>(integer); }
  bool operator==(const ArgValue&) const = default;
};

/// What the L2 holds of a launch's data when it starts (docs/models.md#warm-l2).
enum class L2Start {
  /// Nothing: the first launch on its data, or other work evicted it since (what Nsight
  /// Compute's cache control, a flush, and the runner's rotated buffer copies measure).
  Cold,
  /// The data as the same launch leaves it: back-to-back launches over the same buffers, as
  /// timing loops measure them. What of the footprint the L2 holds is resident at the start.
  Warm,
};

/// "cold", "warm".
[[nodiscard]] const char* l2StartName(L2Start start);
/// The L2Start of a name ("cold" or "warm"); an Error that names `what` (the option) otherwise.
[[nodiscard]] Expected<L2Start> parseL2Start(const std::string& name, const std::string& what);

/// How a launch's time is taken (docs/models.md#launch-timing).
enum class LaunchTiming {
  /// Per launch of back-to-back launches (a timing loop's total over its count, or Nsight
  /// Systems' launch-to-launch time): the launch and the GPU's launch overhead.
  Stream,
  /// On its own, CUDA events recorded just before and after it (or the first launch of a timed
  /// sequence): the host's submission latency, the GPU's `launch_latency`, adds to Stream's.
  Alone,
};

/// "stream", "alone".
[[nodiscard]] const char* launchTimingName(LaunchTiming timing);
/// The LaunchTiming of a name ("stream" or "alone"); an Error that names `what` (the option) otherwise.
[[nodiscard]] Expected<LaunchTiming> parseLaunchTiming(const std::string& name, const std::string& what);

/// One kernel launch.
struct Launch {
  Dim3 grid;                       ///< blocks
  Dim3 block;                      ///< threads per block
  long long dynamicSharedBytes = 0;
  /// `cudaFuncAttributePreferredSharedMemoryCarveout` in percent of the GPU's largest shared
  /// capacity per SM (rounded up to a carveout the GPU lists); unset = the driver's choice.
  std::optional<int> carveoutPercent;
  std::map<std::string, ArgValue> args;     ///< scalar kernel arguments by name
  /// Bytes of the allocation a pointer argument points to, by parameter name or as "@N" for
  /// the N-th parameter (0-based; `--array NAME=BYTES`, a manifest's buffers by position):
  /// sizes the array that data-dependent accesses spread over. Absent = unknown (the memory
  /// engine estimates it).
  std::map<std::string, long long> arrayBytes;
  /// What the array a pointer argument points to holds, named as arrayBytes is (`--data
  /// NAME=SPEC`, a manifest's integer buffers): loads from it read these values. Absent = the
  /// values are unknown (their addresses and decisions data-dependent).
  std::map<std::string, ArrayData> arrayData;
  std::map<std::string, long long> macros;  ///< -D NAME=VALUE problem-size macros
  L2Start l2Start = L2Start::Cold;          ///< what the L2 holds of its data at the start
  LaunchTiming timing = LaunchTiming::Stream;  ///< how its time is taken

  [[nodiscard]] long long blocks() const { return grid.count(); }
  [[nodiscard]] long long threadsPerBlock() const { return block.count(); }
};

/// CUDA's launch limits for every GPU of compute capability 3.0 and later: grid x up to 2^31 − 1,
/// y and z up to 65535; block x and y up to 1024, z up to 64; every extent at least 1; dynamic
/// shared memory not negative. The GPU's own limits (threads per block, shared memory per block)
/// are checked by occupancy(). An Error names the limit and the offending extent.
[[nodiscard]] Expected<void> checkLaunchLimits(const Launch& launch);

/// Parses `spec` (a `--data` value, parseArrayData()) for the array `name` of `launch`, bounded
/// by `launch.arrayBytes[name]` when given, with pattern parameters over `vars`, and sets
/// `launch.arrayData[name]`; `what` names the option in the Error ("--data cols").
[[nodiscard]] Expected<void> setArrayData(Launch& launch, const std::string& name, const std::string& spec,
                                          const std::map<std::string, long long>& vars, const std::string& what);

}  // namespace foresight
