// Copyright 2026 The chbench Authors.

#include "algorithms/rendezvous/rendezvous.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing::Node;  // chbench::testing, shared with the conformance suite

std::vector<NodeSpec> Nodes(int n) {
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < n; ++i)
    nodes.push_back(Node("node-" + std::to_string(i)));
  return nodes;
}

// Test-only policy that makes scores computable by hand: a node name is a
// decimal number and hashes to itself; a pair (key, node) hashes to
// key XOR node, truncated to 32 bits.
struct XorHash {
  static constexpr std::string_view kName = "xor_test";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t /*seed*/) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    if (len == 16) {
      uint64_t a = 0;
      uint64_t b = 0;
      for (int i = 0; i < 8; ++i) {
        a |= uint64_t{p[i]} << (8 * i);
        b |= uint64_t{p[8 + i]} << (8 * i);
      }
      return (a ^ b) & 0xffffffffu;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < len; ++i) v = v * 10 + (p[i] - '0');
    return v;
  }
};

// Test-only policy under which every score is equal: every lookup is a tie.
struct ConstHash {
  static constexpr std::string_view kName = "const_test";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void*, size_t, uint64_t) { return 12345; }
};

TEST(RendezvousSemanticsTest, HandComputedScores) {
  Rendezvous<XorHash> hrw;
  ASSERT_TRUE(
      hrw.Build(std::vector<NodeSpec>{Node("3"), Node("5"), Node("6")}).ok());
  // key 0: scores 3, 5, 6 -> id 2. key 7: 4, 2, 1 -> id 0. key 4: 7, 1, 2
  // -> id 0. key 1: 2, 4, 7 -> id 2. key 2: 1, 7, 4 -> id 1.
  EXPECT_EQ(hrw.Lookup(0), 2u);
  EXPECT_EQ(hrw.Lookup(7), 0u);
  EXPECT_EQ(hrw.Lookup(4), 0u);
  EXPECT_EQ(hrw.Lookup(1), 2u);
  EXPECT_EQ(hrw.Lookup(2), 1u);
  std::vector<NodeId> out;
  ASSERT_TRUE(hrw.LookupReplicas(2, 3, false, &out).ok());
  EXPECT_THAT(out, ElementsAre(1, 2, 0));  // 7 > 4 > 1
  ASSERT_TRUE(hrw.RemoveNode(1).ok());
  EXPECT_EQ(hrw.Lookup(2), 2u);  // only node 1's keys move
  EXPECT_EQ(hrw.Lookup(7), 0u);
}

TEST(RendezvousSemanticsTest, HandComputedWeightedScores) {
  // key 0: node 2^31 has u ~ 1/2, node 2^30 has u ~ 1/4.
  Rendezvous<XorHash> hrw;
  ASSERT_TRUE(
      hrw.Build(std::vector<NodeSpec>{Node("2147483648"), Node("1073741824")})
          .ok());
  EXPECT_TRUE(hrw.uniform_weights());
  EXPECT_EQ(hrw.Lookup(0), 0u);  // raw scores 2^31 > 2^30
  // Weight 3 on the second: -1/ln(1/2) = 1.44 < -3/ln(1/4) = 2.16.
  ASSERT_TRUE(hrw.Build(std::vector<NodeSpec>{Node("2147483648"),
                                              Node("1073741824", 3.0)})
                  .ok());
  EXPECT_FALSE(hrw.uniform_weights());
  EXPECT_NEAR(Rendezvous<XorHash>::WeightedScore(uint64_t{1} << 31, 1.0),
              1 / std::log(2.0), 1e-9);
  EXPECT_EQ(hrw.Lookup(0), 1u);
  // Weight 1.99 versus 2.01: -1.99/ln(1/4) = 1.4355 < 1.4427 < 1.4499.
  ASSERT_TRUE(hrw.Build(std::vector<NodeSpec>{Node("2147483648"),
                                              Node("1073741824", 1.99)})
                  .ok());
  EXPECT_EQ(hrw.Lookup(0), 0u);
  ASSERT_TRUE(hrw.Build(std::vector<NodeSpec>{Node("2147483648"),
                                              Node("1073741824", 2.01)})
                  .ok());
  EXPECT_EQ(hrw.Lookup(0), 1u);
}

