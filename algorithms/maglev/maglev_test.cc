// Copyright 2026 The chbench Authors.

#include "algorithms/testing/conformance_util.h"
#include "algorithms/maglev/maglev.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using maglev_internal::FastMod32;
using maglev_internal::IsPrime;
using maglev_internal::kMaxTableSize;
using maglev_internal::NextPrime;
using maglev_internal::PopulateStrategy;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using OffsetSkip = std::pair<uint64_t, uint64_t>;

std::vector<NodeSpec> Nodes(int n, const std::string& prefix = "node-") {
  std::vector<NodeSpec> nodes(n);
  for (int i = 0; i < n; ++i) nodes[i].name = absl::StrCat(prefix, i);
  return nodes;
}

using testing::Node;  // chbench::testing, shared with the conformance suite

AlgorithmParams Params(std::string hash, uint64_t table_size) {
  AlgorithmParams params;
  params.hash = std::move(hash);
  params.table_size = table_size;
  return params;
}

// Pseudocode 1 of the paper, written as plainly as possible (materialized
// permutations, `%` everywhere), plus the documented weighted-round rule.
// Reference for the optimized PopulateTable.
std::vector<uint32_t> NaivePopulate(uint64_t M,
                                    const std::vector<OffsetSkip>& os,
                                    const std::vector<double>& weights) {
  const size_t n = os.size();
  std::vector<std::vector<uint64_t>> permutation(n, std::vector<uint64_t>(M));
  for (size_t i = 0; i < n; ++i) {
    for (uint64_t j = 0; j < M; ++j) {
      permutation[i][j] = (os[i].first + j * os[i].second) % M;
    }
  }
  double w_max = 0;
  for (double w : weights) w_max = std::max(w_max, w);
  std::vector<uint64_t> next(n, 0), count(n, 0);
  std::vector<int64_t> entry(M, -1);
  uint64_t filled = 0;
  for (uint64_t round = 1;; ++round) {
    for (size_t i = 0; i < n; ++i) {
      if (!weights.empty() &&
          !(static_cast<double>(count[i]) <
            static_cast<double>(round) * (weights[i] / w_max))) {
        continue;
      }
      uint64_t c = permutation[i][next[i]];
      while (entry[c] >= 0) {
        ++next[i];
        c = permutation[i][next[i]];
      }
      entry[c] = static_cast<int64_t>(i);
      ++next[i];
      ++count[i];
      if (++filled == M) {
        return std::vector<uint32_t>(entry.begin(), entry.end());
      }
    }
  }
}

std::vector<uint64_t> Counts(const std::vector<uint32_t>& table, size_t n) {
  std::vector<uint64_t> counts(n, 0);
  for (uint32_t owner : table) ++counts[owner];
  return counts;
}

// --- The paper's example -----------------------------------------------------

// Eisenbud et al., NSDI 2016, Table 1: M = 7; B0 has offset 3, skip 4
// (permutation 3 0 4 1 5 2 6), B1 offset 0, skip 2 (0 2 4 6 1 3 5), B2 offset
// 3, skip 1 (3 4 5 6 0 1 2). The lookup table before is B1 B0 B1 B0 B2 B2 B0;
// after B1 is removed it is B0 B0 B0 B0 B2 B2 B2.
TEST(MaglevPopulateTest, PaperTable1Before) {
  const std::vector<OffsetSkip> os = {{3, 4}, {0, 2}, {3, 1}};
  for (PopulateStrategy s :
       {PopulateStrategy::kAuto, PopulateStrategy::kEqual,
        PopulateStrategy::kRounds, PopulateStrategy::kCalendar}) {
    EXPECT_THAT(Maglev<Xxh64>::Populate(7, os, {}, s),
                ElementsAre(1, 0, 1, 0, 2, 2, 0));
  }
  // Equal weights other than 1 are the paper's populate too.
  const std::vector<double> w = {2.5, 2.5, 2.5};
  EXPECT_THAT(Maglev<Xxh64>::Populate(7, os, w),
              ElementsAre(1, 0, 1, 0, 2, 2, 0));
}

TEST(MaglevPopulateTest, PaperTable1AfterRemovingB1) {
  // Index 0 = B0, index 1 = B2.
  const std::vector<OffsetSkip> os = {{3, 4}, {3, 1}};
  for (PopulateStrategy s :
       {PopulateStrategy::kAuto, PopulateStrategy::kEqual,
        PopulateStrategy::kRounds, PopulateStrategy::kCalendar}) {
    EXPECT_THAT(Maglev<Xxh64>::Populate(7, os, {}, s),
                ElementsAre(0, 0, 0, 0, 1, 1, 1));
  }
}

