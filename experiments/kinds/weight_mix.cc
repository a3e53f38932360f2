// Copyright 2026 The chbench Authors.
//
// The "weight_mix" experiment kind: N servers of mixed generations, 60 %
// of weight 1, 30 % of weight 2 and 10 % of weight 4 (rounded: round(0.6 N)
// of weight 1, round(0.3 N) of weight 2, the rest 4), the weights dealt to
// the seed's server names by a seeded shuffle, so each seed is one layout.
// Per layout it reports the distribution over the servers of the share
// error |share_i / (w_i / sum w) - 1|: median, 95th percentile (nearest
// rank) and worst. The shares are the digest-space shares where the state
// gives them exactly (ring arcs, Maglev slots: ConsistentHash::
// DigestSpaceShares, no keys and no sampling error); otherwise the keys'
// shares (rendezvous, presets), whose sampling error the note states.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "algorithms/util/random.h"
#include "experiments/kinds/common.h"

namespace chbench {
namespace kinds {

// The weights of N servers of the mix, in server order, dealt by a shuffle
// seeded with `seed` (Fisher-Yates over SplitMix64). Not static: the
// kind's test deals the same layouts.
std::vector<double> MixedWeights(size_t n, uint64_t seed) {
  const size_t ones = static_cast<size_t>(std::llround(0.6 * n));
  const size_t twos =
      std::min(n - ones, static_cast<size_t>(std::llround(0.3 * n)));
  std::vector<double> w(n, 4.0);
  std::fill(w.begin(), w.begin() + ones, 1.0);
  std::fill(w.begin() + ones, w.begin() + ones + twos, 2.0);
  SplitMix64 rng(seed ^ 0x6d69786564ULL);  // "mixed"
  for (size_t i = n; i > 1; --i) {
    std::swap(w[i - 1], w[rng() % i]);
  }
  return w;
}

absl::StatusOr<std::vector<ResultRow>> RunWeightMix(const Cell& c,
                                                    const std::string& run_id) {
  const bool preset = FindPreset(c.algorithm) != nullptr;
  if (!preset && FindAlgorithm(c.algorithm) == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", c.algorithm, "'"));
  }
  const size_t n = c.nodes;
  const std::vector<double> weights = MixedWeights(n, c.seed);
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
      preset ? MakePreset(c.algorithm, "")
             : MakeAlgorithm(c.algorithm, c.Params());
  if (!algo.ok()) return algo.status();
  static constexpr const char* kMetrics[] = {"weight_share_error_median",
                                             "weight_share_error_p95",
                                             "weight_share_error_max"};
  if (!(*algo)->capabilities().weights) {
    for (const char* metric : kMetrics) {
      Add(&rows, base, metric, std::nullopt, "fraction",
          absl::StrCat("not applicable: ", c.algorithm,
                       " does not support weights"));
    }
    return rows;
  }
  std::vector<NodeSpec> nodes =
      preset ? PresetServers(n) : MakeNodes(n, c.seed, weights);
  for (size_t i = 0; i < n; ++i) nodes[i].weight = weights[i];
  if (absl::Status s = (*algo)->Build(nodes); !s.ok()) return s;

  std::vector<double> shares = (*algo)->DigestSpaceShares();
  RowNote note;
  if (shares.size() == n) {
    base.scenario = "exact";
    note.text =
        (*algo)->DigestShareSource() == ConsistentHash::ShareSource::kFromState
            ? "exact shares of the digest space, from the state"
            : "shares of the digest space by construction";
  } else {
    base.scenario = "measured";
    const uint64_t m0 = CappedKeys(c, &note.text);
    absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
    if (!d.ok()) return d.status();
    base.keys = d->size();
    AddOverlapNote(c, d->size(), &note);
    const std::vector<uint64_t> loads = Loads(MapKeys(**algo, *d, {}), n);
    shares.resize(n);
    for (size_t i = 0; i < n; ++i) {
      shares[i] =
          static_cast<double>(loads[i]) / static_cast<double>(d->size());
    }
    // The sampling error alone of the lightest server's share (binomial).
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    const double p = 1.0 / total;
    absl::StrAppend(
        &note.text, note.text.empty() ? "" : "; ", "shares of ", d->size(),
        " keys: a weight-1 server's share has a sampling error "
        "of about ",
        absl::StrFormat("%.2g", std::sqrt((1 - p) / (p * d->size()))),
        " (one standard deviation, relative)");
  }
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<double> err(n);
  for (size_t i = 0; i < n; ++i) {
    err[i] = std::abs(shares[i] / (weights[i] / total) - 1);
  }
  std::sort(err.begin(), err.end());
  // Nearest-rank percentiles: the ceil(q n)-th smallest.
  auto rank = [&](double q) {
    const size_t k = static_cast<size_t>(std::ceil(q * static_cast<double>(n)));
    return err[std::clamp<size_t>(k, 1, n) - 1];
  };
  const double median =
      n % 2 == 1 ? err[n / 2] : (err[n / 2 - 1] + err[n / 2]) / 2;
  Add(&rows, base, kMetrics[0], median, "fraction", note);
  Add(&rows, base, kMetrics[1], rank(0.95), "fraction", note);
  Add(&rows, base, kMetrics[2], err.back(), "fraction", note);
  return rows;
}

}  // namespace kinds
}  // namespace chbench
