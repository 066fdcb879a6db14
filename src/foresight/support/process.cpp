// SPDX-License-Identifier: Apache-2.0
/// \file
/// runProcess (fork + execve in a new process group, a polled wall-clock limit), TempDir, and
/// the SIGINT/SIGTERM/SIGHUP handlers that kill running children and remove temporary folders.
/// Between fork and execve the child makes only async-signal-safe calls; so does the handler.
#include "foresight/support/process.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

extern char** environ;

namespace foresight {

namespace {

// ---- What the signal handler sees: fixed tables of atomics, no allocation ----------------------

constexpr int kMaxGroups = 64;
constexpr int kMaxDirs = 32;
constexpr std::size_t kMaxPath = 4096;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler reads these tables");

std::atomic<pid_t> gGroups[kMaxGroups];  ///< running process groups; 0 = free slot
std::atomic<int> gDirState[kMaxDirs];    ///< 0 free, 1 being filled, 2 registered
char gDirPath[kMaxDirs][kMaxPath];       ///< NUL-terminated absolute paths

int registerGroup(pid_t group) {
  for (int i = 0; i < kMaxGroups; ++i) {
    pid_t expected = 0;
    if (gGroups[i].compare_exchange_strong(expected, group)) return i;
  }
  return -1;
}

void unregisterGroup(int slot) {
  if (slot >= 0) gGroups[slot].store(0);
}

int registerDir(const std::string& path) {
  if (path.size() >= kMaxPath) return -1;
  for (int i = 0; i < kMaxDirs; ++i) {
    int expected = 0;
    if (gDirState[i].compare_exchange_strong(expected, 1)) {
      std::memcpy(gDirPath[i], path.c_str(), path.size() + 1);
      gDirState[i].store(2);
      return i;
    }
  }
  return -1;
}

void unregisterDir(int slot) {
  if (slot >= 0) gDirState[slot].store(0);
}

/// Removes `name` (relative to `dirFd`) and everything under it with async-signal-safe calls
/// only: unlinkat, openat, getdents64 through syscall(), lseek, close.
void removeTreeAt(int dirFd, const char* name, int depth) {
  if (::unlinkat(dirFd, name, 0) == 0 || errno == ENOENT) return;
  if (depth < 16) {
    const int fd = ::openat(dirFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
      alignas(8) char buf[2048];
      // Entries removed while reading may shift the rest: read again until a pass finds none.
      for (int pass = 0; pass < 8; ++pass) {
        bool found = false;
        ::lseek(fd, 0, SEEK_SET);
        long n = 0;
        while ((n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
          for (long off = 0; off < n;) {
            // struct linux_dirent64: u64 d_ino, s64 d_off, u16 d_reclen, u8 d_type, char d_name[].
            unsigned short reclen = 0;
            std::memcpy(&reclen, buf + off + 16, sizeof reclen);
            const char* entry = buf + off + 19;
            off += reclen;
            if (entry[0] == '.' && (entry[1] == '\0' || (entry[1] == '.' && entry[2] == '\0'))) continue;
            found = true;
            removeTreeAt(fd, entry, depth + 1);
          }
        }
        if (!found) break;
      }
      ::close(fd);
    }
  }
  ::unlinkat(dirFd, name, AT_REMOVEDIR);
}

void onFatalSignal(int sig) {
  for (std::atomic<pid_t>& g : gGroups) {
    const pid_t group = g.load();
    if (group > 0) ::kill(-group, SIGKILL);
  }
  for (int i = 0; i < kMaxDirs; ++i) {
    if (gDirState[i].load() == 2) removeTreeAt(AT_FDCWD, gDirPath[i], 0);
  }
  // Die of the signal as if there had been no handler (it is blocked until the handler returns).
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
}

/// Installs onFatalSignal once, for the signals whose disposition is still the default.
void installHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0) continue;
      if ((old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL) continue;  // ignored, or someone's
      struct sigaction sa {};
      sa.sa_handler = onFatalSignal;
      sigemptyset(&sa.sa_mask);
      for (int other : kSignals) sigaddset(&sa.sa_mask, other);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

// ---- The child ----------------------------------------------------------------------------------

/// Everything the child needs, built before fork: after it, the child may not allocate.
struct ChildPlan {
  const char* executable = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const char* workingDirectory = nullptr;  ///< nullptr = stay
  int stdinFd = -1, stdoutFd = -1, stderrFd = -1;
  int reportFd = -1;  ///< write end of the CLOEXEC pipe: {stage, errno} when exec fails
  pid_t parent = 0;
  struct Limit {
    int resource;
    rlimit value;
  };
  Limit limits[4] = {};
  int limitCount = 0;
  sigset_t mask{};  ///< the parent thread's mask before fork, restored for the program
};

enum ChildStage : int { kStageChdir = 1, kStageStreams = 2, kStageExec = 3 };

[[noreturn]] void failChild(const ChildPlan& p, int stage) {
  const int report[2] = {stage, errno};
  (void)!::write(p.reportFd, report, sizeof report);
  ::_exit(127);
}

[[noreturn]] void runChild(const ChildPlan& p) {
  // Our handlers must not run in the child (they would kill the parent's other children), and
  // the parent blocked every signal around fork: default dispositions first, then the mask.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig : kSignals) {
    struct sigaction cur {};
    if (::sigaction(sig, nullptr, &cur) == 0 && cur.sa_handler == onFatalSignal) ::sigaction(sig, &dfl, nullptr);
  }
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != p.parent) ::_exit(127);  // Foresight died before prctl took effect
  ::pthread_sigmask(SIG_SETMASK, &p.mask, nullptr);

