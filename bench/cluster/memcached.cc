// Copyright 2026 The chbench Authors.

#include "bench/cluster/memcached.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <libmemcached/memcached.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace chbench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kStartTries = 3;
constexpr auto kStartTimeout = std::chrono::seconds(3);
// memcached holds nothing worth a graceful shutdown here (no persistence):
// SIGTERM, then SIGKILL after this grace period.
constexpr auto kStopTimeout = std::chrono::milliseconds(100);
constexpr auto kPollInterval = std::chrono::milliseconds(5);
constexpr uint64_t kConnectTimeoutMs = 200;
constexpr uint64_t kPollTimeoutMs = 500;
constexpr size_t kMaxValueBytes = (1 << 20) - 1024;

// ---------------------------------------------------------------------------
// The registry of live children, read by the signal handlers.

constexpr int kMaxPids = 4096;
static_assert(std::atomic<pid_t>::is_always_lock_free,
              "the signal handlers need lock-free atomics");
std::atomic<pid_t> g_pids[kMaxPids];

constexpr int kHandledSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[NSIG];

bool RegisterPid(pid_t pid) {
  for (std::atomic<pid_t>& slot : g_pids) {
    pid_t expected = 0;
    if (slot.compare_exchange_strong(expected, pid)) return true;
  }
  return false;
}

void UnregisterPid(pid_t pid) {
  for (std::atomic<pid_t>& slot : g_pids) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

// Async-signal-safe: atomic loads, kill, sigaction, raise.
void OnFatalSignal(int sig) {
  const int saved_errno = errno;
  for (std::atomic<pid_t>& slot : g_pids) {
    const pid_t pid = slot.load(std::memory_order_relaxed);
    if (pid > 0) kill(pid, SIGKILL);
  }
  sigaction(sig, &g_previous[sig], nullptr);
  // Blocked while this handler runs; delivered with the previous disposition
  // (the default: terminate) when it returns.
  raise(sig);
  errno = saved_errno;
}

// ---------------------------------------------------------------------------
// Children.

// Whether `pid` (our unreaped child) has exited, without reaping it (so its
// PID cannot be reused before UnregisterPid). `how`: its exit, in words.
bool Exited(pid_t pid, std::string* how = nullptr) {
  siginfo_t info;
  std::memset(&info, 0, sizeof(info));
  int rc;
  do {
    rc = waitid(P_PID, static_cast<id_t>(pid), &info,
                WEXITED | WNOHANG | WNOWAIT);
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) return errno == ECHILD;  // not our child any more: gone
  if (info.si_pid == 0) return false;
  if (how != nullptr) {
    *how = info.si_code == CLD_EXITED
               ? absl::StrCat("exited with status ", info.si_status)
               : absl::StrCat("killed by signal ", info.si_status);
  }
  return true;
}

// Unregisters, then reaps (blocking) the child `pid`.
void Reap(pid_t pid) {
  UnregisterPid(pid);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

absl::StatusOr<uint16_t> FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return absl::UnavailableError(
        absl::StrCat("memcached: socket() failed: ", std::strerror(errno)));
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const int e = errno;
    close(fd);
    return absl::UnavailableError(absl::StrCat(
        "memcached: no free port on 127.0.0.1: ", std::strerror(e)));
  }
  close(fd);
  return ntohs(addr.sin_port);
}

bool Accepts(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  int rc;
  do {
    rc = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  } while (rc < 0 && errno == EINTR);
  close(fd);
  return rc == 0;
}