TEST(MaglevPopulateTest, MatchesNaivePseudocodeEqualAndWeighted) {
  Sfc64 rng(20160316);
  for (uint64_t M : {2ULL, 3ULL, 7ULL, 101ULL, 1009ULL, 4099ULL}) {
    for (size_t n : {1u, 2u, 5u, 37u}) {
      if (n > M) continue;
      std::vector<OffsetSkip> os(n);
      for (auto& [offset, skip] : os) {
        offset = rng.Below(M);
        skip = rng.Below(M - 1) + 1;
      }
      EXPECT_EQ(Maglev<Xxh64>::Populate(M, os), NaivePopulate(M, os, {}))
          << "M=" << M << " n=" << n;
      std::vector<double> w(n);
      for (double& x : w) x = 0.1 + static_cast<double>(rng.Below(1000)) / 100;
      const std::vector<uint32_t> expected = NaivePopulate(M, os, w);
      for (PopulateStrategy s :
           {PopulateStrategy::kAuto, PopulateStrategy::kRounds,
            PopulateStrategy::kCalendar}) {
        EXPECT_EQ(Maglev<Xxh64>::Populate(M, os, w, s), expected)
            << "M=" << M << " n=" << n << " strategy=" << static_cast<int>(s);
      }
    }
  }
}

TEST(MaglevPopulateTest, CalendarAndRoundsAgreeOnSkewedWeights) {
  // One node 5000x heavier than the rest: kAuto picks kCalendar here, and
  // the light nodes' next turns lie beyond the calendar's window.
  Sfc64 rng(7);
  const uint64_t M = 100003;
  const size_t n = 200;
  std::vector<OffsetSkip> os(n);
  for (auto& [offset, skip] : os) {
    offset = rng.Below(M);
    skip = rng.Below(M - 1) + 1;
  }
  std::vector<double> w(n, 1.0);
  w[17] = 5000.0;  // others: next turn 5000 rounds later
  w[40] = 2.5;
  w[3] = 0.001;
  const std::vector<uint32_t> rounds =
      Maglev<Xxh64>::Populate(M, os, w, PopulateStrategy::kRounds);
  EXPECT_EQ(Maglev<Xxh64>::Populate(M, os, w, PopulateStrategy::kCalendar),
            rounds);
  EXPECT_EQ(Maglev<Xxh64>::Populate(M, os, w, PopulateStrategy::kAuto), rounds);
}

TEST(MaglevPopulateTest, ExtremeWeightRatiosAgreeAcrossStrategies) {
  // 1e-300 / 1e300 underflows to 0: that node is never eligible.
  const std::vector<OffsetSkip> os = {{0, 1}, {5, 3}, {9, 7}, {2, 11}};
  const std::vector<double> w = {1e300, 1e-300, 1e298, 3e299};
  const std::vector<uint32_t> expected = NaivePopulate(101, os, w);
  EXPECT_EQ(Counts(expected, 4)[1], 0u);
  for (PopulateStrategy s : {PopulateStrategy::kAuto, PopulateStrategy::kRounds,
                             PopulateStrategy::kCalendar}) {
    EXPECT_EQ(Maglev<Xxh64>::Populate(101, os, w, s), expected)
        << static_cast<int>(s);
  }
}

TEST(MaglevPopulateTest, EqualSharesDifferByAtMostOne) {
  // Every node takes one slot per round, so shares are floor(M/N) or
  // ceil(M/N) (the paper, §3.4: "each backend will get ... M/N entries").
  Sfc64 rng(11);
  for (uint64_t M : {101ULL, 65537ULL}) {
    for (size_t n : {1u, 3u, 10u, 100u}) {
      if (n > M) continue;
      std::vector<OffsetSkip> os(n);
      for (auto& [offset, skip] : os) {
        offset = rng.Below(M);
        skip = rng.Below(M - 1) + 1;
      }
      const std::vector<uint64_t> counts =
          Counts(Maglev<Xxh64>::Populate(M, os), n);
      for (uint64_t c : counts) {
        EXPECT_GE(c, M / n);
        EXPECT_LE(c, (M + n - 1) / n);
      }
    }
  }
}

