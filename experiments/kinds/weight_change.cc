// Copyright 2026 The chbench Authors.
//
// The "weight_change" experiment kind: one server's weight is multiplied by
// a factor (scenario x2, x0.5 or x0.1) and then set back, each through the
// interface a client calls (RemoveNode, then AddNode of the same name with
// the new weight), over a fixed key set. It measures the keys moved against
// the fewest any placement must move, on the change and on the return, and
// how many keys the return gives back to their first owner.
//
// The optimum: before, server i owns w_i / sum(w) of the keys; after, w'_i /
// sum(w'). At least the total variation between the two, 1/2 sum_i |w'_i /
// sum(w') - w_i / sum(w)|, must move; with one server changed that is the
// change of its own share. Algorithms start at weight 1 per server and
// presets at weight 10 (their weights are integers: x0.1 gives 1).

#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/kinds/common.h"

namespace chbench {
namespace kinds {
namespace {

// The factor of a scenario ("x2" -> 2), or 0 when it is not one.
double FactorOf(std::string_view scenario) {
  if (scenario == "x2") return 2;
  if (scenario == "x0.5") return 0.5;
  if (scenario == "x0.1") return 0.1;
  return 0;
}

// Total variation between the shares of two weight vectors.
double ShareDistance(const std::vector<double>& a,
                     const std::vector<double>& b) {
  const double sa = std::accumulate(a.begin(), a.end(), 0.0);
  const double sb = std::accumulate(b.begin(), b.end(), 0.0);
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += std::abs(b[i] / sb - a[i] / sa);
  return d / 2;
}

double MovedFraction(const std::vector<uint32_t>& a,
                     const std::vector<uint32_t>& b) {
  uint64_t moved = 0;
  for (size_t i = 0; i < a.size(); ++i) moved += a[i] != b[i];
  return static_cast<double>(moved) / static_cast<double>(a.size());
}

}  // namespace

absl::StatusOr<std::vector<ResultRow>> RunWeightChange(
    const Cell& c, const std::string& run_id) {
  const double factor = FactorOf(c.scenario);
  if (factor == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "weight_change: scenario '", c.scenario, "'; valid: x2, x0.5, x0.1"));
  }
  const bool preset = FindPreset(c.algorithm) != nullptr;
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (!preset && info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", c.algorithm, "'"));
  }
  const size_t n = c.nodes;
  const double base_weight = preset ? 10 : 1;
  std::vector<double> before(n, base_weight);
  std::vector<double> after = before;
  after[0] = base_weight * factor;

  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  base.scenario = ClaimScenario(c, c.scenario);
  base.node = 0;
  base.weight = after[0];
  std::vector<NodeSpec> nodes =
      preset ? PresetServers(n) : MakeNodes(n, c.seed, before);
  for (NodeSpec& s : nodes) s.weight = base_weight;
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
      preset ? MakePreset(c.algorithm, "")
             : MakeAlgorithm(c.algorithm, c.Params());
  if (!algo.ok()) return algo.status();
  if (!(*algo)->capabilities().weights) {
    const std::string na = absl::StrCat("not applicable: ", c.algorithm,
                                        " does not support weights");
    for (const char* metric : {"weight_change_moved_over_optimum",
                               "weight_change_back_moved_over_optimum",
                               "weight_change_restored_fraction"}) {
      Add(&rows, base, metric, std::nullopt,
          absl::StrContains(metric, "fraction") ? "fraction" : "ratio", na);
    }
    return rows;
  }
  if (absl::Status s = (*algo)->Build(nodes); !s.ok()) return s;
  RowNote note;
  const uint64_t m0 = CappedKeys(c, &note.text);
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  base.keys = d->size();
  AddOverlapNote(c, d->size(), &note);

  // Ids: the server re-added gets a fresh id each time; all map to index 0.
  std::vector<uint32_t> index(n + 2);
  std::iota(index.begin(), index.begin() + n, 0u);
  index[n] = index[n + 1] = 0;
  const std::vector<uint32_t> first = MapKeys(**algo, *d, index);

  // The change, then the return, each as RemoveNode + AddNode.
  auto set_weight = [&](NodeId id, double w) -> absl::StatusOr<NodeId> {
    if (absl::Status s = (*algo)->RemoveNode(id); !s.ok()) return s;
    NodeSpec spec = nodes[0];
    spec.weight = w;
    return (*algo)->AddNode(spec);
  };
  absl::StatusOr<NodeId> changed = set_weight(0, after[0]);
  if (!changed.ok()) return changed.status();
  if (*changed != n) {
    return absl::InternalError(absl::StrCat("weight_change: ", c.algorithm,
                                            " gave the re-added server id ",
                                            *changed, ", expected ", n));
  }
  const std::vector<uint32_t> second = MapKeys(**algo, *d, index);
  absl::StatusOr<NodeId> restored = set_weight(*changed, before[0]);
  if (!restored.ok()) return restored.status();
  if (*restored != n + 1) {
    return absl::InternalError(absl::StrCat("weight_change: ", c.algorithm,
                                            " gave the re-added server id ",
                                            *restored, ", expected ", n + 1));
  }
  const std::vector<uint32_t> third = MapKeys(**algo, *d, index);

  const double optimum = ShareDistance(before, after);
  const double moved = MovedFraction(first, second);
  const double moved_back = MovedFraction(second, third);
  Add(&rows, base, "moved_fraction", moved, "fraction", note);
  Add(&rows, base, "moved_optimal_fraction", optimum, "fraction",
      "the change of the server's share, w' / sum(w') - w / sum(w)");
  Add(&rows, base, "weight_change_moved_over_optimum", moved / optimum, "ratio",
      note);
  Add(&rows, base, "weight_change_back_moved_over_optimum",
      moved_back / optimum, "ratio", note);
  Add(&rows, base, "weight_change_restored_fraction",
      1 - MovedFraction(first, third), "fraction", note);
  return rows;
}

}  // namespace kinds
}  // namespace chbench