TEST(RendezvousSemanticsTest, TiesGoToTheSmallerId) {
  Rendezvous<ConstHash> hrw;
  ASSERT_TRUE(
      hrw.Build(std::vector<NodeSpec>{Node("b"), Node("a"), Node("c")}).ok());
  EXPECT_EQ(hrw.Lookup(1), 0u);
  EXPECT_EQ(hrw.Lookup(99), 0u);
  std::vector<NodeId> out;
  ASSERT_TRUE(hrw.LookupReplicas(5, 3, false, &out).ok());
  EXPECT_THAT(out, ElementsAre(0, 1, 2));
  ASSERT_TRUE(hrw.RemoveNode(0).ok());
  EXPECT_EQ(hrw.Lookup(1), 1u);
  // Weighted ties: equal u, so the larger weight wins; equal weights tie
  // again and the smaller id wins.
  ASSERT_TRUE(hrw.Build(std::vector<NodeSpec>{Node("a", 1.0), Node("b", 2.0),
                                              Node("c", 2.0)})
                  .ok());
  EXPECT_EQ(hrw.Lookup(3), 1u);
  ASSERT_TRUE(hrw.LookupReplicas(3, 3, false, &out).ok());
  EXPECT_THAT(out, ElementsAre(1, 2, 0));
}

// Every score ties: the owner is the smallest id at every size, both in the
// lookup's first nodes (selected without branches) and past them.
TEST(RendezvousSemanticsTest, TiesGoToTheSmallerIdAtEverySize) {
  for (int n : {31, 32, 33, 40, 100}) {
    std::vector<NodeSpec> nodes;
    for (int i = 0; i < n; ++i) nodes.push_back(Node(absl::StrCat("n", i)));
    Rendezvous<ConstHash> hrw;
    ASSERT_TRUE(hrw.Build(nodes).ok());
    EXPECT_EQ(hrw.Lookup(7), 0u) << "n " << n;
    ASSERT_TRUE(hrw.RemoveNode(0).ok());
    EXPECT_EQ(hrw.Lookup(7), 1u) << "n " << n;
  }
}

template <typename H>
class RendezvousTest : public ::testing::Test {};
using Policies = ::testing::Types<Xxh64, Md5>;
TYPED_TEST_SUITE(RendezvousTest, Policies);

// The kernels this CPU runs for H: scalar, and avx512 where available.
template <typename H>
std::vector<RendezvousKernel> Kernels() {
  std::vector<RendezvousKernel> kernels = {RendezvousKernel::kScalar};
  if (Rendezvous<H>::BestKernel() == RendezvousKernel::kAvx512) {
    kernels.push_back(RendezvousKernel::kAvx512);
  }
  return kernels;
}

// The definition, evaluated directly: the best node by (score desc, id asc).
template <typename H>
std::vector<NodeId> ReferenceOrder(const std::vector<NodeSpec>& nodes,
                                   const std::vector<NodeId>& ids, uint64_t key,
                                   bool weighted) {
  std::vector<std::pair<double, NodeId>> weighted_scores;
  std::vector<std::pair<uint64_t, NodeId>> raw_scores;
  for (NodeId id : ids) {
    const uint64_t s = HashPair<H>(key, HashString<H>(nodes[id].name, 0));
    raw_scores.push_back({s, id});
    weighted_scores.push_back(
        {-nodes[id].weight / std::log(ToUnitInterval<H>(s)), id});
  }
  std::vector<NodeId> order;
  auto sort_and_take = [&](auto& v) {
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto& [s, id] : v) order.push_back(id);
  };
  if (weighted) {
    sort_and_take(weighted_scores);
  } else {
    sort_and_take(raw_scores);
  }
  return order;
}

