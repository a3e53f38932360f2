// Copyright 2026 The chbench Authors.
//
// The weight_change kind against independent computations: the moved
// fraction against two fresh builds, the optimum against the shares'
// formula, the return against the first mapping.

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "experiments/kinds/common.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "workload/keyset.h"

namespace chbench {
namespace kinds {

absl::StatusOr<std::vector<ResultRow>> RunWeightChange(const Cell&,
                                                       const std::string&);

namespace {

using ::testing::HasSubstr;

Cell WeightChangeCell(std::string algorithm, uint32_t n, std::string scenario) {
  Cell c;
  c.experiment = "weights";
  c.kind = "weight_change";
  c.algorithm = std::move(algorithm);
  c.hash = "xxh64";
  c.keyset = "uniform";
  c.nodes = n;
  c.scenario = std::move(scenario);
  c.keys = 20000;
  c.seed = 3;
  return c;
}

std::map<std::string, std::optional<double>> ChangeRows(
    const std::vector<ResultRow>& rows) {
  std::map<std::string, std::optional<double>> out;
  for (const ResultRow& row : rows) {
    EXPECT_TRUE(out.emplace(row.metric, row.value).second) << row.metric;
  }
  return out;
}

// The owner (as a node index) of each key of `c` on a fresh build of its
// algorithm with node i's weight `w[i]`, the nodes given in `order`: a
// server re-added by the kind is last in the live order, which Maglev's
// turns follow (ring and rendezvous do not depend on it).
std::vector<size_t> FreshOwners(const Cell& c, const std::vector<size_t>& order,
                                const std::vector<double>& w) {
  const std::vector<NodeSpec> all = MakeNodes(c.nodes, c.seed, w);
  std::vector<NodeSpec> nodes;
  for (size_t i : order) nodes.push_back(all[i]);
  std::unique_ptr<ConsistentHash> algo =
      MakeAlgorithm(c.algorithm, c.Params()).value();
  EXPECT_TRUE(algo->Build(nodes).ok());
  const std::vector<std::string> keys =
      GenerateKeys(c.keyset, c.keys, c.seed).value();
  std::vector<size_t> out;
  for (const std::string& k : keys) {
    out.push_back(order[algo->Lookup(algo->HashKey(k))]);
  }
  return out;
}

double Differ(const std::vector<size_t>& a, const std::vector<size_t>& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
  return static_cast<double>(n) / static_cast<double>(a.size());
}

TEST(WeightChangeTest, EqualsFreshBuildsInTheLiveOrder) {
  for (const char* algorithm : {"ring", "rendezvous", "maglev"}) {
    for (const char* scenario : {"x2", "x0.5", "x0.1"}) {
      SCOPED_TRACE(absl::StrCat(algorithm, " ", scenario));
      const Cell c = WeightChangeCell(algorithm, 10, scenario);
      absl::StatusOr<std::vector<ResultRow>> rows = RunWeightChange(c, "t");
      ASSERT_TRUE(rows.ok()) << rows.status();
      const auto m = ChangeRows(*rows);
      const double f = std::string(scenario) == "x2"     ? 2
                       : std::string(scenario) == "x0.5" ? 0.5
                                                         : 0.1;
      std::vector<double> before(10, 1.0), after = before;
      after[0] = f;
      std::vector<size_t> first(10), last(10);
      for (size_t i = 0; i < 10; ++i) {
        first[i] = i;
        last[i] = (i + 1) % 10;  // node 0 re-added: last
      }
      const std::vector<size_t> a = FreshOwners(c, first, before);
      const std::vector<size_t> b = FreshOwners(c, last, after);
      const std::vector<size_t> r = FreshOwners(c, last, before);
      // The optimum: the change of the server's share.
      const double opt = std::abs(f / (9 + f) - 0.1);
      EXPECT_NEAR(*m.at("moved_optimal_fraction"), opt, 1e-15);
      EXPECT_DOUBLE_EQ(*m.at("moved_fraction"), Differ(a, b));
      EXPECT_NEAR(*m.at("weight_change_moved_over_optimum"), Differ(a, b) / opt,
                  1e-12);
      EXPECT_NEAR(*m.at("weight_change_back_moved_over_optimum"),
                  Differ(b, r) / opt, 1e-12);
      EXPECT_DOUBLE_EQ(*m.at("weight_change_restored_fraction"),
                       1 - Differ(a, r));
      if (std::string(algorithm) != "maglev") {
        // The order does not matter: the return restores every key.
        EXPECT_EQ(*m.at("weight_change_restored_fraction"), 1.0);
      }
      for (const ResultRow& row : *rows) {
        EXPECT_EQ(row.node.value_or(99), 0u);
        EXPECT_DOUBLE_EQ(row.weight.value_or(-1), f);
        EXPECT_EQ(row.scenario, scenario);
      }
    }
  }
  // Minimal disruption: the ring moves only keys to or from the changed
  // server, so about the optimum (sampling and its arc lengths aside).
  const auto ring = ChangeRows(
      RunWeightChange(WeightChangeCell("ring", 10, "x2"), "t").value());
  EXPECT_GT(*ring.at("weight_change_moved_over_optimum"), 0.5);
  EXPECT_LT(*ring.at("weight_change_moved_over_optimum"), 1.5);
}

TEST(WeightChangeTest,
     PresetsStartAtWeightTenAndUnweightedOnesAreNotApplicable) {
  const auto nginx = ChangeRows(
      RunWeightChange(WeightChangeCell("nginx", 10, "x0.1"), "t").value());
  // 10 -> 1: the server's share falls from 1/10 to 1/91.
  EXPECT_NEAR(*nginx.at("moved_optimal_fraction"), std::abs(1.0 / 91 - 0.1),
              1e-15);
  EXPECT_GT(*nginx.at("moved_fraction"), 0.0);
  absl::StatusOr<std::vector<ResultRow>> jump =
      RunWeightChange(WeightChangeCell("jump", 10, "x2"), "t");
  ASSERT_TRUE(jump.ok()) << jump.status();
  ASSERT_EQ(jump->size(), 3u);
  for (const ResultRow& r : *jump) {
    EXPECT_FALSE(r.value.has_value());
    EXPECT_THAT(r.note, HasSubstr("not applicable: jump does not support "
                                  "weights"));
  }
  absl::StatusOr<std::vector<ResultRow>> bad =
      RunWeightChange(WeightChangeCell("ring", 10, "x3"), "t");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("scenario 'x3'; valid: x2, x0.5, x0.1"));
}

}  // namespace
}  // namespace kinds
}  // namespace chbench

