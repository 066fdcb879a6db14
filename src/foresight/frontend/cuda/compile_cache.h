// SPDX-License-Identifier: Apache-2.0
/// \file
/// `createCachingToolchain`: wraps a Toolchain so that compile, assemble and disassemble
/// outputs are stored on disk under a key that hashes everything that determines them (source
/// text, architecture, macros, flags, the tools' paths), and reused on the next request.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "foresight/frontend/cuda/toolchain.h"

namespace foresight::cuda {

/// Options of the cache.
struct CompileCacheOptions {
  /// Cache folder; empty = `$FORESIGHT_CACHE_DIR`, else `$XDG_CACHE_HOME/foresight/cuda`, else
  /// `~/.cache/foresight/cuda`.
  std::string directory;
};

/// 64-bit FNV-1a of `data` as 16 hex digits (the cache key function; not cryptographic).
[[nodiscard]] std::string contentHash(std::string_view data);

/// Wraps `inner`; a cache that cannot be written is silently bypassed (the result is the same).
[[nodiscard]] std::unique_ptr<Toolchain> createCachingToolchain(std::unique_ptr<Toolchain> inner,
                                                                const CompileCacheOptions& options = {});

}  // namespace foresight::cuda
