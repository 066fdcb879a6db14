// SPDX-License-Identifier: Apache-2.0
/// \file
/// tuneHeapForAnalysis(): glibc's malloc settings and a huge-page advice on the heap.
#include "foresight/support/heap.h"

#include <cstdint>
#include <cstdlib>  // before the test: it defines __GLIBC__

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace foresight {

void tuneHeapForAnalysis() {
#if defined(__linux__) && defined(__GLIBC__)
  constexpr std::uintptr_t kHuge = 2u << 20;
  constexpr int kStep = 1 << 30;  // virtual address space: pages are only backed when touched
  // Large blocks from the heap too (not separate mappings, each faulted in anew) and freed
  // memory kept at the top. Threads keep their own arenas (a shared one would serialize the
  // parallel searches on its lock), so this serves the main thread's analyses.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, kStep);
  mallopt(M_TOP_PAD, kStep);
  // Grow the heap by the step now, then advise huge pages for it (the advice is per mapping;
  // later growth of the heap extends the same mapping).
  void* first = std::malloc(4 * kHuge);  // more than the heap holds yet: it grows by the step
  const auto start = reinterpret_cast<std::uintptr_t>(first);
  std::free(first);
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t lo = (start + kHuge - 1) & ~(kHuge - 1);
  if (end > lo) madvise(reinterpret_cast<void*>(lo), end - lo, MADV_HUGEPAGE);
#endif
}

}  // namespace foresight
