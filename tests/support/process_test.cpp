// SPDX-License-Identifier: Apache-2.0
/// \file
/// runProcess and TempDir against real processes (/bin/sh, sleep): exit codes and captured
/// streams, the time limit killing the whole process group (grandchildren included), the
/// messages for a missing program and a crash, resource limits, temporary folders removed after
/// a run and when Foresight is killed by SIGTERM. Each test takes at most a few seconds.
#include "foresight/support/process.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace foresight {
namespace {

namespace fs = std::filesystem;

/// A fresh folder for one test, removed at the end.
struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const std::string& name) {
    path = fs::temp_directory_path() / ("foresight_process_test_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  [[nodiscard]] bool empty() const { return fs::is_empty(path); }
};

/// Sets $TMPDIR for the scope of a test.
struct TmpdirOverride {
  std::string old;
  bool had = false;
  explicit TmpdirOverride(const fs::path& dir) {
    if (const char* v = std::getenv("TMPDIR")) {
      had = true;
      old = v;
    }
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~TmpdirOverride() {
    if (had) ::setenv("TMPDIR", old.c_str(), 1);
    else ::unsetenv("TMPDIR");
  }
};

ProcessRequest shell(const std::string& script, double timeout = 10) {
  ProcessRequest r;
  r.argv = {"/bin/sh", "-c", script};
  r.name = "sh";
  r.timeoutSeconds = timeout;
  return r;
}

/// The pid a script wrote to `file`, waiting up to 5 s for it to appear.
pid_t pidFrom(const fs::path& file) {
  for (int i = 0; i < 500; ++i) {
    std::ifstream in(file);
    long pid = 0;
    if (in >> pid && pid > 0) return static_cast<pid_t>(pid);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

/// True when `pid` is gone or a zombie (an orphan waits for init to reap it), within 2 s.
bool diesSoon(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const size_t paren = line.rfind(')');
    if (paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(RunProcess, ExitCodeAndCapturedStreams) {
  Expected<ProcessResult> r = runProcess(shell("echo out; echo err >&2; exit 3"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->exitCode, 3);
  EXPECT_EQ(r->signal, 0);
  EXPECT_FALSE(r->timedOut);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_FALSE(r->succeeded());
  EXPECT_EQ(describeFailure(shell(""), *r), "sh exited with status 3");

  Expected<ProcessResult> ok = runProcess(shell("exit 0"));
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->succeeded());
  EXPECT_EQ(describeFailure(shell(""), *ok), "");
}

TEST(RunProcess, TimeoutKillsTheWholeGroup) {
  ScratchDir dir("timeout");
  const fs::path pidFile = dir.path / "grandchild.pid";
  const auto start = std::chrono::steady_clock::now();
  ProcessRequest req = shell("sleep 100 & echo $! > '" + pidFile.string() + "'; wait", 1);
  Expected<ProcessResult> r = runProcess(req);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->timedOut);
  EXPECT_LT(took, 3.0);
  EXPECT_GE(r->seconds, 1.0);
  EXPECT_EQ(describeFailure(req, *r), "sh did not finish within 1 s (killed)");
  const pid_t grandchild = pidFrom(pidFile);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(diesSoon(grandchild)) << "the background sleep " << grandchild << " survived";
}

TEST(RunProcess, TimeoutEscalatesToSigkill) {
  // SIGTERM is ignored (and the ignoring is inherited by sleep): SIGKILL follows the 1 s grace.
  const auto start = std::chrono::steady_clock::now();
  Expected<ProcessResult> r = runProcess(shell("trap '' TERM; sleep 100", 0.5));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->timedOut);
  EXPECT_EQ(r->signal, SIGKILL);
  EXPECT_LT(took, 3.0);
}

TEST(RunProcess, LeftoversOfAFinishedProgramAreKilled) {
  ScratchDir dir("leftover");
  const fs::path pidFile = dir.path / "background.pid";
  Expected<ProcessResult> r = runProcess(shell("sleep 100 & echo $! > '" + pidFile.string() + "'"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exitCode, 0);
  EXPECT_LT(r->seconds, 3.0);
  const pid_t background = pidFrom(pidFile);
  ASSERT_GT(background, 0);
  EXPECT_TRUE(diesSoon(background));
}

TEST(RunProcess, MissingProgram) {
  ProcessRequest req;
  req.timeoutSeconds = 5;
  req.argv = {"foresight-no-such-tool", "-x"};
  Expected<ProcessResult> byName = runProcess(req);
  ASSERT_FALSE(byName);
  EXPECT_EQ(byName.error().message, "cannot run 'foresight-no-such-tool': No such file or directory");
  req.argv = {"/nonexistent/bin/nvdisasm"};  // found by path, fails at exec
  Expected<ProcessResult> byPath = runProcess(req);
  ASSERT_FALSE(byPath);
  EXPECT_EQ(byPath.error().message, "cannot run '/nonexistent/bin/nvdisasm': No such file or directory");
}

TEST(RunProcess, TimeoutIsRequired) {
  ProcessRequest req = shell("exit 0", 0);
  Expected<ProcessResult> r = runProcess(req);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("positive time limit"), std::string::npos);
}

TEST(RunProcess, CrashBySignal) {
  ProcessRequest req = shell("kill -SEGV $$");
  req.name = "nvdisasm";
  Expected<ProcessResult> r = runProcess(req);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->signal, SIGSEGV);
  EXPECT_EQ(r->exitCode, -1);
  EXPECT_EQ(describeFailure(req, *r), "nvdisasm was killed by signal 11 (Segmentation fault)");
}

TEST(RunProcess, StdinWorkingDirectoryEnvironmentAndLimits) {
  ScratchDir dir("io");
  const fs::path input = dir.path / "in.txt";
  std::ofstream(input) << "from a file\n";
  ProcessRequest req = shell("cat; pwd; echo \"$FORESIGHT_TEST_VAR\"; ulimit -t; ulimit -c");
  req.stdinFile = input.string();
  req.workingDirectory = dir.path.string();
  req.environment = {{"FORESIGHT_TEST_VAR", "set"}};
  req.limits.cpuSeconds = 7;
  req.limits.noCoreDump = true;
  Expected<ProcessResult> r = runProcess(req);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->out, "from a file\n" + fs::canonical(dir.path).string() + "\nset\n7\n0\n");

  req = shell("cat");  // stdin defaults to /dev/null: cat ends at once
  Expected<ProcessResult> empty = runProcess(req);
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->out, "");

  req = shell("exit 0");
  req.workingDirectory = (dir.path / "missing").string();
  Expected<ProcessResult> noDir = runProcess(req);
  ASSERT_FALSE(noDir);
  EXPECT_NE(noDir.error().message.find("cannot enter"), std::string::npos);
}

TEST(RunProcess, CaptureIsCappedAndSaysSo) {
  ProcessRequest req = shell("head -c 100000 /dev/zero; echo small >&2");
  req.maxCaptureBytes = 1000;
  Expected<ProcessResult> r = runProcess(req);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out.size(), 1000u);
  EXPECT_TRUE(r->outTruncated);
  EXPECT_EQ(r->err, "small\n");
  EXPECT_FALSE(r->errTruncated);
  req.captureStdout = false;
  Expected<ProcessResult> dropped = runProcess(req);
  ASSERT_TRUE(dropped);
  EXPECT_EQ(dropped->out, "");
}