TEST(MaglevPopulateTest, WeightedSharesProportionalToWeights) {
  // After round r node i holds ceil(r * w_i / w_max) slots, so each share is
  // within 2 slots of M * w_i / sum(w).
  Sfc64 rng(5);
  const uint64_t M = 100003;
  const std::vector<double> w = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0.5, 2.25};
  std::vector<OffsetSkip> os(w.size());
  for (auto& [offset, skip] : os) {
    offset = rng.Below(M);
    skip = rng.Below(M - 1) + 1;
  }
  double sum = 0;
  for (double x : w) sum += x;
  const std::vector<uint64_t> counts =
      Counts(Maglev<Xxh64>::Populate(M, os, w), w.size());
  for (size_t i = 0; i < w.size(); ++i) {
    EXPECT_NEAR(static_cast<double>(counts[i]), M * w[i] / sum, 2.0)
        << "node " << i;
  }
}

// --- Primes and fast modulo
// ---------------------------------------------------

TEST(MaglevPrimeTest, MatchesTrialDivisionBelow100000) {
  for (uint64_t n = 0; n < 100000; ++n) {
    bool prime = n >= 2;
    for (uint64_t d = 2; d * d <= n && prime; ++d) prime = n % d != 0;
    ASSERT_EQ(IsPrime(n), prime) << n;
  }
}

TEST(MaglevPrimeTest, LargeKnownValues) {
  EXPECT_TRUE(IsPrime(4294967291ULL));            // largest prime < 2^32
  EXPECT_FALSE(IsPrime(4294967297ULL));           // F5 = 641 * 6700417 (Euler)
  EXPECT_TRUE(IsPrime((1ULL << 61) - 1));         // Mersenne prime M61
  EXPECT_TRUE(IsPrime(18446744073709551557ULL));  // largest prime < 2^64
  EXPECT_FALSE(IsPrime(18446744073709551615ULL));
  EXPECT_FALSE(IsPrime(561));            // Carmichael number
  EXPECT_FALSE(IsPrime(2047));           // strong pseudoprime to base 2
  EXPECT_FALSE(IsPrime(3215031751ULL));  // strong psp. to bases 2, 3, 5, 7
  // Strong pseudoprime to bases 2..23 (Jaeschke 1993; OEIS A014233).
  EXPECT_FALSE(IsPrime(3825123056546413051ULL));
  EXPECT_EQ(NextPrime(0), 2u);
  EXPECT_EQ(NextPrime(2), 2u);
  EXPECT_EQ(NextPrime(100), 101u);
  EXPECT_EQ(NextPrime(1000), 1009u);
  EXPECT_EQ(NextPrime(1000000), 1000003u);
  EXPECT_EQ(NextPrime(kMaxTableSize), kMaxTableSize);
  EXPECT_EQ(NextPrime(kMaxTableSize + 1), 4294967311ULL);
  EXPECT_EQ(NextPrime(18446744073709551558ULL), 0u);  // none below 2^64
}

TEST(MaglevFastModTest, ExactOnRandomAndEdgeValues) {
  std::vector<uint32_t> divisors = {1,        2,           3,          7,
                                    101,      65537,       1000003,    10000019,
                                    1u << 31, 4294967291u, 4294967295u};
  Sfc64 rng(1);
  for (int i = 0; i < 200; ++i) {
    divisors.push_back(static_cast<uint32_t>(rng.Below(0xffffffffULL)) + 1);
  }
  for (uint32_t d : divisors) {
    const FastMod32 mod(d);
    const FastMod32 div(d, /*use_division=*/true);
    EXPECT_FALSE(mod.uses_division());
    EXPECT_TRUE(div.uses_division());
    std::vector<uint64_t> keys = {0,
                                  1,
                                  d - 1ULL,
                                  d,
                                  d + 1ULL,
                                  0xffffffffULL,
                                  0x100000000ULL,
                                  ~0ULL,
                                  ~0ULL - 1,
                                  (~0ULL / d) * d,
                                  (~0ULL / d) * d - 1,
                                  1ULL << 63,
                                  (1ULL << 63) - 1};
    for (int k = 0; k < 5000; ++k) keys.push_back(rng());
    for (int k = 0; k < 100; ++k) {
      const uint64_t q = rng() / d;
      keys.push_back(q * d);
      keys.push_back(q * d + d - 1);
    }
    for (uint64_t a : keys) {
      ASSERT_EQ(mod(a), a % d) << "a=" << a << " d=" << d;
      ASSERT_EQ(div(a), a % d) << "a=" << a << " d=" << d;
    }
  }
}