TYPED_TEST(RendezvousTest, OwnerAndReplicasMatchTheDefinition) {
  std::vector<NodeSpec> nodes = Nodes(25);
  for (bool weighted : {false, true}) {
    if (weighted) {
      for (size_t i = 0; i < nodes.size(); ++i) nodes[i].weight = 0.5 + i % 4;
    }
    for (RendezvousKernel kernel : Kernels<TypeParam>()) {
      SCOPED_TRACE(RendezvousKernelName(kernel));
      Rendezvous<TypeParam> hrw;
      ASSERT_TRUE(hrw.SetKernel(kernel).ok());
      ASSERT_TRUE(hrw.Build(nodes).ok());
      ASSERT_EQ(hrw.uniform_weights(), !weighted);
      const std::vector<NodeId> ids = hrw.LiveNodes();
      SplitMix64 rng(weighted ? 21 : 20);
      std::vector<NodeId> out;
      for (int i = 0; i < 2000; ++i) {
        const uint64_t key = rng();
        const std::vector<NodeId> want =
            ReferenceOrder<TypeParam>(nodes, ids, key, weighted);
        ASSERT_EQ(hrw.Lookup(key), want[0]);
        ASSERT_TRUE(hrw.LookupReplicas(key, 4, false, &out).ok());
        ASSERT_THAT(out, ElementsAre(want[0], want[1], want[2], want[3]));
        // Past the on-stack selection (16): the sorted path.
        ASSERT_TRUE(hrw.LookupReplicas(key, 20, false, &out).ok());
        ASSERT_EQ(out, std::vector<NodeId>(want.begin(), want.begin() + 20));
      }
    }
  }
  // More nodes than the AVX-512 score buffer holds (its scan path) and a
  // count inside it, unweighted.
  for (size_t count : {size_t{700}, size_t{1100}}) {
    std::vector<NodeSpec> many = Nodes(count);
    for (RendezvousKernel kernel : Kernels<TypeParam>()) {
      SCOPED_TRACE(RendezvousKernelName(kernel));
      Rendezvous<TypeParam> hrw;
      ASSERT_TRUE(hrw.SetKernel(kernel).ok());
      ASSERT_TRUE(hrw.Build(many).ok());
      const std::vector<NodeId> ids = hrw.LiveNodes();
      SplitMix64 rng(22);
      std::vector<NodeId> out;
      for (int i = 0; i < 50; ++i) {
        const uint64_t key = rng();
        const std::vector<NodeId> want =
            ReferenceOrder<TypeParam>(many, ids, key, false);
        ASSERT_TRUE(hrw.LookupReplicas(key, 5, false, &out).ok());
        ASSERT_EQ(out, std::vector<NodeId>(want.begin(), want.begin() + 5))
            << "N " << count;
      }
    }
  }
}

