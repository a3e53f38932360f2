// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/timing.h
// -----------------------------------------------------------------------------
//
// Timing groups: the unit in which chbench measures time. A group is the set
// of configurations that a table or figure compares (the algorithms, their
// parameter variants and the reference peers at one N, key set, hash and
// scenario); all its kernels are measured in the same interleaved rounds by
// the harness (bench/harness.h), so their ratios are machine-independent.
//
//   TimingGroup g{.kind = "lookup", .nodes = 1000, .keyset = "uniform",
//                 .scenario = "prehashed", .seed = 1, .num_keys = 1 << 20,
//                 .rounds = 10, .min_time_s = 0.02,
//                 .members = {{.algorithm = "ring"}, {.algorithm = "jump"}}};
//   absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
//
// What is measured (one value per round in every sample; ns per operation):
//   * Nodes are "node-0" .. "node-<N-1>", weight 1, one Build. Every loop
//     calls a concrete final type (DispatchConcrete, bench/dispatch.h) or a
//     peer (bench/peers/), inlined, and is fold-checked (bench/kernels.h).
//   * lookup, scenario "prehashed": keys = GenerateKeyHashes(num_keys, seed).
//       lookup_ns          throughput (independent lookups)
//       lookup_latency_ns  dependent chain over the same keys
//       lookups_per_s      (member.multithread) T = 1 .. hardware threads
//       sharing
//                          the instance, each from its own offset; wall time
//       Algorithms with O(N) lookups (lookup_class "linear": rendezvous)
//       cycle over the first max(4096, 2^26 / N) keys, so that the untimed
//       fold check stays affordable; `keys` says how many.
//   * lookup, scenario "weighted": as "prehashed" (lookup_ns and
//     lookup_latency_ns), on nodes with weights 1 + (i mod 4)
//     (WeightedNodeSpecs), for algorithms that accept weights; no peers.
//   * lookup, scenario "replicas": prehashed keys on equal nodes without
//     zones, for algorithms with replica lists; each member is timed twice
//     in the same rounds: Lookup (lookup_ns, lookup_latency_ns) and
//     LookupReplicas(key, kTimedReplicas) (replicas_lookup_ns,
//     replicas_lookup_latency_ns; the fold covers every node of the list;
//     `replicas` says r); no peers.
//   * lookup with member.batch = B > 1 (scenarios prehashed, weighted,
//     string): lookup_ns (single-key throughput) and batch_lookup_ns, the
//     throughput of LookupBatch over B keys per call (LookupUnplacedBatch
//     for bounded_load), ns per key, with batch_lookup_ns_ratio_to_single
//     per round (< 1: batching is faster); prehashed, the batched peers
//     (bench/peers/: ring_interleaved for the ring) over the same keys, B
//     per call, with batch_lookup_ns_ratio_to_<peer>; prehashed with
//     member.multithread, batch_lookups_per_s: T = 1 .. hardware threads
//     sharing the instance, each calling LookupBatch over B keys at a time
//     from its own offset; wall time.
//   * lookup, scenario "string": keys = GenerateKeys(keyset, num_keys, seed);
//     lookup_ns and lookup_latency_ns time HashKey + Lookup, hash_ns HashKey
//     alone over the first min(num_keys, 65536) keys (kernels.h,
//     kHashTimedKeys: cache-resident; the sample's `keys` says how many).
//   * bounded_load: placed_keys_per_node * N keys (GenerateKeyHashes with a
//     different seed) are placed first. The prehashed and string scenarios
//     then time the routing of FRESH keys, LookupUnplaced (ring successor
//     plus the walk past full nodes: what a load balancer does per request);
//     scenario "placed" times Lookup of the placed keys (the hash-map probe
//     of the stored assignment).
//   * Peers (bench/peers/) of each member are measured in the same rounds;
//     the member gets <metric>_ratio_to_<peer> samples: its value divided by
//     the peer's, per round (< 1: ours is faster).
//   * checksum: FoldChecksum (algorithms/checksum.h) of the owners of the
//     first ChecksumKeyCount(num_keys, N) keys, untimed; reproducible.
//   * build: build_ns (Build of N nodes on a fresh instance), add_node_ns
//     (AddNode "node-<N>"), remove_node_ns (RemoveNode: the last node where
//     only the last can leave, otherwise node Sfc64(seed).Below(N)); each
//     iteration on a fresh instance built untimed (bounded_load: with its
//     placed keys, so a change includes the replay); the operation alone is
//     timed with the steady clock (~25 ns per read; the thread CPU clock
//     is a system call of ~1 us in a VM); after it, 64 probe keys are looked up
//     (untimed) and folded, which checks that the operation happened.
//     Stateful algorithms with placed keys also get place_ns: PlaceBatch of
//     those keys on a fresh built instance with none placed, per key. Maglev
//     (all weights 1) is timed beside the maglev_katran_build peer (Katran's
//     table fill from the same permutations) in the same rounds, with
//     build_ns_ratio_to_maglev_katran_build.
//   * hash_speed: hash_ns of each hash over GenerateKeys(keyset, num_keys).