TEST(RunProcess, LeavesNoTemporaryFolder) {
  ScratchDir tmp("tmpdir");
  TmpdirOverride use(tmp.path);
  Expected<ProcessResult> r = runProcess(shell("echo hi; echo there >&2"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "hi\n");
  EXPECT_TRUE(tmp.empty());
  Expected<ProcessResult> timedOut = runProcess(shell("sleep 100", 0.2));
  ASSERT_TRUE(timedOut);
  EXPECT_TRUE(timedOut->timedOut);
  EXPECT_TRUE(tmp.empty());
}

TEST(TempDir, RemovedWithItsContents) {
  ScratchDir tmp("tempdir");
  TmpdirOverride use(tmp.path);
  std::string path;
  {
    Expected<TempDir> dir = TempDir::create("unit");
    ASSERT_TRUE(dir) << dir.error().message;
    path = dir->path();
    EXPECT_EQ(fs::path(path).parent_path(), tmp.path);
    EXPECT_EQ(fs::path(path).filename().string().rfind("unit-", 0), 0u);
    fs::create_directories(fs::path(dir->file("a/b")));
    std::ofstream(dir->file("a/b/c.txt")) << "x";
    TempDir moved = std::move(*dir);  // the moved-from object removes nothing
    EXPECT_EQ(moved.path(), path);
    EXPECT_TRUE(fs::exists(path));
  }
  EXPECT_FALSE(fs::exists(path));
  ::setenv("TMPDIR", "/nonexistent/foresight", 1);
  Expected<TempDir> bad = TempDir::create();
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("/nonexistent/foresight/foresight-" + std::to_string(::getpid()) + "-XXXXXX"),
            std::string::npos);
}

