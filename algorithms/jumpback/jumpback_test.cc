// Copyright 2026 The chbench Authors.

#include "algorithms/jumpback/jumpback.h"

#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/range_hash_checks.h"
#include "algorithms/testing/reference_models.h"
#include "algorithms/testing/vector_file.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using testing::AlgorithmTestdata;
using ::testing::AllOf;
using testing::CountFunctionMismatches;
using testing::CountVectorMismatches;
using ::testing::HasSubstr;
using testing::ModelJumpBackHash;
using testing::Node;
using testing::ReadVectorFile;
using testing::VectorRow;

// hash4j@41d814f jumpBackHash(splitMix64_V1()): 100 inputs x 8 bucket counts.
TEST(JumpBackVectorsTest, SplitMix64MatchesHash4j) {
  const std::vector<VectorRow> rows = ReadVectorFile(
      AlgorithmTestdata("jumpback", "jumpback_splitmix64_stable.tsv"));
  ASSERT_EQ(rows.size(), 800u);
  JumpBack<Xxh64> jb;
  EXPECT_EQ(CountVectorMismatches(jb, rows), 0);
  EXPECT_EQ(CountFunctionMismatches(
                [](uint64_t x, uint64_t n) {
                  return JumpBackHashSplitMix64(x, static_cast<uint32_t>(n));
                },
                rows),
            0);
  // The conformance suite's reference model, checked on the same rows.
  EXPECT_EQ(CountFunctionMismatches(
                [](uint64_t x, uint64_t n) {
                  return ModelJumpBackHash(x, static_cast<uint32_t>(n));
                },
                rows),
            0);
}

// hash4j@41d814f jumpBackHashXorshiftL7R9(): the free function only.
TEST(JumpBackVectorsTest, XorshiftMatchesHash4j) {
  const std::vector<VectorRow> rows = ReadVectorFile(
      AlgorithmTestdata("jumpback", "jumpback_xorshift_stable.tsv"));
  ASSERT_EQ(rows.size(), 800u);
  EXPECT_EQ(CountFunctionMismatches(
                [](uint64_t x, uint64_t n) {
                  return JumpBackHashXorshift(x, static_cast<uint32_t>(n));
                },
                rows),
            0);
}

// The first candidate uses r0's high half when popcount(m) is odd (hash4j's
// long shift by popcount * 32, masked by Java to 0 or 32). Always taking the
// low half would be a different function: it must disagree somewhere.
TEST(JumpBackHashTest, HalfSelectionMatters) {
  const std::vector<VectorRow> rows = ReadVectorFile(
      AlgorithmTestdata("jumpback", "jumpback_splitmix64_stable.tsv"));
  int differ = 0;
  for (const VectorRow& row : rows) {
    if (row.n < 3) continue;
    const uint64_t r0 = jumpback_internal::SplitMix64Output(
        row.input + jumpback_internal::kGoldenGamma);
    const uint32_t m =
        static_cast<uint32_t>(r0 ^ (r0 >> 32)) &
        jumpback_internal::RangeMask(static_cast<uint32_t>(row.n));
    if (m == 0) continue;
    const uint32_t lo = std::bit_floor(m);
    const uint32_t low_half = lo + (static_cast<uint32_t>(r0) & (lo - 1));
    if (low_half < row.n && low_half != row.bucket) ++differ;
  }
  EXPECT_GT(differ, 0);
}

TEST(JumpBackHashTest, AgreesWithModelOnRandomKeysAndCounts) {
  Sfc64 rng(403);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = rng();
    const uint32_t n = static_cast<uint32_t>(
        1 + rng.Below(i % 3 == 0 ? 100 : (i % 3 == 1 ? 100000 : 0x7FFFFFFF)));
    const uint32_t b = JumpBackHashSplitMix64(key, n);
    ASSERT_LT(b, n);
    ASSERT_EQ(b, ModelJumpBackHash(key, n)) << "key " << key << " n " << n;
  }
}

