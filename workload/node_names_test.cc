// Copyright 2026 The chbench Authors.

#include "workload/node_names.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(NodeNameTest, SeedZeroIsPlain) {
  EXPECT_EQ(NodeName(0, 0), "node-0");
  EXPECT_EQ(NodeName(3, 0), "node-3");
  EXPECT_EQ(NodeName(100000, 0), "node-100000");
}

TEST(NodeNameTest, OtherSeedsSaltTheName) {
  EXPECT_EQ(NodeName(3, 7), "node-3-s7");
  EXPECT_EQ(NodeName(0, 18446744073709551615u),
            "node-0-s18446744073709551615");
}

TEST(NodeNameTest, DistinctAcrossNodesAndSeeds) {
  std::set<std::string> names;
  for (size_t i = 0; i < 50; ++i) {
    for (uint64_t s = 0; s < 20; ++s) names.insert(NodeName(i, s));
  }
  EXPECT_EQ(names.size(), 50u * 20u);
}

}  // namespace
}  // namespace chbench
