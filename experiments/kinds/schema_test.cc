// Copyright 2026 The chbench Authors.
//
// The two tables of an experiment kind agree: every spec-level row
// (kinds/schema.cc) has a run row (kinds/registry.cc) that can run its cells,
// and every run row has a spec-level row. A new kind missing either half
// fails here, naming it (the README's "Adding an experiment kind"). A row's
// accepted keys agree with its other fields, and a key it does not accept is
// a one-line error.

#include "experiments/kinds/schema.h"

#include <set>
#include <string>

#include "experiments/kinds/kind.h"
#include "experiments/result_row.h"
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

TEST(KindSchemaTest, AcceptedKeysAgreeWithTheRowsFields) {
  for (const KindSchema& k : KindSchemas()) {
    SCOPED_TRACE(k.name);
    for (std::string_view key : k.axes) {
      EXPECT_TRUE(IsKindAxis(key)) << key << ": not a key only some kinds take";
    }
    for (const KeyNote& n : k.refusal_notes) {
      EXPECT_TRUE(IsKindAxis(n.key)) << n.key;
      EXPECT_FALSE(k.Accepts(n.key)) << n.key << ": a note for a key it takes";
    }
    EXPECT_EQ(k.Accepts("algorithm"), k.takes_algorithm);
    EXPECT_EQ(k.Accepts("weights"), k.nodes == NodesFrom::kWeights);
    EXPECT_EQ(k.Accepts("nodes"), k.nodes != NodesFrom::kWeights);
    EXPECT_EQ(k.Accepts("keys"), k.keys != KeysFrom::kNone);
    EXPECT_EQ(k.Accepts("keys_per_node"), k.keys == KeysFrom::kKeysOrPerNode);
    EXPECT_EQ(k.Accepts("removal"), k.removal != RemovalAxis::kNone);
    EXPECT_EQ(k.Accepts("removed_fraction"), k.removal != RemovalAxis::kNone);
    EXPECT_EQ(k.Accepts("scenario"), !k.scenarios.empty());
    EXPECT_EQ(k.Accepts("placed_keys_per_node"), k.places_keys);
    EXPECT_EQ(k.Accepts("mode"), k.cluster_axes);
    if (!k.presets_scenario.empty()) {
      EXPECT_TRUE(k.Accepts("preset"));
      EXPECT_THAT(k.scenarios, ::testing::Contains(k.presets_scenario));
    }
    for (std::string_view c : k.columns) {
      EXPECT_LT(ColumnIndex(c), kColumns.size()) << c << ": not a column";
      EXPECT_THAT(kCommonColumns, ::testing::Not(::testing::Contains(c)))
          << c << ": a common column";
    }
  }
  for (std::string_view c : kCommonColumns) {
    EXPECT_LT(ColumnIndex(c), kColumns.size()) << c << ": not a column";
  }
}

TEST(KindSchemaTest, AKeyTheKindDoesNotTakeIsOneLineNamingKeyAndKind) {
  absl::StatusOr<Spec> spec = ParseSpec(
      "[[sweep]]\nkind = \"lookup\"\nalgorithm = \"ring\"\nnodes = 10\n"
      "keys = 10\nweights = [1, 2]\n",
      "x.toml", "x", "default");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(),
            "x.toml: key 'weights': not used by kind 'lookup'");
  // The kind's own note replaces the key's.
  spec = ParseSpec(
      "[[sweep]]\nkind = \"weights\"\nalgorithm = \"ring\"\n"
      "weights = [1, 2]\nnodes = 10\nkeys = 10\n",
      "x.toml", "x", "default");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(),
            "x.toml: key 'nodes': not used by kind 'weights' (one node per "
            "weight)");
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