// Node counts around the unweighted loop's block size (32) and the weighted
// loop's head (16), and weights far apart, so that the block path, the
// weighted head and the weighted filter (which skips the logarithm of nodes
// that cannot win, and decides by score bounds where they separate) are
// checked against the definition. Weightings 3 and 4 take the filter to its
// edges: weights whose bounds overflow or underflow (subnormal included),
// and weights equal to 15 digits, whose bounds overlap more often.
// Weighting 5 spans the AVX-512 passes' whole weight range (2^-399 to
// 2^399); sizes 9 and 10, 127 and 128 sit on the ratio and candidate
// passes' node limits (RendezvousLimitsTest has the candidate pass's upper
// one). Every case runs each kernel this CPU has.
TYPED_TEST(RendezvousTest, OwnerMatchesTheDefinitionAtEverySize) {
  constexpr double kExtreme[] = {1e300, 1e-300, 1e-310, 1.0, 1.7e308};
  for (int n : {1, 2, 9, 10, 15, 16, 17, 31, 32, 33, 64, 65, 127, 128, 130,
                1000, 2048, 2049}) {
    for (int weighting = 0; weighting < 6; ++weighting) {
      std::vector<NodeSpec> nodes = Nodes(n);
      for (int i = 0; i < n; ++i) {
        if (weighting == 1) nodes[i].weight = 0.5 + i % 4;
        if (weighting == 2) nodes[i].weight = i % 3 == 0 ? 1000.0 : 0.001;
        if (weighting == 3) nodes[i].weight = kExtreme[i % 5];
        if (weighting == 4) nodes[i].weight = 1.0 + (i % 7) * 1e-15;
        if (weighting == 5)
          nodes[i].weight = std::ldexp(1.0, i * 37 % 799 - 399);
      }
      for (RendezvousKernel kernel : Kernels<TypeParam>()) {
        Rendezvous<TypeParam> hrw;
        ASSERT_TRUE(hrw.SetKernel(kernel).ok());
        ASSERT_TRUE(hrw.Build(nodes).ok());
        const bool weighted = !hrw.uniform_weights();
        const std::vector<NodeId> ids = hrw.LiveNodes();
        SplitMix64 rng(1000 * n + weighting);
        for (int i = 0; i < 300; ++i) {
          const uint64_t key = rng();
          ASSERT_EQ(hrw.Lookup(key),
                    ReferenceOrder<TypeParam>(nodes, ids, key, weighted)[0])
              << "n " << n << " weighting " << weighting << " key " << key
              << " kernel " << RendezvousKernelName(kernel);
        }
      }
    }
  }
}

// The candidate pass's upper node limit (32768) from both sides, and the
// thresholds after AddNode and RemoveNode, with the ratio pass (N < 128)
// before and after them: nodes added one at a time (the
// thresholds then come from an older weight sum until it doubles; a heavy
// node at 300 makes it double) and removed, checked against the definition
// along the way, on each kernel.
TEST(RendezvousLimitsTest, CandidatePassMatchesTheDefinition) {
  for (int n : {32767, 32768}) {
    std::vector<NodeSpec> nodes = Nodes(n);
    for (int i = 0; i < n; ++i) nodes[i].weight = 0.5 + i % 4;
    for (RendezvousKernel kernel : Kernels<Xxh64>()) {
      Rendezvous<Xxh64> hrw;
      ASSERT_TRUE(hrw.SetKernel(kernel).ok());
      ASSERT_TRUE(hrw.Build(nodes).ok());
      const std::vector<NodeId> ids = hrw.LiveNodes();
      SplitMix64 rng(n);
      for (int i = 0; i < 20; ++i) {
        const uint64_t key = rng();
        ASSERT_EQ(hrw.Lookup(key),
                  ReferenceOrder<Xxh64>(nodes, ids, key, true)[0])
            << "n " << n << " kernel " << RendezvousKernelName(kernel);
      }
    }
  }
  std::vector<NodeSpec> nodes = Nodes(600);
  for (int i = 0; i < 600; ++i) nodes[i].weight = i == 300 ? 900.0 : 1 + i % 4;
  for (RendezvousKernel kernel : Kernels<Xxh64>()) {
    Rendezvous<Xxh64> hrw;
    ASSERT_TRUE(hrw.SetKernel(kernel).ok());
    SplitMix64 rng(601);
    auto check = [&](const char* when) {
      const std::vector<NodeId> ids = hrw.LiveNodes();
      for (int i = 0; i < 200; ++i) {
        const uint64_t key = rng();
        ASSERT_EQ(hrw.Lookup(key),
                  ReferenceOrder<Xxh64>(nodes, ids, key, true)[0])
            << when << " n " << ids.size() << " kernel "
            << RendezvousKernelName(kernel);
      }
    };
    for (int i = 0; i < 600; ++i) {
      ASSERT_TRUE(hrw.AddNode(nodes[i]).ok());
      // n = i + 1: the ratio pass (10 <= n < 128), then the candidate
      // pass.
      if (i == 1 || i == 9 || i == 10 || i == 63 || i == 126 || i == 127 ||
          i == 128 || i == 255 || i == 300 || i == 301 || i == 599) {
        check("after AddNode");
      }
    }
    for (NodeId id = 0; id < 600; id += 3) {
      ASSERT_TRUE(hrw.RemoveNode(id).ok());
    }
    check("after RemoveNode");
    // Down to 100 live nodes: the ratio pass after removals.
    for (NodeId id : hrw.LiveNodes()) {
      if (hrw.size() == 100) break;
      ASSERT_TRUE(hrw.RemoveNode(id).ok());
    }
    ASSERT_EQ(hrw.size(), 100u);
    check("after RemoveNode to 100");
  }
}

