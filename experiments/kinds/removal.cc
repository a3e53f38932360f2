// Copyright 2026 The chbench Authors.
//
// The "removal" experiment kind: the failure scenarios of the MementoHash and
// AnchorHash papers. N nodes are built, then `removed` of them fail in the
// cell's order (workload/removal.h: random, fifo or lifo), through RemoveNode
// on the same instance. Rows: keys moved against the optimum (and the keys
// that moved although their node is still live: a monotone algorithm has
// none), the balance over the live nodes, and the memory after the removals.
// Scenario "incremental" also maps every key after every single removal and
// counts the keys that moved at a step without being on the node removed at
// that step (monotonicity checked step by step, not only at the end). Lookup
// time after removals is a timing kind: lookup cells with `removal`.

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/registry.h"
#include "experiments/kinds/common.h"
#include "experiments/metrics.h"
#include "workload/removal.h"

namespace chbench {
namespace kinds {

namespace {

// The incremental scenario maps every key after every step.
constexpr uint64_t kMaxIncrementalLookups = uint64_t{1} << 31;

}  // namespace

absl::StatusOr<std::vector<ResultRow>> RunRemoval(const Cell& c,
                                                  const std::string& run_id) {
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", c.algorithm, "'"));
  }
  RowNote note;
  const uint64_t m0 = CappedKeys(c, &note.text);
  const bool incremental = c.scenario == "incremental";
  if (incremental && m0 * c.removed > kMaxIncrementalLookups) {
    return absl::InvalidArgumentError(absl::StrCat(
        c.algorithm, ": incremental removal of ", c.removed, " nodes maps ",
        m0, " keys after each step (", m0 * c.removed, " lookups); at most ",
        kMaxIncrementalLookups, ": lower keys or nodes"));
  }
  absl::StatusOr<std::vector<uint32_t>> order =
      RemovalSequence(c.removal, c.nodes, c.removed, c.seed);
  if (!order.ok()) return order.status();
  const std::vector<NodeSpec> nodes = MakeNodes(c.nodes, c.seed);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, nodes);
  if (!algo.ok()) return algo.status();
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  ResultRow base = BaseRow(c, run_id);
  base.scenario = c.scenario;
  base.keys = d->size();
  AddOverlapNote(c, d->size(), &note);

  const std::vector<uint32_t> before = MapKeys(**algo, *d, {});
  std::vector<uint32_t> now = before;
  uint64_t step_violations = 0;
  // One-shot removal from an algorithm whose mapping depends only on the
  // live set (history_dependent == false, checked by the conformance suite):
  // a fresh instance of the survivors, which is the same mapping and avoids
  // r O(N) removals (ring, maglev, multiprobe at N = 10^5).
  const bool rebuild =
      !incremental && RebuildsSurvivors(info->capabilities, *order);
  std::vector<uint32_t> after;
  if (rebuild) {
    const SurvivingNodes live = Survivors(nodes, *order);
    absl::StatusOr<std::unique_ptr<ConsistentHash>> fresh =
        Built(c, live.nodes);
    if (!fresh.ok()) return fresh.status();
    after = MapKeys(**fresh, *d, live.index);
    *algo = std::move(*fresh);
  } else {
    for (uint32_t victim : *order) {
      if (absl::Status s = (*algo)->RemoveNode(victim); !s.ok()) return s;
      if (!incremental) continue;
      std::vector<uint32_t> next = MapKeys(**algo, *d, {});
      for (size_t k = 0; k < next.size(); ++k) {
        if (next[k] != now[k] && now[k] != victim) ++step_violations;
      }
      now = std::move(next);
    }
    after = incremental ? now : MapKeys(**algo, *d, {});
  }

  std::vector<ResultRow> rows;
  const DisruptionStats s = ComputeDisruption(before, after, c.nodes, c.nodes,
                                              std::nullopt, *order);
  Add(&rows, base, "moved_fraction", s.moved_fraction, "fraction", note);
  Add(&rows, base, "moved_optimal_fraction", s.moved_optimal_fraction,
      "fraction", note);
  Add(&rows, base, "moved_excess_fraction", s.moved_excess_fraction,
      "fraction",
      note.text.empty()
          ? RowNote{"keys that moved although their node is still live "
                    "(0: monotone)",
                    std::nullopt}
          : note);
  if (incremental) {
    Add(&rows, base, "step_moved_excess", static_cast<double>(step_violations),
        "keys",
        absl::StrCat("summed over the ", order->size(), " single removals: "
                     "keys that moved at a step although they were not on the "
                     "node removed at that step"));
  }
  // Balance over the live nodes.
  std::vector<bool> gone(c.nodes, false);
  for (uint32_t r : *order) gone[r] = true;
  std::vector<uint64_t> loads_all(c.nodes, 0);
  for (uint32_t o : after) ++loads_all[o];
  std::vector<uint64_t> loads;
  loads.reserve(c.nodes - order->size());
  for (uint32_t i = 0; i < c.nodes; ++i) {
    if (!gone[i]) loads.push_back(loads_all[i]);
  }
  const LoadStats b = ComputeLoadStats(loads);
  Add(&rows, base, "load_max_over_mean", b.max_over_mean, "ratio",
      absl::StrCat("over the ", loads.size(), " live nodes"));
  Add(&rows, base, "load_min_over_mean", b.min_over_mean, "ratio",
      absl::StrCat("over the ", loads.size(), " live nodes"));
  Add(&rows, base, "load_rel_stddev", b.rel_stddev, "ratio",
      absl::StrCat("over the ", loads.size(), " live nodes"));
  // Memory after the removals.
  ResultRow mem = base;
  mem.keys.reset();
  const double bytes = static_cast<double>((*algo)->MemoryBytes());
  Add(&rows, mem, "memory_bytes", bytes, "bytes", "after Build and the removals");
  Add(&rows, mem, "memory_bytes_per_node", bytes / c.nodes, "bytes",
      absl::StrCat("per node built (", c.nodes, "), after the removals"));
  return rows;
}

}  // namespace kinds
}  // namespace chbench
