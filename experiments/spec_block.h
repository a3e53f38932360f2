// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/spec_block.h
// -----------------------------------------------------------------------------
//
// One [[sweep]] block of a spec (spec.h) after its tier overrides, as the
// spec parser (spec.cc) fills it from its axis table: the view that a kind's
// own rules read (experiments/kinds/schema.h, KindSchema::check). Unset
// optionals and empty axes take the kind's defaults when cells are expanded.
//
// Example:
//   absl::Status CheckMine(const SweepBlock& b) {
//     if (b.requests.empty()) return BlockKeyError("requests", "missing");
//     return absl::OkStatus();
//   }

#ifndef CHBENCH_EXPERIMENTS_SPEC_BLOCK_H_
#define CHBENCH_EXPERIMENTS_SPEC_BLOCK_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace chbench {

struct SweepBlock {
  std::string kind;
  std::string claim;
  std::vector<std::string> algorithm;
  // Production presets (algorithms/presets/): a second axis of the same
  // cells, run beside the algorithms (the kinds that accept `preset`).
  std::vector<std::string> preset;
  std::vector<std::string> hash = {"xxh64"};
  std::vector<std::string> keyset = {"uniform"};
  std::vector<int64_t> nodes, vnodes, table_size, keys, keys_per_node;
  std::vector<int64_t> placed_keys_per_node;  // empty = default [100]
  std::vector<double> load_factor;
  std::vector<double> overprovision;
  std::vector<int64_t> probes;
  // The lookup kind: keys per LookupBatch call (empty = [1], single-key).
  std::vector<int64_t> batch;
  std::vector<std::string> removal;
  std::vector<double> removed_fraction;
  std::vector<std::string> scenario;
  std::vector<std::vector<double>> weights;
  // The cluster axes (KindSchema::cluster_axes).
  std::vector<std::string> mode;
  std::vector<double> zipf, stale_fraction, utilization;
  std::vector<int64_t> requests, cache_items;
  // The replicas kind's axes: replicas per key and topology names.
  std::vector<int64_t> replicas;
  std::vector<std::string> topology;
  int64_t buckets = 40, clients = 20, workers = 2, db_delay_us = 0;
  bool enabled = true;  // false: the block expands no cell in this tier
  double rate = 100000;
  std::optional<int64_t> repetitions;  // unset: 1, or 10 rounds if timing
  int64_t seed = 0;
  double min_time_s = 0.1;
  bool multithread = false;
  std::set<std::string> set_keys;  // keys given anywhere
};

// InvalidArgument "key '<key>': <problem>": an error about one key of a
// block; the parser prefixes the spec's path.
inline absl::Status BlockKeyError(std::string_view key,
                                  std::string_view problem) {
  return absl::InvalidArgumentError(
      absl::StrCat("key '", std::string(key), "': ", std::string(problem)));
}

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_SPEC_BLOCK_H_
