// Copyright 2026 The chbench Authors.

#include "experiments/spec.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/testing/toy_algorithm.h"
#include "experiments/csv.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

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
  EXPECT_THAT(
      Error(std::string(kBase) + "bogus = 1\n"),
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
              HasSubstr("key 'scenario': unknown value 'explode' for kind "
                        "'disruption'; valid: add, remove_random"));
  EXPECT_THAT(Error("[[sweep]]\nkind = \"speed\"\n"),
              HasSubstr("key 'kind': unknown value 'speed'; valid: lookup"));
  EXPECT_THAT(Error(std::string(kBase) + "[sweep.tiers.huge]\nnodes = 1\n"),
              HasSubstr("key 'tiers': unknown value 'huge'; valid: smoke, "
                        "default, full"));
}

TEST(SpecTest, BuildsAndPrehashedLookupsTimeTheDefaultHashOnly) {
  EXPECT_THAT(Error(R"([[sweep]]
kind = "build"
algorithm = ["ring"]
hash = ["md5"]
nodes = [10]
)"),
              HasSubstr("key 'hash': value 'md5' with kind 'build': builds "
                        "and prehashed lookups are timed with hash 'xxh64' "
                        "only"));
  // No scenario means both, prehashed included.
  EXPECT_THAT(Error(R"([[sweep]]
kind = "lookup"
algorithm = ["jump"]
hash = ["xxh64", "xxh3"]
nodes = [10]
keys = [100]
)"),
              HasSubstr("value 'xxh3' with kind 'lookup' and a prehashed "
                        "scenario"));
  EXPECT_TRUE(Parse(R"([[sweep]]
kind = "lookup"
scenario = ["string"]
algorithm = ["jump"]
hash = ["xxh64", "xxh3"]
nodes = [10]
keys = [100]
)")
                  .ok());
  EXPECT_THAT(Error(R"([[sweep]]
kind = "lookup"
scenario = ["string"]
algorithm = ["jump", "flip"]
hash = ["md5"]
nodes = [10]
keys = [100]
)"),
              HasSubstr("value 'md5' with algorithm 'flip': string-key "
                        "lookups with hashes other than 'xxh64' are timed for "
                        "modulo, ring, rendezvous, jump, maglev, bounded_load "
                        "only"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "lookup"
scenario = ["string"]
algorithm = ["ring"]
hash = ["siphash"]
nodes = [10]
keys = [100]
)"),
              HasSubstr("key 'hash': value 'siphash': lookups are timed with "
                        "md5, xxh64, xxh3, murmur3_128, murmur3_32, crc32, "
                        "fnv1a, absl_hash only"));
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
              HasSubstr("key 'nodes': value 0 out of range; valid: "
                        "1..16777216"));
  EXPECT_THAT(Error(head + "nodes = 10\nvnodes = 0\n"),
              HasSubstr("key 'vnodes': value 0 out of range"));
  EXPECT_THAT(Error(head + "nodes = 10\nload_factor = [1.5, 1.0]\n"),
              HasSubstr("key 'load_factor': value 1 out of range; must be > 1 "
                        "and finite"));
  EXPECT_THAT(Error(head + "nodes = 10\nload_factor = inf\n"),
              HasSubstr("key 'load_factor': value inf out of range"));
  EXPECT_THAT(Error(head + "nodes = 10\nload_factor = nan\n"),
              HasSubstr("key 'load_factor': value nan out of range"));
  EXPECT_THAT(Error(head + "nodes = 10\ntable_size = 1000\n"),
              HasSubstr("key 'table_size': value 1000 out of range; Maglev "
                        "table sizes must be prime (e.g. 1009)"));
  EXPECT_THAT(Error(head + "nodes = 100\ntable_size = 13\n"),
              HasSubstr("key 'table_size': value 13 out of range; must be >= "
                        "nodes"));
  EXPECT_THAT(Error(head + "nodes = 10\nrepetitions = 0\n"),
              HasSubstr("key 'repetitions': value 0 out of range; valid: "
                        "1..10000"));
  EXPECT_THAT(Error(head + "nodes = 10\nrepetitions = 10001\n"),
              HasSubstr("key 'repetitions': value 10001 out of range; valid: "
                        "1..10000"));
  EXPECT_THAT(Error(head + "nodes = 10\nseed = -1\n"),
              HasSubstr("key 'seed': value -1 out of range"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "weights"
algorithm = "ring"
weights = [[1, 0, 2]]
keys = 100
)"),
              HasSubstr("key 'weights': value 0 out of range"));
  // A weight the ring cannot represent (below one point at its vnodes) is
  // the block's error, naming the smallest weight; enough vnodes accept it.
  EXPECT_THAT(Error(R"([[sweep]]
kind = "weights"
algorithm = ["rendezvous", "ring"]
weights = [[0.0001, 1, 1]]
keys = 100
)"),
              HasSubstr("key 'weights': ring: node 'node-0' weight 0.0001 "
                        "would get round(vnodes 100 x weight 0.0001) = 0 "
                        "points and no keys; the smallest weight with a "
                        "point at vnodes 100 is 0.005 (or use vnodes >= "
                        "5000)"));
  EXPECT_TRUE(Parse(R"([[sweep]]
kind = "weights"
algorithm = ["rendezvous", "ring"]
weights = [[0.0001, 1, 1]]
vnodes = 5000
keys = 100
)")
                  .ok());
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
  EXPECT_THAT(
      Error(std::string(kBase) + "[sweep.tiers.full]\nnodes = \"ten\"\n"),
      HasSubstr("key 'nodes': expected an integer"));
  EXPECT_THAT(Error("[[sweep]]\nkind = \"balance\"\nnodes = 1\nkeys = 1\n"),
              HasSubstr("key 'algorithm': missing"));
  EXPECT_THAT(Error(std::string(kBase) + "keys_per_node = 5\n"),
              HasSubstr("key 'keys': give exactly one of"));
  EXPECT_THAT(Error(std::string(kBase) + "hash = \"absl_hash\"\n"),
              HasSubstr("key 'hash': value 'absl_hash' is seeded per process"));
  EXPECT_THAT(Error(std::string(kBase) + "scenario = \"add\"\n"),
              HasSubstr("key 'scenario': not used by kind 'balance'"));
  EXPECT_THAT(Error("description = \"x\"\n"),
              HasSubstr("key 'sweep': missing"));
  EXPECT_THAT(Error("[[sweep]\n"), HasSubstr("experiments/x.toml:1:"));
}

