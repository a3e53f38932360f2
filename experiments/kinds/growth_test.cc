// Copyright 2026 The chbench Authors.
//
// The growth kind (growth.cc): its keys-moved sums against an independent
// computation (every step's node set built from scratch, every key mapped
// again), the optimum it divides by, its row count and order, byte-identical
// rows across runs, and the algorithms that cannot grow without room.

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "experiments/csv.h"
#include "experiments/kinds/common.h"
#include "experiments/kinds/kind.h"
#include "experiments/result_row.h"
#include "experiments/spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

Cell GrowthCell(const std::string& algorithm, uint32_t nodes, uint64_t keys,
                uint64_t seed = 3) {
  Cell c;
  c.experiment = "growth";
  c.kind = "growth";
  c.algorithm = algorithm;
  c.hash = "xxh64";
  c.keyset = "uniform";
  c.nodes = nodes;
  c.keys = keys;
  c.seed = seed;
  return c;
}

std::vector<ResultRow> RunGrowthCell(const Cell& c) {
  const KindInfo* kind = FindKind("growth");
  EXPECT_NE(kind, nullptr);
  absl::StatusOr<std::vector<ResultRow>> rows = kind->run_cell(c, "test");
  EXPECT_TRUE(rows.ok()) << rows.status();
  return rows.ok() ? *rows : std::vector<ResultRow>{};
}

// metric -> value by step.
std::map<std::string, std::map<uint64_t, double>> ByMetric(
    const std::vector<ResultRow>& rows) {
  std::map<std::string, std::map<uint64_t, double>> out;
  for (const ResultRow& r : rows) {
    if (r.value) out[r.metric][*r.step] = *r.value;
  }
  return out;
}

// The two history-independent algorithms (a fresh build of the live nodes
// maps every key as the grown instance does): the kind's per-step and
// cumulative moved/optimum equal a from-scratch recount, step by step.
TEST(GrowthKindTest, MovedSumsMatchAFromScratchRecount) {
  for (const std::string alg : {"ring", "jump"}) {
    SCOPED_TRACE(alg);
    const uint32_t n0 = 12;
    const Cell c = GrowthCell(alg, n0, 20000);
    const auto got = ByMetric(RunGrowthCell(c));
    const std::vector<NodeSpec> nodes = kinds::MakeNodes(2 * n0, c.seed);
    // The owners with the first n nodes, from a fresh instance.
    const auto owners = [&](uint32_t n) {
      absl::StatusOr<std::unique_ptr<ConsistentHash>> a =
          kinds::Built(c, std::span<const NodeSpec>(nodes.data(), n));
      EXPECT_TRUE(a.ok());
      absl::StatusOr<std::vector<uint64_t>> d =
          kinds::Digests(c, c.keys, **a);
      EXPECT_TRUE(d.ok());
      return kinds::MapKeys(**a, *d, {});
    };
    std::vector<uint32_t> prev = owners(n0);
    const double k = static_cast<double>(prev.size());
    double moved_sum = 0, optimum_sum = 0;
    uint32_t n = n0;
    for (uint64_t step = 1; step <= 2 * n0; ++step) {
      const bool grow = step <= n0;
      const double optimum = grow ? k / (n + 1) : k / n;
      n = grow ? n + 1 : n - 1;
      const std::vector<uint32_t> now = owners(n);
      double moved = 0;
      for (size_t i = 0; i < now.size(); ++i) moved += now[i] != prev[i];
      prev = now;
      moved_sum += moved;
      optimum_sum += optimum;
      EXPECT_DOUBLE_EQ(got.at("moved_over_optimum").at(step), moved / optimum)
          << step;
      EXPECT_DOUBLE_EQ(got.at("cumulative_moved_over_optimum").at(step),
                       moved_sum / optimum_sum)
          << step;
    }
    // Both are minimal: every move is to the joining node or from the
    // leaving one, so the sum is near the optimum.
    EXPECT_NEAR(got.at("cumulative_moved_over_optimum").at(2 * n0), 1.0, 0.1);
  }
}

// The optimum is K/(n+1) for a join to n nodes: modulo, which moves about
// n/(n+1) of the keys on every join, is about n times it.
TEST(GrowthKindTest, OptimumOfAJoinIsOneShareOfTheNewNodeCount) {
  const auto got = ByMetric(RunGrowthCell(GrowthCell("modulo", 10, 50000)));
  EXPECT_NEAR(got.at("moved_over_optimum").at(1), 10.0, 0.3);   // 10 -> 11
  EXPECT_NEAR(got.at("moved_over_optimum").at(10), 19.0, 0.5);  // 19 -> 20
  // Leaving 20 -> 19: about 19/20 of the keys move, optimum K/20.
  EXPECT_NEAR(got.at("moved_over_optimum").at(11), 19.0, 0.5);
}

// Step 0 has balance and memory; each of the 2N steps has four rows, in
// step order, with its scenario and keys.
TEST(GrowthKindTest, RowCountAndColumns) {
  const uint32_t n0 = 10;
  const std::vector<ResultRow> rows = RunGrowthCell(GrowthCell("jumpback", n0, 5000));
  ASSERT_EQ(rows.size(), 2 + 4 * 2 * n0 + 2);
  std::map<std::string, int> per_metric;
  for (const ResultRow& r : rows) {
    ASSERT_TRUE(r.step.has_value());
    ASSERT_TRUE(r.value.has_value()) << r.metric << " " << *r.step;
    EXPECT_EQ(*r.nodes, n0);
    const std::string want = *r.step == 0       ? "start"
                             : *r.step <= n0 ? "grow"
                                             : "shrink";
    EXPECT_EQ(r.scenario, want) << *r.step;
    EXPECT_EQ(r.keys.has_value(), r.metric != "memory_bytes") << r.metric;
    ++per_metric[r.metric];
  }
  EXPECT_EQ(per_metric["moved_over_optimum"], 2 * n0);
  EXPECT_EQ(per_metric["cumulative_moved_over_optimum"], 2 * n0);
  EXPECT_EQ(per_metric["load_max_over_mean"], 2 * n0 + 1);
  EXPECT_EQ(per_metric["memory_bytes"], 2 * n0 + 1);
  EXPECT_EQ(per_metric["max_moved_over_optimum"], 2);
}

