// Copyright 2026 The chbench Authors.

#include "algorithms/testing/conformance_util.h"
#include "algorithms/modulo/modulo.h"

#include <cstdint>
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

std::vector<NodeSpec> Nodes(int n) {
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < n; ++i)
    nodes.push_back(Node("node-" + std::to_string(i)));
  return nodes;
}

template <typename H>
class ModuloTest : public ::testing::Test {};
using Policies = ::testing::Types<Xxh64, Md5>;
TYPED_TEST_SUITE(ModuloTest, Policies);

TYPED_TEST(ModuloTest, OwnerIsLiveNodeAtHashModN) {
  Modulo<TypeParam> m;
  ASSERT_TRUE(m.Build(Nodes(4)).ok());
  // Hand-computed: 4 live nodes, ids 0..3.
  EXPECT_EQ(m.Lookup(0), 0u);
  EXPECT_EQ(m.Lookup(5), 1u);
  EXPECT_EQ(m.Lookup(7), 3u);
  EXPECT_EQ(m.Lookup(~uint64_t{0}), 3u);  // 2^64 - 1 = 3 (mod 4)
  // Remove id 1: live = {0, 2, 3}; key 4 -> 4 % 3 = 1 -> id 2.
  ASSERT_TRUE(m.RemoveNode(1).ok());
  EXPECT_THAT(m.LiveNodes(), ElementsAre(0, 2, 3));
  EXPECT_EQ(m.Lookup(4), 2u);
  EXPECT_EQ(m.Lookup(5), 3u);
  EXPECT_EQ(m.Lookup(6), 0u);
  // Add: the new node (id 4) is the last position.
  ASSERT_EQ(*m.AddNode(Node("e")), 4u);
  EXPECT_EQ(m.Lookup(3), 4u);
  EXPECT_EQ(m.size(), 4u);
  EXPECT_EQ(m.HashKey("page"), HashString<TypeParam>("page", 0));
}

TYPED_TEST(ModuloTest, AddingANodeMovesAlmostEveryKey) {
  // The baseline's defining weakness: from N = 4 to 5 a key stays only if
  // h % 4 == h % 5, i.e. h % 20 in {0, 1, 2, 3}: 1/5 of the keys stay.
  Modulo<TypeParam> m;
  ASSERT_TRUE(m.Build(Nodes(4)).ok());
  SplitMix64 rng(1);
  std::vector<uint64_t> keys(20000);
  std::vector<NodeId> before(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    keys[i] = rng();
    before[i] = m.Lookup(keys[i]);
  }
  ASSERT_TRUE(m.AddNode(Node("node-4")).ok());
  size_t moved = 0;
  for (size_t i = 0; i < keys.size(); ++i)
    moved += m.Lookup(keys[i]) != before[i];
  // Expected 0.8 * 20000 = 16000, sd ~ 57.
  EXPECT_NEAR(static_cast<double>(moved), 16000, 400);
}

TYPED_TEST(ModuloTest, RemoveThenReAdd) {
  Modulo<TypeParam> m;
  ASSERT_TRUE(m.Build(Nodes(5)).ok());
  SplitMix64 rng(2);
  std::vector<uint64_t> keys(5000);
  std::vector<std::string> before(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    keys[i] = rng();
    before[i] = m.NodeName(m.Lookup(keys[i]));
  }
  // Re-adding the last node restores the mapping by name.
  ASSERT_TRUE(m.RemoveNode(4).ok());
  ASSERT_EQ(*m.AddNode(Node("node-4")), 5u);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(m.NodeName(m.Lookup(keys[i])), before[i]);
  }
  // Re-adding a middle node puts it last: the order, hence the mapping,
  // changes (modulo is not consistent).
  ASSERT_TRUE(m.RemoveNode(1).ok());
  ASSERT_EQ(*m.AddNode(Node("node-1")), 6u);
  size_t same = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    same += m.NodeName(m.Lookup(keys[i])) == before[i];
  }
  EXPECT_LT(same, keys.size() / 2);
  EXPECT_EQ(m.NodeName(1), "node-1");  // removed ids keep their names
}

TYPED_TEST(ModuloTest, BuildEqualsSequenceOfAddNode) {
  Modulo<TypeParam> built;
  Modulo<TypeParam> added;
  ASSERT_TRUE(built.Build(Nodes(13)).ok());
  for (const NodeSpec& n : Nodes(13)) ASSERT_TRUE(added.AddNode(n).ok());
  SplitMix64 rng(3);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t key = rng();
    ASSERT_EQ(built.Lookup(key), added.Lookup(key));
  }
}

TYPED_TEST(ModuloTest, Errors) {
  Modulo<TypeParam> m;
  ASSERT_TRUE(m.Build(Nodes(3)).ok());
  const absl::StatusOr<NodeId> w = m.AddNode(Node("heavy", 2.0));
  EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(w.status().message(),
              AllOf(HasSubstr("modulo does not support weights"),
                    HasSubstr("'heavy'")));
  EXPECT_EQ(m.AddNode(Node("node-0")).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(m.RemoveNode(9).code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(m.RemoveNode(0).ok());
  EXPECT_THAT(m.RemoveNode(0).message(), HasSubstr("already removed"));
  std::vector<NodeId> out;
  EXPECT_EQ(m.LookupReplicas(1, 1, false, &out).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(m.size(), 2u);
}

TEST(MakeModuloTest, ValidatesHash) {
  AlgorithmParams params;
  params.hash = "xxh64";
  params.vnodes = 0;  // does not apply to modulo: ignored
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = MakeModulo(params);
  ASSERT_TRUE(algo.ok()) << algo.status();
  EXPECT_EQ((*algo)->name(), "modulo");
  EXPECT_TRUE((*algo)->capabilities().arbitrary_removal);
  EXPECT_FALSE((*algo)->capabilities().minimal_disruption);
  EXPECT_EQ((*algo)->HashKey("k"), HashString<Xxh64>("k", 0));
  params.hash = "nope";
  algo = MakeModulo(params);
  EXPECT_EQ(algo.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(algo.status().message(),
              AllOf(HasSubstr("'nope'"), HasSubstr("md5"), HasSubstr("xxh64")));
}

}  // namespace
}  // namespace chbench
