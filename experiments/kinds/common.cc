// Copyright 2026 The chbench Authors.

#include "experiments/kinds/common.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/kinds/schema.h"
#include "workload/keyset.h"
#include "workload/node_names.h"

namespace chbench {
namespace kinds {

ResultRow BaseRow(const Cell& c, const std::string& run_id) {
  ResultRow r;
  r.run_id = run_id;
  r.experiment = c.experiment;
  r.algorithm = c.algorithm;
  r.hash = c.hash;
  r.keyset = c.keyset;
  if (c.nodes) r.nodes = c.nodes;
  if (c.vnodes) r.vnodes = *c.vnodes;
  if (c.keys) r.keys = c.keys;
  r.table_size = c.table_size;
  r.load_factor = c.load_factor;
  r.capacity = c.capacity;
  if (c.probes) r.probes = *c.probes;
  r.removal = c.removal;
  if (!c.removal.empty()) r.removed = c.removed;
  r.seed = c.seed;
  r.repetition = c.repetition;
  if (c.replicas) r.replicas = c.replicas;
  r.topology = c.topology;
  if (c.batch > 1) r.batch = c.batch;
  // The cluster axes, and the scenario (the event), are columns of every
  // row of the kinds that have them.
  const KindSchema* schema = FindKindSchema(c.kind);
  if (schema != nullptr && schema->cluster_axes) {
    r.scenario = c.scenario;
    r.mode = c.mode;
    r.zipf = c.zipf;
    r.requests = c.requests;
    r.cache_items = c.cache_items;
    r.stale_fraction = c.stale_fraction;
    r.utilization = c.utilization;
  }
  // A production preset: the hash column names its key hash, and no
  // algorithm parameter applies.
  if (const PresetInfo* p = FindPreset(c.algorithm); p != nullptr) {
    r.hash = std::string(p->key_hash);
    r.vnodes.reset();
    r.table_size.reset();
    r.load_factor.reset();
    r.capacity.reset();
    r.probes.reset();
  }
  return r;
}

std::string ClaimScenario(const Cell& c, std::string_view scenario) {
  if (c.claim.empty()) return std::string(scenario);
  if (scenario.empty()) return c.claim;
  return absl::StrCat(c.claim, ".", std::string(scenario));
}

void Add(std::vector<ResultRow>* rows, const ResultRow& base,
         std::string_view metric, std::optional<double> value,
         std::string_view unit, std::string_view note) {
  ResultRow r = base;
  r.metric = std::string(metric);
  r.value = value;
  r.unit = std::string(unit);
  r.note = std::string(note);
  rows->push_back(std::move(r));
}

void Add(std::vector<ResultRow>* rows, const ResultRow& base,
         std::string_view metric, std::optional<double> value,
         std::string_view unit, const RowNote& note) {
  Add(rows, base, metric, value, unit, note.text);
  rows->back().n_eff = note.n_eff;
}

std::vector<NodeSpec> MakeNodes(size_t n, uint64_t seed,
                                const std::vector<double>& weights) {
  std::vector<NodeSpec> nodes(n);
  for (size_t i = 0; i < n; ++i) {
    nodes[i].name = NodeName(i, seed);
    if (i < weights.size()) nodes[i].weight = weights[i];
  }
  return nodes;
}

uint64_t CappedKeys(const Cell& c, std::string* note) {
  // Algorithms whose lookup is linear in N get a key budget.
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (info == nullptr || info->lookup_class != "linear" || c.nodes == 0) {
    return c.keys;
  }
  const uint64_t cap = std::max<uint64_t>(1000, kRendezvousBudget / c.nodes);
  if (c.keys <= cap) return c.keys;
  *note = absl::StrCat("keys capped from ", c.keys, " to ", cap,
                       ": ", c.algorithm, " lookup is O(N) (budget ",
                       kRendezvousBudget, " score evaluations per pass)");
  return cap;
}

absl::StatusOr<std::vector<uint64_t>> Digests(const Cell& c, uint64_t count,
                                              const ConsistentHash& algo) {
  std::vector<uint64_t> d;
  d.reserve(count);
  absl::Status s = ForEachKey(c.keyset, count, c.seed, [&](std::string_view k) {
    d.push_back(algo.HashKey(k));
  });
  if (!s.ok()) return s;
  return d;
}

void AddOverlapNote(const Cell& c, uint64_t count, RowNote* note) {
  if (!KeysOverlapAcrossSeeds(c.keyset, count)) return;
  note->n_eff = 1;
  absl::StrAppend(&note->text, note->text.empty() ? "" : "; ",
                  "n_eff = 1: ", count,
                  " keys of key set '", c.keyset,
                  "' exceed half of it, so repetitions share most keys");
}

absl::StatusOr<std::unique_ptr<ConsistentHash>> Built(
    const Cell& c, std::span<const NodeSpec> nodes) {
  absl::StatusOr<std::unique_ptr<ConsistentHash>> a =
      FindPreset(c.algorithm) != nullptr
          ? MakePreset(c.algorithm, "")
          : MakeAlgorithm(c.algorithm, c.Params());
  if (!a.ok()) return a.status();
  if (absl::Status s = (*a)->Build(nodes); !s.ok()) return s;
  return a;
}

std::vector<uint32_t> MapKeys(ConsistentHash& algo,
                              std::span<const uint64_t> digests,
                              std::span<const uint32_t> id_to_index) {
  std::vector<uint32_t> out(digests.size());
  if (algo.capabilities().stateful) {
    algo.PlaceBatch(digests, out);
    if (!id_to_index.empty()) {
      for (uint32_t& id : out) id = id_to_index[id];
    }
    return out;
  }
  // One virtual call for all keys: the algorithm's own batched loop (equal
  // to Lookup on every key, the conformance suite's check).
  algo.LookupBatch(digests, out);
  if (!id_to_index.empty()) {
    for (uint32_t& id : out) id = id_to_index[id];
  }
  return out;
}

std::vector<uint64_t> Loads(std::span<const uint32_t> owners, size_t n) {
  std::vector<uint64_t> loads(n, 0);
  for (uint32_t o : owners) ++loads[o];
  return loads;
}

TimingGroup MakeTimingGroup(std::span<const Cell* const> group) {
  const Cell& c = *group.front();
  TimingGroup g;
  g.kind = c.kind;
  g.nodes = c.nodes;
  g.keyset = c.keyset;
  g.scenario = c.scenario;
  g.seed = c.seed;
  g.num_keys = c.keys;
  g.rounds = c.rounds;
  g.min_time_s = c.min_time_s;
  // The peers model the full node set: none after removals.
  g.peers = c.removal.empty();
  // Build/add/remove: each measurement pays untimed rebuilds; cap its wall
  // time with the tier's min_time_s.
  g.build_wall_budget_s = std::min(0.5, 2.5 * c.min_time_s);
  // A kind without algorithms times its cells' hashes (registry.cc:
  // TimingGroupKey groups them by everything but the hash).
  const KindSchema* schema = FindKindSchema(c.kind);
  const bool times_hashes = schema != nullptr && !schema->takes_algorithm;
  for (const Cell* cell : group) {
    if (times_hashes) {
      g.hashes.push_back(cell->hash);
      continue;
    }
    TimingMember m;
    m.algorithm = cell->algorithm;
    m.params = cell->Params();
    m.placed_keys_per_node = cell->placed_keys_per_node;
    m.multithread = cell->multithread;
    m.batch = cell->batch;
    m.removal = cell->removal;
    m.removed = cell->removed;
    g.members.push_back(std::move(m));
  }
  return g;
}

std::vector<std::vector<ResultRow>> TimingRows(
    std::span<const Cell* const> group, const std::string& run_id,
    const TimingGroupResult& result) {
  std::vector<std::vector<ResultRow>> rows(group.size());
  // A kind whose cells have no key count (the timed builds) writes none,
  // whatever the samples count.
  const auto without_keys = [](const Cell& c) {
    const KindSchema* schema = FindKindSchema(c.kind);
    return schema != nullptr && schema->keys == KeysFrom::kNone;
  };
  for (const TimingSample& s : result.samples) {
    const Cell& c = *group[s.member];
    ResultRow base = BaseRow(c, run_id);
    base.algorithm = s.algorithm.empty() ? c.algorithm : s.algorithm;
    base.scenario = s.scenario;
    if (s.table_size) base.table_size = *s.table_size;
    if (without_keys(c)) {
      base.keys.reset();
    } else if (s.keys) {
      base.keys = s.keys;
    }
    if (s.placed_keys) base.placed_keys = s.placed_keys;
    if (s.threads) base.threads = s.threads;
    if (s.replicas) base.replicas = s.replicas;
    base.repetition.reset();
    base.noisy = s.noisy;
    if (s.values.size() <= 1) {
      Add(&rows[s.member], base, s.metric,
          s.values.empty() ? std::nullopt : std::optional<double>(s.values[0]),
          s.unit, s.note);
      continue;
    }
    for (size_t r = 0; r < s.values.size(); ++r) {
      base.repetition = r;
      Add(&rows[s.member], base, s.metric, s.values[r], s.unit, s.note);
    }
  }
  // The context rows carry the scenario of the cell's timings (lookup:
  // prehashed, string or weighted), or the cell's own where its timings mix
  // several (bounded_load: prehashed and placed), so that two cells that
  // differ only in it stay two rows apart in the summary.
  std::vector<std::optional<std::string>> scenario(group.size());
  std::vector<bool> mixed(group.size(), false);
  for (const TimingSample& s : result.samples) {
    std::optional<std::string>& sc = scenario[s.member];
    if (!sc.has_value()) {
      sc = s.scenario;
    } else if (*sc != s.scenario) {
      mixed[s.member] = true;
    }
  }
  for (size_t i = 0; i < group.size(); ++i) {
    ResultRow base = BaseRow(*group[i], run_id);
    base.repetition.reset();
    if (without_keys(*group[i])) base.keys.reset();
    if (mixed[i]) {
      base.scenario = group[i]->scenario;
    } else if (scenario[i].has_value()) {
      base.scenario = *scenario[i];
    }
    const std::string note =
        "whole timing group (interleaved cells), during its measurement";
    Add(&rows[i], base, "load_avg_1m", result.load_avg_1m, "load",
        "1-minute load average at the end of the timing group");
    Add(&rows[i], base, "cpu_steal_fraction", result.steal_fraction,
        "fraction",
        result.steal_fraction ? note
                              : "not applicable: /proc/stat unreadable");
    if (result.sentinel_ns) {
      Add(&rows[i], base, "sentinel_ns", result.sentinel_ns, "ns",
          absl::StrFormat(
              "%smachine-state sentinel (malloc, zero-fill, free of 8 KiB) "
              "in the group's rounds, median; process reference %.4g ns "
              "(%.2fx), %d whole-group re-measurement%s%s%s",
              result.slow_state ? "slow state: " : "",
              result.sentinel_reference_ns,
              *result.sentinel_ns / result.sentinel_reference_ns,
              result.slow_retries, result.slow_retries == 1 ? "" : "s",
              result.slow_retries > 0
                  ? absl::StrFormat(", after %.1f s of waiting for the "
                                    "fast state",
                                    result.slow_wait_s)
                  : "",
              result.retry_budget_spent
                  ? " (the run's re-measurement budget was spent)"
                  : ""));
    }
  }
  return rows;
}

}  // namespace kinds
}  // namespace chbench