// Each phase's max_moved_over_optimum (at step N and 2N) is the largest of
// its steps' moved_over_optimum, and its note names that step.
TEST(GrowthKindTest, PhaseMaximumIsTheLargestStep) {
  const uint32_t n0 = 12;
  const std::vector<ResultRow> rows =
      RunGrowthCell(GrowthCell("maglev", n0, 20000));
  const auto got = ByMetric(rows);
  for (const auto& [first, last] :
       {std::pair<uint64_t, uint64_t>{1, n0}, {n0 + 1, 2 * n0}}) {
    double want = 0;
    uint64_t at = 0;
    for (uint64_t s = first; s <= last; ++s) {
      if (got.at("moved_over_optimum").at(s) > want) {
        want = got.at("moved_over_optimum").at(s);
        at = s;
      }
    }
    EXPECT_DOUBLE_EQ(got.at("max_moved_over_optimum").at(last), want);
    for (const ResultRow& r : rows) {
      if (r.metric == "max_moved_over_optimum" && *r.step == last) {
        EXPECT_THAT(r.note, HasSubstr(absl::StrCat("at step ", at)));
      }
    }
  }
}

// Above 100 nodes rows are written at every (N/50)-th step and the phase
// ends; the phase maximum still sees every step. dx from N = 102 has 128
// slots and doubles at the 27th join (to 129 nodes), a step not written at
// a stride of 2.
TEST(GrowthKindTest, RowsThinnedAboveAHundredNodesButEveryStepCounted) {
  const uint32_t n0 = 102;
  const std::vector<ResultRow> rows =
      RunGrowthCell(GrowthCell("dx", n0, 20000));
  const auto got = ByMetric(rows);
  std::vector<uint64_t> steps;
  for (const auto& [s, v] : got.at("moved_over_optimum")) steps.push_back(s);
  std::vector<uint64_t> want;
  for (uint64_t s = 2; s <= 2 * n0; s += 2) want.push_back(s);
  EXPECT_EQ(steps, want);
  EXPECT_EQ(got.at("load_max_over_mean").size(), want.size() + 1);
  EXPECT_GT(got.at("max_moved_over_optimum").at(n0), 10.0);
  for (const ResultRow& r : rows) {
    if (r.metric == "max_moved_over_optimum" && *r.step == n0) {
      EXPECT_THAT(r.note, HasSubstr("at step 27"));
    }
  }
  // The doubling step's moves are in the cumulative sum of every later
  // written step.
  EXPECT_GT(got.at("cumulative_moved_over_optimum").at(28), 1.5);
}

TEST(GrowthKindTest, RowsAreByteIdenticalAcrossRuns) {
  for (const std::string alg : {"maglev", "dx", "jumpbackanchor"}) {
    const Cell c = GrowthCell(alg, 9, 4000);
    std::string a, b;
    for (const ResultRow& r : RunGrowthCell(c)) a += FormatRow(r);
    for (const ResultRow& r : RunGrowthCell(c)) b += FormatRow(r);
    EXPECT_FALSE(a.empty()) << alg;
    EXPECT_EQ(a, b) << alg;
  }
}

// Room to grow: anchor at its default capacity (a = N) refuses the first
// join (its rows say so, empty); with capacity 2N it grows and shrinks
// minimally. dx from a full array (N = 64, default capacity 64) doubles at
// the first join and remaps keys among the old nodes; from N = 65 (capacity
// 128) the first join fills a spare slot.
TEST(GrowthKindTest, RoomToGrow) {
  const std::vector<ResultRow> tight = RunGrowthCell(GrowthCell("anchor", 10, 5000));
  ASSERT_EQ(tight.size(), 2u + 4u);
  for (size_t i = 2; i < tight.size(); ++i) {
    EXPECT_EQ(*tight[i].step, 1u);
    EXPECT_FALSE(tight[i].value.has_value()) << tight[i].metric;
    EXPECT_THAT(tight[i].note, StartsWith("not applicable: "));
  }
  Cell roomy = GrowthCell("anchor", 10, 20000);
  roomy.capacity = 20;
  const auto a = ByMetric(RunGrowthCell(roomy));
  EXPECT_NEAR(a.at("cumulative_moved_over_optimum").at(20), 1.0, 0.1);

  const auto full = ByMetric(RunGrowthCell(GrowthCell("dx", 64, 20000)));
  EXPECT_GT(full.at("moved_over_optimum").at(1), 10.0);
  EXPECT_GT(full.at("memory_bytes").at(1), full.at("memory_bytes").at(0));
  const auto spare = ByMetric(RunGrowthCell(GrowthCell("dx", 65, 20000)));
  EXPECT_NEAR(spare.at("moved_over_optimum").at(1), 1.0, 0.35);
}

TEST(GrowthKindTest, StatefulAlgorithmIsRefused) {
  const KindInfo* kind = FindKind("growth");
  ASSERT_NE(kind, nullptr);
  absl::StatusOr<std::vector<ResultRow>> rows =
      kind->run_cell(GrowthCell("bounded_load", 10, 1000), "test");
  ASSERT_FALSE(rows.ok());
  EXPECT_THAT(rows.status().message(), HasSubstr("stateful"));
}

}  // namespace
}  // namespace chbench
