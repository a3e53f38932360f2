// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/timing.h
// -----------------------------------------------------------------------------
//
// Timing cells for the experiment runner: each call measures one
// (algorithm, parameters, N, key set, seed) cell with Google Benchmark
// (1.7.1, in process) and returns the measurements as CSV rows
// (experiments/result_row.h, vocabulary in /work/notes/SCHEMA.md).
//
//   TimingCell cell{.algorithm = "ring", .params = {}, .nodes = 1000,
//                   .keyset = "uniform", .seed = 1, .num_keys = 1 << 20};
//   absl::StatusOr<std::vector<ResultRow>> rows =
//       RunLookupTiming(cell, {.min_time_s = 0.1,
//                              .gbench_json_path = "results/.../gbench.json"});
//
// How the numbers are measured (bench/kernels.h has the loops):
//   * Every timed loop calls the concrete final type (Ring<Xxh64>, ... chosen
//     by DispatchConcrete, bench/dispatch.h), so Lookup inlines: no virtual
//     call, allocation or lock inside the loop; results go through
//     benchmark::DoNotOptimize. One benchmark iteration = one lookup (or one
//     hash); lookup values are Google Benchmark's CPU time per iteration, in
//     ns (the process CPU clock: on a shared machine, time the thread spends
//     descheduled is not counted; real time is in gbench.json as well).
//   * Nodes are "node-0" .. "node-<N-1>", weight 1, built with one Build.
//   * lookup, scenario "prehashed": keys GenerateKeyHashes(num_keys, seed)
//     (independent of `keyset`, which is only echoed in the rows).
//       lookup_ns          throughput: independent lookups over the key array
//                          (the CPU may overlap consecutive lookups).
//       lookup_latency_ns  latency: the index of the next key depends on the
//                          previous owner (i = i + 1 + (owner & z), z an
//                          opaque zero), so a lookup cannot start before the
//                          previous one finished; the keys visited are the
//                          same as for lookup_ns (xxHash benchHash.c's
//                          latency vs throughput distinction).
//       checksum           FoldChecksum (algorithms/checksum.h) of the owners
//                          of the first ChecksumKeyCount(num_keys, N) keys, in
//                          order, computed outside the timed loops through the
//                          same concrete type; value = checksum & (2^52 - 1),
//                          unit "id-fold". Identical on every run for every
//                          reproducible hash (not absl_hash, seeded per
//                          process).
//   * lookup, scenario "string": keys GenerateKeys(keyset, num_keys, seed);
//     lookup_ns and lookup_latency_ns time HashKey + Lookup; hash_ns times
//     HashKey alone (the same loop without Lookup); checksum as above over
//     HashKey of the strings. `keys` = the number of keys generated (the
//     `words` key set stops at the dictionary's size).
//   * bounded_load (stateful): before anything is timed, every key of the
//     scenario is placed (Place, in key order) on a fresh instance; the
//     lookup metrics then time Lookup of placed keys (the stored assignment)
//     and the checksum folds those assignments.
//   * build: nodes = N, the live nodes before the change. Each iteration uses
//     a fresh instance (factory, outside the timed region); only the measured
//     operation is timed, with a steady clock around it (manual time,
//     reported as Google Benchmark's real time):
//       build_ns        Build(N nodes) on an empty instance.
//       add_node_ns     AddNode("node-<N>") on an instance built with N nodes.
//       remove_node_ns  RemoveNode of one node of an instance built with N
//                       nodes: the last node for algorithms without arbitrary
//                       removal (jump), otherwise node Sfc64(seed).Below(N).
//     The instance is rebuilt (untimed) for every iteration. The iteration
//     count comes from one untimed probe of each operation: enough iterations
//     for min_time_s of measured time, but at most as many as fit, with their
//     rebuilds, into build_wall_budget_s (at least one). Times include one
//     steady_clock read pair (~20-30 ns), which matters only for O(1)
//     operations (jump, modulo add/remove). An operation the algorithm refuses
//     gives a row with empty value and note "not applicable: <reason>".
//   * Rows carry experiment, algorithm, hash (params.hash), keyset, nodes,
//     vnodes (ring, bounded_load), table_size (maglev: the M actually used),
//     load_factor (bounded_load), keys (lookups), seed, scenario (lookups),
//     metric, value, unit; run_id and repetition are left to the runner.
//
// Google Benchmark JSON: when gbench_json_path is set, the cell's benchmarks
// are APPENDED to that file: a missing or empty file is created with the
// first cell's context; afterwards each cell's entries are added to its
// "benchmarks" array, so one gbench.json per run collects every timing cell.
// A file that is not Google Benchmark JSON is an error (nothing is written).
//
// Not thread-safe with respect to other Google Benchmark users in the
// process: calls are serialized by an internal mutex, and every call clears
// the registered benchmarks (benchmark::ClearRegisteredBenchmarks).
// benchmark::Initialize is called once, on first use, with a synthetic argv.

#ifndef CHBENCH_BENCH_TIMING_H_
#define CHBENCH_BENCH_TIMING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "experiments/result_row.h"

namespace chbench {

struct TimingCell {
  std::string algorithm;
  AlgorithmParams params;
  uint32_t nodes;
  std::string keyset;
  uint64_t seed;
  size_t num_keys;
  // Lookups only: "prehashed", "string", or empty for both.
  std::string scenario = "";
};

struct TimingOptions {
  // Minimum measured time per lookup metric (Benchmark::MinTime), and the
  // target measured time of each build metric.
  double min_time_s = 0.1;
  // Where this cell's Google Benchmark JSON is appended; empty = nowhere.
  std::string gbench_json_path;
  // Google Benchmark's console table on stderr.
  bool verbose = false;
  // Upper bound on the wall time of each build/add/remove measurement,
  // including the untimed rebuilds (at least one iteration always runs).
  double build_wall_budget_s = 2.0;
};

// Rows of the "lookup" experiment for `cell`: per scenario, lookup_ns,
// lookup_latency_ns, (string only) hash_ns, and checksum. Errors: unknown
// algorithm/hash/keyset/scenario, invalid parameters, nodes == 0,
// num_keys == 0, or a JSON file that cannot be written.
absl::StatusOr<std::vector<ResultRow>> RunLookupTiming(
    const TimingCell& cell, const TimingOptions& options);

// Rows of the "build" experiment for `cell`: build_ns, add_node_ns,
// remove_node_ns. `keyset` and `num_keys` are unused (keyset is echoed).
absl::StatusOr<std::vector<ResultRow>> RunBuildTiming(
    const TimingCell& cell, const TimingOptions& options);

// The machine as Google Benchmark sees it (benchmark::CPUInfo/SystemInfo), as
// one JSON object:
//   {"host_name": "...", "num_cpus": 2, "mhz_per_cpu": 2800,
//    "cpu_scaling_enabled": false | true | null,
//    "caches": [{"type": "Data", "level": 1, "size": 32768,
//                "num_sharing": 1}, ...],
//    "load_avg": [0.5, 0.4, 0.3], "benchmark_version": "1.7.1"}
std::string BenchmarkContextJson();

// The number of keys the checksum row folds: all keys while num_keys * nodes
// stays modest, otherwise fewer, so that O(N) lookups (rendezvous) at large N
// stay affordable: min(num_keys, max(4096, 2^28 / nodes)).
size_t ChecksumKeyCount(size_t num_keys, uint32_t nodes);

}  // namespace chbench

#endif  // CHBENCH_BENCH_TIMING_H_
