// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/cluster/cluster.h
// -----------------------------------------------------------------------------
//
// The cache cluster of the seed articles, measured: a cache-aside workload
// over N cache servers placed by the algorithm under test, with one event
// (a server joins, a server dies, some clients keep a stale view, or a
// cascade of overloads), recorded per time bucket.
//
// The model. A universe of U keys (the cell's key set), requested with Zipf(s)
// popularity (workload/zipf.h, rank 0 hottest) from a seeded Sfc64 stream: R
// requests in B equal buckets. Request i belongs to logical client
// i mod `clients`. The client asks its view of the cluster (an instance of
// the algorithm, or of the request-bounded ring below) for the key's server
// and GETs the key there; on a miss it reads the "database" (counted) and SETs
// the key on that server; on an error (a dead server) it reads the database
// and, for the `remove` event, drops the server from its view. The event
// happens at the start of bucket floor(B * event_at):
//
//   none        nothing (the control run, and the load-vs-Zipf sweeps).
//   add         server N joins; every client switches at once.
//   remove      the last server (index N-1: every algorithm can remove it) is
//               killed; each client keeps its old view until its first error,
//               then drops it.
//   stale_view  server N joins, but the first round(f * clients) clients keep
//               the old view for `stale_buckets` buckets: their requests
//               for moved keys go to the old server (`misrouted`: a second
//               copy, stale once the key is written through the new view);
//               keys new to the cache that they fetch there miss again on
//               the new server after they switch.
//   cascade     each server has a capacity in requests per bucket, set so
//               that the busiest server of the steady state (the buckets
//               before the event) runs at `utilization` of it; the last
//               server is killed and every client drops it at once; at the
//               end of every later bucket each server above its capacity is
//               declared failed, killed and dropped (algorithms that remove
//               only their last node do not apply). servers_failed counts
//               the failures after the first kill.
//   cascade_mean  the same, but every server's capacity is the MEAN load of
//               the N servers / `utilization` (the same hardware and traffic
//               for every algorithm; a server already above it in the
//               steady state fails at the first check, and
//               overloaded_before_event counts those).
//
// bounded_load is applied to requests, not keys (Mirrokni et al. as deployed
// by Vimeo/HAProxy): its ring (`vnodes` points per server) routes a request
// to the first server clockwise from the key's successor that has served
// fewer than ceil(c * bucket_requests / live servers) requests in the current
// bucket; a hot key's excess requests spill to the next servers (and are
// cached there too). When every server is full the owner serves.
//
// Every run is paired with a control run: the same requests, the same
// algorithm, no event. extra_db_reads = database reads from the event on
// minus the control's (with LRU eviction a joining server also adds cache
// capacity, which the difference includes: the stampede blocks use no
// eviction). Recovery: the buckets from the event until every later bucket's
// hit ratio is at least 95 % of the control's in that bucket (0 when none
// falls below; unset when the last bucket is still below). The stampede
// lasts until 90 % of the extra reads have happened. The prediction
// moved_fraction x hot_set uses the fraction of the U keys whose server
// changed (the first 2^17 keys when U is larger) and the number of distinct
// keys requested both before and after the event. The steady state is the
// second half of the buckets before the event (the first half warms the
// caches).
//
// Backends. The simulation (SimulateCluster) keeps an LRU cache of
// `cache_items` keys per server, in process; it is deterministic (a cell's
// numbers are identical on every rerun and machine with the same libm). The
// real cluster (bench/cluster/memcached.h) runs the same model against
// memcached servers with W worker threads; its numbers vary run to run.
//
// Complexity (simulation): O(R) requests, each one Zipf draw, one owner
// lookup (cached per key and view; the request-bounded ring walks its
// points), and one LRU probe; memory O(U + N * cache_items).
//
// Example:
//   ClusterConfig cfg;
//   cfg.algorithm = "ring"; cfg.nodes = 10; cfg.event = "add";
//   absl::StatusOr<ClusterRun> run = SimulateCluster(cfg);

#ifndef CHBENCH_BENCH_CLUSTER_CLUSTER_H_
#define CHBENCH_BENCH_CLUSTER_CLUSTER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"

