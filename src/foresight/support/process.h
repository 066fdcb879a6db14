// SPDX-License-Identifier: Apache-2.0
/// \file
/// The one way Foresight runs an external program (nvcc, ptxas, nvdisasm, clang, the traced C
/// program, the calibration microbenchmarks), and `TempDir`, the one private temporary folder.
///
/// `runProcess` forks and execs the program (no shell) in its own process group, with stdin
/// from a file or /dev/null, stdout and stderr captured into files of a private TempDir (read
/// back, at most `maxCaptureBytes` each) or sent to /dev/null, optional resource limits, and a
/// required wall-clock limit. On time-out the whole group gets SIGTERM, then SIGKILL once the
/// program has exited or after a 1 s grace; when the program exits on its own, whatever it left
/// running in its group is killed too. The child has PR_SET_PDEATHSIG(SIGKILL), so it dies if
/// Foresight is killed outright (its own children, in turn, are not covered by that).
///
/// Cleanup when Foresight is interrupted: the first runProcess or TempDir installs handlers for
/// SIGINT, SIGTERM and SIGHUP (not for a signal that was ignored at that point, e.g. SIGHUP under
/// nohup). A handler uses only async-signal-safe calls: it sends SIGKILL to every registered
/// running process group, removes every registered temporary folder (unlinkat over getdents64),
/// restores the default disposition and re-raises the signal, so Foresight still dies of it.
/// The registries are fixed-size tables of atomics (64 process groups, 32 folders); beyond that
/// a child or folder is still handled normally but not by the signal handler. SIGKILL cannot
/// be handled: the child dies of PDEATHSIG and its folders ($TMPDIR/foresight-<pid>-*) stay
/// until the next Foresight process's first TempDir removes them (sweepStaleTempDirs).
///
/// Every run has a file-size limit (RLIMIT_FSIZE; `kDefaultFileSizeLimit` unless the request
/// sets one), so a runaway tool cannot fill the disk with its captured output.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "foresight/support/error.h"

namespace foresight {

/// The largest file a child may write (its captured stdout and stderr included) when the
/// request sets no `fileSizeBytes`: 4 GiB; a larger write stops it with SIGXFSZ.
inline constexpr long long kDefaultFileSizeLimit = 4LL << 30;

/// Limits of the child process (setrlimit before exec); 0 leaves a limit as inherited
/// (`fileSizeBytes` 0: kDefaultFileSizeLimit).
struct ResourceLimits {
  double cpuSeconds = 0;        ///< RLIMIT_CPU: SIGXCPU at the limit, SIGKILL 1 s of CPU later
  long long addressSpaceBytes = 0;  ///< RLIMIT_AS
  long long fileSizeBytes = 0;  ///< RLIMIT_FSIZE: a larger write gets SIGXFSZ
  bool noCoreDump = false;      ///< RLIMIT_CORE = 0
};

/// One run of one program.
struct ProcessRequest {
  /// argv[0] is a path (contains '/') or a name looked up on $PATH; the rest are arguments.
  std::vector<std::string> argv;
  /// The program in messages ("nvcc", "nvdisasm", "the traced program"); empty = argv[0].
  std::string name;
  /// Required: the wall-clock limit in seconds (> 0). There is no "wait forever".
  double timeoutSeconds = 0;
  std::string workingDirectory;  ///< empty = Foresight's
  std::string stdinFile;         ///< empty = /dev/null
  bool captureStdout = true;     ///< false = /dev/null
  bool captureStderr = true;     ///< false = /dev/null
  /// The most bytes of each captured stream that are read back; the rest is cut off.
  std::size_t maxCaptureBytes = 16u << 20;
  /// Variables set (or replaced) in the child's environment, which is Foresight's otherwise.
  std::vector<std::pair<std::string, std::string>> environment;
  ResourceLimits limits;
};

/// How a run ended.
struct ProcessResult {
  int exitCode = -1;       ///< exit status when the program exited; -1 when a signal ended it
  int signal = 0;          ///< the signal that ended it; 0 when it exited
  bool timedOut = false;   ///< it ran past timeoutSeconds and was killed (then signal is set)
  std::string out;         ///< captured stdout (empty when not captured)
  std::string err;         ///< captured stderr (empty when not captured)
  bool outTruncated = false;  ///< `out` was cut at maxCaptureBytes
  bool errTruncated = false;  ///< `err` was cut at maxCaptureBytes
  double seconds = 0;      ///< wall-clock time of the run
  /// True when the program exited with status 0.
  [[nodiscard]] bool succeeded() const { return !timedOut && signal == 0 && exitCode == 0; }
};

/// Runs a program to its end or its time limit. An Error only when it could not run at all:
/// "cannot run 'X': No such file or directory" (or the system's reason), a timeout that is not
/// positive, no temporary folder. A program that fails, crashes or times out is a result.
[[nodiscard]] Expected<ProcessResult> runProcess(const ProcessRequest& request);

/// The reason a finished run failed, one sentence without a trailing period, or "" when it
/// succeeded:
///   "nvdisasm did not finish within 60 s (killed)"
///   "nvdisasm was killed by signal 11 (Segmentation fault)"
///   "nvdisasm exited with status 2"
[[nodiscard]] std::string describeFailure(const ProcessRequest& request, const ProcessResult& result);

/// The hint every caller appends to a time-out caused by a tool limit.
inline constexpr const char* kToolTimeoutHint = "raise the limit with --tool-timeout SECONDS";

/// The path of the executable `name` as runProcess finds it: `name` itself when it contains a
/// '/', else the first executable regular file on $PATH; empty when there is none.
[[nodiscard]] std::string findExecutable(const std::string& name);

/// Removes the folders "<base>/foresight*-<pid>-XXXXXX" that belong to this user, whose process
/// is gone (a Foresight killed by SIGKILL) and that nobody touched for `minAgeSeconds`; returns
/// how many it removed. TempDir::create calls it once per process on its base folder.
int sweepStaleTempDirs(const std::string& base, double minAgeSeconds = 600);

/// A private temporary folder (mode 0700) under $TMPDIR, else /tmp, removed with its contents
/// when the object is destroyed, or by the signal handler when Foresight is interrupted.
class TempDir {
 public:
  /// Creates "<tmp>/<prefix>-<pid>-XXXXXX"; an Error names the folder that could not be made.
  [[nodiscard]] static Expected<TempDir> create(const std::string& prefix = "foresight");
  ~TempDir();
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&& other) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// The folder's absolute path.
  [[nodiscard]] const std::string& path() const { return path_; }
  /// `path()/name`.
  [[nodiscard]] std::string file(const std::string& name) const { return path_ + "/" + name; }
  /// Leaves the folder in place when the object goes (for debugging, e.g. FORESIGHT_KEEP_CLOOP);
  /// the signal handler no longer removes it either.
  void keep();

 private:
  TempDir(std::string path, int slot) : path_(std::move(path)), slot_(slot) {}
  void release();
  std::string path_;
  int slot_ = -1;  ///< index in the signal handler's table; -1 = not registered
  bool kept_ = false;
};

}  // namespace foresight
