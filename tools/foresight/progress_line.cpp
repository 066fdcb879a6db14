// SPDX-License-Identifier: Apache-2.0
/// \file
/// The progress line: a stage record under a mutex and a ticker thread that prints it.
#include "progress_line.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>


namespace foresight::cli {

namespace {

using Clock = std::chrono::steady_clock;

/// Shown once a stage has run this long.
constexpr double kQuietSeconds = 1.0;
/// Between two lines when stderr is not a terminal.
constexpr double kLogIntervalSeconds = 10.0;
/// Between two redraws on a terminal.
constexpr auto kTick = std::chrono::milliseconds(200);

class ProgressLine {
 public:
  ProgressLine() : tty_(::isatty(2) != 0) {}
  ~ProgressLine() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      erase();
    }
    wake_.notify_all();
    if (ticker_.joinable()) ticker_.join();
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void report(const StageProgress& p) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (p.finished) {
      active_ = false;
      erase();
      return;
    }
    if (!active_) {
      active_ = true;
      start_ = Clock::now();
      printed_ = false;
    }
    stage_ = p.stage;
    done_ = p.done;
    total_ = p.total;
    if (!ticker_.joinable()) ticker_ = std::thread([this] { run(); });
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, kTick);
      if (stop_ || !active_) continue;
      const auto now = Clock::now();
      const double elapsed = std::chrono::duration<double>(now - start_).count();
      if (elapsed < kQuietSeconds) continue;
      if (!tty_ && printed_ && std::chrono::duration<double>(now - last_).count() < kLogIntervalSeconds) continue;
      std::string line = stage_;
      if (total_ > 0) line += ": " + std::to_string(done_) + "/" + std::to_string(total_);
      line += ", " + std::to_string(static_cast<long long>(elapsed)) + " s";
      if (tty_) {
        if (onScreen_ && line == shown_) continue;  // redraw only what changed
        std::fprintf(stderr, "\r\033[K%s", line.c_str());
        onScreen_ = true;
        shown_ = line;
      } else {
        std::fprintf(stderr, "foresight: %s\n", line.c_str());
      }
      std::fflush(stderr);
      printed_ = true;
      last_ = now;
    }
  }

  /// Clears the terminal line (called with the mutex held).
  void erase() {
    if (onScreen_) {
      std::fputs("\r\033[K", stderr);
      std::fflush(stderr);
      onScreen_ = false;
    }
  }

  const bool tty_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread ticker_;
  bool stop_ = false;
  bool active_ = false;
  bool printed_ = false;   ///< this stage has printed a line
  bool onScreen_ = false;  ///< a terminal line is showing
  std::string stage_;
  std::string shown_;      ///< the terminal line as last drawn
  long long done_ = 0;
  long long total_ = 0;
  Clock::time_point start_{};
  Clock::time_point last_{};
};

ProgressLine& line() {
  static ProgressLine instance;
  return instance;
}

}  // namespace

bool progressWanted() {
  const char* v = std::getenv("FORESIGHT_PROGRESS");
  return !(v && std::string(v) == "0");
}

void reportProgress(const StageProgress& progress) {
  if (progressWanted()) line().report(progress);
}

ProgressCallback progressReporter() {
  if (!progressWanted()) return {};
  return [](const StageProgress& p) { line().report(p); };
}

}  // namespace foresight::cli
