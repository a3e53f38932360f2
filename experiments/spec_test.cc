// Copyright 2026 The chbench Authors.

#include "experiments/spec.h"

#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "experiments/csv.h"

namespace chbench {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<Spec> Parse(const std::string& text,
                           const std::string& tier = "default") {
  return ParseSpec(text, "experiments/x.toml", "x", tier);
}

std::string Error(const std::string& text) {
  absl::StatusOr<Spec> s = Parse(text);
  EXPECT_FALSE(s.ok()) << text;
  if (s.ok()) return "";
  EXPECT_TRUE(absl::IsInvalidArgument(s.status()));
  return std::string(s.status().message());
}

constexpr char kBase[] = R"(
[[sweep]]
kind = "balance"
algorithm = ["modulo", "ring"]
nodes = [10, 100]
vnodes = [1, 2]
keys = 1000
repetitions = 2
)";

TEST(SpecTest, CartesianProductDropsUnusedParameters) {
  absl::StatusOr<Spec> spec = Parse(kBase);
  ASSERT_TRUE(spec.ok()) << spec.status();
  // modulo: 2 nodes x 2 reps (vnodes dropped); ring: 2 x 2 vnodes x 2 reps.
  ASSERT_EQ(spec->cells.size(), 4u + 8u);
  std::set<std::string> names;
  int modulo = 0, ring = 0;
  for (const Cell& c : spec->cells) {
    names.insert(c.Name());
    EXPECT_EQ(c.hash, "xxh64");
    EXPECT_EQ(c.keyset, "uniform");
    EXPECT_EQ(c.keys, 1000u);
    EXPECT_EQ(c.seed, c.repetition);
    if (c.algorithm == "modulo") {
      ++modulo;
      EXPECT_FALSE(c.vnodes.has_value());
    } else {
      ++ring;
      ASSERT_TRUE(c.vnodes.has_value());
    }
  }
  EXPECT_EQ(modulo, 4);
  EXPECT_EQ(ring, 8);
  EXPECT_EQ(names.size(), spec->cells.size());
  EXPECT_EQ(spec->seeds, (std::vector<uint64_t>{0, 1}));
  // First cell is the first value of every axis.
  EXPECT_EQ(spec->cells[0].Name(), "balance_modulo_xxh64_uniform_n10_k1000_s0");
}

TEST(SpecTest, DefaultsForMaglevAndBoundedLoad) {
  absl::StatusOr<Spec> spec = Parse(R"(
[[sweep]]
kind = "disruption"
algorithm = ["maglev", "bounded_load"]
nodes = 10
keys_per_node = 50
scenario = ["add", "remove_random"]
)");
  ASSERT_TRUE(spec.ok()) << spec.status();
  ASSERT_EQ(spec->cells.size(), 4u);
  EXPECT_EQ(spec->cells[0].table_size, std::optional<uint64_t>(1009));
  EXPECT_EQ(spec->cells[0].keys, 500u);
  EXPECT_EQ(spec->cells[2].load_factor, std::optional<double>(1.25));
  EXPECT_EQ(spec->cells[2].vnodes, std::optional<uint32_t>(100));
}

TEST(SpecTest, TierOverridesInOrder) {
  const std::string text = std::string(R"(
[tiers.smoke]
repetitions = 3
nodes = [7]
)") + kBase + R"(
[sweep.tiers.smoke]
nodes = [5]
)";
  absl::StatusOr<Spec> smoke = Parse(text, "smoke");
  ASSERT_TRUE(smoke.ok()) << smoke.status();
  // Block tier beats the global tier: nodes 5; repetitions 3 from global.
  EXPECT_EQ(smoke->cells.size(), 3u + 6u);
  for (const Cell& c : smoke->cells) EXPECT_EQ(c.nodes, 5u);
  absl::StatusOr<Spec> def = Parse(text, "default");
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->cells.size(), 12u);
  EXPECT_NE(smoke->run_id, def->run_id);
  EXPECT_THAT(smoke->run_id, ::testing::MatchesRegex("smoke-[0-9a-f]{8}"));
  // Same bytes, same tier: same run id (a rerun resumes).
  EXPECT_EQ(Parse(text, "smoke")->run_id, smoke->run_id);
}

TEST(SpecTest, RejectsUnknownKey) {
  EXPECT_THAT(Error(std::string(kBase) + "bogus = 1\n"),
              HasSubstr("experiments/x.toml: key 'bogus': unknown key; valid:"));
  EXPECT_THAT(Error("foo = 1\n" + std::string(kBase)),
              HasSubstr("key 'foo': unknown key; valid: description, sweep"));
  EXPECT_THAT(Error(std::string(kBase) + "[sweep.tiers.smoke]\nnodez = [1]\n"),
              HasSubstr("key 'nodez': unknown key"));
}