// Values that would be truncated to 32 bits or abort a cell are refused.
TEST(SpecTest, RejectsReviewRepros) {
  EXPECT_THAT(Error(R"([[sweep]]
kind = "memory"
algorithm = ["modulo"]
nodes = [4294967298]
)"),
              HasSubstr("experiments/x.toml: key 'nodes': value 4294967298 out "
                        "of range; valid: 1..16777216"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
algorithm = ["modulo"]
nodes = [8]
keys_per_node = [2305843009213693952]
)"),
              HasSubstr("key 'keys_per_node': value 2305843009213693952 out of "
                        "range; valid: 1..4294967296"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
algorithm = ["ring"]
nodes = [8]
vnodes = [2000000]
keys = 100
)"),
              HasSubstr("key 'vnodes': value 2000000 out of range; valid: "
                        "1..1048576"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
algorithm = ["maglev"]
nodes = [8]
table_size = [4294967311]
keys = 100
)"),
              HasSubstr("key 'table_size': value 4294967311 out of range; "
                        "valid: 2..4294967291"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
algorithm = ["modulo"]
nodes = [8]
keys = [0]
)"),
              HasSubstr("key 'keys': value 0 out of range; valid: "
                        "1..4294967296"));
}

TEST(SpecTest, RejectsOverflowingProductsAndAlgorithmLimits) {
  // Each factor is in range, the product is not (8 * 2^29 = 2^32 is fine).
  EXPECT_THAT(
      Error(R"([[sweep]]
kind = "balance"
algorithm = ["modulo"]
nodes = [16]
keys_per_node = [536870912]
)"),
      HasSubstr("key 'keys_per_node': value 536870912 x 16 nodes out of "
                "range; the key count must be in 1..4294967296"));
  absl::StatusOr<Spec> edge = Parse(R"([[sweep]]
kind = "balance"
algorithm = ["modulo"]
nodes = [8]
keys_per_node = [536870912]
)");
  ASSERT_TRUE(edge.ok()) << edge.status();
  EXPECT_EQ(edge->cells[0].keys, uint64_t{1} << 32);
  // Weights give the node count.
  EXPECT_THAT(Error(R"([[sweep]]
kind = "weights"
algorithm = ["modulo"]
weights = [[1, 2, 3]]
keys_per_node = [2000000000]
)"),
              HasSubstr("key 'keys_per_node': value 2000000000 x 3 nodes"));
  // bounded_load's own vnode limit is tighter than the ring's.
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
algorithm = ["bounded_load"]
nodes = [2]
vnodes = [1048576]
keys = 100
)"),
              HasSubstr("key 'vnodes': value 1048576 out of range for "
                        "bounded_load; valid: 1..1000000"));
  // Ring points: nodes x vnodes <= 2^31.
  EXPECT_THAT(Error(R"([[sweep]]
kind = "memory"
algorithm = ["ring"]
nodes = [16777216]
vnodes = [1000]
)"),
              HasSubstr("key 'vnodes': value 1000 x 16777216 nodes = "
                        "16777216000 ring points out of range"));
  // Placed keys: placed_keys_per_node x nodes <= 2^32.
  EXPECT_THAT(Error(R"([[sweep]]
kind = "memory"
algorithm = ["bounded_load"]
nodes = [1000]
placed_keys_per_node = [4294967295]
)"),
              HasSubstr("key 'placed_keys_per_node': value 4294967295 x 1000 "
                        "nodes out of range"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "lookup"
algorithm = ["jump"]
nodes = [10]
keys = 100
min_time_s = 61
)"),
              HasSubstr("key 'min_time_s': value 61 out of range; valid: (0, "
                        "60] seconds"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "lookup"
algorithm = ["jump"]
nodes = [10]
keys = 100
min_time_s = 0
)"),
              HasSubstr("key 'min_time_s': value 0 out of range"));
}

constexpr char kLookup[] = R"(
[[sweep]]
kind = "lookup"
algorithm = ["jump", "bounded_load"]
nodes = [10, 100]
keys = 1000
)";

TEST(SpecTest, TimingKindsRepeatRoundsNotSeeds) {
  absl::StatusOr<Spec> spec = Parse(kLookup);
  ASSERT_TRUE(spec.ok()) << spec.status();
  // 2 algorithms x 2 node counts x 2 scenarios, one cell each (no seeds).
  ASSERT_EQ(spec->cells.size(), 8u);
  for (const Cell& c : spec->cells) {
    EXPECT_EQ(c.rounds, 10u) << c.Name();
    EXPECT_EQ(c.seed, 0u);
    EXPECT_EQ(c.repetition, 0u);
  }
  EXPECT_EQ(spec->seeds, (std::vector<uint64_t>{0}));
  absl::StatusOr<Spec> five =
      Parse(std::string(kLookup) + "repetitions = 5\nseed = 7\n");
  ASSERT_TRUE(five.ok()) << five.status();
  ASSERT_EQ(five->cells.size(), 8u);
  for (const Cell& c : five->cells) {
    EXPECT_EQ(c.rounds, 5u);
    EXPECT_EQ(c.seed, 7u);
  }
  // build and hash_speed too.
  absl::StatusOr<Spec> build = Parse(R"([[sweep]]
kind = "build"
algorithm = ["ring"]
nodes = [10]
repetitions = 4
[[sweep]]
kind = "hash_speed"
hash = ["xxh64", "md5"]
keys = 1000
)");
  ASSERT_TRUE(build.ok()) << build.status();
  ASSERT_EQ(build->cells.size(), 3u);
  EXPECT_EQ(build->cells[0].rounds, 4u);
  EXPECT_EQ(build->cells[1].rounds, 10u);
  EXPECT_EQ(build->cells[2].rounds, 10u);
  // Non-timing kinds: expanded over seeds, rounds unused (0).
  absl::StatusOr<Spec> balance = Parse(kBase);
  ASSERT_TRUE(balance.ok());
  for (const Cell& c : balance->cells) EXPECT_EQ(c.rounds, 0u);
  // Fewer than 3 rounds is refused, from a tier too.
  EXPECT_THAT(Error(std::string(kLookup) + "repetitions = 2\n"),
              HasSubstr("key 'repetitions': value 2 out of range for timing "
                        "kind 'lookup'"));
  EXPECT_THAT(Error("[tiers.smoke]\nrepetitions = 1\n" + std::string(kLookup)),
              HasSubstr("valid: 3..10000"));
}

