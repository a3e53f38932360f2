// Copyright 2026 The chbench Authors.
//
// TimingRows (kinds/common.cc): per-round rows for each sample, and the
// once-per-cell context rows (load average, steal, sentinel) labelled with the
// cell's own configuration, so that two cells of one group that differ only
// in scenario never share a summary row.

#include "experiments/kinds/common.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bench/timing.h"
#include "experiments/result_row.h"
#include "experiments/spec.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

Cell LookupCell(const std::string& scenario) {
  Cell c;
  c.experiment = "lookup";
  c.kind = "lookup";
  c.algorithm = "modulo";
  c.hash = "xxh64";
  c.keyset = "uniform";
  c.nodes = 1000;
  c.keys = 1 << 10;
  c.scenario = scenario;
  return c;
}

TimingSample Sample(size_t member, const std::string& scenario,
                    const std::string& metric, std::vector<double> values) {
  TimingSample s;
  s.member = member;
  s.algorithm = "modulo";
  s.scenario = scenario;
  s.metric = metric;
  s.values = std::move(values);
  s.unit = "ns";
  return s;
}

TEST(TimingRowsTest, ContextRowsCarryTheCellsScenario) {
  const Cell prehashed = LookupCell("prehashed");
  const Cell string_keys = LookupCell("string");
  const std::vector<const Cell*> group = {&prehashed, &string_keys};
  TimingGroupResult result;
  result.samples = {Sample(0, "prehashed", "lookup_ns", {2.0, 2.1, 2.2}),
                    Sample(1, "string", "lookup_ns", {9.0, 9.1, 9.2}),
                    Sample(1, "string", "hash_ns", {7.0, 7.1, 7.2})};
  result.load_avg_1m = 1.5;
  result.steal_fraction = 0.01;
  result.sentinel_ns = 110;
  result.sentinel_reference_ns = 100;
  const auto rows = kinds::TimingRows(group, "t", result);
  ASSERT_EQ(rows.size(), 2u);
  // (metric, scenario) -> count, per cell.
  for (size_t i = 0; i < rows.size(); ++i) {
    std::map<std::tuple<std::string, std::string>, int> seen;
    for (const ResultRow& r : rows[i]) ++seen[{r.metric, r.scenario}];
    const std::string sc = i == 0 ? "prehashed" : "string";
    for (const char* m : {"load_avg_1m", "cpu_steal_fraction", "sentinel_ns"}) {
      EXPECT_EQ((seen[{m, sc}]), 1) << m << " in cell " << i;
      EXPECT_EQ((seen[{m, ""}]), 0) << m << " unlabelled in cell " << i;
    }
    EXPECT_EQ((seen[{"lookup_ns", sc}]), 3);
  }
}

TEST(TimingRowsTest, EveryRowOfABatchedCellCarriesItsBatch) {
  // Two cells of one group: single-key and batch 16. Both time lookup_ns;
  // only the batch column keeps them apart in the summary.
  const Cell single = LookupCell("prehashed");
  Cell batched = LookupCell("prehashed");
  batched.batch = 16;
  const std::vector<const Cell*> group = {&single, &batched};
  TimingGroupResult result;
  result.samples = {Sample(0, "prehashed", "lookup_ns", {2.0, 2.1, 2.2}),
                    Sample(1, "prehashed", "lookup_ns", {2.0, 2.2, 2.1}),
                    Sample(1, "prehashed", "batch_lookup_ns", {1.0, 1.1, 1.2}),
                    Sample(1, "prehashed", "batch_lookup_ns_ratio_to_single",
                           {0.5, 0.52, 0.57})};
  result.samples[1].batch = result.samples[2].batch = 16;
  result.samples[3].batch = 16;
  result.load_avg_1m = 1.5;
  const auto rows = kinds::TimingRows(group, "t", result);
  ASSERT_EQ(rows.size(), 2u);
  for (const ResultRow& r : rows[0]) {
    EXPECT_FALSE(r.batch.has_value()) << r.metric;
  }
  int lookup_rows = 0;
  for (const ResultRow& r : rows[1]) {
    EXPECT_EQ(r.batch, std::optional<uint64_t>(16)) << r.metric;
    if (r.metric == "lookup_ns") ++lookup_rows;
  }
  EXPECT_EQ(lookup_rows, 3);
  // And the group builds a batched member for the batched cell only.
  const TimingGroup g = kinds::MakeTimingGroup(group);
  ASSERT_EQ(g.members.size(), 2u);
  EXPECT_EQ(g.members[0].batch, 1u);
  EXPECT_EQ(g.members[1].batch, 16u);
}

TEST(TimingRowsTest, MixedScenariosLeaveTheContextScenarioToTheCell) {
  // A cell whose samples disagree (bounded_load: prehashed and placed) gives
  // the context rows its own scenario.
  const Cell cell = LookupCell("prehashed");
  const std::vector<const Cell*> group = {&cell};
  TimingGroupResult result;
  result.samples = {Sample(0, "prehashed", "lookup_ns", {1.0, 1.1}),
                    Sample(0, "placed", "lookup_ns", {3.0, 3.1})};
  const auto rows = kinds::TimingRows(group, "t", result);
  ASSERT_EQ(rows.size(), 1u);
  int context = 0;
  for (const ResultRow& r : rows[0]) {
    if (r.metric == "load_avg_1m" || r.metric == "cpu_steal_fraction") {
      EXPECT_EQ(r.scenario, "prehashed");
      ++context;
    }
  }
  EXPECT_EQ(context, 2);
  // No sentinel in the result: no sentinel row.
  for (const ResultRow& r : rows[0]) EXPECT_NE(r.metric, "sentinel_ns");
}

TEST(TimingRowsTest, NoisyIsAFlagOnEveryRoundOfANoisySample) {
  const Cell cell = LookupCell("prehashed");
  const std::vector<const Cell*> group = {&cell};
  TimingGroupResult result;
  TimingSample noisy = Sample(0, "prehashed", "lookup_ns", {1.0, 1.5, 1.1});
  noisy.noisy = true;
  noisy.note = "noisy: cv 20 % > 5 % after 2 re-measurements";
  TimingSample steady = Sample(0, "prehashed", "hash_ns", {0.5, 0.5, 0.5});
  // A note is text: one that reads like a flag does not flag the row.
  steady.note = "noisy-looking text";
  result.samples = {noisy, steady};
  result.sentinel_ns = 150;
  result.sentinel_reference_ns = 100;
  result.slow_state = true;
  const auto rows = kinds::TimingRows(group, "t", result);
  ASSERT_EQ(rows.size(), 1u);
  int flagged = 0;
  for (const ResultRow& r : rows[0]) {
    EXPECT_EQ(r.noisy, r.metric == "lookup_ns") << r.metric;
    EXPECT_EQ(r.n_eff, std::nullopt) << r.metric;
    flagged += r.noisy;
    if (r.metric == "lookup_ns") {
      EXPECT_EQ(r.note, noisy.note);
    }
  }
  EXPECT_EQ(flagged, 3);
}

}  // namespace
}  // namespace chbench