// Walk takes WalkSpeculative when n is more than 1/8 below the next power of
// two and WalkLoop otherwise; both must be the same function on every n,
// including the switch at 7/8, 2^k +- 1 and n just above a power of two
// (where WalkSpeculative most often falls through to DrawOn), for both
// streams.
TEST(JumpBackHashTest, SpeculativeWalkEqualsLoop) {
  using jumpback_internal::SplitMix64Stream;
  using jumpback_internal::WalkLoop;
  using jumpback_internal::WalkSpeculative;
  using jumpback_internal::XorshiftL7R9Stream;
  std::vector<uint32_t> counts = {0, 1, 2, 3};
  for (int k = 2; k <= 31; ++k) {
    const uint64_t p = uint64_t{1} << k;
    for (const uint64_t n : {p / 2 + 1, p / 2 + 2, p / 2 + p / 8, p * 7 / 8 - 1,
                             p * 7 / 8, p * 7 / 8 + 1, p - 1, p}) {
      if (n <= 0x7FFFFFFF) counts.push_back(static_cast<uint32_t>(n));
    }
  }
  Sfc64 rng(405);
  for (const uint32_t n : counts) {
    const uint32_t mask = jumpback_internal::RangeMask(n);
    for (int i = 0; i < 2000; ++i) {
      const uint64_t key = rng();
      const uint32_t b = WalkLoop<SplitMix64Stream>(key, n, mask);
      ASSERT_EQ(WalkSpeculative<SplitMix64Stream>(key, n, mask), b)
          << "key " << key << " n " << n;
      ASSERT_EQ(JumpBackHashSplitMix64(key, n), b) << key << " " << n;
      ASSERT_EQ(ModelJumpBackHash(key, n), b) << key << " " << n;
      const uint32_t c = WalkLoop<XorshiftL7R9Stream>(key, n, mask);
      ASSERT_EQ(WalkSpeculative<XorshiftL7R9Stream>(key, n, mask), c)
          << "key " << key << " n " << n;
      ASSERT_EQ(JumpBackHashXorshift(key, n), c) << key << " " << n;
    }
  }
}

TEST(JumpBackHashTest, SingleBucketAndMaximum) {
  SplitMix64 rng(1);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t key = rng();
    EXPECT_EQ(JumpBackHashSplitMix64(key, 1), 0u);
    EXPECT_EQ(JumpBackHashXorshift(key, 1), 0u);
    EXPECT_EQ(JumpBackHashSplitMix64(key, 0), 0u);
    EXPECT_LT(JumpBackHashSplitMix64(key, 0x7FFFFFFF), 0x7FFFFFFFu);
    EXPECT_LT(JumpBackHashXorshift(key, 0x7FFFFFFF), 0x7FFFFFFFu);
  }
}

TEST(JumpBackHashTest, GrowingMovesKeysOnlyToTheNewBucket) {
  SplitMix64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = rng();
    uint32_t prev = 0;
    for (uint32_t n = 2; n <= 300; ++n) {
      const uint32_t b = JumpBackHashSplitMix64(key, n);
      ASSERT_TRUE(b == prev || b == n - 1) << key << " " << n;
      const uint32_t c = JumpBackHashXorshift(key, n);
      ASSERT_LT(c, n);
      prev = b;
    }
  }
}

TEST(JumpBackHashTest, BucketsAreBalanced) {
  constexpr int kBuckets = 10;
  constexpr int kKeys = 100000;
  std::vector<int> load(kBuckets);
  SplitMix64 rng(11);
  for (int i = 0; i < kKeys; ++i)
    ++load[JumpBackHashSplitMix64(rng(), kBuckets)];
  // Binomial sd = sqrt(1e5 * 0.1 * 0.9) ~ 95: 6 sd = 570.
  for (int b = 0; b < kBuckets; ++b) {
    EXPECT_NEAR(load[b], kKeys / kBuckets, 570) << "bucket " << b;
  }
}

TEST(JumpBackTest, OnlyTheLastNodeCanBeRemoved) {
  JumpBack<Xxh64> jb;
  testing::CheckOnlyLastNodeRemovable(jb);
}

TEST(JumpBackTest, GrowAndShrinkMatchFreshInstances) {
  testing::CheckGrowAndShrink([] { return std::make_unique<JumpBack<Md5>>(); },
                              [](uint64_t key, size_t n) {
                                return JumpBackHashSplitMix64(
                                    key, static_cast<uint32_t>(n));
                              },
                              70);
}

}  // namespace
}  // namespace chbench
