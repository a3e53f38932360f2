// Copyright 2026 The chbench Authors.
//
// The presets kind (kinds/presets.cc): minimal-disruption presets move no key
// between staying servers, Envoy's ring (whose per-host point count changes
// with N) does, LIFO-only mappings remove their last server, and the rows are
// deterministic and carry the preset's key hash.

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "experiments/kinds/kind.h"
#include "experiments/result_row.h"
#include "experiments/spec.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

std::vector<ResultRow> RunCell(const std::string& algorithm, uint32_t n) {
  Cell c;
  c.experiment = "presets";
  c.kind = "presets";
  c.algorithm = algorithm;
  c.hash = "xxh64";
  c.keyset = "url";
  c.nodes = n;
  c.keys = 20000;
  c.seed = 1;
  const KindInfo* kind = FindKind("presets");
  EXPECT_NE(kind, nullptr);
  absl::StatusOr<std::vector<ResultRow>> rows = kind->run_cell(c, "t");
  EXPECT_TRUE(rows.ok()) << rows.status();
  return rows.ok() ? *rows : std::vector<ResultRow>{};
}

std::map<std::pair<std::string, std::string>, ResultRow> ByKey(
    const std::vector<ResultRow>& rows) {
  std::map<std::pair<std::string, std::string>, ResultRow> out;
  for (const ResultRow& r : rows) out[{r.scenario, r.metric}] = r;
  return out;
}

using Rows = std::map<std::pair<std::string, std::string>, ResultRow>;

// The value of (scenario, metric); NaN when absent.
double V(Rows& m, const std::string& scenario, const std::string& metric) {
  auto it = m.find({scenario, metric});
  if (it == m.end() || !it->second.value) return std::nan("");
  return *it->second.value;
}

TEST(PresetsKind, MinimalPresetsMoveNoKeyBetweenStayingServers) {
  for (const char* name : {"nginx", "libmemcached_ketama", "guava", "jump"}) {
    SCOPED_TRACE(name);
    auto m = ByKey(RunCell(name, 10));
    ASSERT_FALSE(std::isnan(V(m, "add", "moved_excess_fraction")));
    EXPECT_EQ(V(m, "add", "moved_excess_fraction"), 0.0);
    EXPECT_EQ(V(m, "remove", "moved_excess_fraction"), 0.0);
    EXPECT_GT(V(m, "add", "moved_fraction"), 0.0);
    EXPECT_NEAR(V(m, "add", "moved_over_optimum") *
                    (1.0 / 11),
                V(m, "add", "moved_fraction"), 1e-12);
  }
}

TEST(PresetsKind, EnvoyRingHashMovesMoreThanItMust) {
  auto m = ByKey(RunCell("envoy_ring_hash", 10));
  EXPECT_GT(V(m, "add", "moved_excess_fraction"), 0.01);
  EXPECT_GT(V(m, "remove", "moved_excess_fraction"), 0.01);
}

TEST(PresetsKind, RowsCarryTheKeyHashAndAreDeterministic) {
  const std::vector<ResultRow> a = RunCell("haproxy", 5);
  const std::vector<ResultRow> b = RunCell("haproxy", 5);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].hash, "sdbm_avalanche");
    EXPECT_EQ(a[i].metric, b[i].metric);
    EXPECT_EQ(a[i].value, b[i].value);
  }
  auto g = ByKey(RunCell("guava", 5));
  const std::string note = g[std::make_pair(std::string("remove"),
                                            std::string("moved_fraction"))]
                               .note;
  EXPECT_NE(note.find("the last server"), std::string::npos) << note;
}

}  // namespace
}  // namespace chbench
