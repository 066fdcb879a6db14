// SPDX-License-Identifier: Apache-2.0
// Test header (not an example): a device function whose inline PTX is a bulk (TMA) prefetch to
// the L2, which the interpreter cannot execute; bulk_prefetch.cu calls it.
#pragma once

__device__ __forceinline__ void prefetchBulk(const void* p, unsigned bytes) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
}