// avx512 only for xxh64 on a CPU that has it; the default is the best
// kernel; selecting scalar always works and keeps owners.
TYPED_TEST(RendezvousTest, KernelSelection) {
  Rendezvous<TypeParam> hrw;
  EXPECT_EQ(hrw.kernel(), Rendezvous<TypeParam>::BestKernel());
  if (!std::is_same_v<TypeParam, Xxh64>) {
    EXPECT_EQ(Rendezvous<TypeParam>::BestKernel(), RendezvousKernel::kScalar);
  }
  const absl::Status s = hrw.SetKernel(RendezvousKernel::kAvx512);
  if (Rendezvous<TypeParam>::BestKernel() == RendezvousKernel::kAvx512) {
    EXPECT_TRUE(s.ok());
  } else {
    EXPECT_THAT(s.message(), HasSubstr("valid here: scalar"));
    EXPECT_EQ(hrw.kernel(), RendezvousKernel::kScalar);
  }
  ASSERT_TRUE(hrw.SetKernel(RendezvousKernel::kScalar).ok());
  EXPECT_EQ(hrw.kernel(), RendezvousKernel::kScalar);
}

// The weighted loop's bounds hold the computed score, for every score from
// the extremes of the unit interval to random ones and for weights up to the
// overflow and underflow guards; and they are as tight as the series says
// (ratio at most 1 + d^3 / (4u) plus the margins), which the bounds used
// before (ratio 1 / u) are not.
TYPED_TEST(RendezvousTest, ScoreBoundsHoldTheComputedScoreAndAreTight) {
  using R = Rendezvous<TypeParam>;
  std::vector<uint64_t> scores = {0,
                                  1,
                                  uint64_t{1} << 12,
                                  (uint64_t{1} << 12) - 1,
                                  uint64_t{1} << 63,
                                  ~uint64_t{0},
                                  ~uint64_t{0} - (uint64_t{1} << 12),
                                  ~uint64_t{0} << 20};
  SplitMix64 rng(77);
  for (int i = 0; i < 20000; ++i) scores.push_back(rng());
  // Scores near the top (u close to 1), where the winners are.
  for (int i = 0; i < 2000; ++i) scores.push_back(~(rng() >> (i % 60)));
  constexpr double kWeights[] = {1e-310, 1e-300, 1e-3,   1.0,
                                 4.0,    1e300,  1.7e308};
  int bounded = 0;
  for (uint64_t score : scores) {
    const double u = ToUnitInterval<TypeParam>(score);
    const double d = 1.0 - u;
    for (double w : kWeights) {
      double lo = 0;
      double hi = 0;
      if (!R::ScoreBounds(score, w, &lo, &hi)) continue;
      ++bounded;
      const double s = R::WeightedScore(score, w);
      ASSERT_LE(lo, s) << "score " << score << " weight " << w;
      ASSERT_GE(hi, s) << "score " << score << " weight " << w;
      ASSERT_LE(hi / lo - 1.0, d * d * d / (4.0 * u) * (1.0 + 1e-9) + 0x1p-38)
          << "score " << score << " weight " << w;
    }
  }
  // Every score with the moderate weights has bounds.
  EXPECT_GE(bounded, static_cast<int>(scores.size()) * 3);
}

