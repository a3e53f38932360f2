// Copyright 2026 The chbench Authors.
//
// RangeHash<P, H> (algorithms/range_buckets.h), the one ConsistentHash of the
// four range hashes, checked through each registry row: node validation,
// refused weights and replicas, the hash policy, the factory's errors.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/registry.h"
#include "algorithms/testing/conformance_util.h"
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

INSTANTIATE_TEST_SUITE_P(RangeHashes, RangeHashTest,
                         ::testing::Values("jumpback", "flip", "power",
                                           "binomial"));

}  // namespace
}  // namespace chbench
