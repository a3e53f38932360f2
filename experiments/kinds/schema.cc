// Copyright 2026 The chbench Authors.
//
// The kind schema (schema.h): one row per cell kind.

#include "experiments/kinds/schema.h"

#include <algorithm>
#include <array>
#include <memory>

#include "absl/strings/str_cat.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/spec.h"

namespace chbench {
namespace {

// "weighted": prehashed keys on nodes with weights 1 + (i mod 4)
// (bench/timing.h), for the algorithms that accept weights. "replicas":
// prehashed keys, Lookup and LookupReplicas(key, 3) in the same rounds, for
// the algorithms with replica lists.
constexpr std::array<std::string_view, 4> kLookupScenarios = {
    "prehashed", "weighted", "string", "replicas"};
constexpr std::array<std::string_view, 2> kLookupDefaultScenarios = {
    "prehashed", "string"};
constexpr std::array<std::string_view, 1> kRemovalDefaultScenarios = {
    "oneshot"};
// The event of a cluster cell (bench/cluster/cluster.h).
constexpr std::array<std::string_view, 6> kClusterScenarios = {
    "none", "add", "remove", "stale_view", "cascade", "cascade_mean"};

// The block keys each kind accepts beyond those every kind does (spec.cc:
// IsKindAxis). The algorithm parameters (vnodes, table_size, ...) and
// repetitions, seed, min_time_s are every kind's; hash_speed accepts `nodes`
// although its cells have none.
constexpr std::array<std::string_view, 11> kLookupAxes = {
    "algorithm",  "preset",        "nodes",
    "scenario",   "removal",       "removed_fraction",
    "keys",       "keys_per_node", "placed_keys_per_node",
    "multithread", "batch"};
constexpr std::array<std::string_view, 3> kBuildAndMemoryAxes = {
    "algorithm", "nodes", "placed_keys_per_node"};
constexpr std::array<std::string_view, 5> kDisruptionAxes = {
    "algorithm", "nodes", "scenario", "keys", "keys_per_node"};
constexpr std::array<std::string_view, 4> kBalanceAxes = {
    "algorithm", "nodes", "keys", "keys_per_node"};
constexpr std::array<std::string_view, 2> kHashSpeedAxes = {"nodes", "keys"};
constexpr std::array<std::string_view, 4> kWeightsAxes = {
    "algorithm", "weights", "keys", "keys_per_node"};
constexpr std::array<std::string_view, 6> kWeightChangeAxes = {
    "algorithm", "preset", "nodes", "scenario", "keys", "keys_per_node"};
constexpr std::array<std::string_view, 3> kWeightChangeScenarios = {
    "x2", "x0.5", "x0.1"};
constexpr std::array<std::string_view, 5> kWeightMixAxes = {
    "algorithm", "preset", "nodes", "keys", "keys_per_node"};
constexpr std::array<std::string_view, 7> kRemovalAxes = {
    "algorithm",        "nodes", "scenario",     "removal",
    "removed_fraction", "keys",  "keys_per_node"};
constexpr std::array<std::string_view, 5> kPresetsAxes = {
    "algorithm", "preset", "nodes", "keys", "keys_per_node"};
constexpr std::array<std::string_view, 15> kClusterAxes = {
    "algorithm", "nodes",    "scenario",    "keys",           "mode",
    "zipf",      "requests", "cache_items", "stale_fraction", "utilization",
    "buckets",   "clients",  "workers",     "rate",           "db_delay_us"};

constexpr std::array<std::string_view, 7> kReplicasAxes = {
    "algorithm", "preset",   "nodes",   "scenario",
    "keys",      "replicas", "topology"};
constexpr std::array<std::string_view, 1> kReplicasDefaultScenarios = {
    "zone_aware"};
constexpr std::array<std::string_view, 3> kGrowthAxes = {"algorithm", "nodes",
                                                         "keys"};

constexpr std::array<KeyNote, 1> kWeightsNotes = {
    {{"nodes", " (one node per weight)"}}};
constexpr std::array<KeyNote, 1> kHashSpeedNotes = {
    {{"keys_per_node", "; use 'keys'"}}};
constexpr std::array<KeyNote, 1> kClusterNotes = {
    {{"keys_per_node", "; use 'keys' (the universe)"}}};

// The result columns each kind's rows fill beyond kCommonColumns.
constexpr std::array<std::string_view, 7> kLookupColumns = {
    "placed_keys", "scenario", "removal", "removed",
    "threads",     "replicas", "batch"};
constexpr std::array<std::string_view, 1> kPlacedColumns = {"placed_keys"};
constexpr std::array<std::string_view, 1> kScenarioColumns = {"scenario"};
constexpr std::array<std::string_view, 3> kWeightsColumns = {"scenario", "node",
                                                             "weight"};
constexpr std::array<std::string_view, 3> kRemovalColumns = {
    "scenario", "removal", "removed"};
constexpr std::array<std::string_view, 3> kReplicasColumns = {
    "scenario", "replicas", "topology"};
constexpr std::array<std::string_view, 2> kGrowthColumns = {"scenario",
                                                            "step"};
constexpr std::array<std::string_view, 8> kClusterColumns = {
    "scenario",    "mode",           "zipf",        "requests",
    "cache_items", "stale_fraction", "utilization", "bucket"};

std::string Range(int64_t lo, int64_t hi) { return absl::StrCat(lo, "..", hi); }

bool HasScenario(const SweepBlock& b, std::string_view sc) {
  return std::find(b.scenario.begin(), b.scenario.end(), sc) !=
         b.scenario.end();
}

// The cluster kind's own rules (bench/cluster/cluster.h).
absl::Status CheckCluster(const SweepBlock& b) {
  if (b.scenario.empty()) {
    return BlockKeyError("scenario",
                         absl::StrCat("missing; the cluster event, "
                                      "valid: ",
                                      JoinViews(kClusterScenarios)));
  }
  if (b.requests.empty()) return BlockKeyError("requests", "missing");
  if (b.keys.empty()) {
    return BlockKeyError("keys", "missing; the universe of keys requested");
  }
  for (int64_t k : b.keys) {
    if (k > (int64_t{1} << 31)) {
      return BlockKeyError("keys", absl::StrCat("value ", k,
                                                " out of range for "
                                                "kind 'cluster'; valid: ",
                                                Range(1, int64_t{1} << 31)));
    }
  }
  for (int64_t n : b.nodes) {
    if (n < 2 || n > 100000) {
      return BlockKeyError("nodes", absl::StrCat("value ", n,
                                                 " out of range for "
                                                 "kind 'cluster'; valid: ",
                                                 Range(2, 100000)));
    }
  }
  for (int64_t r : b.requests) {
    if (r < b.buckets) {
      return BlockKeyError("requests", absl::StrCat("value ", r,
                                                    " out of range; "
                                                    "at least one per bucket (",
                                                    b.buckets, ")"));
    }
  }
  if (!b.stale_fraction.empty() && !HasScenario(b, "stale_view")) {
    return BlockKeyError("stale_fraction",
                         "not used without scenario 'stale_view'");
  }
  if (!b.utilization.empty() && !HasScenario(b, "cascade") &&
      !HasScenario(b, "cascade_mean")) {
    return BlockKeyError("utilization",
                         "not used without scenario 'cascade' or "
                         "'cascade_mean'");
  }
  const bool real =
      std::find(b.mode.begin(), b.mode.end(), "memcached") != b.mode.end();
  if (real) {
    // A value above `hi` of axis `key` is refused for real servers, `why`
    // saying the limit's reason; the valid range starts at `lo`.
    const auto at_most = [](std::string_view key,
                            const std::vector<int64_t>& values, int64_t lo,
                            int64_t hi, std::string_view why) {
      for (int64_t v : values) {
        if (v > hi) {
          return BlockKeyError(
              key,
              absl::StrCat("value ", v, " out of range for mode 'memcached' (",
                           std::string(why), "); valid: ", Range(lo, hi)));
        }
      }
      return absl::OkStatus();
    };
    for (absl::Status s :
         {at_most("nodes", b.nodes, 2, 64,
                  "one process per server, on 2 cores"),
          at_most("keys", b.keys, 1, 200000,
                  "every key must fit its server's 64 MB: no eviction"),
          at_most("requests", b.requests, b.buckets, 10000000,
                  "a bounded request loop")}) {
      if (!s.ok()) return s;
    }
    if (b.set_keys.count("cache_items") && b.mode.size() == 1) {
      return BlockKeyError("cache_items",
                           "not used by mode 'memcached' (each "
                           "server has 64 MB; the universe "
                           "fits)");
    }
  }
  return absl::OkStatus();
}

// The lookup kind's own rule: batched lookups (batch > 1) are timed in the
// prehashed, weighted and string scenarios (bench/timing.h), not beside
// LookupReplicas.
absl::Status CheckLookup(const SweepBlock& b) {
  for (int64_t v : b.batch) {
    if (v > 1 && HasScenario(b, "replicas")) {
      return BlockKeyError(
          "batch", absl::StrCat("value ", v,
                                " with scenario 'replicas'; batched lookups "
                                "are timed in the prehashed, weighted and "
                                "string scenarios; valid with replicas: 1"));
    }
  }
  return absl::OkStatus();
}

// The replicas kind's own rules (experiments/kinds/replicas.h).
absl::Status CheckReplicas(const SweepBlock& b) {
  if (b.replicas.empty()) {
    return BlockKeyError("replicas", absl::StrCat("missing; replicas per key, "
                                                  "valid: ",
                                                  Range(1, kMaxReplicas)));
  }
  if (b.topology.empty()) {
    return BlockKeyError("topology",
                         absl::StrCat("missing; valid: ",
                                      JoinViews(kReplicaTopologies)));
  }
  for (const std::string& a : b.algorithm) {
    const AlgorithmInfo* info = FindAlgorithm(a);
    if (info != nullptr && !info->capabilities.replicas) {
      return BlockKeyError(
          "algorithm", absl::StrCat("value '", a,
                                    "' has no replica placement "
                                    "(LookupReplicas); valid: ",
                                    ReplicaAlgorithmNames()));
    }
  }
  // Presets: their systems' own lists, on a flat cluster.
  std::string replica_presets;
  for (const PresetInfo& p : Presets()) {
    absl::StatusOr<std::unique_ptr<ConsistentHash>> made = MakePreset(p.name, "");
    if (made.ok() && (*made)->capabilities().replicas) {
      absl::StrAppend(&replica_presets, replica_presets.empty() ? "" : ", ",
                      std::string(p.name));
    }
  }
  for (const std::string& p : b.preset) {
    absl::StatusOr<std::unique_ptr<ConsistentHash>> made = MakePreset(p, "");
    if (made.ok() && !(*made)->capabilities().replicas) {
      return BlockKeyError("preset",
                           absl::StrCat("value '", p,
                                        "' has no replica list; valid: ",
                                        replica_presets));
    }
  }
  if (!b.preset.empty() &&
      std::any_of(b.topology.begin(), b.topology.end(),
                  [](const std::string& t) { return t != "flat"; })) {
    return BlockKeyError("topology", "presets run flat here; valid with "
                                     "'preset': flat");
  }
  for (int64_t r : b.replicas) {
    for (int64_t n : b.nodes) {
      if (r > n) {
        return BlockKeyError(
            "replicas",
            absl::StrCat("value ", r, " out of range with nodes = ", n,
                         " (r distinct nodes per key); valid: ", Range(1, n)));
      }
    }
  }
  // zone_blind ignores the failure domains of a zoned topology; a flat one
  // has none to ignore.
  if (HasScenario(b, "zone_blind") &&
      std::find(b.topology.begin(), b.topology.end(), "flat") !=
          b.topology.end()) {
    return BlockKeyError("scenario",
                         "value 'zone_blind' with topology 'flat' (no failure "
                         "domains to ignore); valid with flat: zone_aware");
  }
  return absl::OkStatus();
}

// The growth kind's own rules (experiments/kinds/growth.cc): it maps every
// key with Lookup after each of 2N steps, so stateful algorithms (which
// would replay their placements) are refused, and so is a cell whose
// lookups exceed kMaxGrowthWork, counting a lookup of a linear-time
// algorithm (rendezvous, crush) as 1.5 N, its mean node count.
constexpr double kMaxGrowthWork = 8.0 * (uint64_t{1} << 30);

absl::Status CheckGrowth(const SweepBlock& b) {
  for (const std::string& a : b.algorithm) {
    const AlgorithmInfo* info = FindAlgorithm(a);
    if (info == nullptr) continue;
    if (info->capabilities.stateful) {
      return BlockKeyError(
          "algorithm",
          absl::StrCat("value '", a,
                       "' is stateful (it places keys); kind 'growth' maps "
                       "keys with Lookup after every step: leave it out"));
    }
    for (int64_t n : b.nodes) {
      if (n > (int64_t{1} << 23)) {
        return BlockKeyError(
            "nodes", absl::StrCat("value ", n, " out of range for kind "
                                  "'growth' (it grows to 2N nodes); valid: ",
                                  Range(1, int64_t{1} << 23)));
      }
      for (int64_t k : b.keys) {
        double work = static_cast<double>(k) * static_cast<double>(2 * n + 1);
        if (info->lookup_class == "linear") work *= 1.5 * static_cast<double>(n);
        if (work > kMaxGrowthWork) {
          return BlockKeyError(
              "nodes",
              absl::StrCat("value ", n, " with keys = ", k, " and algorithm '",
                           a, "' maps ", work, " key-node pairs over the 2N "
                           "steps; at most ", kMaxGrowthWork,
                           ": lower keys or nodes"));
        }
      }
    }
  }
  return absl::OkStatus();
}

bool Always(const Cell&) { return true; }
bool Never(const Cell&) { return false; }
bool OnMemcached(const Cell& c) { return c.mode == "memcached"; }

constexpr std::array<KindSchema, 14> kSchemas = {{
    {.name = "lookup",
     .timing = true,
     .runs_alone = &Always,
     .scenarios = kLookupScenarios,
     .default_scenarios = kLookupDefaultScenarios,
     .places_keys = true,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .axes = kLookupAxes,
     .columns = kLookupColumns,
     .check = &CheckLookup,
     .removal = RemovalAxis::kOptional,
     .presets_scenario = "string"},
    {.name = "build",
     .timing = true,
     .runs_alone = &Always,
     .places_keys = true,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kNone,
     .axes = kBuildAndMemoryAxes,
     .columns = kPlacedColumns},
    {.name = "memory",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = true,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kNone,
     .axes = kBuildAndMemoryAxes,
     .columns = kPlacedColumns},
    {.name = "disruption",
     .timing = false,
     .runs_alone = &Never,
     .scenarios = kDisruptionScenarios,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .axes = kDisruptionAxes,
     .columns = kScenarioColumns,
     .requires_scenario = true,
     .min_nodes = 2},
    {.name = "balance",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .axes = kBalanceAxes,
     .columns = kScenarioColumns},
    {.name = "hash_speed",
     .timing = true,
     .runs_alone = &Always,
     .places_keys = false,
     .takes_algorithm = false,
     .nodes = NodesFrom::kNone,
     .keys = KeysFrom::kKeysOnly,
     .axes = kHashSpeedAxes,
     .refusal_notes = kHashSpeedNotes,
     .columns = kScenarioColumns},
    {.name = "weights",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kWeights,
     .keys = KeysFrom::kKeysOrPerNode,
     .axes = kWeightsAxes,
     .refusal_notes = kWeightsNotes,
     .columns = kWeightsColumns},
    {.name = "weight_change",
     .timing = false,
     .runs_alone = &Never,
     .scenarios = kWeightChangeScenarios,
     .default_scenarios = kWeightChangeScenarios,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .axes = kWeightChangeAxes,
     .columns = kWeightsColumns,
     .min_nodes = 2},
    {.name = "weight_mix",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .axes = kWeightMixAxes,
     .columns = kScenarioColumns,
     .min_nodes = 2},
    {.name = "removal",
     .timing = false,
     .runs_alone = &Never,
     .scenarios = kRemovalScenarios,
     .default_scenarios = kRemovalDefaultScenarios,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .axes = kRemovalAxes,
     .columns = kRemovalColumns,
     .min_nodes = 2,
     .removal = RemovalAxis::kRequired},
    {.name = "presets",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOrPerNode,
     .axes = kPresetsAxes,
     .columns = kScenarioColumns},
    {.name = "cluster",
     .timing = false,
     .runs_alone = &OnMemcached,
     .scenarios = kClusterScenarios,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOnly,
     .axes = kClusterAxes,
     .refusal_notes = kClusterNotes,
     .columns = kClusterColumns,
     .check = &CheckCluster,
     .cluster_axes = true},
    {.name = "replicas",
     .timing = false,
     .runs_alone = &Never,
     .scenarios = kReplicaScenarios,
     .default_scenarios = kReplicasDefaultScenarios,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOnly,
     .axes = kReplicasAxes,
     .columns = kReplicasColumns,
     .check = &CheckReplicas,
     .min_nodes = 2,
     .presets_scenario = "zone_aware"},
    {.name = "growth",
     .timing = false,
     .runs_alone = &Never,
     .places_keys = false,
     .takes_algorithm = true,
     .nodes = NodesFrom::kNodes,
     .keys = KeysFrom::kKeysOnly,
     .axes = kGrowthAxes,
     .columns = kGrowthColumns,
     .check = &CheckGrowth,
     .min_nodes = 1},
}};

}  // namespace

bool KindSchema::Accepts(std::string_view key) const {
  return std::find(axes.begin(), axes.end(), key) != axes.end();
}

std::string_view KindSchema::RefusalNote(std::string_view key,
                                         std::string_view axis_note) const {
  for (const KeyNote& n : refusal_notes) {
    if (n.key == key) return n.note;
  }
  return axis_note;
}

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