  if (p.workingDirectory && ::chdir(p.workingDirectory) != 0) failChild(p, kStageChdir);
  // Move the three sources above 2 first, so that no dup2 overwrites another's source.
  const int in = ::fcntl(p.stdinFd, F_DUPFD_CLOEXEC, 10);
  const int out = ::fcntl(p.stdoutFd, F_DUPFD_CLOEXEC, 10);
  const int err = ::fcntl(p.stderrFd, F_DUPFD_CLOEXEC, 10);
  if (in < 0 || out < 0 || err < 0) failChild(p, kStageStreams);
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) failChild(p, kStageStreams);
  for (int i = 0; i < p.limitCount; ++i) ::setrlimit(p.limits[i].resource, &p.limits[i].value);
  ::execve(p.executable, p.argv, p.envp);
  failChild(p, kStageExec);
}

// ---- Helpers of the parent ----------------------------------------------------------------------

std::string displayName(const ProcessRequest& r) {
  if (!r.name.empty()) return r.name;
  return r.argv.empty() ? std::string("the program") : r.argv[0];
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

/// At most `cap` bytes of `path`; sets `truncated` when there were more.
std::string readCapped(const std::string& path, std::size_t cap, bool& truncated) {
  std::string out;
  truncated = false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::size_t take = std::min(static_cast<std::size_t>(n), cap - out.size());
    out.append(buf, take);
    if (take < static_cast<std::size_t>(n)) {
      truncated = true;
      break;
    }
  }
  ::close(fd);
  return out;
}

/// rlimit for a limit of `value` (> 0), kept within the inherited hard limit.
rlimit clampedLimit(int resource, rlim_t soft, rlim_t hard) {
  rlimit current{};
  if (::getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY) {
    hard = std::min(hard, current.rlim_max);
    soft = std::min(soft, hard);
  }
  return {soft, hard};
}

/// True once the child has ended; it stays a zombie (WNOWAIT), so its pid and process group
/// cannot be reused until it is reaped. False while it runs; an error (e.g. ECHILD when
/// SIGCHLD is ignored) counts as ended.
bool hasEnded(pid_t pid) {
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0) return info.si_pid == pid;
    if (errno != EINTR) return true;
  }
}

