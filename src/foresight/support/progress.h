// SPDX-License-Identifier: Apache-2.0
/// \file
/// Stages of work that can take more than a second (compiling with nvcc or clang, running the
/// traced C program, interpreting a kernel's warps), reported to a callback so that a front end
/// can show a progress line. The library never prints; with no callback nothing happens.
///
/// A stage is reported when it starts, whenever its count advances, and when it ends
/// (`finished`); `ProgressStage` sends the end from its destructor, so an early error return
/// still closes the stage.
#pragma once

#include <functional>
#include <string>
#include <utility>

namespace foresight {

/// Where one stage stands.
struct StageProgress {
  std::string stage;      ///< "nvcc matmul.cu", "interpreting the PTX of kernel 'k' (warps of block 0)"
  long long done = 0;     ///< units finished, when the stage counts units (warps); else 0
  long long total = 0;    ///< units in all; 0 when the stage does not count
  bool finished = false;  ///< the stage has ended (successfully or not)
};

using ProgressCallback = std::function<void(const StageProgress&)>;

/// One stage for the lifetime of the object: reports the start on construction, `advance` on
/// each unit, and the end on destruction. A null callback makes every call a no-op.
class ProgressStage {
 public:
  ProgressStage(ProgressCallback callback, std::string stage, long long total = 0)
      : callback_(std::move(callback)), progress_{std::move(stage), 0, total, false} {
    if (callback_) callback_(progress_);
  }
  ~ProgressStage() {
    progress_.finished = true;
    if (callback_) callback_(progress_);
  }
  ProgressStage(const ProgressStage&) = delete;
  ProgressStage& operator=(const ProgressStage&) = delete;

  /// `done` units of `total` are finished.
  void advance(long long done) {
    progress_.done = done;
    if (callback_) callback_(progress_);
  }
  /// Units reported finished so far.
  [[nodiscard]] long long done() const { return progress_.done; }

 private:
  ProgressCallback callback_;
  StageProgress progress_;
};

}  // namespace foresight
