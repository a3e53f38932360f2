// Copyright 2026 The chbench Authors.
//
// RangeHash<P, H> (algorithms/range_buckets.h), the one ConsistentHash of the
// four range hashes, checked through each registry row: node validation,
// refused weights and replicas, the hash policy, the factory's errors.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/node_table.h"
#include "algorithms/registry.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::chbench::testing::Node;
using ::testing::AllOf;
using ::testing::HasSubstr;

class RangeHashTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RangeHashTest, RejectsWeightsDuplicatesAndReplicas) {
  AlgorithmParams params;
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      MakeAlgorithm(GetParam(), params);
  ASSERT_TRUE(made.ok()) << made.status();
  ConsistentHash& algo = **made;
  const absl::StatusOr<NodeId> w = algo.AddNode(Node("a", 2));
  EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(w.status().message(),
              HasSubstr(GetParam() + " does not support weights"));
  ASSERT_TRUE(algo.AddNode(Node("a")).ok());
  EXPECT_FALSE(algo.AddNode(Node("a")).ok());  // duplicate
  std::vector<NodeSpec> dup = {Node("b"), Node("b")};
  EXPECT_FALSE(algo.Build(dup).ok());
  EXPECT_EQ(algo.size(), 1u);  // a failed Build leaves the instance unchanged
  EXPECT_EQ(algo.Lookup(12345), 0u);
  EXPECT_EQ(algo.HashKey("abc"), HashString<Xxh64>("abc", 0));
  std::vector<NodeId> out;
  EXPECT_EQ(algo.LookupReplicas(1, 1, false, &out).code(),
            absl::StatusCode::kUnimplemented);
}

TEST_P(RangeHashTest, FactoryValidatesTheHash) {
  AlgorithmParams params;
  params.hash = "md5";
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
      MakeAlgorithm(GetParam(), params);
  ASSERT_TRUE(algo.ok());
  EXPECT_EQ((*algo)->name(), GetParam());
  EXPECT_FALSE((*algo)->capabilities().arbitrary_removal);
  EXPECT_TRUE((*algo)->capabilities().minimal_disruption);
  EXPECT_EQ((*algo)->HashKey("k"), HashString<Md5>("k", 0));
  params.hash = "sha1";
  algo = MakeAlgorithm(GetParam(), params);
  EXPECT_EQ(algo.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(algo.status().message(),
              AllOf(HasSubstr("'sha1'"), HasSubstr("xxh64")));
}

// Bucket b is the b-th live id: while the ids are 0..n-1 the owner is the
// bucket itself (Lookup skips the table); after the last node is replaced by
// a fresh id the same keys go to the new id; removing that one again and
// re-adding restores the earlier buckets under newer ids.
TEST_P(RangeHashTest, OwnersFollowTheBucketToIdMapAcrossReplacements) {
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      MakeAlgorithm(GetParam(), AlgorithmParams{});
  ASSERT_TRUE(made.ok()) << made.status();
  ConsistentHash& algo = **made;
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < 100; ++i) nodes.push_back(Node("n" + std::to_string(i)));
  ASSERT_TRUE(algo.Build(nodes).ok());
  constexpr int kKeys = 20000;
  std::vector<NodeId> before(kKeys);
  SplitMix64 rng(41);
  std::vector<uint64_t> keys(kKeys);
  for (uint64_t& k : keys) k = rng();
  int on_last = 0;
  for (int i = 0; i < kKeys; ++i) {
    before[i] = algo.Lookup(keys[i]);
    ASSERT_LT(before[i], 100u);
    on_last += before[i] == 99;
  }
  ASSERT_GT(on_last, 0);
  ASSERT_TRUE(algo.RemoveNode(99).ok());
  ASSERT_EQ(*algo.AddNode(Node("x")), 100u);  // bucket 99, id 100
  for (int i = 0; i < kKeys; ++i) {
    ASSERT_EQ(algo.Lookup(keys[i]), before[i] == 99 ? 100u : before[i]) << i;
  }
  ASSERT_EQ(*algo.AddNode(Node("y")), 101u);  // bucket 100
  ASSERT_TRUE(algo.RemoveNode(101).ok());
  for (int i = 0; i < kKeys; ++i) {
    ASSERT_EQ(algo.Lookup(keys[i]), before[i] == 99 ? 100u : before[i]) << i;
  }
  // A fresh Build numbers the nodes 0..n-1 again.
  ASSERT_TRUE(algo.Build(nodes).ok());
  for (int i = 0; i < kKeys; ++i) ASSERT_EQ(algo.Lookup(keys[i]), before[i]);
}

TEST(BucketToIdTest, TableOnlyWhenIdsAreNotTheBuckets) {
  EXPECT_EQ(IdTableOrNull({}), nullptr);
  EXPECT_EQ(IdTableOrNull({0}), nullptr);
  EXPECT_EQ(IdTableOrNull({0, 1, 2}), nullptr);
  const std::vector<NodeId> replaced = {0, 1, 3};
  EXPECT_EQ(IdTableOrNull(replaced), replaced.data());
  const std::vector<NodeId> one = {5};
  EXPECT_EQ(IdTableOrNull(one), one.data());
  EXPECT_EQ(BucketToId(nullptr, 7), 7u);
  EXPECT_EQ(BucketToId(replaced.data(), 2), 3u);
}

INSTANTIATE_TEST_SUITE_P(RangeHashes, RangeHashTest,
                         ::testing::Values("jumpback", "flip", "power",
                                           "binomial"));

}  // namespace
}  // namespace chbench
