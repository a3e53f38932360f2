// Copyright 2026 The chbench Authors.

#include "bench/cluster/memcached.h"

#include <fcntl.h>
#include <libmemcached/memcached.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::HasSubstr;
using Result = CacheBackend::Result;

bool ProcExists(pid_t pid) {
  struct stat st;
  return stat(absl::StrCat("/proc/", pid).c_str(), &st) == 0;
}

// The process does not exist: kill(pid, 0) fails with ESRCH and /proc/<pid>
// is absent (so it is not a zombie either).
void ExpectGone(pid_t pid) {
  errno = 0;
  EXPECT_EQ(kill(pid, 0), -1) << "pid " << pid;
  EXPECT_EQ(errno, ESRCH) << "pid " << pid;
  EXPECT_FALSE(ProcExists(pid)) << "pid " << pid;
}

// Polls up to `timeout` for `pid` (not necessarily our child) to be gone:
// reaped by us (the signal tests make us a subreaper, so orphaned servers
// become our children) or by someone else (kill fails with ESRCH). A zombie
// is not gone.
bool WaitGone(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid) return true;
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::vector<std::string> Keys(int n) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(absl::StrCat("key:", i));
  return keys;
}

std::string RawGet(uint16_t port, const std::string& key) {
  memcached_st* memc = memcached_create(nullptr);
  memcached_server_add(memc, "127.0.0.1", port);
  size_t length = 0;
  uint32_t flags = 0;
  memcached_return_t rc;
  char* value =
      memcached_get(memc, key.data(), key.size(), &length, &flags, &rc);
  std::string out = value != nullptr ? std::string(value, length) : "<none>";
  std::free(value);
  memcached_free(memc);
  return out;
}