TEST(SpecTest, PlacedKeysPerNodeOnlyForBoundedLoad) {
  absl::StatusOr<Spec> spec =
      Parse(std::string(kLookup) + "placed_keys_per_node = [0, 1000]\n");
  ASSERT_TRUE(spec.ok()) << spec.status();
  // jump: 2 nodes x 2 scenarios (placed keys dropped); bounded_load: x 2.
  ASSERT_EQ(spec->cells.size(), 4u + 8u);
  std::set<std::string> names;
  std::multiset<uint32_t> placed;
  for (const Cell& c : spec->cells) {
    names.insert(c.Name());
    if (c.algorithm == "jump") {
      EXPECT_EQ(c.placed_keys_per_node, 0u);
    } else {
      placed.insert(c.placed_keys_per_node);
    }
  }
  EXPECT_EQ(names.size(), spec->cells.size());
  EXPECT_EQ(placed.count(0), 4u);
  EXPECT_EQ(placed.count(1000), 4u);
  EXPECT_EQ(spec->cells[4].Name(),
            "lookup_bounded-load_xxh64_uniform_n10_v100_c1.25_k1000_prehashed_"
            "s0");
  EXPECT_EQ(spec->cells[6].Name(),
            "lookup_bounded-load_xxh64_uniform_n10_v100_c1.25_k1000_p1000_"
            "prehashed_s0");
  // Default [100] for bounded_load in lookup, build and memory.
  absl::StatusOr<Spec> def = Parse(R"([[sweep]]
kind = "memory"
algorithm = ["bounded_load", "ring"]
nodes = [10]
)");
  ASSERT_TRUE(def.ok()) << def.status();
  ASSERT_EQ(def->cells.size(), 2u);
  EXPECT_EQ(def->cells[0].placed_keys_per_node, 100u);
  EXPECT_EQ(def->cells[1].placed_keys_per_node, 0u);
  // Other kinds: no placed keys, and the key is refused.
  absl::StatusOr<Spec> bal = Parse(R"([[sweep]]
kind = "balance"
algorithm = ["bounded_load"]
nodes = [10]
keys = 100
)");
  ASSERT_TRUE(bal.ok());
  EXPECT_EQ(bal->cells[0].placed_keys_per_node, 0u);
  EXPECT_THAT(Error(std::string(kBase) + "placed_keys_per_node = [5]\n"),
              HasSubstr("key 'placed_keys_per_node': not used by kind "
                        "'balance'"));
  EXPECT_THAT(Error(std::string(kLookup) + "placed_keys_per_node = [-1]\n"),
              HasSubstr("key 'placed_keys_per_node': value -1 out of range"));
}

TEST(SpecTest, RemovalStatesLifoOnlyForRangeHashesAndNoDuplicates) {
  absl::StatusOr<Spec> spec = Parse(R"([[sweep]]
kind = "removal"
algorithm = ["ring", "jump"]
nodes = [10]
keys = 1000
removal = ["random", "lifo"]
removed_fraction = [0.1, 0.12, 0.5]
)");
  ASSERT_TRUE(spec.ok()) << spec.status();
  // ring: 2 orders x 2 distinct counts (0.1 and 0.12 of 10 are both 1);
  // jump: lifo only.
  ASSERT_EQ(spec->cells.size(), 4u + 2u);
  std::set<std::string> names;
  for (const Cell& c : spec->cells) {
    names.insert(c.Name());
    EXPECT_EQ(c.scenario, "oneshot");
    if (c.algorithm == "jump") {
      EXPECT_EQ(c.removal, "lifo");
    }
    EXPECT_TRUE(c.removed == 1 || c.removed == 5) << c.removed;
  }
  EXPECT_EQ(names.size(), spec->cells.size());
  EXPECT_EQ(spec->cells[0].Name(),
            "removal_ring_xxh64_uniform_n10_v100_k1000_oneshot_random-r1_s0");
  // A lookup after removals: prehashed only, and both keys together.
  EXPECT_THAT(Error(std::string(kLookup) + "removal = [\"random\"]\n"),
              HasSubstr("key 'removed_fraction': missing"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "lookup"
algorithm = ["ring"]
nodes = [10]
keys = 100
removal = ["fifo"]
removed_fraction = [0.5]
)"),
              HasSubstr("key 'scenario': missing"));
  EXPECT_THAT(Error(std::string(kBase) + "removal = [\"fifo\"]\n"),
              HasSubstr("key 'removal': not used by kind 'balance'"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "removal"
algorithm = ["ring"]
nodes = [10]
keys = 100
removal = ["lru"]
removed_fraction = [0.5]
)"),
              HasSubstr("key 'removal': unknown value 'lru'; valid: random, "
                        "fifo, lifo"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "removal"
algorithm = ["ring"]
nodes = [10]
keys = 100
removal = ["fifo"]
removed_fraction = [1.0]
)"),
              HasSubstr("key 'removed_fraction': value 1 out of range; valid: "
                        "0..0.99"));
}

TEST(SpecTest, OverprovisionAndProbesOnlyWhereRead) {
  absl::StatusOr<Spec> spec = Parse(R"([[sweep]]
kind = "balance"
algorithm = ["ring"]
nodes = [10]
keys = 100
overprovision = [1, 2.5]
probes = [1, 41]
)");
  ASSERT_TRUE(spec.ok()) << spec.status();
  // ring reads neither: one cell, no capacity, no probes.
  ASSERT_EQ(spec->cells.size(), 1u);
  EXPECT_FALSE(spec->cells[0].capacity.has_value());
  EXPECT_FALSE(spec->cells[0].probes.has_value());
  EXPECT_THAT(Error(std::string(kBase) + "overprovision = [0.5]\n"),
              HasSubstr("key 'overprovision': value 0.5 out of range; valid: "
                        "1..1024"));
  EXPECT_THAT(Error(std::string(kBase) + "probes = [0]\n"),
              HasSubstr("key 'probes': value 0 out of range; valid: 1..1024"));
}

