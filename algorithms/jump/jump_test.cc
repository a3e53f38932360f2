// Copyright 2026 The chbench Authors.

#include "algorithms/testing/conformance_util.h"
#include "algorithms/jump/jump.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing::Node;  // chbench::testing, shared with the conformance suite

std::vector<NodeSpec> Nodes(int n, int first = 0) {
  std::vector<NodeSpec> nodes(n);
  for (int i = 0; i < n; ++i)
    nodes[i].name = "node-" + std::to_string(first + i);
  return nodes;
}

// Guava's current form of the same algorithm (Hashing.consistentHash(long,
// int) with its private LinearCongruentialGenerator, e.g. google/guava
// guava/src/com/google/common/hash/Hashing.java): the state is the input
// itself, as in the paper, but the jump is computed as
// (candidate + 1) / ((int)(state >>> 33) + 1) / 2^31), one rounding instead
// of the paper's two. Written here from that description to compare.
int32_t GuavaLcgForm(uint64_t input, int32_t buckets) {
  uint64_t state = input;
  int32_t candidate = 0;
  while (true) {
    state = 2862933555777941757ULL * state + 1;
    const double next_double =
        static_cast<double>(static_cast<int32_t>(state >> 33) + 1) / 0x1p31;
    const double q = (candidate + 1) / next_double;
    // Java's (int) cast saturates.
    const int32_t next = q >= 0x1p31 ? std::numeric_limits<int32_t>::max()
                                     : static_cast<int32_t>(q);
    if (next >= 0 && next < buckets) {
      candidate = next;
    } else {
      return candidate;
    }
  }
}

// Guava HashingTest.testConsistentHash_linearCongruentialGeneratorCompatibility
// (google/guava guava-tests/test/com/google/common/hash/HashingTest.java);
// the same vectors are in dgryski/go-jump jump_test.go.
TEST(JumpConsistentHashTest, GuavaGoldenVectors) {
  const int32_t golden100[] = {0,  55, 62, 8,  45, 59, 86, 97, 82, 59,
                               73, 37, 17, 56, 86, 21, 90, 37, 38, 83};
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(JumpConsistentHash(i, 100), golden100[i]) << "key " << i;
  }
  EXPECT_EQ(JumpConsistentHash(10863919174838991ULL, 11), 6);
  EXPECT_EQ(JumpConsistentHash(2016238256797177309ULL, 11), 3);
  EXPECT_EQ(JumpConsistentHash(1673758223894951030ULL, 11), 5);
  EXPECT_EQ(JumpConsistentHash(2, 100001), 80343);
  EXPECT_EQ(JumpConsistentHash(2201, 100001), 22152);
  EXPECT_EQ(JumpConsistentHash(2202, 100001), 15018);
}

TEST(JumpConsistentHashTest, AgreesWithGuavaFormOnRandomKeys) {
  Sfc64 rng(20140606);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = rng();
    const int32_t buckets =
        static_cast<int32_t>(1 + rng.Below(i % 2 == 0 ? 1000 : 10000000));
    ASSERT_EQ(JumpConsistentHash(key, buckets), GuavaLcgForm(key, buckets))
        << "key " << key << " buckets " << buckets;
  }
}

// The two forms are not identical in every case: when (b + 1) * 2^31 / d is
// an exact integer k (d = (state >> 33) + 1), the paper's
// (b + 1) * fl(2^31 / d) can round to just below k while Guava's
// fl((b + 1) / (d / 2^31)) is exactly k. This key was constructed by running
// the LCG backwards: its first jump lands on bucket 48 and its second has
// d = 49 * 2^25, so k = 64: the paper's function jumps to 63 while Guava
// stops at 48. We implement the paper (arXiv:1406.2294, figure 1).
TEST(JumpConsistentHashTest, PaperRoundingWhereGuavaDiffers) {
  const uint64_t key = 1673232497983283878ULL;
  EXPECT_EQ(JumpConsistentHash(key, 64), 63);
  EXPECT_EQ(GuavaLcgForm(key, 64), 48);
  EXPECT_EQ(JumpConsistentHash(key, 49), 48);
  EXPECT_EQ(GuavaLcgForm(key, 49), 48);
}

TEST(JumpConsistentHashTest, GrowingMovesKeysOnlyToTheNewBucket) {
  SplitMix64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = rng();
    int32_t prev = JumpConsistentHash(key, 1);
    ASSERT_EQ(prev, 0);
    for (int32_t n = 2; n <= 300; ++n) {
      const int32_t b = JumpConsistentHash(key, n);
      ASSERT_TRUE(b == prev || b == n - 1) << key << " " << n;
      prev = b;
    }
  }
}

TEST(JumpConsistentHashTest, BucketsAreBalanced) {
  constexpr int kBuckets = 10;
  constexpr int kKeys = 100000;
  std::vector<int> load(kBuckets);
  SplitMix64 rng(11);
  for (int i = 0; i < kKeys; ++i) ++load[JumpConsistentHash(rng(), kBuckets)];
  // Binomial sd = sqrt(1e5 * 0.1 * 0.9) ~ 95: 6 sd = 570.
  for (int b = 0; b < kBuckets; ++b) {
    EXPECT_NEAR(load[b], kKeys / kBuckets, 570) << "bucket " << b;
  }
}

template <typename H>
class JumpTest : public ::testing::Test {};
using Policies = ::testing::Types<Xxh64, Md5>;
TYPED_TEST_SUITE(JumpTest, Policies);

