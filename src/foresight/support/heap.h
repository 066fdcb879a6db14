// SPDX-License-Identifier: Apache-2.0
/// \file
/// Process-wide heap setup for the analyses' allocation pattern: many short-lived vectors of
/// lane addresses and access records, hundreds of MiB touched once. On Linux every first touch
/// of a 4-KiB page is a page fault, and in the virtual machines we run on a fault costs about as
/// much as the analysis' own work on that page; backed by transparent huge pages (2 MiB), the
/// same memory takes 1/512 of the faults.
#pragma once

namespace foresight {

/// Makes the main heap grow in large steps backed by transparent huge pages (where the kernel
/// offers them on request: `madvise` mode) and keeps freed memory for reuse instead of returning
/// it to the kernel (other threads keep glibc's arenas). Call once, first thing
/// in main(), before threads start; a no-op where the platform has no such control. Results do
/// not depend on it, only the time page faults take.
void tuneHeapForAnalysis();

}  // namespace foresight