// The growth kind's own rules: no stateful algorithm, at most 2^23 start
// nodes, a bounded amount of mapping work; no scenario (its rows say grow or
// shrink) and keys, not keys_per_node. Each error is one line.
TEST(SpecTest, GrowthBlocks) {
  const std::string head = "[[sweep]]\nkind = \"growth\"\n";
  absl::StatusOr<Spec> ok =
      Parse(head + "algorithm = [\"jump\", \"dx\"]\nnodes = [10, 64]\n"
                   "keys = [1000]\noverprovision = [2]\n");
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_EQ(ok->cells.size(), 4u);
  for (const Cell& c : ok->cells) {
    if (c.algorithm == "jump") {
      EXPECT_FALSE(c.capacity.has_value());  // jump reads none
    } else {
      EXPECT_EQ(c.capacity, std::optional<uint64_t>(2 * c.nodes));  // dx
    }
  }
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"algorithm = [\"bounded_load\"]\nnodes = [10]\nkeys = [100]\n",
       "key 'algorithm': value 'bounded_load' is stateful"},
      {"algorithm = [\"jump\"]\nnodes = [8388609]\nkeys = [100]\n",
       "key 'nodes': value 8388609 out of range for kind 'growth'"},
      {"algorithm = [\"rendezvous\"]\nnodes = [1000]\nkeys = [100000]\n",
       "key 'nodes': value 1000 with keys = 100000 and algorithm 'rendezvous'"},
      {"algorithm = [\"jump\"]\nnodes = [10]\nkeys = [100]\n"
       "scenario = [\"grow\"]\n",
       "key 'scenario': not used by kind 'growth'"},
      {"algorithm = [\"jump\"]\nnodes = [10]\nkeys_per_node = [100]\n",
       "key 'keys_per_node': not used by kind 'growth'"},
  };
  for (const auto& [body, want] : bad) {
    const std::string e = Error(head + body);
    EXPECT_THAT(e, HasSubstr(want)) << body;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

// The shipped growth spec provisions what growing to 2N needs, in every
// tier: anchor and dx with capacity 2N, Maglev with the smallest prime
// >= 100 * 2N, beside each one's default, at every N the sweep runs.
TEST(SpecTest, ShippedGrowthSpecProvisionsTwiceN) {
  for (std::string_view t : kTierNames) {
    SCOPED_TRACE(t);
    const std::string path =
        std::string(CHBENCH_SOURCE_DIR) + "/experiments/growth.toml";
    absl::StatusOr<Spec> spec = LoadSpec(path, path, "growth", t);
    ASSERT_TRUE(spec.ok()) << spec.status();
    // algorithm -> N -> {default seen, provisioned seen}
    std::map<std::string, std::map<uint32_t, std::pair<bool, bool>>> seen;
    for (const Cell& c : spec->cells) {
      if (c.algorithm != "anchor" && c.algorithm != "dx" &&
          c.algorithm != "maglev") {
        continue;
      }
      // A default Maglev cell carries its default M (smallest prime >=
      // 100 N); any other M must be the one for 2N.
      const bool provisioned =
          c.capacity.has_value() ||
          (c.table_size.has_value() &&
           *c.table_size != NextPrime(100u * uint64_t{c.nodes}));
      if (c.capacity) {
        EXPECT_EQ(*c.capacity, 2u * c.nodes) << c.Name();
      }
      if (provisioned && c.table_size) {
        EXPECT_EQ(*c.table_size, NextPrime(200u * uint64_t{c.nodes}))
            << c.Name();
      }
      auto& s = seen[c.algorithm][c.nodes];
      (provisioned ? s.second : s.first) = true;
    }
    ASSERT_EQ(seen.size(), 3u);
    for (const auto& [alg, by_n] : seen) {
      for (const auto& [n, s] : by_n) {
        EXPECT_TRUE(s.first && s.second) << alg << " N=" << n;
      }
    }
    EXPECT_EQ(seen["maglev"].size(), seen["dx"].size());
    EXPECT_EQ(seen["anchor"].size(), seen["dx"].size());
  }
}

TEST(SpecTest, LookupScenariosAndMultithread) {
  absl::StatusOr<Spec> spec =
      Parse(std::string(kLookup) + "scenario = \"string\"\n");
  ASSERT_TRUE(spec.ok()) << spec.status();
  ASSERT_EQ(spec->cells.size(), 4u);
  for (const Cell& c : spec->cells) {
    EXPECT_EQ(c.scenario, "string");
    EXPECT_FALSE(c.multithread);
  }
  absl::StatusOr<Spec> both = Parse(kLookup);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->cells[0].scenario, "prehashed");
  EXPECT_EQ(both->cells[1].scenario, "string");
  EXPECT_EQ(both->cells.size(), 8u);  // "weighted" is not a default
  EXPECT_THAT(Error(std::string(kLookup) + "scenario = [\"placed\"]\n"),
              HasSubstr("key 'scenario': unknown value 'placed' for kind "
                        "'lookup'; valid: prehashed, weighted, string, "
                        "replicas"));
  EXPECT_THAT(Error(std::string(kLookup) + "scenario = [\"add\"]\n"),
              HasSubstr("unknown value 'add' for kind 'lookup'"));
  // weighted and replicas: only for the algorithms with the capability,
  // with the default hash only, and never by default.
  struct Case {
    const char* scenario;
    const char* able_pair;  // two algorithms that run it
    const char* refusal;    // jump's error
  };
  for (const Case& k :
       {Case{"weighted", "\"rendezvous\", \"ring\"",
             "it does not accept node weights; valid: ring, rendezvous, "
             "maglev"},
        Case{"replicas", "\"ring\", \"crush\"",
             "it has no replica lists; valid: ring, rendezvous"}}) {
    SCOPED_TRACE(k.scenario);
    const std::string scenario =
        absl::StrCat("scenario = [\"", k.scenario, "\"]\n");
    absl::StatusOr<Spec> ok = Parse(absl::StrCat(
        "[[sweep]]\nkind = \"lookup\"\nalgorithm = [", k.able_pair,
        "]\nnodes = [10]\nkeys = 1000\n", scenario));
    ASSERT_TRUE(ok.ok()) << ok.status();
    ASSERT_EQ(ok->cells.size(), 2u);
    EXPECT_EQ(ok->cells[1].scenario, k.scenario);
    EXPECT_THAT(Error(std::string(kLookup) + scenario),
                HasSubstr(absl::StrCat("key 'algorithm': value 'jump' with "
                                       "scenario '",
                                       k.scenario, "': ", k.refusal)));
    EXPECT_THAT(Error(absl::StrCat("[[sweep]]\nkind = \"lookup\"\nalgorithm = "
                                   "[\"ring\"]\nnodes = [10]\nkeys = 1000\n",
                                   scenario, "hash = [\"md5\"]\n")),
                HasSubstr("timed with hash 'xxh64' only"));
  }
  // multithread: on the prehashed cells, and part of the name.
  absl::StatusOr<Spec> mt =
      Parse(std::string(kLookup) + "multithread = true\n");
  ASSERT_TRUE(mt.ok()) << mt.status();
  for (const Cell& c : mt->cells) {
    EXPECT_EQ(c.multithread, c.scenario == "prehashed") << c.Name();
  }
  EXPECT_EQ(mt->cells[0].Name(),
            "lookup_jump_xxh64_uniform_n10_k1000_prehashed_mt_s0");
  EXPECT_THAT(Error(std::string(kBase) + "multithread = true\n"),
              HasSubstr("key 'multithread': not used by kind 'balance'"));
  EXPECT_THAT(Error(std::string(kLookup) + "multithread = 1\n"),
              HasSubstr("key 'multithread': expected true or false"));
}