namespace chbench {

inline constexpr std::array<std::string_view, 6> kClusterEvents = {
    "none", "add", "remove", "stale_view", "cascade", "cascade_mean"};

struct ClusterConfig {
  std::string algorithm;  // a registry name (algorithms/registry.h)
  AlgorithmParams params;  // hash, vnodes, load_factor (bounded_load: c)
  std::string keyset = "uniform";
  uint64_t seed = 0;
  uint32_t nodes = 10;          // servers before the event
  uint64_t universe = 10000;    // U keys
  double zipf = 0.99;           // popularity exponent s (0 = uniform)
  uint64_t requests = 100000;   // R
  uint32_t buckets = 50;        // B (R / B requests each; R >= B)
  double event_at = 0.5;        // the event's bucket: floor(B * event_at)
  std::string event = "add";    // kClusterEvents
  uint64_t cache_items = 0;     // LRU capacity per server; 0: U (no eviction)
  uint32_t clients = 20;        // logical clients (views)
  double stale_fraction = 0.0;  // stale_view: fraction of stale clients
  uint32_t stale_buckets = 5;   // stale_view: how long they stay stale
  double utilization = 0.8;     // cascade: busiest server's start load
  double rate = 100000;         // requests per second of the timeline
};

// InvalidArgument naming the bad field, its value and the valid range.
absl::Status ValidateClusterConfig(const ClusterConfig& cfg);

// bounded_load's cap on the requests a server takes in one time bucket:
// ceil(c x bucket_requests / live), computed exactly for a load factor c
// with up to six decimals (c is read as round(c x 10^6) / 10^6): in
// doubles 1.1 x 10^5 / 1000 is 110.00000000000001, whose ceiling would let
// every server take one request more than the bound. 0 when live is 0.
uint64_t RequestCap(double load_factor, uint64_t bucket_requests,
                    uint32_t live);

// One bucket of a run.
struct BucketStats {
  uint64_t requests = 0;
  uint64_t hits = 0;
  uint64_t db_reads = 0;
  uint64_t errors = 0;
  // stale_view: requests a stale client sent to a server that no longer owns
  // the key (read from, or cached at, an obsolete location: the copy a
  // writer through the new view would not update).
  uint64_t misrouted = 0;
  uint32_t live_servers = 0;
  // Requests per live server: max over mean.
  double request_max_over_mean = 0;
  // Real cluster only: wall time and client latency percentiles.
  std::optional<double> seconds;
  std::optional<double> latency_p50_us, latency_p99_us;
};

struct ClusterRun {
  std::vector<BucketStats> buckets;          // the run with the event
  std::vector<BucketStats> control;          // the same requests, no event
  uint32_t event_bucket = 0;
  uint64_t bucket_requests = 0;
  // Whether the event applies to the algorithm (cascade needs arbitrary
  // removal); when false, `note` says why and the numbers are empty.
  bool applicable = true;
  std::string note;
  double moved_fraction = 0;       // of the U keys, old view -> new view
  uint64_t hot_set = 0;            // distinct keys requested before and after
  int64_t extra_db_reads = 0;      // after the event, minus the control's
  // Buckets from the event to recovery (0: never below 95 %); nullopt: not
  // recovered within the run.
  std::optional<uint32_t> recovery_buckets;
  // Buckets from the event until 90 % of the extra reads have happened
  // (how long the stampede lasts; 0 when there are no extra reads).
  uint32_t stampede_buckets = 0;
  uint32_t servers_failed = 0;     // cascade: failures after the first kill
  double capacity_per_bucket = 0;  // cascade: requests a server may serve
  // cascade_mean (and cascade): servers whose steady-state mean load per
  // bucket was already above the capacity.
  uint32_t overloaded_before_event = 0;
  // Steady state (buckets before the event): requests per server max/mean
  // over all of them together, and the hit ratio.
  double steady_request_max_over_mean = 0;
  double steady_hit_ratio = 0;
  double post_hit_ratio = 0;       // buckets from the event on
};

// The cache servers a run talks to: the simulation's LRU caches or real
// memcached servers. Get/Set are called by worker `w` (0 .. workers()-1)
// concurrently for distinct w; Kill between buckets.
class CacheBackend {
 public:
  enum class Result { kHit, kMiss, kError };
  virtual ~CacheBackend() = default;
  virtual int workers() const = 0;
  virtual Result Get(int worker, uint32_t server, uint32_t key) = 0;
  virtual void Set(int worker, uint32_t server, uint32_t key) = 0;
  // The server dies (its cached keys are lost; later requests error).
  virtual absl::Status Kill(uint32_t server) = 0;
  // Drops every cached key of every server and revives killed ones (before
  // the control run).
  virtual absl::Status Reset() = 0;
  // Real backends: the database read's extra delay, latency measurement and
  // request pacing are the driver's; this says whether to measure time.
  virtual bool timed() const = 0;
};

// The key strings of a run (GenerateKeys(keyset, universe, seed)), checked
// to be valid memcached keys (1..250 bytes, no whitespace or control bytes).
absl::StatusOr<std::vector<std::string>> ClusterKeys(const ClusterConfig& cfg);

// Runs cfg's event and its control against `backend` (which holds at least
// nodes + 1 servers). db_delay_us: extra time per database read (timed
// backends only).
absl::StatusOr<ClusterRun> RunCluster(const ClusterConfig& cfg,
                                      CacheBackend& backend,
                                      uint32_t db_delay_us = 0);

// RunCluster shares the control run among cells that differ only in the
// event's parameters (the event, utilization, stale_fraction,
// stale_buckets): the same requests without an event, on the same kind of
// backend (simulated or timed) with the same database delay. This drops the
// process's shared controls (tests compare cold and warm runs).
void ClearClusterControlCache();

// The simulation: RunCluster on per-server LRU caches.
absl::StatusOr<ClusterRun> SimulateCluster(const ClusterConfig& cfg);

}  // namespace chbench

#endif  // CHBENCH_BENCH_CLUSTER_CLUSTER_H_
