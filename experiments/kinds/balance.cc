// Copyright 2026 The chbench Authors.
//
// The "balance" experiment kind: keys per node over the nodes (max/mean,
// min/mean, relative stddev, chi-squared p-value), each node's share of the
// digest space where the algorithm gives it without keys
// (exact_max_over_mean, exact_min_over_mean), and the analytic expectation of
// the row's balance model (none for multi-probe).

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

absl::StatusOr<std::vector<ResultRow>> RunBalance(const Cell& c,
                                                  const std::string& run_id) {
  RowNote note;
  const uint64_t m0 = CappedKeys(c, &note.text);
  const std::vector<NodeSpec> nodes = MakeNodes(c.nodes, c.seed);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, nodes);
  if (!algo.ok()) return algo.status();
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  const uint64_t m = d->size();
  AddOverlapNote(c, m, &note);
  const std::vector<uint64_t> loads = Loads(MapKeys(**algo, *d, {}), c.nodes);
  const LoadStats s = ComputeLoadStats(loads);
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  base.keys = m;
  base.scenario = ClaimScenario(c, "measured");
  Add(&rows, base, "load_max_over_mean", s.max_over_mean, "ratio", note);
  Add(&rows, base, "load_min_over_mean", s.min_over_mean, "ratio", note);
  Add(&rows, base, "load_rel_stddev", s.rel_stddev, "ratio", note);
  Add(&rows, base, "load_chi2_pvalue", s.chi2_pvalue, "probability", note);
  Add(&rows, base, "load_max", static_cast<double>(s.max), "keys", note);
  Add(&rows, base, "load_min", static_cast<double>(s.min), "keys", note);
  // Ownership without keys: each node's share of the digest space.
  const std::vector<double> shares = (*algo)->DigestSpaceShares();
  if (!shares.empty()) {
    const double mean = 1.0 / static_cast<double>(shares.size());
    const auto [lo, hi] = std::minmax_element(shares.begin(), shares.end());
    const std::string source =
        (*algo)->DigestShareSource() ==
                ConsistentHash::ShareSource::kFromState
            ? "exact share of the digest space, from the state (no keys)"
            : "share of the digest space by the algorithm's construction "
              "(uniform over live buckets; no keys)";
    ResultRow exact = base;
    exact.keys.reset();
    exact.scenario = ClaimScenario(c, "exact");
    Add(&rows, exact, "exact_max_over_mean", *hi / mean, "ratio", source);
    Add(&rows, exact, "exact_min_over_mean", *lo / mean, "ratio", source);
  }
  base.scenario = ClaimScenario(c, "analytic");
  // The analytic model is the row's balance model (algorithms/registry.h).
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  const BalanceModel model_kind =
      info != nullptr ? info->conformance.balance : BalanceModel::kBinomial;
  if (model_kind == BalanceModel::kCapacity) {
    const double bound = BoundedLoadBound(m, c.nodes, *c.load_factor);
    Add(&rows, base, "load_max_over_mean", bound, "ratio",
        "bound ceil(c*m/n)/(m/n) (Mirrokni et al. 2018)");
    Add(&rows, base, "load_max", bound * m / c.nodes, "keys",
        "bound ceil(c*m/n)");
    return rows;
  }
  // Multi-probe's shares depend on where the probes' nearest points fall;
  // there is no closed model to compare with (the ideal-uniform one would
  // hide its starved nodes), so it gets none.
  if (model_kind == BalanceModel::kMultiProbe) return rows;
  AnalyticBalance a;
  std::string model;
  if (model_kind == BalanceModel::kRingPoints) {
    a = RingBalance(m, c.nodes, *c.vnodes);
    model =
        c.vnodes == 1
            ? "ring, v = 1: expected extremes of n uniform spacings (max "
              "H_n/n, min 1/n^2 of the circle), exact for the shares; "
              "compare with the measured mean"
            : "ring: expected values of a fixed-seed Monte-Carlo of shares "
              "Dirichlet(v, ..., v) plus multinomial keys; compare with the "
              "measured mean (results/README.md)";
  } else {
    a = IdealUniformBalance(m, c.nodes);
    model =
        "ideal uniform: expected values of a fixed-seed Monte-Carlo of "
        "multinomial loads; compare with the measured mean "
        "(results/README.md)";
  }
  Add(&rows, base, "load_max_over_mean", a.max_over_mean, "ratio", model);
  Add(&rows, base, "load_min_over_mean", a.min_over_mean, "ratio", model);
  Add(&rows, base, "load_rel_stddev", a.rel_stddev, "ratio", model);
  Add(&rows, base, "load_chi2_pvalue", a.chi2_pvalue, "probability",
      "p-value of the expected chi-squared statistic");
  Add(&rows, base, "load_max", a.load_max, "keys", model);
  Add(&rows, base, "load_min", a.load_min, "keys", model);
  return rows;
}


}  // namespace kinds
}  // namespace chbench
