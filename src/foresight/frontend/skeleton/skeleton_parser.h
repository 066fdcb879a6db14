// SPDX-License-Identifier: Apache-2.0
/// \file
/// Parsing a skeleton (grammar: docs/skeleton-language.md, after grophecy.md §2.1; A1: the paper
/// gives no syntax, so the digest's reconstruction is used, with `branch`, `lo:hi:step` and
/// `hints<range=lo:hi>` added). Macros are
/// evaluated with integer arithmetic, names are resolved (loop variable, scalar, array, macro),
/// and subscripts become affine forms plus at most one indirect term. Errors name
/// file:line:column and what was expected.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "foresight/frontend/skeleton/skeleton.h"
#include "foresight/support/error.h"

namespace foresight::skeleton {

/// Options of parseSkeleton.
struct ParseOptions {
  /// `-D NAME=VALUE`: defined before the file is read; they override the file's `#define`s of
  /// the same name, so one skeleton describes several problem sizes.
  std::map<std::string, long long> macros;
};

/// Parses skeleton text. `sourceName` is used in error messages and as Skeleton::path; the
/// kernel name is its file stem. Sample files named in hints are not read here.
[[nodiscard]] Expected<Skeleton> parseSkeleton(std::string_view text, const std::string& sourceName,
                                               const ParseOptions& options = {});

}  // namespace foresight::skeleton
