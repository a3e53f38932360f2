// Copyright 2026 The chbench Authors.
//
// Every kind writes only the result columns its schema row declares
// (KindSchema::columns, kinds/schema.h) beside the common ones: of the cells
// the shipped specs' smoke tier expands to, the smallest of each kind and
// shape (scenario, multithread, removal; simulated clusters only) is run and
// every non-empty column of its rows is checked.

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/no_slow_state_retries.h"
#include "experiments/csv.h"
#include "experiments/kinds/kind.h"
#include "experiments/kinds/schema.h"
#include "experiments/result_row.h"
#include "experiments/spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(KindColumnsTest, EveryKindWritesOnlyItsDeclaredColumns) {
  // The smallest smoke cell of each kind and shape among the shipped specs.
  std::map<std::string, Cell> smallest;
  for (std::string_view e : kExperimentNames) {
    const std::string path = std::string(CHBENCH_SOURCE_DIR) + "/experiments/" +
                             std::string(e) + ".toml";
    absl::StatusOr<Spec> spec = LoadSpec(path, path, e, "smoke");
    ASSERT_TRUE(spec.ok()) << spec.status();
    for (const Cell& c : spec->cells) {
      if (c.timing() && !FindKindSchema(c.kind)->timing) continue;  // real
      const std::string shape =
          absl::StrCat(c.kind, "|", c.scenario, "|", c.multithread, "|",
                       c.removal, "|", c.batch > 1);
      auto it = smallest.find(shape);
      const auto size = [](const Cell& x) {
        return uint64_t{x.nodes} + x.keys + x.requests;
      };
      if (it == smallest.end() || size(c) < size(it->second)) {
        smallest[shape] = c;
      }
    }
  }
  for (const KindSchema& k : KindSchemas()) {
    EXPECT_TRUE(
        std::any_of(smallest.begin(), smallest.end(),
                    [&](const auto& s) { return s.second.kind == k.name; }))
        << k.name << ": no shipped smoke cell of this kind";
  }
  for (const auto& [shape, cell] : smallest) {
    SCOPED_TRACE(shape);
    const KindSchema& schema = *FindKindSchema(cell.kind);
    const KindInfo* kind = FindKind(cell.kind);
    ASSERT_NE(kind, nullptr);
    std::vector<ResultRow> rows;
    if (schema.timing) {
      const Cell* group[] = {&cell};
      absl::StatusOr<std::vector<std::vector<ResultRow>>> r =
          kind->run_group(std::span<const Cell* const>(group, 1), "test");
      ASSERT_TRUE(r.ok()) << r.status();
      rows = (*r)[0];
    } else {
      absl::StatusOr<std::vector<ResultRow>> r = kind->run_cell(cell, "test");
      ASSERT_TRUE(r.ok()) << r.status();
      rows = *r;
    }
    ASSERT_FALSE(rows.empty());
    for (const ResultRow& row : rows) {
      absl::StatusOr<std::vector<std::vector<std::string>>> fields =
          ParseCsv(FormatRow(row));
      ASSERT_TRUE(fields.ok()) << fields.status();
      ASSERT_EQ((*fields)[0].size(), kColumns.size());
      for (size_t i = 0; i < kColumns.size(); ++i) {
        if ((*fields)[0][i].empty()) continue;
        const std::string_view column = kColumns[i];
        const bool declared =
            std::find(std::begin(kCommonColumns), std::end(kCommonColumns),
                      column) != std::end(kCommonColumns) ||
            std::find(schema.columns.begin(), schema.columns.end(), column) !=
                schema.columns.end();
        EXPECT_TRUE(declared) << "column '" << column << "' of metric "
                              << row.metric << " is not declared";
      }
    }
  }
}

}  // namespace
}  // namespace chbench
