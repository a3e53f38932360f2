// Copyright 2026 The chbench Authors.
//
// The "disruption" experiment kind: keys moved when nodes join or leave, against the optimum.

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "algorithms/registry.h"
#include "algorithms/util/alloc_counter.h"
#include "algorithms/util/random.h"
#include "experiments/kinds/common.h"
#include "experiments/metrics.h"

namespace chbench {
namespace kinds {

absl::StatusOr<std::vector<ResultRow>> RunDisruption(
    const Cell& c, const std::string& run_id) {
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", c.algorithm, "'"));
  }
  RowNote note;
  const uint64_t m0 = CappedKeys(c, &note.text);
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  std::string scenario = c.scenario;
  const uint32_t n = c.nodes;
  const bool arbitrary = info->capabilities.arbitrary_removal;
  const bool single_random = scenario == "remove_random";
  if (!arbitrary && single_random) {
    scenario = "remove_last";
    note.text = absl::StrCat(note.text, note.text.empty() ? "" : "; ",
                             c.algorithm,
                             " removes only the last node: remove_last "
                             "recorded instead of remove_random");
  }
  base.scenario = ClaimScenario(c, scenario);
  if (!arbitrary && absl::EndsWith(scenario, "pct_random")) {
    const std::string na = absl::StrCat("not applicable: ", c.algorithm,
                                        " can remove only the last node");
    base.keys = m0;
    for (const char* metric : {"moved_fraction", "moved_optimal_fraction",
                               "moved_excess_fraction", "load_max"}) {
      Add(&rows, base, metric, std::nullopt,
          std::string_view(metric) == "load_max" ? "keys" : "fraction", na);
    }
    return rows;
  }
  // Which nodes leave.
  std::vector<uint32_t> removed;
  std::optional<uint32_t> added;
  if (scenario == "add") {
    added = n;
  } else if (scenario == "remove_last") {
    removed = {n - 1};
  } else if (scenario == "remove_random") {
    Sfc64 rng(c.seed ^ 0x72656d6f7665ULL);  // "remove"
    removed = {static_cast<uint32_t>(rng.Below(n))};
  } else {
    int pct = 0;
    const std::vector<std::string> parts = absl::StrSplit(scenario, '_');
    if (parts.size() != 3 ||
        !absl::SimpleAtoi(absl::StripSuffix(parts[1], "pct"), &pct)) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown disruption scenario '", scenario, "'"));
    }
    uint32_t r = static_cast<uint32_t>(std::llround(n * pct / 100.0));
    r = std::clamp<uint32_t>(r, 1, n - 1);
    if (parts[2] == "lifo") {
      for (uint32_t i = n - r; i < n; ++i) removed.push_back(i);
    } else {
      std::vector<uint32_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      Sfc64 rng(c.seed ^ 0x72656d6f7665ULL);
      for (uint32_t i = 0; i < r; ++i) {
        std::swap(order[i], order[i + rng.Below(n - i)]);
      }
      removed.assign(order.begin(), order.begin() + r);
      std::sort(removed.begin(), removed.end());
    }
  }
  const std::vector<NodeSpec> nodes = MakeNodes(n + 1, c.seed);
  const std::span<const NodeSpec> before_nodes(nodes.data(), n);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, before_nodes);
  if (!algo.ok()) return algo.status();
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  base.keys = d->size();
  AddOverlapNote(c, d->size(), &note);
  const std::vector<uint32_t> before = MapKeys(**algo, *d, {});
  std::vector<uint32_t> after;
  const bool stateful = info->capabilities.stateful;
  const bool history = info->capabilities.history_dependent;
  if (!stateful && (added || removed.size() == 1 || history)) {
    // Dynamic operations on the same instance (ids are the indices): one
    // add or removal, or every removal of a batch for an algorithm whose
    // mapping depends on the order of changes (anchor, memento, dx), which a
    // fresh instance of the survivors would not reproduce.
    if (added) {
      absl::StatusOr<NodeId> id = (*algo)->AddNode(nodes[n]);
      if (absl::IsFailedPrecondition(id.status())) {
        // The algorithm cannot grow here (anchor at its fixed capacity):
        // recorded, not an error.
        const std::string na =
            absl::StrCat("not applicable: ", id.status().message());
        for (const char* metric : {"moved_fraction", "moved_optimal_fraction",
                                   "moved_excess_fraction", "load_max"}) {
          Add(&rows, base, metric, std::nullopt,
              std::string_view(metric) == "load_max" ? "keys" : "fraction",
              na);
        }
        return rows;
      }
      if (!id.ok()) return id.status();
      if (*id != n) {
        return absl::InternalError(absl::StrCat(
            c.algorithm, ": AddNode gave id ", *id, ", expected ", n));
      }
    } else {
      for (uint32_t r : removed) {
        if (absl::Status s = (*algo)->RemoveNode(r); !s.ok()) return s;
      }
    }
    after = MapKeys(**algo, *d, {});
  } else {
    // A fresh instance with the node set after the change (stateful
    // algorithms re-place every key in key order; batch removals).
    std::vector<NodeSpec> after_nodes;
    std::vector<uint32_t> id_to_index;
    std::vector<bool> gone(n + 1, false);
    for (uint32_t r : removed) gone[r] = true;
    for (uint32_t i = 0; i < (added ? n + 1 : n); ++i) {
      if (gone[i]) continue;
      after_nodes.push_back(nodes[i]);
      id_to_index.push_back(i);
    }
    absl::StatusOr<std::unique_ptr<ConsistentHash>> b = Built(c, after_nodes);
    if (!b.ok()) return b.status();
    after = MapKeys(**b, *d, id_to_index);
  }
  const DisruptionStats s =
      ComputeDisruption(before, after, n, n + 1, added, removed);
  Add(&rows, base, "moved_fraction", s.moved_fraction, "fraction", note);
  Add(&rows, base, "moved_optimal_fraction", s.moved_optimal_fraction,
      "fraction", note);
  Add(&rows, base, "moved_excess_fraction", s.moved_excess_fraction, "fraction",
      note);
  if (s.receivers) {
    Add(&rows, base, "receivers", static_cast<double>(*s.receivers), "nodes",
        note);
  }
  Add(&rows, base, "load_max", static_cast<double>(s.load_max), "keys", note);
  return rows;
}


}  // namespace kinds
}  // namespace chbench