bool IsExecutable(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

absl::StatusOr<std::string> FindBinary(const std::string& given) {
  std::vector<std::string> looked;
  // The environment's choice when the caller has none.
  const char* env = std::getenv("CHBENCH_MEMCACHED");
  const std::string requested =
      !given.empty() ? given : (env != nullptr ? env : "");
  const std::string name = requested.empty() ? "memcached" : requested;
  if (name.find('/') != std::string::npos) {
    if (IsExecutable(name)) return name;
    looked.push_back(name);
  } else {
    const char* path = std::getenv("PATH");
    for (absl::string_view dir :
         absl::StrSplit(path != nullptr ? path : "", ':', absl::SkipEmpty())) {
      std::string candidate = absl::StrCat(dir, "/", name);
      if (IsExecutable(candidate)) return candidate;
    }
    looked.push_back(absl::StrCat(name, " on PATH"));
    if (requested.empty()) {
      if (IsExecutable("/usr/bin/memcached")) return "/usr/bin/memcached";
      looked.push_back("/usr/bin/memcached");
    }
  }
  return absl::FailedPreconditionError(
      absl::StrCat("memcached not found (looked for ", absl::StrJoin(looked, ", "),
                   "); install it: apt-get install memcached"));
}

// Forks and execs argv[0] with the guarantees of the header (PDEATHSIG,
// /dev/null, no inherited descriptors, clean signal state) and registers the
// child. Signals of kHandledSignals are blocked in this thread from before
// the fork until the child is registered.
absl::StatusOr<pid_t> Spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  const int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0) {
    return absl::UnavailableError(absl::StrCat(
        "memcached: cannot open /dev/null: ", std::strerror(errno)));
  }
  int err_pipe[2];  // the child writes errno here if execv fails
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    const int e = errno;
    close(devnull);
    return absl::UnavailableError(
        absl::StrCat("memcached: pipe2() failed: ", std::strerror(e)));
  }
  rlimit nofile{};
  unsigned max_fd = 65535;
  if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY) {
    max_fd = static_cast<unsigned>(std::min<rlim_t>(nofile.rlim_cur, 1 << 20));
  }
  const pid_t parent = getpid();

  sigset_t block, saved;
  sigemptyset(&block);
  for (int sig : kHandledSignals) sigaddset(&block, sig);
  pthread_sigmask(SIG_BLOCK, &block, &saved);

  const pid_t pid = fork();
  if (pid == 0) {
    // The child: async-signal-safe calls only until execv.
    // PR_SET_PDEATHSIG is delivered when the parent THREAD that forked us
    // exits (see the header); getppid() covers a parent already gone.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
      _exit(127);
    }
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int sig : kHandledSignals) sigaction(sig, &dfl, nullptr);
    sigaction(SIGPIPE, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 || dup2(devnull, 2) < 0) {
      _exit(127);
    }
    int err_fd = err_pipe[1];
    if (err_fd != 3) {
      if (dup2(err_fd, 3) < 0) _exit(127);
      err_fd = 3;
    }
    fcntl(err_fd, F_SETFD, FD_CLOEXEC);
    if (close_range(4, ~0U, 0) != 0) {
      for (unsigned fd = 4; fd < max_fd; ++fd) close(static_cast<int>(fd));
    }
    execv(argv[0], argv.data());
    const int e = errno;
    ssize_t unused = write(err_fd, &e, sizeof(e));
    (void)unused;
    _exit(127);
  }
  const int fork_errno = errno;
  const bool registered = pid > 0 && RegisterPid(pid);
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  close(devnull);
  close(err_pipe[1]);
  if (pid < 0) {
    close(err_pipe[0]);
    return absl::UnavailableError(
        absl::StrCat("memcached: fork() failed: ", std::strerror(fork_errno)));
  }
  int exec_errno = 0;
  ssize_t n;
  do {
    n = read(err_pipe[0], &exec_errno, sizeof(exec_errno));
  } while (n < 0 && errno == EINTR);
  close(err_pipe[0]);
  if (n == static_cast<ssize_t>(sizeof(exec_errno)) || !registered) {
    kill(pid, SIGKILL);
    Reap(pid);
    if (!registered) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "memcached: more than ", kMaxPids, " live servers in the process"));
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "memcached: cannot execute ", args[0], ": ", std::strerror(exec_errno)));
  }
  return pid;
}

// A handle holding only 127.0.0.1:port, configured as in the header.
memcached_st* NewHandle(uint16_t port) {
  memcached_st* memc = memcached_create(nullptr);
  if (memc == nullptr) return nullptr;
  memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_BINARY_PROTOCOL, 0);
  memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_TCP_NODELAY, 1);
  memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_CONNECT_TIMEOUT,
                         kConnectTimeoutMs);
  memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_POLL_TIMEOUT, kPollTimeoutMs);
  memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_RETRY_TIMEOUT, 0);
  // No auto-eject: a dead server keeps returning errors (CONNECTION_FAILURE
  // or SERVER_TEMPORARILY_DISABLED), never routes elsewhere.
  memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_AUTO_EJECT_HOSTS, 0);
  memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_SERVER_FAILURE_LIMIT,
                         1u << 30);
  if (memcached_server_add(memc, "127.0.0.1", port) != MEMCACHED_SUCCESS) {
    memcached_free(memc);
    return nullptr;
  }
  return memc;
}

}  // namespace

void InstallClusterSignalHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kHandledSignals) {
      struct sigaction action {};
      action.sa_handler = OnFatalSignal;
      sigfillset(&action.sa_mask);
      action.sa_flags = 0;
      struct sigaction previous {};
      if (sigaction(sig, &action, &previous) != 0) continue;
      if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN) {
        sigaction(sig, &previous, nullptr);  // ignored stays ignored
        continue;
      }
      g_previous[sig] = previous;
    }
  });
}

// ---------------------------------------------------------------------------
// MemcachedCluster.

absl::StatusOr<std::unique_ptr<MemcachedCluster>> MemcachedCluster::Start(
    uint32_t servers, const MemcachedOptions& options) {
  if (servers == 0 || options.memory_mb == 0 || options.threads == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "memcached: servers (", servers, "), memory_mb (", options.memory_mb,
        ") and threads (", options.threads, ") must be >= 1"));
  }
  absl::StatusOr<std::string> binary = FindBinary(options.binary);
  if (!binary.ok()) return binary.status();
  InstallClusterSignalHandlers();
  std::unique_ptr<MemcachedCluster> cluster(
      new MemcachedCluster(*std::move(binary), options));
  cluster->servers_.resize(servers);
  for (uint32_t i = 0; i < servers; ++i) {
    // On error, `cluster` goes out of scope and stops servers 0 .. i-1.
    absl::Status status = cluster->StartServer(i, 0, cluster->servers_[i]);
    if (!status.ok()) return status;
  }
  return cluster;
}

absl::Status MemcachedCluster::StartServer(uint32_t index, uint16_t port,
                                           Server& server) {
  const int tries = port != 0 ? 1 : kStartTries;
  std::string how;
  uint16_t try_port = port;
  for (int attempt = 0; attempt < tries; ++attempt) {
    if (port == 0) {
      absl::StatusOr<uint16_t> free_port = FreePort();
      if (!free_port.ok()) return free_port.status();
      try_port = *free_port;
    }
    std::vector<std::string> args = {
        binary_, "-l", "127.0.0.1", "-U", "0",
        "-p", absl::StrCat(try_port), "-m", absl::StrCat(options_.memory_mb),
        "-t", absl::StrCat(options_.threads)};
    if (geteuid() == 0) {
      args.push_back("-u");
      args.push_back("root");
    }
    absl::StatusOr<pid_t> pid = Spawn(args);
    if (!pid.ok()) return pid.status();
    const Clock::time_point deadline = Clock::now() + kStartTimeout;
    bool exited = false;
    while (true) {
      if (Exited(*pid, &how)) {
        exited = true;
        break;
      }
      // Up only if still ours after the connect (another process may hold
      // the port while ours fails to bind).
      if (Accepts(try_port) && !Exited(*pid, &how)) break;
      if (Clock::now() >= deadline) {
        kill(*pid, SIGKILL);
        Reap(*pid);
        return absl::UnavailableError(absl::StrCat(
            "memcached server ", index, " (", binary_,
            ") did not accept connections on 127.0.0.1:", try_port,
            " within 3 s"));
      }
      std::this_thread::sleep_for(kPollInterval);
    }
    if (!exited) {
      server.port = try_port;
      server.pid = *pid;
      return absl::OkStatus();
    }
    Reap(*pid);
  }
  return absl::UnavailableError(absl::StrCat(
      "memcached server ", index, " did not start on 127.0.0.1:", try_port,
      ": ", binary_, " ", how, " (", tries, tries == 1 ? " try" : " tries",
      ")"));
}

