// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: testing/range_hash_checks.h
// -----------------------------------------------------------------------------
//
// Checks shared by the tests of the range hashes wrapped with RangeBuckets
// (jumpback, flip, power, binomial): bucket b is the b-th live node, only the
// last node can leave (error naming the refused node and the removable one),
// growing n moves keys only to the new node, shrinking restores the previous
// mapping, and the instance equals a fresh Build at every size.
// Each takes a factory for empty instances of the algorithm under test and
// `f(key, n)`, the algorithm's free function.

#ifndef CHBENCH_ALGORITHMS_TESTING_RANGE_HASH_CHECKS_H_
#define CHBENCH_ALGORITHMS_TESTING_RANGE_HASH_CHECKS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace testing {

// Removing any node but the last is refused with FailedPrecondition naming
// both nodes, and changes nothing; the last ones can go, in LIFO order.
inline void CheckOnlyLastNodeRemovable(ConsistentHash& algo) {
  using ::testing::AllOf;
  using ::testing::ElementsAre;
  using ::testing::HasSubstr;
  ASSERT_TRUE(algo.Build(Specs(5)).ok());
  std::vector<uint64_t> keys;
  SplitMix64 rng(17);
  for (int i = 0; i < 1000; ++i) keys.push_back(rng());
  std::vector<NodeId> before;
  for (uint64_t k : keys) before.push_back(algo.Lookup(k));

  const absl::Status s = algo.RemoveNode(2);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(
      s.message(),
      AllOf(HasSubstr(std::string(algo.name()) + ": cannot remove"),
            HasSubstr("'node-2' (id 2)"), HasSubstr("last-in first-out"),
            HasSubstr("only node that can be removed now is "
                      "'node-4' (id 4)")));
  EXPECT_EQ(algo.size(), 5u);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(algo.Lookup(keys[i]), before[i]) << "a refused removal changed "
                                                  "the mapping";
  }
  ASSERT_TRUE(algo.RemoveNode(4).ok());
  ASSERT_TRUE(algo.RemoveNode(3).ok());
  EXPECT_THAT(algo.LiveNodes(), ElementsAre(0, 1, 2));
  EXPECT_EQ(algo.RemoveNode(3).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(algo.RemoveNode(77).code(), absl::StatusCode::kNotFound);
  const absl::Status first = algo.RemoveNode(0);
  EXPECT_EQ(first.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(first.message(), HasSubstr("'node-2' (id 2)"));
  // Down to one node, then none; then a new node gets the next fresh id.
  ASSERT_TRUE(algo.RemoveNode(2).ok());
  ASSERT_TRUE(algo.RemoveNode(1).ok());
  for (uint64_t k : keys) ASSERT_EQ(algo.Lookup(k), 0u);
  ASSERT_TRUE(algo.RemoveNode(0).ok());
  EXPECT_EQ(algo.size(), 0u);
  absl::StatusOr<NodeId> again = algo.AddNode(Node("node-0"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, 5u);
  for (uint64_t k : keys) ASSERT_EQ(algo.Lookup(k), 5u);
}

// Grows one instance from 1 to `max_n` nodes with AddNode, then shrinks it
// back to 1 with RemoveNode. At every size the mapping equals a fresh
// instance built with that many nodes and the free function `f`; each growth
// step moves keys only to the new node; each shrink step restores exactly the
// mapping recorded on the way up.
template <typename Factory, typename F>
void CheckGrowAndShrink(Factory make, F f, size_t max_n) {
  std::unique_ptr<ConsistentHash> algo = make();
  std::vector<uint64_t> keys;
  SplitMix64 rng(23);
  for (int i = 0; i < 3000; ++i) keys.push_back(rng());
  ASSERT_TRUE(algo->Build(Specs(1)).ok());
  std::vector<std::vector<NodeId>> at(max_n + 1);
  const auto map = [&] {
    std::vector<NodeId> owners;
    for (uint64_t k : keys) owners.push_back(algo->Lookup(k));
    return owners;
  };
  const auto check_fresh = [&](size_t n, const std::vector<NodeId>& owners) {
    std::unique_ptr<ConsistentHash> fresh = make();
    ASSERT_TRUE(fresh->Build(Specs(n)).ok());
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_EQ(owners[i], fresh->Lookup(keys[i])) << "n=" << n;
      ASSERT_EQ(owners[i], f(keys[i], n)) << "n=" << n;
    }
  };
  at[1] = map();
  check_fresh(1, at[1]);
  for (size_t n = 2; n <= max_n; ++n) {
    absl::StatusOr<NodeId> id =
        algo->AddNode(Node("node-" + std::to_string(n - 1)));
    ASSERT_TRUE(id.ok()) << id.status();
    ASSERT_EQ(*id, n - 1);
    at[n] = map();
    for (size_t i = 0; i < keys.size(); ++i) {
      if (at[n][i] != at[n - 1][i]) {
        ASSERT_EQ(at[n][i], n - 1) << "n=" << n
                                   << ": a key moved elsewhere "
                                      "than the new node";
      }
    }
    check_fresh(n, at[n]);
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (size_t n = max_n; n > 1; --n) {
    ASSERT_TRUE(algo->RemoveNode(static_cast<NodeId>(n - 1)).ok());
    ASSERT_TRUE(map() == at[n - 1])
        << "removing node " << n - 1 << " did not restore the mapping";
  }
}

}  // namespace testing
}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_TESTING_RANGE_HASH_CHECKS_H_