TEST(SpecTest, LookupBatchAxis) {
  // batch = [1, 16]: one single-key cell and one batched cell per
  // configuration; the batched one is named apart, and its multithread
  // (batch_lookups_per_s) is the single-key cell's.
  absl::StatusOr<Spec> spec = Parse(std::string(kLookup) +
                                    "batch = [1, 16]\nmultithread = true\n");
  ASSERT_TRUE(spec.ok()) << spec.status();
  ASSERT_EQ(spec->cells.size(), 16u);
  std::set<std::string> names;
  int batched = 0;
  for (const Cell& c : spec->cells) {
    names.insert(c.Name());
    if (c.batch == 16) {
      ++batched;
      EXPECT_EQ(c.multithread, c.scenario == "prehashed") << c.Name();
      EXPECT_THAT(c.Name(), HasSubstr("_b16_"));
    } else {
      EXPECT_EQ(c.batch, 1u);
      EXPECT_EQ(c.multithread, c.scenario == "prehashed") << c.Name();
      EXPECT_THAT(c.Name(), ::testing::Not(HasSubstr("_b1")));
    }
  }
  EXPECT_EQ(batched, 8);
  EXPECT_EQ(names.size(), spec->cells.size());
  EXPECT_EQ(spec->cells[1].Name(),
            "lookup_jump_xxh64_uniform_n10_k1000_prehashed_mt_b16_s0");
  // Without the key every cell is single-key, named as before.
  absl::StatusOr<Spec> plain = Parse(kLookup);
  ASSERT_TRUE(plain.ok());
  for (const Cell& c : plain->cells) EXPECT_EQ(c.batch, 1u);
  EXPECT_EQ(plain->cells[0].Name(),
            "lookup_jump_xxh64_uniform_n10_k1000_prehashed_s0");
  // A block that repeats the single-key cells of another adds none.
  absl::StatusOr<Spec> twice = Parse(std::string(kLookup) + kLookup +
                                     "batch = [1, 64]\n");
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_EQ(twice->cells.size(), 16u);
  // Bad values: one line naming the value and the valid range.
  for (const char* bad : {"0", "1025", "-3"}) {
    EXPECT_EQ(Error(absl::StrCat(kLookup, "batch = [16, ", bad, "]\n")),
              absl::StrCat("experiments/x.toml: key 'batch': value ", bad,
                           " out of range; valid: 1..1024 (keys per "
                           "LookupBatch call; 1 = single-key lookups)"));
  }
  EXPECT_THAT(Error(std::string(kLookup) + "batch = [2.5]\n"),
              HasSubstr("key 'batch'"));
  EXPECT_THAT(Error(std::string(kBase) + "batch = [16]\n"),
              HasSubstr("key 'batch': not used by kind 'balance'; lookup "
                        "only"));
  EXPECT_EQ(Error("[[sweep]]\nkind = \"lookup\"\nalgorithm = [\"ring\"]\n"
                  "nodes = [10]\nkeys = 1000\nscenario = [\"replicas\"]\n"
                  "batch = [1, 16]\n"),
            "experiments/x.toml: key 'batch': value 16 with scenario "
            "'replicas'; batched lookups are timed in the prehashed, "
            "weighted and string scenarios; valid with replicas: 1");
  // A tier may override it.
  absl::StatusOr<Spec> tiered =
      Parse(std::string(kLookup) +
                "batch = [16]\n[sweep.tiers.full]\nbatch = [16, 64]\n",
            "full");
  ASSERT_TRUE(tiered.ok()) << tiered.status();
  EXPECT_EQ(tiered->cells.size(), 16u);
}

TEST(SpecTest, BoundedLoadDropsThirtyTwoBitHashes) {
  absl::StatusOr<Spec> spec = Parse(R"([[sweep]]
kind = "balance"
algorithm = ["ring", "bounded_load"]
hash = ["crc32", "xxh64", "murmur3_32"]
nodes = [10]
keys = 100
)");
  ASSERT_TRUE(spec.ok()) << spec.status();
  // ring: 3 hashes; bounded_load: xxh64 only.
  ASSERT_EQ(spec->cells.size(), 4u);
  for (const Cell& c : spec->cells) {
    if (c.algorithm == "bounded_load") {
      EXPECT_EQ(c.hash, "xxh64");
    }
  }
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
algorithm = ["ring", "bounded_load"]
hash = ["crc32", "murmur3_32"]
nodes = [10]
keys = 100
)"),
              HasSubstr("key 'hash': values 'crc32', 'murmur3_32' are 32-bit "
                        "hashes; bounded_load refuses them"));
}

TEST(SpecTest, TimingMetrics) {
  for (const char* m :
       {"lookup_ns", "lookup_latency_ns", "hash_ns", "build_ns", "add_node_ns",
        "remove_node_ns", "place_ns", "lookups_per_s",
        "lookup_ns_ratio_to_jump_paper", "load_avg_1m", "cpu_steal_fraction"}) {
    EXPECT_TRUE(IsTimingMetric(m)) << m;
  }
  for (const char* m : {"checksum", "memory_bytes", "moved_fraction",
                        "load_max_over_mean", "memory_bytes_per_key"}) {
    EXPECT_FALSE(IsTimingMetric(m)) << m;
  }
}

TEST(SpecTest, UnknownTier) {
  absl::StatusOr<Spec> s = Parse(kBase, "huge");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(
      s.status().message(),
      HasSubstr("unknown tier 'huge'; valid tiers: smoke, default, full"));
}

