// Copyright 2026 The chbench Authors.

#include "algorithms/consistent_hash.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace chbench {
namespace {

// 2^64 = 6148914691236517205 * 3 + 1: slot 0 holds one digest more.
TEST(ResidueSharesTest, CountsEveryDigestOnce) {
  const std::vector<double> three = ResidueShares(3, 64);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0], (6148914691236517205.0 + 1) / std::ldexp(1.0, 64));
  EXPECT_EQ(three[1], 6148914691236517205.0 / std::ldexp(1.0, 64));
  EXPECT_EQ(three[2], three[1]);
  // 2^32 = 1431655765 * 3 + 1.
  const std::vector<double> narrow = ResidueShares(3, 32);
  EXPECT_EQ(narrow[0], 1431655766.0 / std::ldexp(1.0, 32));
  EXPECT_EQ(narrow[2], 1431655765.0 / std::ldexp(1.0, 32));
  // A power of two divides the space evenly.
  for (double s : ResidueShares(8, 64)) EXPECT_EQ(s, 0.125);
  for (double s : ResidueShares(uint64_t{1} << 20, 32)) {
    ASSERT_EQ(s, std::ldexp(1.0, -20));
  }
  EXPECT_TRUE(ResidueShares(0, 64).empty());
  // 2^32 mod 7 = 4: the first four slots hold one more.
  const std::vector<double> seven = ResidueShares(7, 32);
  EXPECT_GT(seven[3], seven[4]);
  EXPECT_EQ(seven[0], seven[3]);
  EXPECT_EQ(seven[4], seven[6]);
}

TEST(UniformSharesTest, OneOverN) {
  EXPECT_EQ(UniformShares(4), (std::vector<double>{0.25, 0.25, 0.25, 0.25}));
  EXPECT_TRUE(UniformShares(0).empty());
}

}  // namespace
}  // namespace chbench