namespace chbench {
namespace kinds {

absl::StatusOr<std::vector<ResultRow>> RunWeightMix(const Cell&,
                                                    const std::string&);
std::vector<double> MixedWeights(size_t n, uint64_t seed);

namespace {

// The mix: round(0.6 N) servers of weight 1, round(0.3 N) of weight 2, the
// rest 4, in an order that depends on the seed.
TEST(WeightMixTest, LayoutsHoldTheMixInASeededOrder) {
  for (size_t n : {10u, 100u, 1000u, 7u}) {
    const std::vector<double> w = MixedWeights(n, 1);
    EXPECT_EQ(std::count(w.begin(), w.end(), 1.0),
              static_cast<long>(std::llround(0.6 * n)));
    EXPECT_EQ(std::count(w.begin(), w.end(), 2.0),
              static_cast<long>(std::llround(0.3 * n)));
    EXPECT_EQ(w, MixedWeights(n, 1));
    if (n >= 10) {
      EXPECT_NE(w, MixedWeights(n, 2));
    }
  }
}

// The ring's errors come from its exact shares (arc lengths): recomputed
// here from a ring built on the same layout, and the keys' shares only
// where no exact shares exist (rendezvous).
TEST(WeightMixTest, ErrorsAreTheExactSharesDistribution) {
  Cell c = WeightChangeCell("ring", 100, "");
  c.kind = "weight_mix";
  c.vnodes = 100;
  const auto m = ChangeRows(RunWeightMix(c, "t").value());
  const std::vector<double> w = MixedWeights(100, c.seed);
  std::unique_ptr<ConsistentHash> ring =
      MakeAlgorithm("ring", c.Params()).value();
  ASSERT_TRUE(ring->Build(MakeNodes(100, c.seed, w)).ok());
  const std::vector<double> shares = ring->DigestSpaceShares();
  ASSERT_EQ(shares.size(), 100u);
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  std::vector<double> err;
  for (size_t i = 0; i < 100; ++i) {
    err.push_back(std::abs(shares[i] * total / w[i] - 1));
  }
  std::sort(err.begin(), err.end());
  EXPECT_NEAR(*m.at("weight_share_error_median"), (err[49] + err[50]) / 2,
              1e-12);
  EXPECT_NEAR(*m.at("weight_share_error_p95"), err[94], 1e-12);
  EXPECT_NEAR(*m.at("weight_share_error_max"), err[99], 1e-12);
  // 100 points per unit weight: a server's share is off by about 1/sqrt(100
  // w) -- a few percent to tens of percent, never zero.
  EXPECT_GT(*m.at("weight_share_error_median"), 0.01);
  EXPECT_LT(*m.at("weight_share_error_median"), 0.5);

  Cell r = WeightChangeCell("rendezvous", 10, "");
  r.kind = "weight_mix";
  absl::StatusOr<std::vector<ResultRow>> rows = RunWeightMix(r, "t");
  ASSERT_TRUE(rows.ok()) << rows.status();
  for (const ResultRow& row : *rows) {
    EXPECT_EQ(row.scenario, "measured");
    EXPECT_THAT(row.note, HasSubstr("sampling error"));
  }
}

}  // namespace
}  // namespace kinds
}  // namespace chbench