#ifndef CHBENCH_BENCH_TIMING_H_
#define CHBENCH_BENCH_TIMING_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"

namespace chbench {

// Builds and prehashed lookups are timed with the default hash
// (AlgorithmParams{}.hash) only: a prehashed lookup hashes no key. String-key
// lookups with the other hashes are timed for the catalogue rows with
// `hash_axis` only (the hash axis of experiments/lookup.toml), and with the
// hashes of kLookupTimedHashes only; compiling every algorithm's kernels for
// all nine hash policies was most of the build. experiments/spec.cc rejects
// other combinations with this reason; RunTimingGroup refuses them.
// HashAxisAlgorithmNames() (algorithms/registry.h) lists the algorithms.

// The hashes string-key lookups are timed with: every hash the lookup specs
// sweep. siphash is not among them (it exists for multiprobe's
// bit-exactness with go-mpchash, which no spec times with other hashes), so
// its kernels are not compiled.
inline constexpr std::string_view kLookupTimedHashes[] = {
    "md5", "xxh64", "xxh3", "murmur3_128", "murmur3_32", "crc32", "fnv1a",
    "absl_hash"};
// "md5, xxh64, ..., absl_hash".
inline std::string LookupTimedHashNames() {
  std::string out;
  for (std::string_view h : kLookupTimedHashes) {
    if (!out.empty()) out += ", ";
    out += h;
  }
  return out;
}

// The r of the lookup scenario "replicas": three copies, the common
// replication factor (Cassandra's and Dynamo's usual N = 3, Ceph's default
// pool size).
inline constexpr uint32_t kTimedReplicas = 3;

// The largest TimingMember::batch: keys per LookupBatch call in the batched
// kernels (bench/kernels.h's kMaxTimedBatch, whose owner buffer is on the
// stack; timing_members.h checks that the two agree). The spec key `batch`
// of the lookup kind takes 1 .. kMaxLookupBatch.
inline constexpr uint32_t kMaxLookupBatch = 1024;

struct TimingMember {
  std::string algorithm;
  AlgorithmParams params;
  uint32_t placed_keys_per_node = 0;  // bounded_load only
  // lookup, prehashed: also lookups_per_s with T = 1 .. hardware threads
  // (with batch > 1: batch_lookups_per_s, LookupBatch over B keys per call).
  bool multithread = false;
  // lookup: nodes removed after Build, before measuring
  // (RemovalSequence(removal, nodes, removed, group seed), workload/removal.h).
  std::string removal;
  uint32_t removed = 0;
  // Nodes get weights 1 + (i mod 4) (set for the "weighted" scenario).
  bool weighted = false;
  // lookup, scenarios prehashed, weighted and string: keys per LookupBatch
  // call. 1: the single-key kernels only. B > 1: the member's single-key
  // throughput (lookup_ns) and its batched throughput over the same keys,
  // B keys per call (batch_lookup_ns, ns per key; strings: hashed a group
  // at a time, then looked up), with batch_lookup_ns_ratio_to_single per
  // round; no latency, multithread, placed or single-key peer kernels (the
  // batch-1 member of the same group has them, in the same rounds), but the
  // batched peers (peers::ForEachBatchPeer, prehashed: the ring's
  // ring_interleaved), B keys per call, with
  // batch_lookup_ns_ratio_to_<peer>. At most kMaxLookupBatch.
  uint32_t batch = 1;
};

struct TimingGroup {
  std::string kind;      // "lookup" | "build" | "hash_speed"
  uint32_t nodes = 0;    // lookup, build
  std::string keyset;    // lookup (string scenario), hash_speed
  // lookup: "prehashed" | "weighted" | "string" | "replicas"
  std::string scenario;
  uint64_t seed = 0;
  size_t num_keys = 0;  // lookup, hash_speed
  bool peers = true;
  uint32_t rounds = 10;
  double min_time_s = 0.02;
  // Upper bound on the wall time of one build measurement with its untimed
  // rebuilds (at least one iteration always runs).
  double build_wall_budget_s = 0.5;
  std::vector<TimingMember> members;  // lookup, build
  std::vector<std::string> hashes;    // hash_speed
};

struct TimingSample {
  size_t member = 0;      // index into members (or hashes)
  std::string algorithm;  // the member's algorithm, or a peer's name
  std::string peer_of;    // peers: the base algorithm
  std::string scenario;   // "prehashed", "string", "placed", or empty
  std::string metric;
  uint32_t threads = 0;  // lookups_per_s and batch_lookups_per_s only
  std::vector<double> values;  // one per round; empty when not applicable
  std::string unit;
  std::string note;  // "noisy: <reason>" first when noisy
  bool noisy = false;
  std::optional<uint64_t> table_size;  // maglev: the M used
  uint64_t keys = 0;                   // keys cycled over (lookup)
  uint64_t placed_keys = 0;            // bounded_load
  uint32_t replicas = 0;  // scenario "replicas": the r of LookupReplicas
  uint32_t batch = 0;     // the member's batch (TimingMember::batch) if > 1
};

struct TimingGroupResult {
  std::vector<TimingSample> samples;
  double load_avg_1m = 0;
  std::optional<double> steal_fraction;
  // The machine-state sentinel (bench/harness.h): its median in the kept
  // rounds, the process reference, whole-group re-measurements, and whether
  // the group stayed in a slow state (then every sample is noisy).
  std::optional<double> sentinel_ns;
  double sentinel_reference_ns = 0;
  int slow_retries = 0;
  bool slow_state = false;
  double slow_wait_s = 0;           // waiting for the fast state before them
  bool retry_budget_spent = false;  // a re-measurement skipped: no budget
};

// Measures `group`. Errors: unknown algorithm, hash, key set or scenario;
// invalid parameters; nodes == 0 (lookup/build); num_keys == 0; rounds == 0;
// a fold mismatch (Internal).
absl::StatusOr<TimingGroupResult> RunTimingGroup(const TimingGroup& group);

// The machine as Google Benchmark sees it (benchmark::CPUInfo/SystemInfo), as
// one JSON object:
//   {"host_name": "...", "num_cpus": 2, "mhz_per_cpu": 2800,
//    "cpu_scaling_enabled": false | true | null,
//    "caches": [{"type": "Data", "level": 1, "size": 32768,
//                "num_sharing": 1}, ...],
//    "load_avg": [0.5, 0.4, 0.3], "benchmark_version": "1.7.1"}
std::string BenchmarkContextJson();

// The noise policy RunTimingGroup applies (HarnessOptions' and
// SentinelOptions' values as Options() sets them, and the process's
// re-measurement budget, ProcessSentinelReference().RetryBudget(); null for
// none), as one JSON object:
//   {"cv_threshold": 0.05, "pair_tolerance": 0.1, "max_remeasure": 1,
//    "slices": 3, "sentinel": {"slow_threshold": 1.15,
//    "max_slow_retries": 2, "max_wait_s": 10, "retry_budget_s": 60}}
// Call it after the runner has set the budget.
std::string TimingPolicyJson();

// The number of keys the checksum row folds: all keys while num_keys * nodes
// stays modest, otherwise fewer, so that O(N) lookups (rendezvous) at large N
// stay affordable: min(num_keys, max(4096, 2^28 / nodes)).
size_t ChecksumKeyCount(size_t num_keys, uint32_t nodes);

}  // namespace chbench

#endif  // CHBENCH_BENCH_TIMING_H_