/// Sleeps until `pid` has ended or `until` has passed; true when it ended.
bool waitUntil(pid_t pid, std::chrono::steady_clock::time_point until) {
  auto step = std::chrono::microseconds(500);
  while (!hasEnded(pid)) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return false;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(step, until - now));
    step = std::min<std::chrono::microseconds>(step * 2, std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace

std::string findExecutable(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return name;
  const char* env = std::getenv("PATH");
  const std::string path = env ? env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  for (;;) {
    const std::size_t colon = path.find(':', start);
    std::string dir = path.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    if (colon == std::string::npos) return {};
    start = colon + 1;
  }
}

Expected<ProcessResult> runProcess(const ProcessRequest& r) {
  const std::string name = displayName(r);
  if (r.argv.empty() || r.argv[0].empty()) return makeError("internal: no program to run");
  if (!(r.timeoutSeconds > 0) || !std::isfinite(r.timeoutSeconds)) {
    return makeError("internal: running " + name + " needs a positive time limit, not " + seconds(r.timeoutSeconds));
  }
  installHandlers();
  const std::string executable = findExecutable(r.argv[0]);
  if (executable.empty()) return makeError("cannot run '" + r.argv[0] + "': " + std::strerror(ENOENT));

  Expected<TempDir> dir = TempDir::create("foresight-run");
  if (!dir) return std::move(dir).takeError();
  const std::string outPath = dir->file("stdout");
  const std::string errPath = dir->file("stderr");

  // The child's streams, opened here so that a bad stdin file is a plain error.
  struct Fd {
    int fd = -1;
    ~Fd() {
      if (fd >= 0) ::close(fd);
    }
  } devnull, in, out, err, reportRead, reportWrite;
  devnull.fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull.fd < 0) return makeError(std::string("cannot open /dev/null: ") + std::strerror(errno));
  if (!r.stdinFile.empty()) {
    in.fd = ::open(r.stdinFile.c_str(), O_RDONLY | O_CLOEXEC);
    if (in.fd < 0) return makeError("cannot read '" + r.stdinFile + "' (the input of " + name + "): " + std::strerror(errno));
  }
  const int createFlags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
  if (r.captureStdout) out.fd = ::open(outPath.c_str(), createFlags, 0600);
  if (r.captureStderr) err.fd = ::open(errPath.c_str(), createFlags, 0600);
  if ((r.captureStdout && out.fd < 0) || (r.captureStderr && err.fd < 0)) {
    return makeError("cannot create files in the temporary folder '" + dir->path() + "': " + std::strerror(errno));
  }
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) return makeError(std::string("cannot create a pipe: ") + std::strerror(errno));
  reportRead.fd = pipeFds[0];
  reportWrite.fd = pipeFds[1];

  // argv and the environment (Foresight's, with the request's variables set or replaced).
  std::vector<std::string> envStrings;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& [k, v] : r.environment) replaced = replaced || k == key;
    if (!replaced) envStrings.push_back(entry);
  }
  for (const auto& [k, v] : r.environment) envStrings.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (const std::string& a : r.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : envStrings) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  ChildPlan plan;
  plan.executable = executable.c_str();
  plan.argv = argv.data();
  plan.envp = envp.data();
  plan.workingDirectory = r.workingDirectory.empty() ? nullptr : r.workingDirectory.c_str();
  plan.stdinFd = in.fd >= 0 ? in.fd : devnull.fd;
  plan.stdoutFd = out.fd >= 0 ? out.fd : devnull.fd;
  plan.stderrFd = err.fd >= 0 ? err.fd : devnull.fd;
  plan.reportFd = reportWrite.fd;
  plan.parent = ::getpid();
  auto addLimit = [&](int resource, rlim_t soft, rlim_t hard) {
    plan.limits[plan.limitCount++] = {resource, clampedLimit(resource, soft, hard)};
  };
  if (r.limits.cpuSeconds > 0) {
    const auto cpu = static_cast<rlim_t>(std::ceil(r.limits.cpuSeconds));
    addLimit(RLIMIT_CPU, cpu, cpu + 1);
  }
  if (r.limits.addressSpaceBytes > 0) {
    addLimit(RLIMIT_AS, static_cast<rlim_t>(r.limits.addressSpaceBytes), static_cast<rlim_t>(r.limits.addressSpaceBytes));
  }
  // Every run gets a file-size cap, so that a runaway tool cannot fill the disk with its
  // captured output (or any other file it writes).
  const long long fileCap = r.limits.fileSizeBytes > 0 ? r.limits.fileSizeBytes : kDefaultFileSizeLimit;
  addLimit(RLIMIT_FSIZE, static_cast<rlim_t>(fileCap), static_cast<rlim_t>(fileCap));
  if (r.limits.noCoreDump) addLimit(RLIMIT_CORE, 0, 0);

  // Block every signal around fork, so that the handler cannot run in the child and the
  // parent registers the new process group before a handler could miss it.
  sigset_t all;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &plan.mask);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) runChild(plan);
  const int forkErrno = errno;
  int slot = -1;
  if (pid > 0) {
    ::setpgid(pid, pid);  // also done by the child; whichever runs first wins, both agree
    slot = registerGroup(pid);
  }
  ::pthread_sigmask(SIG_SETMASK, &plan.mask, nullptr);
  if (pid < 0) return makeError("cannot start " + name + ": " + std::strerror(forkErrno));
  ::close(reportWrite.fd);
  reportWrite.fd = -1;

  // The pipe closes at exec; two ints arrive when the child could not get there.
  int report[2] = {0, 0};
  std::size_t got = 0;
  while (got < sizeof report) {
    const ssize_t n = ::read(reportRead.fd, reinterpret_cast<char*>(report) + got, sizeof report - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got == sizeof report) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    unregisterGroup(slot);
    const std::string why = std::strerror(report[1]);
    if (report[0] == kStageChdir) {
      return makeError("cannot run '" + r.argv[0] + "': cannot enter '" + r.workingDirectory + "': " + why);
    }
    return makeError("cannot run '" + r.argv[0] + "': " + why);
  }

  ProcessResult result;
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(r.timeoutSeconds));
  if (!waitUntil(pid, deadline)) {
    result.timedOut = true;
    ::kill(-pid, SIGTERM);
    waitUntil(pid, std::chrono::steady_clock::now() + std::chrono::seconds(1));
  }
  // The program has ended (or had its grace): nothing of its group outlives it.
  ::kill(-pid, SIGKILL);
  int status = 0;
  pid_t reaped = -1;
  while ((reaped = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  unregisterGroup(slot);
  if (reaped != pid) return makeError("lost track of " + name + " (is SIGCHLD ignored?)");
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  if (r.captureStdout) result.out = readCapped(outPath, r.maxCaptureBytes, result.outTruncated);
  if (r.captureStderr) result.err = readCapped(errPath, r.maxCaptureBytes, result.errTruncated);
  return result;
}

std::string describeFailure(const ProcessRequest& request, const ProcessResult& result) {
  const std::string name = displayName(request);
  if (result.timedOut) return name + " did not finish within " + seconds(request.timeoutSeconds) + " s (killed)";
  if (result.signal == SIGXFSZ) {
    const long long cap = request.limits.fileSizeBytes > 0 ? request.limits.fileSizeBytes : kDefaultFileSizeLimit;
    const std::string size = cap >= (1LL << 20) ? std::to_string(cap >> 20) + " MiB" : std::to_string(cap) + " bytes";
    return name + " was stopped for writing a file (or output) larger than " + size;
  }
  if (result.signal != 0) {
    return name + " was killed by signal " + std::to_string(result.signal) + " (" + ::strsignal(result.signal) + ")";
  }
  if (result.exitCode != 0) return name + " exited with status " + std::to_string(result.exitCode);
  return {};
}

// ---- TempDir -------------------------------------------------------------------------------------

int sweepStaleTempDirs(const std::string& base, double minAgeSeconds) {
  std::error_code ec;
  std::filesystem::directory_iterator it(base, ec);
  if (ec) return 0;
  const auto now = std::filesystem::file_time_type::clock::now();
  int removed = 0;
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    // "<prefix>-<pid>-XXXXXX" with a prefix that starts with "foresight".
    const std::string name = it->path().filename().string();
    if (name.rfind("foresight", 0) != 0 || name.size() < 8 || name[name.size() - 7] != '-') continue;
    const std::string head = name.substr(0, name.size() - 7);
    const std::size_t dash = head.rfind('-');
    if (dash == std::string::npos || dash + 1 >= head.size() ||
        head.find_first_not_of("0123456789", dash + 1) != std::string::npos || head.size() - dash - 1 > 9) {
      continue;
    }
    const pid_t owner = static_cast<pid_t>(std::stol(head.substr(dash + 1)));
    if (owner <= 0 || owner == ::getpid()) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (::kill(owner, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to ask: keep
    std::error_code tec;
    const auto modified = std::filesystem::last_write_time(it->path(), tec);
    if (tec || std::chrono::duration<double>(now - modified).count() < minAgeSeconds) continue;
    std::error_code rec;
    if (std::filesystem::remove_all(it->path(), rec) > 0 && !rec) ++removed;
  }
  return removed;
}

Expected<TempDir> TempDir::create(const std::string& prefix) {
  installHandlers();
  const char* tmp = std::getenv("TMPDIR");
  std::string base = tmp && *tmp ? tmp : "/tmp";
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(base, ec);
  if (!ec) base = absolute.string();
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  static std::once_flag swept;
  std::call_once(swept, [&base] { sweepStaleTempDirs(base); });
  const std::string pattern = base + "/" + prefix + "-" + std::to_string(::getpid()) + "-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) {
    return makeError("cannot create a temporary folder '" + pattern + "': " + std::strerror(errno) +
                     " (set TMPDIR to a writable folder)");
  }
  std::string path = buf.data();
  const int slot = registerDir(path);
  return TempDir(std::move(path), slot);
}

TempDir::~TempDir() { release(); }

TempDir::TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)), slot_(other.slot_), kept_(other.kept_) {
  other.path_.clear();
  other.slot_ = -1;
}

void TempDir::keep() {
  unregisterDir(slot_);
  slot_ = -1;
  kept_ = true;
}

TempDir& TempDir::operator=(TempDir&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    slot_ = other.slot_;
    kept_ = other.kept_;
    other.path_.clear();
    other.slot_ = -1;
  }
  return *this;
}

void TempDir::release() {
  unregisterDir(slot_);
  slot_ = -1;
  if (!path_.empty() && !kept_) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
    path_.clear();
  }
}

}  // namespace foresight