TEST(SpecTest, RejectsUnknownNames) {
  EXPECT_THAT(
      Error(R"([[sweep]]
kind = "balance"
algorithm = ["ring", "foo"]
nodes = 10
keys = 10
)"),
      HasSubstr("experiments/x.toml: key 'algorithm': unknown value 'foo'; "
                "valid: modulo, ring, rendezvous, jump, maglev, bounded_load"));
  EXPECT_THAT(Error(std::string(kBase) + "hash = [\"sha1\"]\n"),
              HasSubstr("key 'hash': unknown value 'sha1'; valid: md5, xxh64"));
  EXPECT_THAT(Error(std::string(kBase) + "keyset = \"zipf\"\n"),
              HasSubstr("key 'keyset': unknown value 'zipf'; valid: uniform, "
                        "url, sequential, words"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "disruption"
algorithm = "ring"
nodes = 10
keys = 10
scenario = ["add", "explode"]
)"),
              HasSubstr("key 'scenario': unknown value 'explode'; valid: add, "
                        "remove_random"));
  EXPECT_THAT(Error("[[sweep]]\nkind = \"speed\"\n"),
              HasSubstr("key 'kind': unknown value 'speed'; valid: lookup"));
  EXPECT_THAT(Error(std::string(kBase) + "[sweep.tiers.huge]\nnodes = 1\n"),
              HasSubstr("key 'tiers': unknown value 'huge'; valid: smoke, "
                        "default, full"));
}

TEST(SpecTest, RejectsEmptyAxis) {
  EXPECT_THAT(Error(std::string(kBase) + "[sweep.tiers.full]\nnodes = []\n"),
              HasSubstr("key 'nodes': empty axis"));
  EXPECT_THAT(Error(std::string(kBase) + "hash = []\n"),
              HasSubstr("key 'hash': empty axis"));
}

TEST(SpecTest, RejectsOutOfRange) {
  const std::string head = R"([[sweep]]
kind = "balance"
algorithm = ["ring", "maglev", "bounded_load"]
keys = 100
)";
  EXPECT_THAT(Error(head + "nodes = [10, 0]\n"),
              HasSubstr("key 'nodes': value 0 out of range; must be >= 1"));
  EXPECT_THAT(Error(head + "nodes = 10\nvnodes = 0\n"),
              HasSubstr("key 'vnodes': value 0 out of range"));
  EXPECT_THAT(Error(head + "nodes = 10\nload_factor = [1.5, 1.0]\n"),
              HasSubstr("key 'load_factor': value 1 out of range; must be > 1"));
  EXPECT_THAT(Error(head + "nodes = 10\ntable_size = 1000\n"),
              HasSubstr("key 'table_size': value 1000 out of range; Maglev "
                        "table sizes must be prime (e.g. 1009)"));
  EXPECT_THAT(Error(head + "nodes = 100\ntable_size = 13\n"),
              HasSubstr("key 'table_size': value 13 out of range; must be >= "
                        "nodes"));
  EXPECT_THAT(Error(head + "nodes = 10\nrepetitions = 0\n"),
              HasSubstr("key 'repetitions': value 0 out of range"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "weights"
algorithm = "ring"
weights = [[1, 0, 2]]
keys = 100
)"),
              HasSubstr("key 'weights': value 0 out of range"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "disruption"
algorithm = "ring"
nodes = 1
keys = 100
scenario = "add"
)"),
              HasSubstr("key 'nodes': value 1 out of range; disruption needs"));
}

TEST(SpecTest, RejectsTypesMissingKeysAndNonReproducibleHash) {
  EXPECT_THAT(Error(std::string(kBase) + "[sweep.tiers.full]\nnodes = \"ten\"\n"),
              HasSubstr("key 'nodes': expected an integer"));
  EXPECT_THAT(Error("[[sweep]]\nkind = \"balance\"\nnodes = 1\nkeys = 1\n"),
              HasSubstr("key 'algorithm': missing"));
  EXPECT_THAT(Error(std::string(kBase) + "keys_per_node = 5\n"),
              HasSubstr("key 'keys': give exactly one of"));
  EXPECT_THAT(Error(std::string(kBase) + "hash = \"absl_hash\"\n"),
              HasSubstr("key 'hash': value 'absl_hash' is seeded per process"));
  EXPECT_THAT(Error(std::string(kBase) + "scenario = \"add\"\n"),
              HasSubstr("key 'scenario': not used by kind 'balance'"));
  EXPECT_THAT(Error("description = \"x\"\n"), HasSubstr("key 'sweep': missing"));
  EXPECT_THAT(Error("[[sweep]\n"), HasSubstr("experiments/x.toml:1:"));
}

TEST(SpecTest, UnknownTier) {
  absl::StatusOr<Spec> s = Parse(kBase, "huge");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.status().message(),
              HasSubstr("unknown tier 'huge'; valid tiers: smoke, default, full"));
}

// Every shipped spec parses in every tier and yields cells.
TEST(SpecTest, ShippedSpecsAreValid) {
  for (std::string_view e : kExperimentNames) {
    for (std::string_view t : kTierNames) {
      const std::string path =
          std::string(CHBENCH_SOURCE_DIR) + "/experiments/" + std::string(e) +
          ".toml";
      absl::StatusOr<Spec> spec = LoadSpec(path, path, e, t);
      ASSERT_TRUE(spec.ok()) << spec.status();
      EXPECT_FALSE(spec->cells.empty()) << e << " " << t;
    }
  }
}

TEST(SpecTest, Primes) {
  EXPECT_TRUE(IsPrime(65537));
  EXPECT_FALSE(IsPrime(65535));
  EXPECT_EQ(NextPrime(1000), 1009u);
  EXPECT_EQ(NextPrime(1009), 1009u);
}

}  // namespace
}  // namespace chbench