void MemcachedCluster::StopAll() {
  std::vector<pid_t> running;
  for (Server& s : servers_) {
    if (s.pid != 0) {
      // memcached acts on SIGTERM only at its next clock tick (once a
      // second); after kStopTimeout it gets SIGKILL.
      kill(s.pid, SIGTERM);
      running.push_back(s.pid);
      s.pid = 0;
    }
  }
  const Clock::time_point deadline = Clock::now() + kStopTimeout;
  while (!running.empty()) {
    std::erase_if(running, [](pid_t pid) {
      if (!Exited(pid)) return false;
      Reap(pid);
      return true;
    });
    if (running.empty() || Clock::now() >= deadline) break;
    std::this_thread::sleep_for(kPollInterval);
  }
  for (pid_t pid : running) {
    kill(pid, SIGKILL);
    Reap(pid);
  }
}

MemcachedCluster::~MemcachedCluster() { StopAll(); }

bool MemcachedCluster::alive(uint32_t server) const {
  return server < size() && servers_[server].pid != 0 &&
         !Exited(servers_[server].pid);
}

absl::Status MemcachedCluster::Kill(uint32_t server) {
  if (server >= size()) {
    return absl::OutOfRangeError(absl::StrCat(
        "memcached: no server ", server, " (cluster of ", size(), ")"));
  }
  Server& s = servers_[server];
  if (s.pid == 0) return absl::OkStatus();
  kill(s.pid, SIGKILL);  // an exited, unreaped child ignores it
  Reap(s.pid);
  s.pid = 0;
  return absl::OkStatus();
}

absl::Status MemcachedCluster::Revive(uint32_t server) {
  if (server >= size()) {
    return absl::OutOfRangeError(absl::StrCat(
        "memcached: no server ", server, " (cluster of ", size(), ")"));
  }
  if (alive(server)) return absl::OkStatus();
  Server& s = servers_[server];
  if (s.pid != 0) {  // exited on its own
    Reap(s.pid);
    s.pid = 0;
  }
  return StartServer(server, s.port, s);
}

absl::Status MemcachedCluster::CheckUnexpectedExits() const {
  for (uint32_t i = 0; i < size(); ++i) {
    const pid_t pid = servers_[i].pid;
    std::string how;
    if (pid != 0 && Exited(pid, &how)) {
      return absl::InternalError(absl::StrCat(
          "memcached server ", i, " (127.0.0.1:", servers_[i].port, ", pid ",
          pid, ") ", how.empty() ? "exited" : how,
          " during the run; its results are discarded"));
    }
  }
  return absl::OkStatus();
}

absl::Status MemcachedCluster::FlushAll() {
  for (uint32_t i = 0; i < size(); ++i) {
    if (!alive(i)) {
      return absl::FailedPreconditionError(
          absl::StrCat("memcached: flush_all: server ", i, " (127.0.0.1:",
                       port(i), ") is not running"));
    }
  }
  for (uint32_t i = 0; i < size(); ++i) {
    memcached_st* memc = NewHandle(port(i));
    if (memc == nullptr) {
      return absl::UnavailableError(absl::StrCat(
          "memcached: flush_all: cannot set up a client for server ", i));
    }
    const memcached_return_t rc = memcached_flush(memc, 0);
    std::string error = memcached_success(rc)
                            ? std::string()
                            : std::string(memcached_last_error_message(memc));
    memcached_free(memc);
    if (!error.empty()) {
      return absl::UnavailableError(
          absl::StrCat("memcached: flush_all on server ", i, " (127.0.0.1:",
                       port(i), ") failed: ", error));
    }
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// MemcachedBackend.

MemcachedBackend::MemcachedBackend(MemcachedCluster* cluster,
                                   std::vector<std::string> keys, int workers,
                                   size_t value_bytes)
    : cluster_(cluster),
      keys_(std::move(keys)),
      workers_(workers),
      value_bytes_(value_bytes),
      scratch_(static_cast<size_t>(workers)) {
  for (Scratch& s : scratch_) s.value.assign(value_bytes_, '.');
}

MemcachedBackend::~MemcachedBackend() {
  for (memcached_st* memc : handles_) {
    if (memc != nullptr) memcached_free(memc);
  }
}

absl::StatusOr<std::unique_ptr<MemcachedBackend>> MemcachedBackend::Make(
    MemcachedCluster* cluster, std::vector<std::string> keys, int workers,
    size_t value_bytes) {
  if (cluster == nullptr || workers < 1 || value_bytes > kMaxValueBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "memcached backend: needs a cluster, workers >= 1 (got ", workers,
        ") and value_bytes <= ", kMaxValueBytes, " (got ", value_bytes, ")"));
  }
  std::unique_ptr<MemcachedBackend> backend(
      new MemcachedBackend(cluster, std::move(keys), workers, value_bytes));
  absl::Status status = backend->OpenHandles();
  if (!status.ok()) return status;
  return backend;
}