// Every shipped spec parses in every tier and yields cells.
TEST(SpecTest, ShippedSpecsAreValid) {
  for (std::string_view e : kExperimentNames) {
    for (std::string_view t : kTierNames) {
      const std::string path = std::string(CHBENCH_SOURCE_DIR) +
                               "/experiments/" + std::string(e) + ".toml";
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

namespace chbench {
namespace {

// Production presets run in kind presets, and in kind lookup with string
// keys only (their key hash is part of what they are).
TEST(SpecTest, PresetNamesOnlyWherePresetsRun) {
  EXPECT_THAT(Error(R"([[sweep]]
kind = "presets"
algorithm = ["ring", "nginx"]
nodes = 10
keys = 10
)"),
              HasSubstr("unknown value 'nginx'; valid: modulo, ring"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "presets"
preset = ["nginx", "ring"]
nodes = 10
keys = 10
)"),
              HasSubstr("key 'preset': unknown value 'ring'; valid: "
                        "libmemcached_ketama"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
preset = ["nginx"]
nodes = 10
keys = 10
)"),
              HasSubstr("production presets run in kind 'presets' and in "
                        "kind 'lookup' with scenario = [\"string\"] only"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "lookup"
preset = ["haproxy"]
scenario = ["prehashed"]
nodes = 10
keys = 10
)"),
              HasSubstr("key 'preset': production presets run"));
  absl::StatusOr<Spec> ok = Parse(R"([[sweep]]
kind = "presets"
algorithm = ["ring"]
preset = ["nginx"]
keyset = ["url"]
nodes = [3, 10]
keys_per_node = [100]
repetitions = 2
)");
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->cells.size(), 2u * 2u * 2u);
  std::set<std::string> names;
  for (const Cell& c : ok->cells) names.insert(c.algorithm);
  EXPECT_EQ(names, (std::set<std::string>{"ring", "nginx"}));
  absl::StatusOr<Spec> timing = Parse(R"([[sweep]]
kind = "lookup"
algorithm = ["jump"]
preset = ["nginx"]
scenario = ["string"]
keyset = ["url"]
nodes = [10]
keys = [1000]
)");
  EXPECT_TRUE(timing.ok()) << timing.status();
}

}  // namespace
}  // namespace chbench

namespace chbench {
namespace {

TEST(SpecTest, ClusterAxesAndRules) {
  absl::StatusOr<Spec> s = ParseSpec(R"([[sweep]]
kind = "cluster"
mode = ["sim", "memcached"]
scenario = ["add", "stale_view", "cascade"]
algorithm = ["ring"]
nodes = 10
keys = 1000
requests = 4000
cache_items = [100, 200]
stale_fraction = [0, 0.5]
utilization = [0.8]
zipf = [0.99]
buckets = 20
)",
                                     "x.toml", "cluster", "default");
  ASSERT_TRUE(s.ok()) << s.status();
  // sim: 2 caches x (add 1 + stale_view 2 + cascade 1) = 8; memcached: one
  // cache value (not read) x 4 = 4.
  EXPECT_EQ(s->cells.size(), 12u);
  int stale = 0, cascade = 0, real = 0;
  for (const Cell& c : s->cells) {
    EXPECT_EQ(c.buckets, 20u);
    EXPECT_EQ(c.requests, 4000u);
    EXPECT_EQ(c.stale_fraction.has_value(), c.scenario == "stale_view");
    EXPECT_EQ(c.utilization.has_value(), c.scenario == "cascade");
    stale += c.scenario == "stale_view";
    cascade += c.scenario == "cascade";
    if (c.mode == "memcached") {
      ++real;
      EXPECT_TRUE(c.timing());  // runs alone
      EXPECT_EQ(c.cache_items, 0u);
    } else {
      EXPECT_FALSE(c.timing());
    }
  }
  EXPECT_EQ(stale, 6);
  EXPECT_EQ(cascade, 3);
  EXPECT_EQ(real, 4);
}

TEST(SpecTest, ClusterRejectsBadValues) {
  const std::string base = R"([[sweep]]
kind = "cluster"
algorithm = ["ring"]
nodes = 10
keys = 1000
requests = 4000
)";
  EXPECT_THAT(Error(base + "scenario = [\"meteor\"]\n"),
              HasSubstr("key 'scenario': unknown value 'meteor' for kind "
                        "'cluster'; valid: none, add, remove, stale_view, "
                        "cascade"));
  EXPECT_THAT(Error(base + "scenario = [\"add\"]\nmode = [\"docker\"]\n"),
              HasSubstr("key 'mode': unknown value 'docker'; valid: sim, "
                        "memcached"));
  EXPECT_THAT(Error(base + "scenario = [\"add\"]\nzipf = [-1]\n"),
              HasSubstr("key 'zipf': value -1 out of range; valid: 0..10"));
  EXPECT_THAT(Error(base + "scenario = [\"cascade\"]\nutilization = [0]\n"),
              HasSubstr("key 'utilization': value 0 out of range"));
  EXPECT_THAT(Error(base + "scenario = [\"add\"]\nutilization = [0.5]\n"),
              HasSubstr("not used without scenario 'cascade'"));
  EXPECT_THAT(Error(base + "scenario = [\"add\"]\nstale_fraction = [2]\n"),
              HasSubstr("key 'stale_fraction': value 2 out of range"));
  EXPECT_THAT(Error(base + "scenario = [\"add\"]\nbuckets = 5000\n"),
              HasSubstr("key 'requests': value 4000 out of range; at least "
                        "one per bucket (5000)"));
  EXPECT_THAT(Error(base + "scenario = [\"add\"]\nworkers = 0\n"),
              HasSubstr("key 'workers': value 0 out of range; valid: 1..64"));
  EXPECT_THAT(Error(base + "scenario = [\"add\"]\nmode = [\"memcached\"]\n"
                           "cache_items = [5]\n"),
              HasSubstr("key 'cache_items': not used by mode 'memcached'"));
  EXPECT_THAT(Error(R"([[sweep]]
kind = "cluster"
mode = ["memcached"]
scenario = ["add"]
algorithm = ["ring"]
nodes = 100
keys = 1000
requests = 4000
)"),
              HasSubstr("key 'nodes': value 100 out of range for mode "
                        "'memcached' (one process per server, on 2 cores); "
                        "valid: 2..64"));
  const std::string real = R"([[sweep]]
kind = "cluster"
mode = ["memcached"]
scenario = ["add"]
algorithm = ["ring"]
nodes = 10
)";
  EXPECT_THAT(Error(real + "keys = 300000\nrequests = 4000\n"),
              HasSubstr("key 'keys': value 300000 out of range for mode "
                        "'memcached' (every key must fit its server's 64 MB: "
                        "no eviction); valid: 1..200000"));
  EXPECT_THAT(Error(real + "keys = 1000\nrequests = 20000000\n"),
              HasSubstr("key 'requests': value 20000000 out of range for "
                        "mode 'memcached' (a bounded request loop); valid: "
                        "40..10000000"));  // one request per bucket at least
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
algorithm = ["ring"]
nodes = 10
keys = 1000
zipf = [1]
)"),
              HasSubstr("key 'zipf': not used by kind 'balance'; cluster "
                        "only"));
  EXPECT_THAT(Error(base + "scenario = [\"add\"]\nkeys_per_node = 3\n"),
              HasSubstr("key 'keys_per_node': not used by kind 'cluster'; "
                        "use 'keys' (the universe)"));
}

// A block for one tier only: enabled = false, true in its tier table.
TEST(SpecTest, EnabledSelectsTiers) {
  const std::string text = R"([[sweep]]
kind = "balance"
algorithm = ["ring"]
nodes = 10
keys = 100
[[sweep]]
kind = "balance"
enabled = false
algorithm = ["jump"]
nodes = 10
keys = 100
[sweep.tiers.full]
enabled = true
)";
  absl::StatusOr<Spec> d = ParseSpec(text, "x.toml", "balance", "default");
  absl::StatusOr<Spec> f = ParseSpec(text, "x.toml", "balance", "full");
  ASSERT_TRUE(d.ok() && f.ok());
  EXPECT_EQ(d->cells.size(), 1u);
  EXPECT_EQ(f->cells.size(), 2u);
  EXPECT_THAT(Error(R"([[sweep]]
kind = "balance"
enabled = 1
algorithm = ["ring"]
nodes = 10
keys = 100
)"),
              HasSubstr("key 'enabled': expected true or false"));
}

