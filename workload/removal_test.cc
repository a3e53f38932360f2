// Copyright 2026 The chbench Authors.

#include "workload/removal.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(RemovalTest, FifoAndLifoOrders) {
  EXPECT_THAT(*RemovalSequence("fifo", 10, 3, 0), ElementsAre(0u, 1u, 2u));
  EXPECT_THAT(*RemovalSequence("lifo", 10, 3, 0), ElementsAre(9u, 8u, 7u));
  EXPECT_TRUE(RemovalSequence("lifo", 10, 0, 0)->empty());
}

TEST(RemovalTest, RandomIsDistinctInRangeAndSeeded) {
  const std::vector<uint32_t> a = *RemovalSequence("random", 1000, 900, 7);
  ASSERT_EQ(a.size(), 900u);
  const std::set<uint32_t> s(a.begin(), a.end());
  EXPECT_EQ(s.size(), 900u);
  EXPECT_LT(*s.rbegin(), 1000u);
  EXPECT_EQ(a, *RemovalSequence("random", 1000, 900, 7));
  EXPECT_NE(a, *RemovalSequence("random", 1000, 900, 8));
  // A prefix of a longer removal is the shorter removal: the steps of an
  // incremental removal are the one-shot removals of each size.
  const std::vector<uint32_t> b = *RemovalSequence("random", 1000, 100, 7);
  EXPECT_TRUE(std::equal(b.begin(), b.end(), a.begin()));
  // Not sorted (a shuffle, not the first ids).
  EXPECT_FALSE(std::is_sorted(a.begin(), a.end()));
}

TEST(RemovalTest, Errors) {
  EXPECT_THAT(RemovalSequence("lru", 10, 1, 0).status().message(),
              HasSubstr("unknown removal order 'lru'; valid: random, fifo, lifo"));
  EXPECT_THAT(RemovalSequence("fifo", 10, 10, 0).status().message(),
              HasSubstr("at most 9"));
}

TEST(RemovalTest, RemovedCountRoundsAndKeepsOneNode) {
  EXPECT_EQ(RemovedCount(1000, 0.5), 500u);
  EXPECT_EQ(RemovedCount(10, 0.25), 3u);  // llround(2.5) = 3
  EXPECT_EQ(RemovedCount(10, 0.99), 9u);
  EXPECT_EQ(RemovedCount(1, 0.9), 0u);
  EXPECT_EQ(RemovedCount(100, 0.0), 0u);
}

TEST(RemovalTest, RebuildsSurvivorsOnlyForLiveSetMappings) {
  Capabilities ring;  // removes any node, maps by the live set
  ring.arbitrary_removal = true;
  Capabilities anchor = ring;  // remembers the order of removals
  anchor.history_dependent = true;
  const Capabilities jump;  // removes only the last node
  const std::vector<uint32_t> two = {4, 1};
  EXPECT_TRUE(RebuildsSurvivors(ring, two));
  EXPECT_FALSE(RebuildsSurvivors(ring, {}));
  EXPECT_FALSE(RebuildsSurvivors(anchor, two));
  EXPECT_FALSE(RebuildsSurvivors(jump, two));
}

TEST(RemovalTest, SurvivorsKeepOrderAndIndex) {
  std::vector<NodeSpec> nodes(6);
  for (size_t i = 0; i < nodes.size(); ++i) {
    nodes[i].name = "n" + std::to_string(i);
  }
  const std::vector<uint32_t> removed = {4, 1, 5};
  const SurvivingNodes live = Survivors(nodes, removed);
  ASSERT_EQ(live.nodes.size(), 3u);
  EXPECT_EQ(live.nodes[0].name, "n0");
  EXPECT_EQ(live.nodes[1].name, "n2");
  EXPECT_EQ(live.nodes[2].name, "n3");
  EXPECT_EQ(live.index, (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(Survivors(nodes, {}).nodes.size(), 6u);
}

}  // namespace
}  // namespace chbench
