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

constexpr std::span<const std::string_view> kNone;

constexpr std::array<KindSchema, 10> kSchemas = {{
    // name, timing, runs_alone, scenarios, default scenarios, places keys,
    // takes algorithm, nodes, keys, cluster axes
    {"lookup", true, &Always, kLookupScenarios, kLookupDefaultScenarios, true,
     true, NodesFrom::kNodes, KeysFrom::kKeysOrPerNode, false},
    {"build", true, &Always, kNone, kNone, true, true, NodesFrom::kNodes,
     KeysFrom::kNone, false},
    {"memory", false, &Never, kNone, kNone, true, true, NodesFrom::kNodes,
     KeysFrom::kNone, false},
    {"disruption", false, &Never, kDisruptionScenarios, kNone, false, true,
     NodesFrom::kNodes, KeysFrom::kKeysOrPerNode, false},
    {"balance", false, &Never, kNone, kNone, false, true, NodesFrom::kNodes,
     KeysFrom::kKeysOrPerNode, false},
    {"hash_speed", true, &Always, kNone, kNone, false, false, NodesFrom::kNone,
     KeysFrom::kKeysOnly, false},
    {"weights", false, &Never, kNone, kNone, false, true, NodesFrom::kWeights,
     KeysFrom::kKeysOrPerNode, false},
    {"removal", false, &Never, kRemovalScenarios, kRemovalDefaultScenarios,
     false, true, NodesFrom::kNodes, KeysFrom::kKeysOrPerNode, false},
    {"presets", false, &Never, kNone, kNone, false, true, NodesFrom::kNodes,
     KeysFrom::kKeysOrPerNode, false},
    {"cluster", false, &OnMemcached, kClusterScenarios, kNone, false, true,
     NodesFrom::kNodes, KeysFrom::kKeysOrPerNode, true},
}};

}  // namespace

std::span<const KindSchema> KindSchemas() { return kSchemas; }

const KindSchema* FindKindSchema(std::string_view name) {
  for (const KindSchema& s : kSchemas) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::span<const std::string_view> LookupScenarios() { return kLookupScenarios; }
std::span<const std::string_view> ClusterScenarios() {
  return kClusterScenarios;
}

}  // namespace chbench