// Lookup reads table[h mod M] with either reduction, in either entry width:
// a table in cache (Barrett) and one past DivisionPaysFrom() (the hardware
// division). 50 nodes take 2-byte entries, 65536 nodes 4-byte ones.
TEST(MaglevTest, LookupIsTheSlotHashModMWithEitherReductionAndWidth) {
  for (auto [nodes, bytes] : {std::pair<uint32_t, size_t>{50, 2},
                              std::pair<uint32_t, size_t>{65536, 4}}) {
    const uint64_t large =
        NextPrime(maglev_internal::DivisionPaysFrom() / bytes + 1);
    for (uint64_t m : {NextPrime(nodes + 1000), large}) {
      SCOPED_TRACE(absl::StrCat("N ", nodes, " M ", m));
      Maglev<Xxh64> maglev(m);
      ASSERT_TRUE(maglev.Build(Nodes(nodes)).ok());
      ASSERT_EQ(maglev.table_size(), m);
      ASSERT_EQ(maglev.entry_bytes(), bytes);
      EXPECT_EQ(maglev.reduces_by_division(), m == large);
      Sfc64 rng(m);
      for (int i = 0; i < 100000; ++i) {
        const uint64_t h = rng();
        ASSERT_EQ(maglev.Lookup(h), maglev.slot(h % m));
      }
    }
  }
}

// --- The class
// ----------------------------------------------------------------

TEST(MaglevTest, TableIsPseudocode1OverNameHashes) {
  Maglev<Xxh64> maglev(1009);
  const std::vector<NodeSpec> nodes = Nodes(13);
  ASSERT_TRUE(maglev.Build(nodes).ok());
  std::vector<OffsetSkip> os;
  for (const NodeSpec& node : nodes) {
    const uint64_t offset = HashString<Xxh64>(node.name, 0) % 1009;
    const uint64_t skip = HashString<Xxh64>(node.name, 1) % 1008 + 1;
    os.push_back({offset, skip});
    EXPECT_EQ(Maglev<Xxh64>::OffsetSkip(node.name, 1009), os.back());
  }
  const std::vector<uint32_t> expected = NaivePopulate(1009, os, {});
  ASSERT_EQ(maglev.table_size(), expected.size());
  for (size_t s = 0; s < expected.size(); ++s) {
    EXPECT_EQ(maglev.slot(s), expected[s]);
  }
  SplitMix64 rng(3);
  for (int k = 0; k < 10000; ++k) {
    const uint64_t key = rng();
    EXPECT_EQ(maglev.Lookup(key), expected[key % 1009]);
  }
}

TEST(MaglevTest, WeightedTableIsReference) {
  Maglev<Md5> maglev(4099);
  std::vector<NodeSpec> nodes = Nodes(7);
  for (int i = 0; i < 7; ++i) nodes[i].weight = 1.0 + i * 0.75;
  ASSERT_TRUE(maglev.Build(nodes).ok());
  std::vector<OffsetSkip> os;
  std::vector<double> w;
  for (const NodeSpec& node : nodes) {
    os.push_back(Maglev<Md5>::OffsetSkip(node.name, 4099));
    w.push_back(node.weight);
  }
  const std::vector<uint32_t> expected = NaivePopulate(4099, os, w);
  for (size_t s = 0; s < expected.size(); ++s) {
    ASSERT_EQ(maglev.slot(s), expected[s]) << s;
  }
}

TEST(MaglevTest, DefaultTableSizeIsSmallestPrimeAbove100NAndStaysFixed) {
  Maglev<Xxh64> maglev;
  EXPECT_EQ(maglev.table_size(), 0u);
  ASSERT_TRUE(maglev.Build(Nodes(10)).ok());
  EXPECT_EQ(maglev.table_size(), 1009u);  // smallest prime >= 1000
  ASSERT_TRUE(maglev.AddNode(Node("extra")).ok());
  EXPECT_EQ(maglev.table_size(), 1009u);
  ASSERT_TRUE(maglev.RemoveNode(0).ok());
  ASSERT_TRUE(maglev.RemoveNode(1).ok());
  EXPECT_EQ(maglev.table_size(), 1009u);
  // Build starts afresh.
  ASSERT_TRUE(maglev.Build(Nodes(100)).ok());
  EXPECT_EQ(maglev.table_size(), 10007u);

  Maglev<Xxh64> grown;
  ASSERT_TRUE(grown.AddNode(Node("a")).ok());
  EXPECT_EQ(grown.table_size(), 101u);
}