absl::Status MemcachedBackend::OpenHandles() {
  for (memcached_st* memc : handles_) {
    if (memc != nullptr) memcached_free(memc);
  }
  handles_.assign(static_cast<size_t>(workers_) * cluster_->size(), nullptr);
  for (int w = 0; w < workers_; ++w) {
    for (uint32_t s = 0; s < cluster_->size(); ++s) {
      memcached_st*& memc =
          handles_[static_cast<size_t>(w) * cluster_->size() + s];
      memc = NewHandle(cluster_->port(s));
      if (memc == nullptr) {
        return absl::UnavailableError(absl::StrCat(
            "memcached backend: cannot set up a client for server ", s,
            " (127.0.0.1:", cluster_->port(s), ")"));
      }
      if (!cluster_->alive(s)) continue;  // killed: errors are expected
      const memcached_return_t rc = memcached_version(memc);
      if (!memcached_success(rc)) {
        return absl::UnavailableError(absl::StrCat(
            "memcached backend: cannot connect worker ", w, " to server ", s,
            " (127.0.0.1:", cluster_->port(s),
            "): ", memcached_last_error_message(memc)));
      }
    }
  }
  return absl::OkStatus();
}

const std::string& MemcachedBackend::Value(int worker, uint32_t key) {
  std::string& value = scratch_[static_cast<size_t>(worker)].value;
  char digits[16];
  const std::to_chars_result r =
      std::to_chars(digits, digits + sizeof(digits), key);
  const size_t n = std::min(value_bytes_, static_cast<size_t>(r.ptr - digits));
  std::memcpy(value.data(), digits, n);
  std::fill(value.begin() + static_cast<std::ptrdiff_t>(n), value.end(), '.');
  return value;
}

CacheBackend::Result MemcachedBackend::Get(int worker, uint32_t server,
                                           uint32_t key) {
  if (worker < 0 || worker >= workers_ || server >= cluster_->size() ||
      key >= keys_.size()) {
    return Result::kError;
  }
  const std::string& k = keys_[key];
  size_t length = 0;
  uint32_t flags = 0;
  memcached_return_t rc;
  char* value =
      memcached_get(handle(worker, server), k.data(), k.size(), &length,
                    &flags, &rc);
  if (value != nullptr) {
    std::free(value);
    return memcached_success(rc) ? Result::kHit : Result::kError;
  }
  if (rc == MEMCACHED_NOTFOUND) return Result::kMiss;
  return Result::kError;
}

void MemcachedBackend::Set(int worker, uint32_t server, uint32_t key) {
  if (worker < 0 || worker >= workers_ || server >= cluster_->size() ||
      key >= keys_.size()) {
    set_errors_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const std::string& k = keys_[key];
  const std::string& value = Value(worker, key);
  const memcached_return_t rc =
      memcached_set(handle(worker, server), k.data(), k.size(), value.data(),
                    value.size(), /*expiration=*/0, /*flags=*/0);
  if (!memcached_success(rc)) {
    set_errors_.fetch_add(1, std::memory_order_relaxed);
  }
}

absl::Status MemcachedBackend::Kill(uint32_t server) {
  return cluster_->Kill(server);
}

absl::Status MemcachedBackend::Reset() {
  // A server that died on its own is an error, not something to revive.
  if (absl::Status status = cluster_->CheckUnexpectedExits(); !status.ok()) {
    return status;
  }
  for (uint32_t s = 0; s < cluster_->size(); ++s) {
    absl::Status status = cluster_->Revive(s);
    if (!status.ok()) return status;
  }
  absl::Status status = cluster_->FlushAll();
  if (!status.ok()) return status;
  // Fresh handles: libmemcached keeps a failed server "in timeout" until the
  // next whole second, which would fail the first requests to a revived one.
  return OpenHandles();
}

}  // namespace chbench
