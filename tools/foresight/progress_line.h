// SPDX-License-Identifier: Apache-2.0
/// \file
/// The CLI's one progress line on stderr for stages the library reports (StageProgress:
/// nvcc, nvdisasm, clang, the traced C program, warp interpretation, layout searches).
///
/// Nothing is printed for a stage that ends within a second. A stage that runs longer shows,
/// on a terminal, one line rewritten in place with its count and elapsed seconds, erased when
/// the stage ends; elsewhere (logs, pipes) one line when it passes a second and one every ten
/// seconds after. `FORESIGHT_PROGRESS=0` turns it off. A background thread keeps the time
/// current while the stage gives no news (a long nvcc run).
#pragma once

#include "foresight/support/progress.h"

namespace foresight::cli {

/// False when the environment sets FORESIGHT_PROGRESS=0: no progress lines on stderr (scripts,
/// and the golden tests, whose stderr must not depend on the machine's speed).
[[nodiscard]] bool progressWanted();

/// Reports to the process's progress line (thread-safe). Stages do not nest: a report after a
/// finished one starts a new stage and its clock; further reports update its text and count.
void reportProgress(const StageProgress& progress);

/// A callback for InputOptions::progress and other library options that reports there; empty
/// when FORESIGHT_PROGRESS=0.
[[nodiscard]] ProgressCallback progressReporter();

}  // namespace foresight::cli