TYPED_TEST(JumpTest, BucketIsPositionOfLiveNode) {
  Jump<TypeParam> jump;
  ASSERT_TRUE(jump.Build(Nodes(100)).ok());
  for (uint64_t k = 0; k < 20; ++k) {
    EXPECT_EQ(jump.Lookup(k), static_cast<NodeId>(JumpConsistentHash(k, 100)));
  }
  // After removing the last node and adding two, bucket 99 is id 100 and
  // bucket 100 is id 101.
  ASSERT_TRUE(jump.RemoveNode(99).ok());
  ASSERT_EQ(*jump.AddNode(Node("x")), 100u);
  ASSERT_EQ(*jump.AddNode(Node("y")), 101u);
  SplitMix64 rng(3);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t key = rng();
    const int32_t b = JumpConsistentHash(key, 101);
    const NodeId want = b < 99 ? static_cast<NodeId>(b) : 100u + (b - 99);
    ASSERT_EQ(jump.Lookup(key), want);
  }
  EXPECT_EQ(jump.size(), 101u);
  EXPECT_EQ(jump.NodeName(100), "x");
  EXPECT_EQ(jump.NodeName(99), "node-99");  // removed ids keep their names
}

TYPED_TEST(JumpTest, OnlyTheLastNodeCanBeRemoved) {
  Jump<TypeParam> jump;
  ASSERT_TRUE(jump.Build(Nodes(5)).ok());
  const absl::Status s = jump.RemoveNode(2);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), AllOf(HasSubstr("'node-2' (id 2)"),
                                 HasSubstr("only the last one ('node-4', id 4)"
                                           " can be removed")));
  EXPECT_EQ(jump.size(), 5u);  // nothing changed
  ASSERT_TRUE(jump.RemoveNode(4).ok());
  ASSERT_TRUE(jump.RemoveNode(3).ok());
  EXPECT_THAT(jump.LiveNodes(), ElementsAre(0, 1, 2));
  EXPECT_EQ(jump.RemoveNode(3).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(jump.RemoveNode(77).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(jump.RemoveNode(0).code(), absl::StatusCode::kFailedPrecondition);
}

TYPED_TEST(JumpTest, RemovingLastRestoresPreviousMapping) {
  Jump<TypeParam> jump;
  ASSERT_TRUE(jump.Build(Nodes(7)).ok());
  SplitMix64 rng(5);
  std::vector<uint64_t> keys(20000);
  std::vector<NodeId> before(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    keys[i] = rng();
    before[i] = jump.Lookup(keys[i]);
  }
  ASSERT_EQ(*jump.AddNode(Node("node-7")), 7u);
  size_t moved = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const NodeId now = jump.Lookup(keys[i]);
    if (now != before[i]) {
      ++moved;
      ASSERT_EQ(now, 7u);  // moved keys go to the new node only
    }
  }
  // Expected 1/8 of the keys: 2500, sd ~ 47.
  EXPECT_NEAR(static_cast<double>(moved), 2500, 300);
  ASSERT_TRUE(jump.RemoveNode(7).ok());
  // Re-adding the same name gets a fresh id but the same bucket.
  ASSERT_EQ(*jump.AddNode(Node("node-7")), 8u);
  ASSERT_TRUE(jump.RemoveNode(8).ok());
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(jump.Lookup(keys[i]), before[i]);
  }
}

TYPED_TEST(JumpTest, BuildEqualsSequenceOfAddNode) {
  Jump<TypeParam> built;
  Jump<TypeParam> added;
  const std::vector<NodeSpec> nodes = Nodes(33);
  ASSERT_TRUE(built.Build(nodes).ok());
  for (const NodeSpec& n : nodes) ASSERT_TRUE(added.AddNode(n).ok());
  SplitMix64 rng(9);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t key = rng();
    ASSERT_EQ(built.Lookup(key), added.Lookup(key));
  }
  // Build replaces the node set: ids restart at 0.
  ASSERT_TRUE(added.Build(Nodes(3, 100)).ok());
  EXPECT_THAT(added.LiveNodes(), ElementsAre(0, 1, 2));
  EXPECT_EQ(added.NodeName(0), "node-100");
}

TYPED_TEST(JumpTest, RejectsWeightsAndBadSpecs) {
  Jump<TypeParam> jump;
  const absl::StatusOr<NodeId> w = jump.AddNode(Node("a", 2));
  EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(w.status().message(), HasSubstr("does not support weights"));
  ASSERT_TRUE(jump.AddNode(Node("a")).ok());
  EXPECT_FALSE(jump.AddNode(Node("a")).ok());  // duplicate
  std::vector<NodeSpec> dup = {Node("b"), Node("b")};
  EXPECT_FALSE(jump.Build(dup).ok());
  EXPECT_EQ(jump.size(), 1u);  // a failed Build leaves the instance unchanged
  EXPECT_EQ(jump.HashKey("abc"), HashString<TypeParam>("abc", 0));
  std::vector<NodeId> out;
  EXPECT_EQ(jump.LookupReplicas(1, 1, false, &out).code(),
            absl::StatusCode::kUnimplemented);
}

TEST(MakeJumpTest, ValidatesHash) {
  AlgorithmParams params;
  params.hash = "md5";
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = MakeJump(params);
  ASSERT_TRUE(algo.ok());
  EXPECT_EQ((*algo)->name(), "jump");
  EXPECT_FALSE((*algo)->capabilities().arbitrary_removal);
  EXPECT_TRUE((*algo)->capabilities().minimal_disruption);
  EXPECT_EQ((*algo)->HashKey("k"), HashString<Md5>("k", 0));
  params.hash = "sha1";
  algo = MakeJump(params);
  EXPECT_EQ(algo.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(algo.status().message(),
              AllOf(HasSubstr("'sha1'"), HasSubstr("xxh64")));
}

}  // namespace
}  // namespace chbench