TEST(TempDir, FoldersOfAForesightKilledBySigkillAreSweptByTheNextOne) {
  ScratchDir tmp("sweep");
  const pid_t killed = ::fork();
  ASSERT_GE(killed, 0);
  if (killed == 0) {  // a Foresight that dies by SIGKILL: no handler can remove its folder
    ::setenv("TMPDIR", tmp.path.c_str(), 1);
    Expected<TempDir> own = TempDir::create("foresight-run");
    ::raise(SIGKILL);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(killed, &status, 0), killed);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  ASSERT_FALSE(tmp.empty());
  // A living process's folder (the test runner's parent) and other names stay.
  fs::create_directories(tmp.path / ("foresight-" + std::to_string(::getppid()) + "-abcdef"));
  fs::create_directories(tmp.path / "foresight-cache");
  fs::create_directories(tmp.path / "other-123-abcdef");
  EXPECT_EQ(sweepStaleTempDirs(tmp.path.string()), 0);  // too recent for the default 10 minutes
  EXPECT_EQ(sweepStaleTempDirs(tmp.path.string(), 0), 1);
  int left = 0;
  for (const auto& e : fs::directory_iterator(tmp.path)) {
    EXPECT_EQ(e.path().filename().string().find("foresight-run-"), std::string::npos) << e.path();
    ++left;
  }
  EXPECT_EQ(left, 3);
}

TEST(RunProcess, FileSizeCapStopsARunawayTool) {
  ProcessRequest req = shell("exec head -c 100000 /dev/zero");
  req.limits.fileSizeBytes = 4096;
  Expected<ProcessResult> r = runProcess(req);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->signal, SIGXFSZ);
  EXPECT_LE(r->out.size(), 4096u);
  EXPECT_EQ(describeFailure(req, *r), "sh was stopped for writing a file (or output) larger than 4096 bytes");
  req.limits.fileSizeBytes = 0;  // the default cap is far above 100000 bytes
  Expected<ProcessResult> ok = runProcess(req);
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->succeeded());
  EXPECT_EQ(ok->out.size(), 100000u);
}

TEST(RunProcess, SigtermOfForesightKillsChildrenAndRemovesFolders) {
  // A forked copy of this test plays Foresight: it runs a long child and is killed by SIGTERM.
  ScratchDir tmp("signal");
  ScratchDir work("signal_work");
  const fs::path pidFile = work.path / "grandchild.pid";
  const pid_t foresight = ::fork();
  ASSERT_GE(foresight, 0);
  if (foresight == 0) {
    ::setenv("TMPDIR", tmp.path.c_str(), 1);
    Expected<TempDir> own = TempDir::create("held");  // a folder of Foresight's own
    (void)runProcess(shell("sleep 100 & echo $! > '" + pidFile.string() + "'; wait", 60));
    ::_exit(0);  // not reached: SIGTERM ends this process first
  }
  const pid_t grandchild = pidFrom(pidFile);
  ASSERT_GT(grandchild, 0);
  EXPECT_FALSE(fs::is_empty(tmp.path));
  ASSERT_EQ(::kill(foresight, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(foresight, &status, 0), foresight);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "status " << status;
  EXPECT_TRUE(diesSoon(grandchild)) << "the background sleep " << grandchild << " survived";
  EXPECT_TRUE(tmp.empty()) << "temporary folders left in " << tmp.path;
}

TEST(FindExecutable, PathLookup) {
  EXPECT_EQ(findExecutable("/bin/sh"), "/bin/sh");
  EXPECT_FALSE(findExecutable("sh").empty());
  EXPECT_EQ(findExecutable("foresight-no-such-tool"), "");
}

}  // namespace
}  // namespace foresight
