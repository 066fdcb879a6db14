// SPDX-License-Identifier: Apache-2.0
/// \file
/// Shared pieces of the fuzz targets (docs/robustness.md): each target feeds libFuzzer's bytes
/// to one parser and, where the parser's result drives more code (a launch, a model), runs that
/// too with small budgets. A target may return an Error for any input; it must never crash,
/// hang, leak or trip a sanitizer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace foresight::fuzz {

/// The fuzzer's bytes as text.
inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Inputs beyond this size are skipped: every reader has its own size limit, which a unit test
/// checks; fuzzing spends its time on structure instead.
inline constexpr std::size_t kMaxFuzzInput = 64 * 1024;

/// The contents of a file of the source tree (fixtures the targets pair with the fuzzed text).
std::string sourceFile(const std::string& relativePath);

}  // namespace foresight::fuzz
