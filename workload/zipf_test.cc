// Copyright 2026 The chbench Authors.

#include "workload/zipf.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(ZipfTest, RejectsBadParameters) {
  EXPECT_FALSE(Zipf::Make(0, 1.0).ok());
  EXPECT_FALSE(Zipf::Make(Zipf::kMaxUniverse + 1, 1.0).ok());
  EXPECT_FALSE(Zipf::Make(10, -0.1).ok());
  EXPECT_FALSE(Zipf::Make(10, std::nan("")).ok());
  EXPECT_TRUE(Zipf::Make(1, 0).ok());
}

TEST(ZipfTest, ProbabilitiesSumToOneAndFollowThePowerLaw) {
  const Zipf z(1000, 0.99);
  double sum = 0;
  for (uint32_t r = 0; r < 1000; ++r) sum += z.Probability(r);
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(z.Probability(0) / z.Probability(9), std::pow(10.0, 0.99),
              1e-9);
}

// Empirical frequencies of the alias sampler against p(r): within 5 standard
// errors for the head ranks, and the total variation distance is small.
TEST(ZipfTest, SamplesFollowTheDistribution) {
  for (double s : {0.0, 0.8, 0.99, 1.2}) {
    const Zipf z(500, s);
    Sfc64 rng(42);
    constexpr int kDraws = 2'000'000;
    std::vector<int> count(500);
    for (int i = 0; i < kDraws; ++i) ++count[z.Sample(rng)];
    double tv = 0;
    for (uint32_t r = 0; r < 500; ++r) {
      const double p = z.Probability(r);
      const double f = static_cast<double>(count[r]) / kDraws;
      tv += std::abs(f - p) / 2;
      if (r < 5) {
        const double se = std::sqrt(p * (1 - p) / kDraws);
        EXPECT_NEAR(f, p, 5 * se) << "s=" << s << " rank " << r;
      }
    }
    EXPECT_LT(tv, 0.01) << "s=" << s;
  }
}

TEST(ZipfTest, SameSeedSameSequence) {
  const Zipf a(100000, 1.2), b(100000, 1.2);
  Sfc64 r1(9), r2(9), r3(10);
  int differ = 0;
  for (int i = 0; i < 10000; ++i) {
    const uint32_t x = a.Sample(r1);
    EXPECT_EQ(x, b.Sample(r2));
    differ += x != a.Sample(r3);
  }
  EXPECT_GT(differ, 100);
}

TEST(ZipfTest, UniformIsUniform) {
  const Zipf z(4, 0);
  for (uint32_t r = 0; r < 4; ++r) EXPECT_DOUBLE_EQ(z.Probability(r), 0.25);
}

}  // namespace
}  // namespace chbench
