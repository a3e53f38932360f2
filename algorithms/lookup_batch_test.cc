// Copyright 2026 The chbench Authors.
//
// GroupedLookup (lookup_batch.h) at every batch shape of both group depths:
// fewer keys than a group, one group, a group and a partial one, whole
// groups, and many groups with a tail. Each key must be finished exactly
// once, with the state its own start returned, and its owner stored in its
// own slot.

#include "algorithms/lookup_batch.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace chbench {
namespace {

template <size_t kGroup>
void ExpectEveryKeyFinishedOnce(size_t n) {
  std::vector<uint64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = 1000 + 7 * i;
  std::vector<NodeId> out(n, kInvalidNode);
  std::vector<int> started(n, 0), finished(n, 0);
  GroupedLookup<kGroup>(
      keys, out,
      [&](uint64_t k) {
        const size_t i = (k - 1000) / 7;
        ++started[i];
        return k * 3;  // the state finish must receive for this key
      },
      [&](uint64_t k, uint64_t state) {
        const size_t i = (k - 1000) / 7;
        EXPECT_EQ(started[i], 1) << "key " << i << " finished before start";
        EXPECT_EQ(state, k * 3) << "key " << i << " got another key's state";
        ++finished[i];
        return static_cast<NodeId>(k % 1000003);
      });
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(started[i], 1) << "group " << kGroup << ", n = " << n;
    ASSERT_EQ(finished[i], 1) << "group " << kGroup << ", n = " << n;
    ASSERT_EQ(out[i], static_cast<NodeId>(keys[i] % 1000003));
  }
}

TEST(GroupedLookupTest, EveryShapeOfBatch) {
  for (size_t n :
       {0, 1, 7, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 100, 1000}) {
    ExpectEveryKeyFinishedOnce<kLookupGroup>(n);
    ExpectEveryKeyFinishedOnce<2 * kLookupGroup>(n);
  }
}

}  // namespace
}  // namespace chbench