TEST(MaglevTest, AddBeyondTableSizeFails) {
  Maglev<Xxh64> maglev(3);
  ASSERT_TRUE(maglev.Build(Nodes(3)).ok());
  const absl::StatusOr<NodeId> id = maglev.AddNode(Node("d"));
  ASSERT_FALSE(id.ok());
  EXPECT_THAT(id.status().message(), HasSubstr("4 nodes would exceed"));
  EXPECT_THAT(id.status().message(), HasSubstr("table size 3"));
  // State unchanged.
  EXPECT_EQ(maglev.size(), 3u);
  EXPECT_THAT(maglev.LiveNodes(), ElementsAre(0, 1, 2));

  const absl::Status s = maglev.Build(Nodes(4));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("smaller than the number of nodes 4"));
  EXPECT_EQ(maglev.size(), 3u);

  // Default size: grown from one node, M = 101 holds 101 nodes, not 102.
  Maglev<Xxh64> grown;
  for (int i = 0; i < 101; ++i) {
    ASSERT_TRUE(grown.AddNode(Node(absl::StrCat("n", i))).ok()) << i;
  }
  EXPECT_FALSE(grown.AddNode(Node("n101")).ok());
  // N == M: every node owns exactly one slot.
  const std::vector<uint64_t> counts = Counts(grown.TableCopy(), 101);
  for (uint64_t c : counts) EXPECT_EQ(c, 1u);
}

TEST(MaglevTest, BuildEqualsRepeatedAddNode) {
  std::vector<NodeSpec> nodes = Nodes(40);
  for (int i = 0; i < 40; ++i) nodes[i].weight = 1 + (i % 4);
  Maglev<Xxh3> built(10007);
  ASSERT_TRUE(built.Build(nodes).ok());
  Maglev<Xxh3> added(10007);
  for (int i = 0; i < 40; ++i) {
    const absl::StatusOr<NodeId> id = added.AddNode(nodes[i]);
    ASSERT_TRUE(id.ok());
    EXPECT_EQ(*id, static_cast<NodeId>(i));
  }
  ASSERT_EQ(built.table_size(), 10007u);
  EXPECT_TRUE(built.TableCopy() == added.TableCopy());
}

TEST(MaglevTest, RemoveEqualsFreshBuildOfRemainingNodes) {
  const std::vector<NodeSpec> nodes = Nodes(30);
  Maglev<Xxh64> maglev(3001);
  ASSERT_TRUE(maglev.Build(nodes).ok());
  ASSERT_TRUE(maglev.RemoveNode(4).ok());
  ASSERT_TRUE(maglev.RemoveNode(17).ok());
  std::vector<NodeSpec> rest;
  for (int i = 0; i < 30; ++i) {
    if (i != 4 && i != 17) rest.push_back(nodes[i]);
  }
  Maglev<Xxh64> fresh(3001);
  ASSERT_TRUE(fresh.Build(rest).ok());
  for (size_t s = 0; s < 3001; ++s) {
    ASSERT_EQ(maglev.NodeName(maglev.slot(s)), fresh.NodeName(fresh.slot(s)))
        << s;
  }
  EXPECT_EQ(maglev.size(), 28u);
  EXPECT_EQ(maglev.NodeName(4), "node-4");  // removed ids keep their names
}

TEST(MaglevTest, EveryLookupIsLiveAndRemovalDisruptionIsSmall) {
  const int n = 100;
  Maglev<Xxh64> maglev;
  ASSERT_TRUE(maglev.Build(Nodes(n)).ok());
  const uint64_t M = maglev.table_size();
  const std::vector<NodeId> before = maglev.TableCopy();
  ASSERT_TRUE(maglev.RemoveNode(42).ok());
  uint64_t had_to_move = 0, moved_needlessly = 0;
  for (uint64_t s = 0; s < M; ++s) {
    const NodeId now = maglev.slot(s);
    ASSERT_NE(now, 42u);
    ASSERT_LT(now, static_cast<NodeId>(n));
    if (before[s] == 42) {
      ++had_to_move;
    } else if (now != before[s]) {
      ++moved_needlessly;
    }
  }
  EXPECT_GT(had_to_move, 0u);
  // Not minimal, but small (the paper, §3.4 and Fig. 11): a few percent.
  EXPECT_GT(moved_needlessly, 0u);
  EXPECT_LT(static_cast<double>(moved_needlessly) / M, 0.05);
}

