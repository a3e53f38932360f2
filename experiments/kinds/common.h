// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/kinds/common.h
// -----------------------------------------------------------------------------
//
// Helpers shared by the experiment kinds (experiments/kinds/*.cc): the
// configuration columns of a cell's rows, node names, key digests, mapping
// keys to owners, and the conversion of timing samples into rows.

#ifndef CHBENCH_EXPERIMENTS_KINDS_COMMON_H_
#define CHBENCH_EXPERIMENTS_KINDS_COMMON_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "bench/timing.h"
#include "experiments/result_row.h"
#include "experiments/spec.h"

namespace chbench {
namespace kinds {

// Rendezvous looks up in O(N); its key count is capped so that one mapping
// pass costs at most this many score evaluations.
inline constexpr uint64_t kRendezvousBudget = 200'000'000;
// Seed salt of the keys a stateful algorithm places before memory is
// measured (the timing groups use the same salt, bench/timing.cc).
inline constexpr uint64_t kPlacedSalt = 0x706c61636564ULL;  // "placed"

// Every configuration column of `c` (run_id, experiment, algorithm, hash,
// keyset, nodes, vnodes, keys, table size, load factor, seed, repetition).
ResultRow BaseRow(const Cell& c, const std::string& run_id);

// "<claim>.<scenario>" for seed claims, else the scenario.
std::string ClaimScenario(const Cell& c, std::string_view scenario);

// The note of a cell's measured rows with the n_eff it implies: the text is
// for people, the flag for the summary. AddOverlapNote sets both.
struct RowNote {
  std::string text;
  std::optional<uint64_t> n_eff;  // 1: the repetitions are not independent
};

// Appends one metric row.
void Add(std::vector<ResultRow>* rows, const ResultRow& base,
         std::string_view metric, std::optional<double> value,
         std::string_view unit, std::string_view note = "");
// The same, with the note's text and its n_eff.
void Add(std::vector<ResultRow>* rows, const ResultRow& base,
         std::string_view metric, std::optional<double> value,
         std::string_view unit, const RowNote& note);

// Node specs "node-<i>" (seed 0) or "node-<i>-s<seed>", with weights.
std::vector<NodeSpec> MakeNodes(size_t n, uint64_t seed,
                                const std::vector<double>& weights = {});

// The key count after the rendezvous cap; `note` explains a cap.
uint64_t CappedKeys(const Cell& c, std::string* note);

// The digests of the cell's key set (GenerateKeys(keyset, count, seed)).
absl::StatusOr<std::vector<uint64_t>> Digests(const Cell& c, uint64_t count,
                                              const ConsistentHash& algo);

// When the cell's key set repeats most keys across seeds, sets note->n_eff
// to 1 (the summary then gives no interval) and appends the reason,
// "n_eff = 1: ...", to its text.
void AddOverlapNote(const Cell& c, uint64_t count, RowNote* note);

// MakeAlgorithm(c.algorithm, c.Params()) + Build(nodes).
absl::StatusOr<std::unique_ptr<ConsistentHash>> Built(
    const Cell& c, std::span<const NodeSpec> nodes);

// Owner of each key as an index via `id_to_index` (Place for stateful
// algorithms, in key order).
std::vector<uint32_t> MapKeys(ConsistentHash& algo,
                              std::span<const uint64_t> digests,
                              std::span<const uint32_t> id_to_index);

std::vector<uint64_t> Loads(std::span<const uint32_t> owners, size_t n);

// The group's timing description for cells of one timing group.
TimingGroup MakeTimingGroup(std::span<const Cell* const> group);

// The rows of each cell of `group` from a measured timing group: one row per
// round per sample (repetition = round), the single-valued rows (checksum,
// not-applicable notes) once, and load_avg_1m / cpu_steal_fraction (and
// sentinel_ns, where the group had a sentinel) once per cell, with the
// scenario of the cell's timing rows where they all share one, else the
// cell's own.
std::vector<std::vector<ResultRow>> TimingRows(
    std::span<const Cell* const> group, const std::string& run_id,
    const TimingGroupResult& result);

}  // namespace kinds
}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_KINDS_COMMON_H_
