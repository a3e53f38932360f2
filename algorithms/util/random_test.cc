// Copyright 2026 The chbench Authors.
//
// Tests for the portable generators in random.h: reference outputs of
// SplitMix64, the sfc64 step against its published definition, determinism,
// and the range and uniformity of Sfc64::Below.

#include "algorithms/util/random.h"

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace chbench {
namespace {

static_assert(std::uniform_random_bit_generator<Sfc64>);

// Reference outputs of Vigna's splitmix64.c (prng.di.unimi.it) seeded with
// 1234567, as listed on Rosetta Code, "Pseudo-random numbers/Splitmix64".
constexpr std::array<uint64_t, 5> kSplitMix1234567 = {
    6457827717110365317u, 3203168211198807973u, 9817491932198370423u,
    4593380528125082431u, 16408922859458223821u};

TEST(SplitMix64Test, MatchesReferenceOutputs) {
  SplitMix64 sm(1234567);
  for (uint64_t want : kSplitMix1234567) EXPECT_EQ(sm(), want);
}

TEST(SplitMix64Test, UsableInConstantExpressions) {
  constexpr uint64_t first = [] {
    SplitMix64 sm(1234567);
    return sm();
  }();
  static_assert(first == 6457827717110365317u);
  // Seed 0: first output of splitmix64.c is 0xE220A8397B1DCDAF.
  SplitMix64 zero(0);
  EXPECT_EQ(zero(), 0xE220A8397B1DCDAFu);
}

// sfc64 step as defined in PractRand (RNGs/sfc.cpp, Chris Doty-Humphrey):
// tmp = a + b + counter++; a = b ^ (b >> 11); b = c + (c << 3);
// c = rotl(c, 24) + tmp; return tmp. Written here independently of random.h.
struct ReferenceSfc64 {
  uint64_t a, b, c, counter;
  uint64_t Next() {
    const uint64_t tmp = a + b + counter;
    ++counter;
    const uint64_t na = b ^ (b >> 11);
    const uint64_t nb = c + (c << 3);
    const uint64_t nc = ((c << 24) | (c >> 40)) + tmp;
    a = na;
    b = nb;
    c = nc;
    return tmp;
  }
};

TEST(Sfc64Test, MatchesPractRandStepWithSplitMixSeeding) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{42}, ~uint64_t{0}}) {
    SplitMix64 sm(seed);
    ReferenceSfc64 ref{sm(), sm(), sm(), 1};
    for (int i = 0; i < 12; ++i) ref.Next();
    Sfc64 rng(seed);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(rng(), ref.Next()) << seed;
  }
}

TEST(Sfc64Test, SameSeedSameStreamDifferentSeedDifferentStream) {
  Sfc64 a(7), b(7), c(8);
  int equal_to_c = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = a();
    EXPECT_EQ(x, b());
    equal_to_c += (x == c());
  }
  EXPECT_EQ(equal_to_c, 0);
  // Copies continue the same stream.
  Sfc64 d = a;
  EXPECT_EQ(d(), a());
}

TEST(Sfc64Test, BelowStaysInRange) {
  Sfc64 rng(99);
  for (uint64_t bound : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{7},
                         uint64_t{10}, uint64_t{1000}, (uint64_t{1} << 32) + 15,
                         (uint64_t{1} << 63) + 1, ~uint64_t{0}}) {
    for (int i = 0; i < 2000; ++i) {
      ASSERT_LT(rng.Below(bound), bound) << bound;
    }
  }
  for (int i = 0; i < 100; ++i) EXPECT_EQ(rng.Below(1), 0u);
}

// Chi-square goodness of fit over 10 cells, 100000 draws: 9 degrees of
// freedom, 27.88 is the 0.999 quantile. A biased or truncated Below fails.
TEST(Sfc64Test, BelowIsRoughlyUniform) {
  Sfc64 rng(12345);
  constexpr int kCells = 10;
  constexpr int kDraws = 100000;
  std::array<int, kCells> count{};
  for (int i = 0; i < kDraws; ++i) ++count[rng.Below(kCells)];
  const double expected = static_cast<double>(kDraws) / kCells;
  double chi2 = 0;
  for (int c : count) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 27.88);
  for (int c : count) EXPECT_GT(c, 0);
}

// With bound = 3 * 2^62, `x % bound` would put half the draws below 2^62;
// an unbiased draw puts a third there. n = 30000: sd of the count is 82, so
// [9500, 10500] is over 6 sd wide either side and excludes 15000.
TEST(Sfc64Test, BelowHasNoModuloBias) {
  Sfc64 rng(2024);
  const uint64_t bound = uint64_t{3} << 62;
  int low = 0;
  for (int i = 0; i < 30000; ++i) low += rng.Below(bound) < (uint64_t{1} << 62);
  EXPECT_GT(low, 9500);
  EXPECT_LT(low, 10500);
}

// The rejection path (threshold = 2^63 - 1 for bound 2^63 + 1) must still
// cover the whole range: about half the draws land in the upper half.
TEST(Sfc64Test, BelowCoversTheRangeWhenRejecting) {
  Sfc64 rng(5);
  const uint64_t bound = (uint64_t{1} << 63) + 1;
  int upper = 0;
  for (int i = 0; i < 20000; ++i) upper += rng.Below(bound) >= (bound / 2);
  EXPECT_GT(upper, 9500);
  EXPECT_LT(upper, 10500);
}

}  // namespace
}  // namespace chbench
