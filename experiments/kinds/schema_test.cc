// Copyright 2026 The chbench Authors.
//
// The two tables of an experiment kind agree: every spec-level row
// (kinds/schema.cc) has a run row (kinds/registry.cc) that can run its cells,
// and every run row has a spec-level row. A new kind missing either half
// fails here, naming it (the README's "Adding an experiment kind").

#include "experiments/kinds/schema.h"

#include <set>
#include <string>

#include "experiments/kinds/kind.h"
#include "experiments/spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(KindSchemaTest, EverySchemaRowHasARunRowThatRunsItsCells) {
  for (const KindSchema& schema : KindSchemas()) {
    SCOPED_TRACE(schema.name);
    ASSERT_NE(schema.runs_alone, nullptr);
    const KindInfo* run = FindKind(schema.name);
    ASSERT_NE(run, nullptr) << "no row in experiments/kinds/registry.cc";
    EXPECT_FALSE(run->description.empty());
    Cell cell;
    cell.kind = std::string(schema.name);
    // A timed kind's cells run alone, in groups; the others need run_cell.
    if (schema.timing) {
      EXPECT_TRUE(schema.runs_alone(cell));
      EXPECT_NE(run->run_group, nullptr);
    } else {
      EXPECT_NE(run->run_cell, nullptr);
    }
    EXPECT_EQ(cell.timing(), schema.runs_alone(cell));
    for (std::string_view s : schema.default_scenarios) {
      EXPECT_THAT(schema.scenarios, ::testing::Contains(s))
          << "default scenario '" << s << "' is not a valid one";
    }
  }
}

TEST(KindSchemaTest, EveryRunRowHasASchemaRow) {
  std::set<std::string_view> names;
  for (const KindInfo& k : Kinds()) {
    EXPECT_NE(FindKindSchema(k.name), nullptr)
        << k.name << ": no row in experiments/kinds/schema.cc";
    EXPECT_TRUE(names.insert(k.name).second) << "duplicate " << k.name;
  }
  EXPECT_EQ(names.size(), KindSchemas().size());
}

TEST(KindSchemaTest, UnknownKindErrorListsTheSchemaRows) {
  absl::StatusOr<Spec> spec =
      ParseSpec("[[sweep]]\nkind = \"chord\"\nalgorithm = \"all\"\n",
                "x.toml", "x", "default");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(std::string(spec.status().message()),
              ::testing::HasSubstr("'chord'; valid: " + KindSchemaNames()));
}

}  // namespace
}  // namespace chbench
