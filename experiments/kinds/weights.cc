// Copyright 2026 The chbench Authors.
//
// The "weights" experiment kind: each node's share of the keys against its weight.

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

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

absl::StatusOr<std::vector<ResultRow>> RunWeights(const Cell& c,
                                                  const std::string& run_id) {
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", c.algorithm, "'"));
  }
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  const double total = std::accumulate(c.weights.begin(), c.weights.end(), 0.0);
  if (!info->capabilities.weights) {
    base.scenario = ClaimScenario(c, "measured");
    for (size_t i = 0; i < c.weights.size(); ++i) {
      base.node = i;
      base.weight = c.weights[i];
      Add(&rows, base, "share", std::nullopt, "fraction",
          absl::StrCat("not applicable: ", c.algorithm,
                       " does not support weights"));
    }
    return rows;
  }
  RowNote note;
  const uint64_t m0 = CappedKeys(c, &note.text);
  const std::vector<NodeSpec> nodes = MakeNodes(c.nodes, c.seed, c.weights);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, nodes);
  if (!algo.ok()) return algo.status();
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  base.keys = d->size();
  AddOverlapNote(c, d->size(), &note);
  const std::vector<uint64_t> loads = Loads(MapKeys(**algo, *d, {}), c.nodes);
  for (size_t i = 0; i < c.weights.size(); ++i) {
    base.node = i;
    base.weight = c.weights[i];
    base.scenario = ClaimScenario(c, "measured");
    Add(&rows, base, "share",
        static_cast<double>(loads[i]) / static_cast<double>(d->size()),
        "fraction", note);
    base.scenario = ClaimScenario(c, "analytic");
    Add(&rows, base, "share", c.weights[i] / total, "fraction", "w_i / sum w");
  }
  return rows;
}


}  // namespace kinds
}  // namespace chbench