TEST(MaglevTest, HashPolicyReachesOffsetsAndKeys) {
  Maglev<Xxh64> a(1009);
  Maglev<Fnv1a> b(1009);
  ASSERT_TRUE(a.Build(Nodes(10)).ok());
  ASSERT_TRUE(b.Build(Nodes(10)).ok());
  EXPECT_FALSE(a.TableCopy() == b.TableCopy());
  EXPECT_EQ(a.HashKey("user:42"), HashString<Xxh64>("user:42", 0));
  EXPECT_EQ(b.HashKey("user:42"), HashString<Fnv1a>("user:42", 0));
}

TEST(MaglevTest, EmptyAndAllRemoved) {
  Maglev<Xxh64> maglev(7);
  EXPECT_EQ(maglev.size(), 0u);
  EXPECT_TRUE(maglev.LiveNodes().empty());
  ASSERT_TRUE(maglev.Build({}).ok());
  const absl::StatusOr<NodeId> id = maglev.AddNode(Node("only"));
  ASSERT_TRUE(id.ok());
  for (uint64_t k = 0; k < 50; ++k) EXPECT_EQ(maglev.Lookup(k), *id);
  ASSERT_TRUE(maglev.RemoveNode(*id).ok());
  EXPECT_EQ(maglev.size(), 0u);
  EXPECT_EQ(maglev.Lookup(3), kInvalidNode);
}