// The register-only XXH64 of two words equals the generic HashPair<Xxh64>.
TEST(RendezvousScorerTest, Xxh64ScorerEqualsHashPair) {
  using Scorer = rendezvous_internal::PairScorer<Xxh64>;
  SplitMix64 rng(5);
  std::vector<std::pair<uint64_t, uint64_t>> pairs = {
      {0, 0}, {~uint64_t{0}, 0}, {0, ~uint64_t{0}}, {1, 2}};
  for (int i = 0; i < 10000; ++i) pairs.push_back({rng(), rng()});
  for (const auto& [k, n] : pairs) {
    ASSERT_EQ(Scorer::Score(Scorer::PrepareKey(k), Scorer::PrepareNode(n)),
              HashPair<Xxh64>(k, n))
        << k << " " << n;
  }
}

TYPED_TEST(RendezvousTest, EqualWeightsOtherThanOneUseTheIntegerRule) {
  std::vector<NodeSpec> ones = Nodes(9);
  std::vector<NodeSpec> twos = ones;
  for (NodeSpec& n : twos) n.weight = 2.0;
  Rendezvous<TypeParam> a;
  Rendezvous<TypeParam> b;
  ASSERT_TRUE(a.Build(ones).ok());
  ASSERT_TRUE(b.Build(twos).ok());
  EXPECT_TRUE(b.uniform_weights());
  SplitMix64 rng(22);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t key = rng();
    ASSERT_EQ(a.Lookup(key), b.Lookup(key));
  }
  // Removing the only node of another weight returns to the integer rule.
  ASSERT_TRUE(b.AddNode(Node("odd", 3.0)).ok());
  EXPECT_FALSE(b.uniform_weights());
  ASSERT_TRUE(b.RemoveNode(9).ok());
  EXPECT_TRUE(b.uniform_weights());
}

TYPED_TEST(RendezvousTest, WeightedSharesFollowWeights) {
  Rendezvous<TypeParam> hrw;
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < 4; ++i) {
    nodes.push_back(Node("node-" + std::to_string(i), 1.0 + i));
  }
  ASSERT_TRUE(hrw.Build(nodes).ok());
  std::vector<double> load(4);
  SplitMix64 rng(23);
  constexpr int kKeys = 200000;
  for (int i = 0; i < kKeys; ++i) load[hrw.Lookup(rng())] += 1;
  // Exact share w/10 in expectation; binomial sd <= 0.0011: allow 0.006.
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(load[i] / kKeys, (1.0 + i) / 10.0, 0.006) << "node " << i;
  }
}

TYPED_TEST(RendezvousTest, UnweightedIsBalanced) {
  Rendezvous<TypeParam> hrw;
  ASSERT_TRUE(hrw.Build(Nodes(10)).ok());
  std::vector<int> load(10);
  SplitMix64 rng(24);
  for (int i = 0; i < 100000; ++i) ++load[hrw.Lookup(rng())];
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(load[i], 10000, 570) << i;  // 6 sd
}