// Regression (fuzz/spec_fuzzer.cc): an expansion past kMaxCells is refused
// as soon as it passes the limit, instead of allocating 10^7 cells (5 GB)
// for 100 nodes x 100 key counts x 1000 repetitions, or 2 * 10^5 cluster
// combinations before the first cell.
TEST(SpecTest, ExpansionIsBounded) {
  std::string nodes, keys;
  for (int i = 1; i <= 100; ++i) {
    absl::StrAppend(&nodes, i == 1 ? "" : ", ", i);
    absl::StrAppend(&keys, i == 1 ? "" : ", ", 1000 + i);
  }
  const std::string huge =
      absl::StrCat(R"([[sweep]]
kind = "balance"
algorithm = ["modulo"]
nodes = [)",
                   nodes, "]\nkeys = [", keys, "]\nrepetitions = 1000\n");
  EXPECT_THAT(Error(huge),
              HasSubstr("key 'sweep': tier 'default' expands to more than "
                        "100000 cells"));
  std::string zipf, requests;
  for (int i = 0; i < 500; ++i) {
    absl::StrAppend(&zipf, i == 0 ? "" : ", ", i / 100.0);
    absl::StrAppend(&requests, i == 0 ? "" : ", ", 1000 + i);
  }
  EXPECT_THAT(Error(absl::StrCat(R"([[sweep]]
kind = "cluster"
algorithm = ["ring"]
scenario = ["add"]
nodes = 10
keys = 1000
zipf = [)",
                                 zipf, "]\nrequests = [", requests, "]\n")),
              HasSubstr("expands to more than 100000 cells"));
  // 100 x 1000 = 10^5 cells is the limit itself: accepted.
  absl::StatusOr<Spec> edge =
      Parse(absl::StrCat(R"([[sweep]]
kind = "balance"
algorithm = ["modulo"]
nodes = [)",
                         nodes, "]\nkeys = 1000\nrepetitions = 1000\n"));
  ASSERT_TRUE(edge.ok()) << edge.status();
  EXPECT_EQ(edge->cells.size(), 100000u);
}

// Regression (fuzz/spec_fuzzer.cc): toml++ 3.3.0 reaches undefined behaviour
// (an unreachable switch default) when it classifies some non-ASCII
// characters as whitespace or not, between tokens but also inside strings
// (a value starting like a number is scanned through quotes, and so is the
// text after a backslash in a multi-line string). Spec files are ASCII:
// ParseSpec refuses any other byte first, with its position; strings hold
// other characters as \uXXXX.
TEST(SpecTest, NonAsciiBytesAreRefusedBeforeTheTomlParser) {
  EXPECT_THAT(Error("description = \"x\"\nnodes = [1\xD0\xA8]\n"),
              HasSubstr("experiments/x.toml:2:11: TOML syntax error: "
                        "non-ASCII byte 0xD0; spec files are ASCII"));
  EXPECT_THAT(Error("x = +\"\xC3\xA9\"\n"),  // scanned as a number
              HasSubstr("experiments/x.toml:1:7: TOML syntax error"));
  EXPECT_THAT(Error("description = \"\"\"\\\n\xC2\xA7\"\"\"\n"),
              HasSubstr("experiments/x.toml:2:1: TOML syntax error"));
  EXPECT_THAT(Error("description = \"caf\xC3\xA9\"  # \xE2\x80\x94\n"),
              HasSubstr("\\uXXXX"));
  // Escapes and a byte-order mark are ASCII-safe and parse as before.
  absl::StatusOr<Spec> ok = Parse(absl::StrCat(
      "\xEF\xBB\xBF# a comment\ndescription = \"caf\\u00e9 \\\"q\\\"\"\n",
      kBase));
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->description, "caf\xC3\xA9 \"q\"");
}

// Regression (fuzz/spec_fuzzer.cc, a debug assert inside toml++ 3.3.0): a
// table header whose '[' is followed by a character that cannot start a
// key is a syntax error.
TEST(SpecTest, TomlSyntaxErrorAfterTableBracket) {
  EXPECT_THAT(Error("[#\n"), HasSubstr("experiments/x.toml:1:2: TOML syntax "
                                       "error"));
  EXPECT_THAT(Error("[&\n"), HasSubstr("TOML syntax error"));
}

}  // namespace
}  // namespace chbench

