// Copyright 2026 The chbench Authors.

#include "bench/cluster/lru.h"

#include <list>

#include "algorithms/util/random.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(LruCacheTest, EvictsTheLeastRecentlyUsed) {
  LruCache c(2);
  c.Put(1);
  c.Put(2);
  EXPECT_TRUE(c.Get(1));  // 2 is now the least recent
  c.Put(3);
  EXPECT_TRUE(c.Get(1));
  EXPECT_FALSE(c.Get(2));
  EXPECT_TRUE(c.Get(3));
  EXPECT_EQ(c.size(), 2u);
}

TEST(LruCacheTest, ZeroCapacityCachesNothing) {
  LruCache c(0);
  c.Put(7);
  EXPECT_FALSE(c.Get(7));
}

// Random operations against a straightforward list model.
TEST(LruCacheTest, MatchesAListModel) {
  for (uint64_t cap : {1, 3, 17}) {
    LruCache c(cap);
    std::list<uint32_t> model;  // front = most recent
    Sfc64 rng(cap);
    for (int i = 0; i < 20000; ++i) {
      const uint32_t k = static_cast<uint32_t>(rng.Below(40));
      auto it = std::find(model.begin(), model.end(), k);
      if (rng.Below(2) == 0) {
        const bool hit = it != model.end();
        ASSERT_EQ(c.Get(k), hit) << "cap " << cap << " op " << i;
        if (hit) model.splice(model.begin(), model, it);
      } else {
        if (it != model.end()) {
          model.splice(model.begin(), model, it);
        } else {
          model.push_front(k);
          if (model.size() > cap) model.pop_back();
        }
        c.Put(k);
      }
      ASSERT_EQ(c.size(), model.size());
    }
    c.Clear();
    EXPECT_EQ(c.size(), 0u);
    EXPECT_FALSE(c.Get(model.front()));
  }
}

}  // namespace
}  // namespace chbench