TYPED_TEST(RendezvousTest, MinimalDisruptionAndReAdd) {
  Rendezvous<TypeParam> hrw;
  ASSERT_TRUE(hrw.Build(Nodes(10)).ok());
  SplitMix64 rng(25);
  std::vector<uint64_t> keys(20000);
  std::vector<NodeId> before(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    keys[i] = rng();
    before[i] = hrw.Lookup(keys[i]);
  }
  const NodeId added = *hrw.AddNode(Node("node-10"));
  size_t moved = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const NodeId now = hrw.Lookup(keys[i]);
    if (now != before[i]) {
      ++moved;
      ASSERT_EQ(now, added);
    }
  }
  EXPECT_NEAR(static_cast<double>(moved), 20000.0 / 11, 250);  // sd ~ 41
  ASSERT_TRUE(hrw.RemoveNode(added).ok());
  ASSERT_TRUE(hrw.RemoveNode(6).ok());
  std::set<NodeId> receivers;
  for (size_t i = 0; i < keys.size(); ++i) {
    const NodeId now = hrw.Lookup(keys[i]);
    if (before[i] == 6) {
      receivers.insert(now);
    } else {
      ASSERT_EQ(now, before[i]);
    }
  }
  EXPECT_EQ(receivers.size(), 9u);  // spread over every other node
  EXPECT_EQ(*hrw.AddNode(Node("node-6")), 11u);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(hrw.NodeName(hrw.Lookup(keys[i])), hrw.NodeName(before[i]));
  }
}

TYPED_TEST(RendezvousTest, BuildEqualsSequenceOfAddNode) {
  std::vector<NodeSpec> nodes = Nodes(17);
  nodes[4].weight = 3.0;
  Rendezvous<TypeParam> built;
  Rendezvous<TypeParam> added;
  ASSERT_TRUE(built.Build(nodes).ok());
  for (const NodeSpec& n : nodes) ASSERT_TRUE(added.AddNode(n).ok());
  SplitMix64 rng(26);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t key = rng();
    ASSERT_EQ(built.Lookup(key), added.Lookup(key));
  }
  EXPECT_EQ(built.HashKey("x"), HashString<TypeParam>("x", 0));
}

