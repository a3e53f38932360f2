// Copyright 2026 The chbench Authors.

#include "algorithms/flip/flip.h"

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
using testing::ModelFlipHash;
using testing::ReadVectorFile;
using testing::VectorRow;

// The range-hash contract (testing/vector_oracle_contract.h). Vectors:
// fliphash-rs@00c0ad0 fliphash_64(x, ..=n-1), 100 inputs x 8 bucket counts.
struct FlipTraits {
  template <typename H>
  using Algo = Flip<H>;
  static constexpr const char* kFolder = "flip";
  static constexpr const char* kVectorFile = "flip_stable.tsv";
  static constexpr size_t kVectorRows = 800;
  static constexpr uint64_t kMaxBuckets = 0x7FFFFFFF;
  static constexpr uint64_t kRandomSeed = 402;
  static uint64_t Function(uint64_t x, uint64_t n) { return FlipHash(x, n); }
  static uint64_t Model(uint64_t x, uint64_t n) { return ModelFlipHash(x, n); }
};

}  // namespace

namespace testing {
INSTANTIATE_TYPED_TEST_SUITE_P(Flip, RangeHashContractTest, FlipTraits);
}  // namespace testing

namespace {

// The function itself takes any u64 range (the contract draws n < 2^31).
TEST(FlipHashTest, AgreesWithModelOnAnyRange) {
  Sfc64 rng(407);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t key = rng();
    uint64_t n = rng() >> rng.Below(64);
    if (n == 0) n = 1;
    ASSERT_EQ(FlipHash(key, n), ModelFlipHash(key, n)) << key << " " << n;
  }
}

// SUPSI's FlipEngine draws with numberOfLeadingZeros(n) as the parameter
// instead of floor(log2(n - 1)); on the reference rows that variant must
// differ (the spec counts 856 mismatches on the full file).
TEST(FlipVectorsTest, DrawParameterMatters) {
  const std::vector<VectorRow> rows =
      ReadVectorFile(AlgorithmTestdata("flip", "flip_stable.tsv"));
  int differ = 0;
  for (const VectorRow& row : rows) {
    if (row.n < 2) continue;
    flip_internal::Range r = flip_internal::MakeRange(row.n);
    r.draw_mul = 2 * static_cast<uint64_t>(
                         std::countl_zero(static_cast<uint32_t>(row.n))) +
                 1;
    if (flip_internal::Bucket(row.input, r) != row.bucket) ++differ;
  }
  EXPECT_GT(differ, 0);
}

// Bucket takes BucketSpeculative when n is more than 1/8 below the next power
// of two and the plain branches otherwise; both must be the same function on
// every n, including the switch at 7/8, 2^k +- 1 and n just above a power of
// two (where BucketSpeculative most often falls through to Draws), up to
// 2^64 - 1.
TEST(FlipHashTest, SpeculativeBucketEqualsModel) {
  // (n = 0 is FlipHash's 0, not the model's: see SingleBucket.)
  std::vector<uint64_t> counts = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int k = 3; k <= 64; ++k) {
    const uint64_t p = k == 64 ? 0 : uint64_t{1} << k;  // 2^64 wraps to 0
    const uint64_t half = uint64_t{1} << (k - 1);
    const uint64_t eighth = uint64_t{1} << (k - 3);
    for (const uint64_t n : {half + 1, half + 2, half + eighth, p - eighth - 1,
                             p - eighth, p - eighth + 1, p - 1, p}) {
      if (n != 0) counts.push_back(n);
    }
  }
  Sfc64 rng(406);
  for (const uint64_t n : counts) {
    const flip_internal::Range r = flip_internal::MakeRange(n);
    for (int i = 0; i < 2000; ++i) {
      const uint64_t key = rng();
      const uint64_t b = ModelFlipHash(key, n);
      ASSERT_EQ(flip_internal::BucketSpeculative(key, r), b)
          << "key " << key << " n " << n;
      ASSERT_EQ(FlipHash(key, n), b) << "key " << key << " n " << n;
    }
  }
}

TEST(FlipHashTest, SingleBucket) {
  SplitMix64 rng(1);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t key = rng();
    EXPECT_EQ(FlipHash(key, 1), 0u);
    EXPECT_EQ(FlipHash(key, 0), 0u);
  }
}

}  // namespace
}  // namespace chbench
