// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/kinds/schema.h
// -----------------------------------------------------------------------------
//
// What a spec may say for each cell kind: one KindSchema row per kind, read
// by the spec parser (experiments/spec.cc) to validate and expand blocks, and
// by the runner through Cell::timing() and the kind registry (kinds/kind.h).
// It depends on the algorithm and workload libraries only, so the spec
// parser builds without the kinds' run code (the fuzz build's chbench_spec).
//
// Example:
//   const KindSchema* s = FindKindSchema("lookup");
//   if (s != nullptr && s->timing) { ... }

#ifndef CHBENCH_EXPERIMENTS_KINDS_SCHEMA_H_
#define CHBENCH_EXPERIMENTS_KINDS_SCHEMA_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

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
  // The cluster axes (mode, zipf, requests, ...; kClusterKeys in spec.cc).
  bool cluster_axes = false;
  // `scenario` must be given.
  bool requires_scenario = false;
  // The fewest nodes a cell may have (0: no bound but the `nodes` range).
  int64_t min_nodes = 0;
  RemovalAxis removal = RemovalAxis::kNone;
  // Accepts the `multithread` key.
  bool multithread = false;
  // Accepts `preset` (production presets, cells beside the algorithms'),
  // only with scenario = [presets_scenario] when that is not empty.
  bool presets = false;
  std::string_view presets_scenario = {};
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
