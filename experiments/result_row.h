// Copyright 2026 The chbench Authors.
//
// ResultRow: one tidy CSV row, one metric value. The columns, in order, are
// kColumns; parameters that do not apply stay empty. results/README.md
// defines every column and metric. The flags the summary aggregates (`noisy`,
// `n_eff`) are columns of their own; `note` is text for people, and no code
// reads flags out of it.

#ifndef CHBENCH_EXPERIMENTS_RESULT_ROW_H_
#define CHBENCH_EXPERIMENTS_RESULT_ROW_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace chbench {

inline constexpr std::array<std::string_view, 38> kColumns = {
    "run_id",   "experiment", "algorithm",   "hash",       "keyset",
    "nodes",    "vnodes",     "table_size",  "load_factor", "capacity",
    "probes",   "keys",       "placed_keys", "seed",       "repetition",
    "scenario", "removal",    "removed",     "threads",    "node",
    "weight",   "mode",       "zipf",        "requests",   "cache_items",
    "stale_fraction", "utilization", "bucket", "replicas", "topology",
    "batch",    "step",
    "metric",   "value",      "unit",        "note",
    "noisy",    "n_eff"};

// Configuration columns that files written by an earlier chbench lack; the
// readers (Assemble, Resummarize, plots/chdata.py) fill them in as empty,
// so those runs stay usable. The flags (noisy, n_eff) have their own rule
// (assemble.h Resummarize).
inline constexpr std::array<std::string_view, 4> kOptionalColumns = {
    "replicas", "topology", "batch", "step"};

// The index of column `name` in kColumns (kColumns.size() if absent).
constexpr size_t ColumnIndex(std::string_view name) {
  for (size_t i = 0; i < kColumns.size(); ++i) {
    if (kColumns[i] == name) return i;
  }
  return kColumns.size();
}

struct ResultRow {
  std::string run_id;      // filled by the writer
  std::string experiment;  // e.g. "disruption"
  std::string algorithm;   // registry name
  std::string hash;        // hash registry name
  std::string keyset;      // keyset registry name
  std::optional<uint64_t> nodes;
  std::optional<uint64_t> vnodes;
  std::optional<uint64_t> table_size;
  std::optional<double> load_factor;
  std::optional<uint64_t> capacity;  // anchor, dx: set capacity (buckets)
  std::optional<uint64_t> probes;    // multiprobe: probes per lookup
  std::optional<uint64_t> keys;
  // bounded_load lookup/build/memory: keys placed before measuring.
  std::optional<uint64_t> placed_keys;
  std::optional<uint64_t> seed;
  std::optional<uint64_t> repetition;  // timing: the measurement round
  std::string scenario;  // e.g. "add", "remove_random", "prehashed", ...
  // Removal state (removal experiment; lookup after removals): the order
  // (workload/removal.h: random | fifo | lifo) and the nodes removed from
  // the `nodes` built before measuring.
  std::string removal;
  std::optional<uint64_t> removed;
  std::optional<uint64_t> threads;  // lookups_per_s: threads sharing one instance
  std::optional<uint64_t> node;   // per-node rows (weights experiment)
  std::optional<double> weight;   // that node's weight
  // Cluster experiment (bench/cluster/cluster.h): sim | memcached, the Zipf
  // exponent of request popularity, requests per run, LRU capacity per
  // server (keys; simulation), the stale_view fraction, the cascade's start
  // utilization, and the time bucket of a per-bucket row (empty: per run).
  std::string mode;
  std::optional<double> zipf;
  std::optional<uint64_t> requests;
  std::optional<uint64_t> cache_items;
  std::optional<double> stale_fraction;
  std::optional<double> utilization;
  std::optional<uint64_t> bucket;
  // Replica placement (replicas experiment): the replicas per key (r) and
  // the topology's name (flat, zones3, ...: experiments/kinds/replicas.cc).
  std::optional<uint64_t> replicas;
  std::string topology;
  // Batched lookups (lookup experiment): the keys per LookupBatch call of a
  // cell with batch B > 1, on every row of that cell (its batch_lookup_ns,
  // the ratio, and the single-key lookup_ns timed beside them, the checksum
  // and the context rows); empty for single-key cells, so the summary keeps
  // a batched cell's lookup_ns apart from the batch-1 cell's.
  std::optional<uint64_t> batch;
  // Growth experiment (experiments/kinds/growth.cc): the step of the
  // scale-out and scale-in sequence, 0 (the N nodes built) .. 2N; empty
  // elsewhere.
  std::optional<uint64_t> step;
  std::string metric;             // e.g. "moved_fraction"
  std::optional<double> value;    // empty with a note when not applicable
  std::string unit;               // e.g. "fraction", "ns", "bytes"
  std::string note;               // e.g. "not applicable: jump removes only the last node"
  // Timing: the harness flagged the measurement as suspect (noise gate or a
  // machine slow state; the note starts with "noisy: <reason>"). Written as
  // 1 or 0; summary.csv's `noisy` is 1 when any row of its group is.
  bool noisy = false;
  // 1 when the repetitions of this row's configuration are not independent
  // samples (a key set whose keys repeat across seeds; the note says why):
  // summary.csv then has n_eff = 1 and no interval. Empty: independent.
  std::optional<uint64_t> n_eff;
};

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_RESULT_ROW_H_
