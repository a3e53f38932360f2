// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/kinds/kind.h
// -----------------------------------------------------------------------------
//
// The experiment-kind registry: one row per cell kind with its run
// functions and preflight, one file per kind (experiments/kinds/<kind>.cc).
// A new experiment kind is that file, a row here (kinds/registry.cc) and its
// spec-level row in kinds/schema.cc (experiments/kinds/schema_test.cc checks
// that the two tables agree).
//
// Two shapes of kind:
//   * Non-timing kinds (balance, disruption, memory, weights) compute one
//     cell's rows from the cell alone. Their numbers are deterministic, so
//     the runner runs them in parallel.
//   * Timing kinds (lookup, build, hash_speed) measure a timing group: the
//     cells that a table compares (same experiment, kind, N, key set, hash,
//     key count, scenario, seed), interleaved in the same rounds by the
//     harness (bench/harness.h). They run alone, one group at a time, and
//     return each cell's rows.
//   * The cluster kind has both: its simulated cells (mode "sim") are
//     non-timing cells; its real-memcached cells (mode "memcached") run
//     alone through run_group (Cell::timing() says which).
// Which kinds are timed, and which cells run alone, is the kind schema's
// (experiments/kinds/schema.h: KindSchema::timing and runs_alone).
//
// Example:
//   const KindInfo* k = FindKind("disruption");
//   absl::StatusOr<std::vector<ResultRow>> rows = k->run_cell(cell, run_id);

#ifndef CHBENCH_EXPERIMENTS_KINDS_KIND_H_
#define CHBENCH_EXPERIMENTS_KINDS_KIND_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "experiments/result_row.h"
#include "experiments/spec.h"

namespace chbench {

struct KindInfo {
  std::string_view name;
  std::string_view description;
  // Non-timing kinds: the rows of one cell.
  absl::StatusOr<std::vector<ResultRow>> (*run_cell)(const Cell& cell,
                                                     const std::string& run_id);
  // Timing kinds: the rows of each cell of a group, in the group's order.
  absl::StatusOr<std::vector<std::vector<ResultRow>>> (*run_group)(
      std::span<const Cell* const> group, const std::string& run_id);
  // nullptr, or what must hold before any of `cells` (this kind's cells of
  // the run, at least one) runs, checked once after expansion: an error
  // (InvalidArgument, one line) stops the run before anything runs.
  absl::Status (*preflight)(std::span<const Cell* const> cells) = nullptr;
};

std::span<const KindInfo> Kinds();
// nullptr when unknown.
const KindInfo* FindKind(std::string_view name);

// The key that puts timing cells into one group: every configuration but
// the algorithm, its parameters (vnodes, table size, load factor, placed
// keys) and, for hash_speed, the hash.
std::string TimingGroupKey(const Cell& cell);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_KINDS_KIND_H_
