// Copyright 2026 The chbench Authors.

#include "algorithms/jumpback/jumpback.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/testing/reference_models.h"
#include "algorithms/testing/vector_file.h"
#include "algorithms/testing/vector_oracle_contract.h"
#include "algorithms/util/random.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using testing::AlgorithmTestdata;
using testing::CountFunctionMismatches;
using testing::ModelJumpBackHash;
using testing::ReadVectorFile;
using testing::VectorRow;

// The range-hash contract (testing/vector_oracle_contract.h). Vectors:
// hash4j@41d814f jumpBackHash(splitMix64_V1()), 100 inputs x 8 bucket counts.
struct JumpBackTraits {
  template <typename H>
  using Algo = JumpBack<H>;
  static constexpr const char* kFolder = "jumpback";
  static constexpr const char* kVectorFile = "jumpback_splitmix64_stable.tsv";
  static constexpr size_t kVectorRows = 800;
  static constexpr uint64_t kMaxBuckets = 0x7FFFFFFF;
  static constexpr uint64_t kRandomSeed = 403;
  static uint64_t Function(uint64_t x, uint64_t n) {
    return JumpBackHashSplitMix64(x, static_cast<uint32_t>(n));
  }
  static uint64_t Model(uint64_t x, uint64_t n) {
    return testing::RangeHashModel::JumpBack(x, n);
  }
};

}  // namespace

namespace testing {
INSTANTIATE_TYPED_TEST_SUITE_P(JumpBack, RangeHashContractTest,
                               JumpBackTraits);
}  // namespace testing

namespace {

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

// JumpBackHashXorshift stays in [0, n) for n = 2..300.
TEST(JumpBackHashTest, XorshiftStaysInRangeWhileGrowing) {
  SplitMix64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = rng();
    for (uint32_t n = 2; n <= 300; ++n) {
      ASSERT_LT(JumpBackHashXorshift(key, n), n) << key << " " << n;
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

}  // namespace
}  // namespace chbench
