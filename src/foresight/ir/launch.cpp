// SPDX-License-Identifier: Apache-2.0
/// \file
/// CUDA's universal launch limits, the names of the L2's start states, and setting an array's
/// contents (launch.h).
#include "foresight/ir/launch.h"

namespace foresight {
namespace {

std::string extent(const Dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

}  // namespace

Expected<void> checkLaunchLimits(const Launch& launch) {
  const Dim3& g = launch.grid;
  const Dim3& b = launch.block;
  if (g.x < 1 || g.y < 1 || g.z < 1) return makeError("grid " + extent(g) + " has an extent below 1");
  if (b.x < 1 || b.y < 1 || b.z < 1) return makeError("block " + extent(b) + " has an extent below 1");
  if (g.x > 2147483647LL || g.y > 65535 || g.z > 65535) {
    return makeError("grid " + extent(g) + " exceeds CUDA's grid limits (x up to 2147483647, y and z up to 65535)");
  }
  if (b.x > 1024 || b.y > 1024 || b.z > 64) {
    return makeError("block " + extent(b) + " exceeds CUDA's block limits (x and y up to 1024, z up to 64)");
  }
  for (const auto& [name, bytes] : launch.arrayBytes) {
    if (bytes <= 0) return makeError("array '" + name + "' of " + std::to_string(bytes) + " bytes: the size must be positive");
  }
  if (launch.dynamicSharedBytes < 0) {
    return makeError("dynamic shared memory of " + std::to_string(launch.dynamicSharedBytes) + " bytes is negative");
  }
  return {};
}

const char* l2StartName(L2Start start) { return start == L2Start::Warm ? "warm" : "cold"; }

Expected<L2Start> parseL2Start(const std::string& name, const std::string& what) {
  if (name == "cold") return L2Start::Cold;
  if (name == "warm") return L2Start::Warm;
  return makeError(what + " '" + name + "': expected cold (the launch's data not in L2) or warm (left there by the same launch just before)");
}

const char* launchTimingName(LaunchTiming timing) { return timing == LaunchTiming::Alone ? "alone" : "stream"; }

Expected<LaunchTiming> parseLaunchTiming(const std::string& name, const std::string& what) {
  if (name == "stream") return LaunchTiming::Stream;
  if (name == "alone") return LaunchTiming::Alone;
  return makeError(what + " '" + name +
                   "': expected stream (per launch of back-to-back launches) or alone (one launch timed on its own, "
                   "CUDA events around it)");
}

Expected<void> setArrayData(Launch& launch, const std::string& name, const std::string& spec,
                            const std::map<std::string, long long>& vars, const std::string& what) {
  const auto size = launch.arrayBytes.find(name);
  Expected<ArrayData> data =
      parseArrayData(spec, size == launch.arrayBytes.end() ? std::nullopt : std::optional<long long>(size->second), vars, what);
  if (!data) return std::move(data).takeError();
  launch.arrayData.insert_or_assign(name, std::move(*data));
  return {};
}

}  // namespace foresight
