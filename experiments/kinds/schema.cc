// Copyright 2026 The chbench Authors.
//
// The kind schema (schema.h): one row per cell kind.

#include "experiments/kinds/schema.h"

#include <array>

#include "experiments/spec.h"

namespace chbench {
namespace {

// "weighted": prehashed keys on nodes with weights 1 + (i mod 4)
// (bench/timing.h), for the algorithms that accept weights.
constexpr std::array<std::string_view, 3> kLookupScenarios = {
    "prehashed", "weighted", "string"};
constexpr std::array<std::string_view, 2> kLookupDefaultScenarios = {
    "prehashed", "string"};
constexpr std::array<std::string_view, 1> kRemovalDefaultScenarios = {
    "oneshot"};
// The event of a cluster cell (bench/cluster/cluster.h).
constexpr std::array<std::string_view, 6> kClusterScenarios = {
    "none", "add", "remove", "stale_view", "cascade", "cascade_mean"};

bool Always(const Cell&) { return true; }
bool Never(const Cell&) { return false; }
bool OnMemcached(const Cell& c) { return c.mode == "memcached"; }

constexpr std::array<KindSchema, 10> kSchemas = {{
    {.name = "lookup",
     .timing = true,
     .runs_alone = &Always,
     .scenarios = kLookupScenarios,
     .default_scenarios = kLookupDefaultScenarios,
     .places_keys = true,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .removal = RemovalAxis::kOptional,
     .multithread = true,
     .presets = true,
     .presets_scenario = "string"},
    {.name = "build",
     .timing = true,
     .runs_alone = &Always,
     .places_keys = true,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kNone},
    {.name = "memory",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = true,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kNone},
    {.name = "disruption",
     .timing = false,
     .runs_alone = &Never,
     .scenarios = kDisruptionScenarios,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .requires_scenario = true,
     .min_nodes = 2},
    {.name = "balance",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode},
    {.name = "hash_speed",
     .timing = true,
     .runs_alone = &Always,
     .places_keys = false,
     .takes_algorithm = false,
     .nodes = NodesFrom::kNone,
     .keys = KeysFrom::kKeysOnly},
    {.name = "weights",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kWeights,
     .keys = KeysFrom::kKeysOrPerNode},
    {.name = "removal",
     .timing = false,
     .runs_alone = &Never,
     .scenarios = kRemovalScenarios,
     .default_scenarios = kRemovalDefaultScenarios,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .min_nodes = 2,
     .removal = RemovalAxis::kRequired},
    {.name = "presets",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .presets = true},
    {.name = "cluster",
     .timing = false,
     .runs_alone = &OnMemcached,
     .scenarios = kClusterScenarios,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .cluster_axes = true},
}};

}  // namespace

std::span<const KindSchema> KindSchemas() { return kSchemas; }

const KindSchema* FindKindSchema(std::string_view name) {
  for (const KindSchema& s : kSchemas) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string KindSchemaNames() {
  std::string out;
  for (const KindSchema& k : kSchemas) {
    if (!out.empty()) out += ", ";
    out += k.name;
  }
  return out;
}

std::span<const std::string_view> ClusterScenarios() {
  return kClusterScenarios;
}

}  // namespace chbench