namespace chbench {
namespace {

std::set<std::string> AlgorithmsOf(const Spec& spec) {
  std::set<std::string> out;
  for (const Cell& c : spec.cells) out.insert(c.algorithm);
  return out;
}

std::vector<std::string> AlgorithmOrder(const Spec& spec) {
  std::vector<std::string> out;
  for (const Cell& c : spec.cells) {
    if (out.empty() || out.back() != c.algorithm) out.push_back(c.algorithm);
  }
  return out;
}

constexpr char kSelectionBase[] = R"(
[[sweep]]
kind = "balance"
nodes = [10]
keys = 1000
algorithm = )";

absl::StatusOr<Spec> ParseSelection(const std::string& selection) {
  return Parse(absl::StrCat(kSelectionBase, selection, "\n"));
}

// "all" is every catalogue row in the sweeps (AlgorithmInfo::in_sweeps), in
// catalogue order; a row out of the sweeps is selected by name only.
TEST(SpecTest, AllSelectsEveryAlgorithmInCatalogueOrder) {
  absl::StatusOr<Spec> spec = ParseSelection("\"all\"");
  ASSERT_TRUE(spec.ok()) << spec.status();
  std::vector<std::string> expected;
  for (const AlgorithmInfo& info : Algorithms()) {
    if (info.in_sweeps) expected.push_back(std::string(info.name));
  }
  EXPECT_EQ(AlgorithmOrder(*spec), expected);
  absl::StatusOr<Spec> same = ParseSelection("{ all = true }");
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(AlgorithmOrder(*same), expected);
  for (const AlgorithmInfo& info : Algorithms()) {
    if (info.in_sweeps) continue;
    absl::StatusOr<Spec> named =
        ParseSelection("[\"" + std::string(info.name) + "\"]");
    ASSERT_TRUE(named.ok()) << info.name << ": " << named.status();
    EXPECT_EQ(AlgorithmOrder(*named),
              std::vector<std::string>{std::string(info.name)});
  }
}

// A catalogue entry alone brings an algorithm into an "all" block: parsed
// with the toy catalogue's rows, the spec has the toy's cells.
TEST(SpecTest, AllSelectsAnAlgorithmOfTheRowsGiven) {
  constexpr auto rows = CatalogueRows(kToyCatalogue);
  const std::string text = absl::StrCat(kSelectionBase, "\"all\"\n");
  absl::StatusOr<Spec> spec =
      ParseSpec(text, "experiments/x.toml", "x", "default", rows);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_TRUE(AlgorithmsOf(*spec).count("toy"));
  EXPECT_EQ(AlgorithmsOf(*spec).size(),
            static_cast<size_t>(std::count_if(
                rows.begin(), rows.end(),
                [](const AlgorithmInfo& i) { return i.in_sweeps; })));
  EXPECT_EQ(AlgorithmOrder(*spec).back(), "toy");
  // A name list finds it too; the production rows do not know it.
  const std::string named = absl::StrCat(kSelectionBase, "[\"toy\"]\n");
  EXPECT_TRUE(ParseSpec(named, "experiments/x.toml", "x", "default", rows)
                  .ok());
  EXPECT_THAT(Error(named), HasSubstr("key 'algorithm': unknown value 'toy'"));
  // Selections by capability see the toy's capabilities.
  const std::string minimal = absl::StrCat(
      kSelectionBase, "{ minimal_disruption = true, weights = false }\n");
  absl::StatusOr<Spec> m =
      ParseSpec(minimal, "experiments/x.toml", "x", "default", rows);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(AlgorithmsOf(*m).count("toy"));
}

TEST(SpecTest, SelectionsByCapabilityLookupClassAndExcept) {
  const auto expect = [](const std::string& selection, auto keep) {
    absl::StatusOr<Spec> spec = ParseSelection(selection);
    ASSERT_TRUE(spec.ok()) << selection << ": " << spec.status();
    std::vector<std::string> expected;
    for (const AlgorithmInfo& info : Algorithms()) {
      if (info.in_sweeps && keep(info)) {
        expected.push_back(std::string(info.name));
      }
    }
    EXPECT_EQ(AlgorithmOrder(*spec), expected) << selection;
  };
  expect("{ arbitrary_removal = true }", [](const AlgorithmInfo& i) {
    return i.capabilities.arbitrary_removal;
  });
  expect("{ arbitrary_removal = false, minimal_disruption = true }",
         [](const AlgorithmInfo& i) {
           return !i.capabilities.arbitrary_removal &&
                  i.capabilities.minimal_disruption;
         });
  expect("{ weights = true }",
         [](const AlgorithmInfo& i) { return i.capabilities.weights; });
  expect("{ hash_axis = true, stateful = false }", [](const AlgorithmInfo& i) {
    return i.hash_axis && !i.capabilities.stateful;
  });
  expect("{ lookup_class = \"linear\" }",
         [](const AlgorithmInfo& i) { return i.lookup_class == "linear"; });
  expect("{ lookup_class = [\"constant\", \"logarithmic\"], except = "
         "[\"modulo\", \"ring\"] }",
         [](const AlgorithmInfo& i) {
           return i.lookup_class != "linear" && i.name != "modulo" &&
                  i.name != "ring";
         });
  expect("{ all = true, except = [\"bounded_load\"] }",
         [](const AlgorithmInfo& i) { return i.name != "bounded_load"; });
  // A tier can override a name list with a selection and back.
  absl::StatusOr<Spec> tiered = Parse(absl::StrCat(
      kSelectionBase, "[\"ring\"]\n[sweep.tiers.smoke]\nalgorithm = \"all\"\n"),
      "smoke");
  ASSERT_TRUE(tiered.ok()) << tiered.status();
  EXPECT_EQ(AlgorithmsOf(*tiered).size(),
            static_cast<size_t>(std::count_if(
                Algorithms().begin(), Algorithms().end(),
                [](const AlgorithmInfo& i) { return i.in_sweeps; })));
}

// every_row = true also selects the rows that "all" and the selections leave
// to name lists (in_sweeps false); false is the default.
TEST(SpecTest, EveryRowAlsoSelectsTheRowsOutOfTheSweeps) {
  std::vector<std::string> replicas, replicas_in_sweeps, every;
  for (const AlgorithmInfo& info : Algorithms()) {
    every.push_back(std::string(info.name));
    if (!info.capabilities.replicas) continue;
    replicas.push_back(std::string(info.name));
    if (info.in_sweeps) replicas_in_sweeps.push_back(std::string(info.name));
  }
  // The catalogue has rows out of the sweeps with replicas, so the key
  // changes something.
  ASSERT_LT(replicas_in_sweeps.size(), replicas.size());
  const auto order = [](const std::string& selection) {
    absl::StatusOr<Spec> spec = ParseSelection(selection);
    EXPECT_TRUE(spec.ok()) << selection << ": " << spec.status();
    return spec.ok() ? AlgorithmOrder(*spec) : std::vector<std::string>{};
  };
  EXPECT_EQ(order("{ replicas = true, every_row = true }"), replicas);
  EXPECT_EQ(order("{ replicas = true, every_row = false }"),
            replicas_in_sweeps);
  EXPECT_EQ(order("{ replicas = true }"), replicas_in_sweeps);
  EXPECT_EQ(order("{ all = true, every_row = true }"), every);
}

TEST(SpecTest, SelectionErrorsNameTheKeyAndTheValidValues) {
  const auto error = [](const std::string& selection) {
    return Error(absl::StrCat(kSelectionBase, selection, "\n"));
  };
  EXPECT_THAT(error("{ fast = true }"),
              HasSubstr("key 'algorithm.fast': unknown selection key; valid: "
                        "all, arbitrary_removal, minimal_disruption"));
  EXPECT_THAT(error("{ lookup_class = \"quadratic\" }"),
              HasSubstr("key 'algorithm.lookup_class': unknown value "
                        "'quadratic'; valid: constant, logarithmic, linear"));
  EXPECT_THAT(error("{ all = true, except = [\"foo\"] }"),
              HasSubstr("key 'algorithm.except': unknown value 'foo'; valid: "
                        "modulo, ring"));
  EXPECT_THAT(error("{ weights = 1 }"),
              HasSubstr("key 'algorithm.weights': expected true or false"));
  EXPECT_THAT(error("{ all = false }"),
              HasSubstr("key 'algorithm.all': value false; valid: true"));
  EXPECT_THAT(error("{}"), HasSubstr("key 'algorithm': empty selection"));
  EXPECT_THAT(error("{ weights = true, lookup_class = \"logarithmic\" }"),
              HasSubstr("key 'algorithm': the selection matches no "
                        "algorithm"));
  EXPECT_THAT(error("\"everything\""),
              HasSubstr("key 'algorithm': unknown value 'everything'"));
}

}  // namespace
}  // namespace chbench