TEST(MemcachedClusterTest, StartGetSetKillResetAndStop) {
  absl::StatusOr<std::unique_ptr<MemcachedCluster>> started =
      MemcachedCluster::Start(3, MemcachedOptions{});
  ASSERT_TRUE(started.ok()) << started.status();
  std::unique_ptr<MemcachedCluster> cluster = *std::move(started);
  ASSERT_EQ(cluster->size(), 3u);
  std::set<uint16_t> ports;
  std::vector<pid_t> pids;
  for (uint32_t i = 0; i < 3; ++i) {
    ports.insert(cluster->port(i));
    pids.push_back(cluster->pid(i));
    EXPECT_GT(cluster->pid(i), 0);
    EXPECT_EQ(kill(cluster->pid(i), 0), 0);
    EXPECT_TRUE(cluster->alive(i));
  }
  EXPECT_EQ(ports.size(), 3u);

  absl::StatusOr<std::unique_ptr<MemcachedBackend>> made =
      MemcachedBackend::Make(cluster.get(), Keys(20), /*workers=*/2,
                             /*value_bytes=*/8);
  ASSERT_TRUE(made.ok()) << made.status();
  MemcachedBackend& backend = **made;
  EXPECT_EQ(backend.workers(), 2);
  EXPECT_TRUE(backend.timed());

  EXPECT_EQ(backend.Get(0, 0, 12), Result::kMiss);
  backend.Set(0, 0, 12);
  EXPECT_EQ(backend.Get(1, 0, 12), Result::kHit);  // the other worker
  EXPECT_EQ(backend.Get(0, 0, 12), Result::kHit);
  EXPECT_EQ(backend.Get(0, 2, 12), Result::kMiss);  // another server
  EXPECT_EQ(RawGet(cluster->port(0), "key:12"), "12......");
  EXPECT_EQ(RawGet(cluster->port(2), "key:12"), "<none>");
  backend.Set(1, 1, 3);
  EXPECT_EQ(backend.Get(0, 1, 3), Result::kHit);
  EXPECT_EQ(backend.set_errors(), 0u);

  // Kill server 1: requests error, on open connections and new ones alike.
  ASSERT_TRUE(backend.Kill(1).ok());
  EXPECT_EQ(cluster->pid(1), 0);
  EXPECT_FALSE(cluster->alive(1));
  ExpectGone(pids[1]);  // reaped: no zombie
  EXPECT_EQ(backend.Get(0, 1, 3), Result::kError);
  EXPECT_EQ(backend.Get(1, 1, 3), Result::kError);
  EXPECT_EQ(backend.Get(1, 1, 4), Result::kError);
  backend.Set(0, 1, 3);
  EXPECT_EQ(backend.set_errors(), 1u);
  EXPECT_EQ(backend.Get(1, 0, 12), Result::kHit);  // the others still serve
  EXPECT_TRUE(backend.Kill(1).ok());               // already dead: OK
  EXPECT_EQ(backend.Kill(3).code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(cluster->FlushAll().code(),
            absl::StatusCode::kFailedPrecondition);

  // Reset revives server 1 on its port, empties every server.
  const uint16_t port1 = cluster->port(1);
  ASSERT_TRUE(backend.Reset().ok());
  EXPECT_TRUE(cluster->alive(1));
  EXPECT_EQ(cluster->port(1), port1);
  const pid_t revived = cluster->pid(1);
  EXPECT_EQ(kill(revived, 0), 0);
  EXPECT_EQ(backend.Get(0, 1, 3), Result::kMiss);
  EXPECT_EQ(backend.Get(1, 0, 12), Result::kMiss);
  backend.Set(1, 1, 3);
  EXPECT_EQ(backend.Get(0, 1, 3), Result::kHit);

  made->reset();
  cluster.reset();
  ExpectGone(pids[0]);
  ExpectGone(revived);
  ExpectGone(pids[2]);
}

TEST(MemcachedClusterTest, FlushAllEmptiesEveryServer) {
  absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
      MemcachedCluster::Start(2, MemcachedOptions{});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  absl::StatusOr<std::unique_ptr<MemcachedBackend>> backend =
      MemcachedBackend::Make(cluster->get(), Keys(4), /*workers=*/1);
  ASSERT_TRUE(backend.ok()) << backend.status();
  (*backend)->Set(0, 0, 1);
  (*backend)->Set(0, 1, 2);
  ASSERT_EQ((*backend)->Get(0, 0, 1), Result::kHit);
  ASSERT_EQ((*backend)->Get(0, 1, 2), Result::kHit);
  ASSERT_TRUE((*cluster)->FlushAll().ok());
  EXPECT_EQ((*backend)->Get(0, 0, 1), Result::kMiss);
  EXPECT_EQ((*backend)->Get(0, 1, 2), Result::kMiss);
}

TEST(MemcachedClusterTest, MissingBinaryIsFailedPreconditionAndStartsNothing) {
  MemcachedOptions options;
  options.binary = "/nonexistent/memcached";
  absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
      MemcachedCluster::Start(2, options);
  ASSERT_FALSE(cluster.ok());
  EXPECT_EQ(cluster.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(cluster.status().message(), HasSubstr("/nonexistent/memcached"));
  EXPECT_THAT(cluster.status().message(), HasSubstr("apt-get install"));
  EXPECT_EQ(cluster.status().message().find('\n'), std::string::npos);
  // No child of ours exists, running or exited.
  siginfo_t info{};
  errno = 0;
  EXPECT_EQ(waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST(MemcachedClusterTest, ServerThatExitsIsUnavailableAndStartedOnesStop) {
  // A wrapper that runs memcached the first time (recording its pid) and
  // exits with status 3 afterwards.
  const std::string dir = ::testing::TempDir();
  const std::string marker = absl::StrCat(dir, "/memcached_first_pid.", getpid());
  const std::string script = absl::StrCat(dir, "/memcached_once.", getpid());
  unlink(marker.c_str());
  {
    std::ofstream out(script);
    out << "#!/bin/sh\n"
        << "if [ -e " << marker << " ]; then exit 3; fi\n"
        << "echo $$ > " << marker << "\n"
        << "exec /usr/bin/memcached \"$@\"\n";
  }
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  MemcachedOptions options;
  options.binary = script;
  absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
      MemcachedCluster::Start(2, options);
  ASSERT_FALSE(cluster.ok());
  EXPECT_EQ(cluster.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(cluster.status().message(), HasSubstr("server 1"));
  EXPECT_THAT(cluster.status().message(), HasSubstr("127.0.0.1:"));
  EXPECT_THAT(cluster.status().message(), HasSubstr("exited with status 3"));
  std::ifstream in(marker);
  pid_t first = 0;
  ASSERT_TRUE(in >> first);
  ExpectGone(first);
  unlink(marker.c_str());
  unlink(script.c_str());
}

// Forks a child that starts a 2-server cluster, sends its pids through a
// pipe and blocks; sends `sig` to the child; returns the server pids, and
// whether the child died of `sig`.
std::vector<pid_t> RunAndSignalChild(int sig, bool* died_of_sig) {
  *died_of_sig = false;
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
        MemcachedCluster::Start(2, MemcachedOptions{});
    if (!cluster.ok()) _exit(2);
    pid_t pids[2] = {(*cluster)->pid(0), (*cluster)->pid(1)};
    if (write(fds[1], pids, sizeof(pids)) != sizeof(pids)) _exit(3);
    for (;;) pause();
  }
  close(fds[1]);
  std::vector<pid_t> pids;
  if (child < 0) {
    close(fds[0]);
    return pids;
  }
  pollfd pfd = {fds[0], POLLIN, 0};
  pid_t buffer[2];
  if (poll(&pfd, 1, 5000) == 1 &&
      read(fds[0], buffer, sizeof(buffer)) == sizeof(buffer)) {
    pids.assign(buffer, buffer + 2);
  }
  close(fds[0]);
  kill(child, pids.empty() ? SIGKILL : sig);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  *died_of_sig = WIFSIGNALED(status) && WTERMSIG(status) == sig;
  return pids;
}

class MemcachedSignalTest : public ::testing::TestWithParam<int> {
 protected:
  // Orphaned servers become our children, so that we can reap them (and
  // need not rely on init reaping them).
  void SetUp() override { ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0); }
  void TearDown() override { prctl(PR_SET_CHILD_SUBREAPER, 0); }
};

TEST_P(MemcachedSignalTest, ServersDieWithTheirParent) {
  const int sig = GetParam();
  bool died_of_sig = false;
  std::vector<pid_t> pids = RunAndSignalChild(sig, &died_of_sig);
  ASSERT_EQ(pids.size(), 2u) << "the child did not start its cluster";
  EXPECT_TRUE(died_of_sig) << strsignal(sig);
  for (pid_t pid : pids) {
    EXPECT_GT(pid, 0);
    EXPECT_TRUE(WaitGone(pid, std::chrono::milliseconds(2000)))
        << "memcached pid " << pid << " survived " << strsignal(sig);
    ExpectGone(pid);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Signals, MemcachedSignalTest,
    ::testing::Values(SIGINT, SIGTERM, SIGKILL),  // SIGKILL: PDEATHSIG
    [](const ::testing::TestParamInfo<int>& info) {
      return std::string(sigabbrev_np(info.param));
    });

}  // namespace
}  // namespace chbench
