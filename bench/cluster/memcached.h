// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/cluster/memcached.h
// -----------------------------------------------------------------------------
//
// The real cache cluster of bench/cluster/cluster.h: `MemcachedCluster` starts
// and stops local memcached servers, and `MemcachedBackend` is the
// CacheBackend that RunCluster drives against them with W worker threads.
//
// MemcachedCluster. Start(N, options) starts N memcached processes, server i
// on its own port:
//
//   memcached -l 127.0.0.1 -U 0 -p PORT -m memory_mb -t threads [-u root]
//
// (`-u root` only when running as root, which memcached otherwise refuses).
// A port is found by binding a socket to 127.0.0.1:0 and closing it; the
// server counts as started once a TCP connect to it succeeds (polled for up
// to 3 s). If the process exits first (another process took the port in
// between), it is retried on a new port, at most 3 times per server.
//
// Guarantees:
//   * Servers listen on 127.0.0.1 only, TCP only (no UDP).
//   * Every server is stopped by its PID, never by name, on every exit path:
//       - the destructor: SIGTERM, up to 100 ms for all to exit, then SIGKILL,
//         and every child reaped (no orphan, no zombie);
//       - SIGINT, SIGTERM or SIGHUP to chbench: the handlers installed by
//         InstallClusterSignalHandlers() (Start calls it) SIGKILL every live
//         server, restore the previous disposition and re-raise the signal;
//       - chbench SIGKILLed or crashing: each server is forked with
//         prctl(PR_SET_PDEATHSIG, SIGKILL), so the kernel kills it when its
//         parent goes away.
//   * Every error path of Start stops the servers it had already started.
//   * Children have stdin, stdout and stderr on /dev/null, no other
//     inherited descriptor, an empty signal mask and default dispositions
//     for SIGINT, SIGTERM and SIGHUP.
//
// PR_SET_PDEATHSIG fires when the THREAD that forked the child exits, not
// the process: call Start (and Revive) from a thread that lives as long as
// the cluster, in practice the main thread.
//
// Thread safety: a MemcachedCluster is not thread-safe; Kill, Revive and
// FlushAll are meant to be called between buckets by the driver thread.
// MemcachedBackend::Get and Set are thread-safe for distinct workers (each
// worker owns its connections); Kill and Reset must not run concurrently
// with them.
//
// Cost. Start: about one fork+exec and a few ms of polling per server.
// Backend: W x N libmemcached handles (one connection each, opened and
// checked by Make); Get and Set are one blocking ASCII round trip over
// loopback TCP (TCP_NODELAY), typically 20..60 us. A dead server answers
// with ECONNREFUSED at once (connect timeout 200 ms, poll timeout 500 ms
// bound the other cases).
//
// Example:
//   absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
//       MemcachedCluster::Start(/*servers=*/11, MemcachedOptions{});
//   if (!cluster.ok()) return cluster.status();
//   absl::StatusOr<std::unique_ptr<MemcachedBackend>> backend =
//       MemcachedBackend::Make(cluster->get(), *ClusterKeys(cfg),
//                              /*workers=*/4);
//   if (!backend.ok()) return backend.status();
//   absl::StatusOr<ClusterRun> run = RunCluster(cfg, **backend);

#ifndef CHBENCH_BENCH_CLUSTER_MEMCACHED_H_
#define CHBENCH_BENCH_CLUSTER_MEMCACHED_H_

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/cluster/cluster.h"

struct memcached_st;

namespace chbench {

struct MemcachedOptions {
  uint32_t memory_mb = 64;  // -m: item memory per server
  uint32_t threads = 1;     // -t: worker threads per server
  // The memcached executable; empty: $CHBENCH_MEMCACHED when set, else
  // "memcached" on PATH, then /usr/bin/memcached.
  std::string binary = "";
};

// Installs SIGINT, SIGTERM and SIGHUP handlers that SIGKILL every memcached
// server started by any MemcachedCluster of the process and still running,
// then restore the disposition found at installation and re-raise the
// signal. Idempotent. A signal whose disposition is SIG_IGN (e.g. SIGHUP
// under nohup) is left ignored. The handlers are async-signal-safe: they
// read a fixed table of 4096 std::atomic<pid_t> slots (lock-free).
void InstallClusterSignalHandlers();

class MemcachedCluster {
 public:
  // Starts `servers` (>= 1) memcached servers. Errors (one line each):
  //   InvalidArgument     servers, memory_mb or threads is 0;
  //   FailedPrecondition  the binary is not found or not executable;
  //   Unavailable         a server did not start (names its port and the
  //                       binary's exit status) or did not accept
  //                       connections within 3 s;
  //   ResourceExhausted   more than 4096 live servers in the process.
  // See the file comment: call from a long-lived thread.
  static absl::StatusOr<std::unique_ptr<MemcachedCluster>> Start(
      uint32_t servers, const MemcachedOptions& options);