TYPED_TEST(RendezvousTest, ReplicasWithZones) {
  Rendezvous<TypeParam> hrw;
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < 12; ++i) {
    nodes.push_back(Node("node-" + std::to_string(i), 1.0 + (i % 2),
                         "zone-" + std::to_string(i % 4)));
  }
  ASSERT_TRUE(hrw.Build(nodes).ok());
  const std::vector<NodeId> ids = hrw.LiveNodes();
  SplitMix64 rng(27);
  std::vector<NodeId> out;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t key = rng();
    ASSERT_TRUE(hrw.LookupReplicas(key, 3, true, &out).ok());
    // Greedy over the full preference order, skipping taken zones.
    std::vector<NodeId> want;
    std::set<std::string> zones;
    for (NodeId id : ReferenceOrder<TypeParam>(nodes, ids, key, true)) {
      if (want.size() < 3 && zones.insert(nodes[id].zone).second) {
        want.push_back(id);
      }
    }
    ASSERT_EQ(out, want);
    // Six replicas, four zones: the four zones' best nodes, then the nodes
    // passed over, in score order.
    ASSERT_TRUE(hrw.LookupReplicas(key, 6, true, &out).ok());
    want.clear();
    std::vector<NodeId> passed;
    zones.clear();
    for (NodeId id : ReferenceOrder<TypeParam>(nodes, ids, key, true)) {
      (zones.insert(nodes[id].zone).second ? want : passed).push_back(id);
    }
    want.insert(want.end(), passed.begin(), passed.end());
    want.resize(6);
    ASSERT_EQ(out, want);
    ASSERT_EQ(out[0], hrw.Lookup(key));
  }
  const absl::Status zero = hrw.LookupReplicas(1, 0, false, &out);
  EXPECT_EQ(zero.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(zero.message(), AllOf(HasSubstr("r = 0"), HasSubstr("1..12")));
  EXPECT_EQ(hrw.LookupReplicas(1, 13, false, &out).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(hrw.LookupReplicas(1, 12, false, &out).ok());
  EXPECT_EQ(std::set<NodeId>(out.begin(), out.end()).size(), 12u);
}

// The zone numbers follow membership: nodes that start in one zone, gain
// other zones by AddNode, lose zones by RemoveNode, equal weights and not;
// every list with distinct zones equals the greedy walk over the full score
// order, for r up to the on-stack limit and past it.
TYPED_TEST(RendezvousTest, ReplicasWithZonesFollowMembership) {
  Rendezvous<TypeParam> hrw;
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < 6; ++i) {
    nodes.push_back(Node("node-" + std::to_string(i), 1.0, "z0"));
  }
  ASSERT_TRUE(hrw.Build(nodes).ok());
  SplitMix64 rng(31);
  const auto check = [&](const char* stage) {
    const std::vector<NodeId> ids = hrw.LiveNodes();
    const bool weighted = !hrw.uniform_weights();
    std::vector<NodeId> out;
    for (int i = 0; i < 300; ++i) {
      const uint64_t key = rng();
      const std::vector<NodeId> order =
          ReferenceOrder<TypeParam>(nodes, ids, key, weighted);
      std::vector<NodeId> want, passed;
      std::set<std::string> zones;
      for (NodeId id : order) {
        (zones.insert(nodes[id].zone).second ? want : passed).push_back(id);
      }
      want.insert(want.end(), passed.begin(), passed.end());
      for (size_t r :
           {size_t{1}, size_t{2}, size_t{3}, size_t{5}, ids.size()}) {
        ASSERT_TRUE(hrw.LookupReplicas(key, r, true, &out).ok());
        ASSERT_EQ(out, std::vector<NodeId>(want.begin(), want.begin() + r))
            << stage << ", r = " << r;
      }
    }
  };
  check("one zone");
  for (int i = 6; i < 24; ++i) {
    nodes.push_back(Node("node-" + std::to_string(i), 1.0 + (i % 3 == 0),
                         "z" + std::to_string(i % 5)));
    ASSERT_TRUE(hrw.AddNode(nodes.back()).ok());
  }
  check("five zones, weighted");
  for (NodeId id : {NodeId{7}, NodeId{12}, NodeId{17}, NodeId{22}}) {
    ASSERT_TRUE(hrw.RemoveNode(id).ok());  // zone z2 has no live node left
  }
  check("four zones after removals");
  for (NodeId id : {NodeId{6}, NodeId{9}, NodeId{15}, NodeId{18}, NodeId{21}}) {
    ASSERT_TRUE(hrw.RemoveNode(id).ok());  // every weight-2 node is gone
  }
  ASSERT_TRUE(hrw.uniform_weights());
  check("equal weights again");
}

TYPED_TEST(RendezvousTest, Errors) {
  Rendezvous<TypeParam> hrw;
  ASSERT_TRUE(hrw.Build(Nodes(3)).ok());
  EXPECT_EQ(hrw.AddNode(Node("z", 0.0)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(hrw.AddNode(Node("node-2")).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(hrw.RemoveNode(5).code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(hrw.Build(std::vector<NodeSpec>{Node("")}).ok());
  EXPECT_EQ(hrw.size(), 3u);
}

TEST(MakeRendezvousTest, ValidatesHash) {
  AlgorithmParams params;
  params.hash = "xxh3";
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = MakeRendezvous(params);
  ASSERT_TRUE(algo.ok()) << algo.status();
  EXPECT_EQ((*algo)->name(), "rendezvous");
  const Capabilities caps = (*algo)->capabilities();
  EXPECT_TRUE(caps.arbitrary_removal && caps.minimal_disruption &&
              caps.weights && caps.replicas && !caps.stateful);
  EXPECT_NE(dynamic_cast<Rendezvous<Xxh3>*>(algo->get()), nullptr);
  params.hash = "XXH64";  // names are case-sensitive
  algo = MakeRendezvous(params);
  EXPECT_EQ(algo.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(algo.status().message(),
              AllOf(HasSubstr("'XXH64'"), HasSubstr("xxh64")));
}

}  // namespace
}  // namespace chbench