TEST(MaglevTest, NodeErrors) {
  Maglev<Xxh64> maglev(101);
  ASSERT_TRUE(maglev.Build(Nodes(3)).ok());
  EXPECT_EQ(maglev.AddNode(Node("node-1")).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(maglev.AddNode(Node("")).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(maglev.AddNode(Node("x", 0)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(maglev.AddNode(Node("x", -1)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(maglev.RemoveNode(3).code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(maglev.RemoveNode(1).ok());
  EXPECT_EQ(maglev.RemoveNode(1).code(), absl::StatusCode::kNotFound);
  std::vector<NodeSpec> dup = Nodes(3);
  dup[2].name = "node-0";
  EXPECT_EQ(maglev.Build(dup).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(maglev.LiveNodes(), ElementsAre(0, 2));  // unchanged
  // A weighted node is accepted.
  EXPECT_TRUE(maglev.AddNode(Node("big", 3)).ok());
}

TEST(MaglevFactoryTest, ValidatesTableSizeAndHash) {
  absl::StatusOr<std::unique_ptr<ConsistentHash>> r =
      MakeMaglev(Params("xxh64", 1000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(),
              HasSubstr("table size 1000 is not prime; next prime ≥ 1000 is "
                        "1009"));
  for (uint64_t bad : std::vector<uint64_t>{1, kMaxTableSize + 2, 1ULL << 40}) {
    r = MakeMaglev(Params("xxh64", bad));
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_THAT(r.status().message(), HasSubstr(absl::StrCat(bad)));
    EXPECT_THAT(r.status().message(), HasSubstr("4294967291"));
  }
  r = MakeMaglev(Params("sha1", 0));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("sha1"));

  // A direct construction with a bad size reports it on Build.
  Maglev<Xxh64> direct(1000);
  EXPECT_THAT(direct.Build(Nodes(2)).message(), HasSubstr("1009"));

  for (const char* hash : {"md5", "xxh64", "xxh3", "murmur3_128", "murmur3_32",
                           "crc32", "fnv1a", "absl_hash"}) {
    r = MakeMaglev(Params(hash, 65537));
    ASSERT_TRUE(r.ok()) << hash << ": " << r.status();
    ConsistentHash& algo = **r;
    EXPECT_EQ(algo.name(), "maglev");
    ASSERT_TRUE(algo.Build(Nodes(5)).ok());
    EXPECT_EQ(algo.size(), 5u);
    EXPECT_LT(algo.Lookup(algo.HashKey("k")), 5u);
    EXPECT_GE(algo.MemoryBytes(), 65537 * sizeof(uint16_t));  // 16-bit ids
  }
}

// 16-bit entries while every id issued is below 2^16 - 1, 32-bit from the
// id 65535 on (ids are never reused, so removals do not narrow it again);
// the owners are the same as a fresh build's in both widths.
TEST(MaglevTest, TableNarrowsToSixteenBitsWhileIdsFit) {
  constexpr uint64_t kM = 65537;
  Maglev<Xxh64> maglev(kM);
  ASSERT_TRUE(maglev.Build(Nodes(65535)).ok());
  EXPECT_EQ(maglev.entry_bytes(), 2u);
  const size_t narrow_bytes = maglev.MemoryBytes();
  ASSERT_TRUE(maglev.AddNode(Node("node-65535")).ok());
  EXPECT_EQ(maglev.entry_bytes(), 4u);
  EXPECT_GE(maglev.MemoryBytes(), narrow_bytes + kM * 2);
  Maglev<Xxh64> fresh(kM);
  ASSERT_TRUE(fresh.Build(Nodes(65536)).ok());
  EXPECT_EQ(fresh.entry_bytes(), 4u);
  EXPECT_EQ(maglev.TableCopy(), fresh.TableCopy());
  ASSERT_TRUE(maglev.RemoveNode(65535).ok());
  EXPECT_EQ(maglev.entry_bytes(), 4u);
  Maglev<Xxh64> smaller(kM);
  ASSERT_TRUE(smaller.Build(Nodes(65535)).ok());
  EXPECT_EQ(maglev.TableCopy(), smaller.TableCopy());
  SplitMix64 rng(9);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t h = rng();
    ASSERT_EQ(maglev.Lookup(h), smaller.Lookup(h));
    ASSERT_EQ(smaller.Lookup(h), smaller.slot(h % kM));
  }
}

// LookupBatch reads either table width by the plain loop (tables under
// kPrefetchPaysFromBytes) or by prefetched groups, with the same owners as
// Lookup in all four cases.
TEST(MaglevTest, LookupBatchEqualsLookupInBothWidthsAndLoops) {
  SplitMix64 rng(17);
  std::vector<uint64_t> keys(20000);
  for (uint64_t& k : keys) k = rng();
  // 65537 entries: 128 or 256 KiB; 2^20 + 7: 2 or 4 MiB (the 32-bit table
  // is the only one of the four at least kPrefetchPaysFromBytes).
  for (uint64_t m : {uint64_t{65537}, uint64_t{1048583}}) {
    for (int nodes : {1000, 65536}) {
      Maglev<Xxh64> maglev(m);
      ASSERT_TRUE(maglev.Build(Nodes(nodes)).ok());
      const bool prefetched =
          m * maglev.entry_bytes() >= kPrefetchPaysFromBytes;
      SCOPED_TRACE(absl::StrCat("M = ", m, ", ", maglev.entry_bytes(),
                                "-byte entries, ",
                                prefetched ? "prefetched" : "plain"));
      EXPECT_EQ(prefetched, m > 65537 && nodes > 1000);
      std::vector<NodeId> got(keys.size());
      // Batches of 1, 5 (partial groups), 16 and all the keys at once.
      for (size_t size : {size_t{1}, size_t{5}, kLookupGroup, keys.size()}) {
        for (size_t i = 0; i < keys.size(); i += size) {
          const size_t b = std::min(size, keys.size() - i);
          maglev.LookupBatch(std::span<const uint64_t>(keys).subspan(i, b),
                             std::span<NodeId>(got).subspan(i, b));
        }
        size_t bad = 0;
        for (size_t i = 0; i < keys.size(); ++i) {
          bad += got[i] != maglev.Lookup(keys[i]);
        }
        EXPECT_EQ(bad, 0u) << "batches of " << size;
      }
    }
  }
}

TEST(MaglevFactoryTest, Capabilities) {
  EXPECT_TRUE(kMaglevCapabilities.arbitrary_removal);
  EXPECT_FALSE(kMaglevCapabilities.minimal_disruption);
  EXPECT_TRUE(kMaglevCapabilities.weights);
  EXPECT_FALSE(kMaglevCapabilities.replicas);
  EXPECT_FALSE(kMaglevCapabilities.stateful);
  Maglev<Xxh64> maglev;
  EXPECT_TRUE(maglev.capabilities().weights);
  std::vector<NodeId> out;
  EXPECT_EQ(maglev.LookupReplicas(1, 1, false, &out).code(),
            absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace chbench
