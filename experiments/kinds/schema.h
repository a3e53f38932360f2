// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/kinds/schema.h
// -----------------------------------------------------------------------------
//
// What a spec may say for each cell kind: one KindSchema row per kind, read
// by the spec parser (experiments/spec.cc) to validate and expand blocks, and
// by the runner through Cell::timing(), the kind registry (kinds/kind.h) and
// the kinds' shared row code (kinds/common.cc). The parser's axis table names
// no kind: a block key is either one every kind accepts, or one that a kind
// accepts only when its row lists it in `axes` (spec.cc: IsKindAxis); a
// kind's own rules beyond the row's fields are its `check` hook.
// It depends on the algorithm and workload libraries only, so the spec
// parser builds without the kinds' run code (the fuzz build's chbench_spec).
//
// Example:
//   const KindSchema* s = FindKindSchema("lookup");
//   if (s != nullptr && s->timing) { ... }
//   if (s != nullptr && s->Accepts("multithread")) { ... }

#ifndef CHBENCH_EXPERIMENTS_KINDS_SCHEMA_H_
#define CHBENCH_EXPERIMENTS_KINDS_SCHEMA_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "experiments/spec_block.h"

namespace chbench {

struct Cell;

// Where a kind's cells take their node count from.
enum class NodesFrom {
  kNodes,    // the `nodes` axis (required)
  kWeights,  // one node per entry of `weights` (required; `nodes` refused)
  kNone,     // no nodes
};

// Which key-count keys a kind takes.
enum class KeysFrom {
  kKeysOrPerNode,  // exactly one of `keys` and `keys_per_node`
  kKeysOnly,       // `keys` only
  kNone,           // neither
};

// Whether a kind takes the removal state (`removal`, `removed_fraction`).
enum class RemovalAxis {
  kRequired,  // both keys required
  kOptional,  // both or neither (prehashed scenario only)
  kNone,      // refused
};

// Why a kind refuses one block key: the text after "not used by kind
// '<kind>'" in the error (e.g. " (one node per weight)").
struct KeyNote {
  std::string_view key;
  std::string_view note;
};

// The result columns that every kind's rows may fill (the configuration of
// a cell, the metric and its value, unit, note and flags); a kind declares
// the others it fills in KindSchema::columns.
inline constexpr std::string_view kCommonColumns[] = {
    "run_id", "experiment", "algorithm",  "hash",        "keyset",
    "nodes",  "vnodes",     "table_size", "load_factor", "capacity",
    "probes", "keys",       "seed",       "repetition",  "metric",
    "value",  "unit",       "note",       "noisy",       "n_eff"};

struct KindSchema {
  std::string_view name;
  // Every cell is timed: measured in rounds at one seed (Cell::rounds), not
  // expanded over seeds, and checked for at least kMinTimingRounds rounds.
  bool timing;
  // The cells that run alone, one at a time after the parallel ones (the
  // timed cells; real memcached clusters, which hold ports, processes and
  // both cores).
  bool (*runs_alone)(const Cell& cell);
  // The valid values of `scenario`; empty: the kind takes no scenario.
  std::span<const std::string_view> scenarios = {};
  // The scenarios of a block that gives none; empty: one cell without.
  std::span<const std::string_view> default_scenarios = {};
  // Stateful algorithms place keys before measuring (placed_keys_per_node).
  bool places_keys;
  // The block names algorithms (or presets); false: cells have none.
  bool takes_algorithm;
  NodesFrom nodes;
  KeysFrom keys;
  // The block keys that only some kinds accept (spec.cc: IsKindAxis) and
  // this one does; a block of this kind that gives another is an error,
  // "key 'x': not used by kind '<name>'" and the axis' own note.
  std::span<const std::string_view> axes = {};
  // This kind's own note for a key it refuses, in place of the axis' note.
  std::span<const KeyNote> refusal_notes = {};
  // The result columns its rows fill beyond kCommonColumns
  // (experiments/result_row.h: kColumns).
  std::span<const std::string_view> columns = {};
  // nullptr, or the kind's own rules on a block of this kind, checked after
  // its keys are known to be accepted: OK, or BlockKeyError (spec_block.h).
  absl::Status (*check)(const SweepBlock& block) = nullptr;
  // The cluster axes (mode, zipf, requests, ...): expanded into the cells
  // (each scenario's own combinations), and written with the scenario in
  // every row of a cell (kinds/common.cc: BaseRow).
  bool cluster_axes = false;
  // `scenario` must be given.
  bool requires_scenario = false;
  // The fewest nodes a cell may have (0: no bound but the `nodes` range).
  int64_t min_nodes = 0;
  RemovalAxis removal = RemovalAxis::kNone;
  // When `preset` is among the axes (production presets, cells beside the
  // algorithms'): the one scenario presets run in; empty: any.
  std::string_view presets_scenario = {};

  // Whether `key`, one of the keys only some kinds accept, is in `axes`.
  bool Accepts(std::string_view key) const;
  // The text after "not used by kind '<name>'" when this kind refuses `key`:
  // its own note, else `axis_note`.
  std::string_view RefusalNote(std::string_view key,
                               std::string_view axis_note) const;
};

std::span<const KindSchema> KindSchemas();
// nullptr when unknown.
const KindSchema* FindKindSchema(std::string_view name);
// The kinds' names in row order, "lookup, build, ...".
std::string KindSchemaNames();

// The cluster kind's scenarios (its events).
std::span<const std::string_view> ClusterScenarios();

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_KINDS_SCHEMA_H_