  MemcachedCluster(const MemcachedCluster&) = delete;
  MemcachedCluster& operator=(const MemcachedCluster&) = delete;

  // Stops every server still running (SIGTERM, <= 100 ms, SIGKILL) and reaps
  // it.
  ~MemcachedCluster();

  // SIGKILLs server `server` and reaps it. OK if it is already dead;
  // OutOfRange if `server` >= size().
  absl::Status Kill(uint32_t server);

  // Restarts a killed (or exited) server on its old port, empty; OK if it is
  // running. Unavailable if it does not come back (the port was taken).
  absl::Status Revive(uint32_t server);

  // `flush_all` on every server (a fresh connection each);
  // FailedPrecondition if one is not running, Unavailable if the command
  // fails.
  absl::Status FlushAll();

  // InternalError naming the first server that exited although nobody
  // killed it (a crash, the OOM killer, an outside kill), with its port, pid
  // and how it ended; OK when every server not killed by Kill is running.
  // A run whose server died under it measured errors, not the algorithm.
  absl::Status CheckUnexpectedExits() const;

  uint32_t size() const { return static_cast<uint32_t>(servers_.size()); }
  uint16_t port(uint32_t server) const { return servers_[server].port; }
  // 0 once the server was killed or stopped.
  pid_t pid(uint32_t server) const { return servers_[server].pid; }
  // Started, not killed, and not exited on its own (checked without
  // reaping).
  bool alive(uint32_t server) const;
  const std::string& binary() const { return binary_; }

 private:
  struct Server {
    uint16_t port = 0;
    pid_t pid = 0;
  };

  MemcachedCluster(std::string binary, const MemcachedOptions& options)
      : binary_(std::move(binary)), options_(options) {}

  // Starts a server on `port` (0: pick free ports, up to 3 tries) into
  // `server`.
  absl::Status StartServer(uint32_t index, uint16_t port, Server& server);
  void StopAll();

  std::string binary_;
  MemcachedOptions options_;
  std::vector<Server> servers_;
};

// The CacheBackend of RunCluster on a MemcachedCluster. Key k of the run is
// keys[k]; its value is `value_bytes` bytes: k in decimal, then '.' padding
// (truncated when value_bytes is shorter). Worker w talks to server s
// through its own libmemcached handle holding only that server (ASCII
// protocol, TCP_NODELAY, connect timeout 200 ms, poll timeout 500 ms, retry
// timeout 0 and no failure limit, so a dead server just returns errors and
// a revived one is reconnected on the next request).
class MemcachedBackend final : public CacheBackend {
 public:
  // `cluster` must outlive the backend; workers >= 1; value_bytes <= 1 MiB
  // minus 1 KiB (memcached's default item limit). Opens and checks (with
  // `version`) one connection per worker and live server; Unavailable if
  // one fails.
  static absl::StatusOr<std::unique_ptr<MemcachedBackend>> Make(
      MemcachedCluster* cluster, std::vector<std::string> keys, int workers,
      size_t value_bytes = 64);

  ~MemcachedBackend() override;

  int workers() const override { return workers_; }
  // kHit when found, kMiss on NOTFOUND, kError otherwise (e.g. the server
  // was killed).
  Result Get(int worker, uint32_t server, uint32_t key) override;
  // Errors are not reported, only counted in set_errors().
  void Set(int worker, uint32_t server, uint32_t key) override;
  // cluster->Kill(server).
  absl::Status Kill(uint32_t server) override;
  // Revives killed servers (cluster->Revive, same ports), then
  // cluster->FlushAll(), then replaces every handle by a fresh, checked one.
  absl::Status Reset() override;
  bool timed() const override { return true; }

  uint64_t set_errors() const {
    return set_errors_.load(std::memory_order_relaxed);
  }

 private:
  MemcachedBackend(MemcachedCluster* cluster, std::vector<std::string> keys,
                   int workers, size_t value_bytes);
  memcached_st* handle(int worker, uint32_t server) const {
    return handles_[static_cast<size_t>(worker) * cluster_->size() + server];
  }
  // (Re)creates the W x N handles; checks the connections to live servers.
  absl::Status OpenHandles();
  // Worker w's scratch value for key k.
  const std::string& Value(int worker, uint32_t key);

  struct alignas(64) Scratch {  // one value buffer per worker, own line
    std::string value;
  };

  MemcachedCluster* cluster_;
  std::vector<std::string> keys_;
  int workers_;
  size_t value_bytes_;
  std::vector<memcached_st*> handles_;  // worker-major, W x N
  std::vector<Scratch> scratch_;
  std::atomic<uint64_t> set_errors_{0};
};

}  // namespace chbench

#endif  // CHBENCH_BENCH_CLUSTER_MEMCACHED_H_
