// Copyright 2026 The chbench Authors.

#include "algorithms/binomial/binomial.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/testing/reference_models.h"
#include "algorithms/testing/vector_oracle_contract.h"
#include "algorithms/util/random.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

// The range-hash contract (testing/vector_oracle_contract.h). Vectors: SUPSI
// java-consistent-hashing-algorithms@68803f8 BinomialEngine, 100 inputs x 8
// bucket counts.
struct BinomialTraits {
  template <typename H>
  using Algo = Binomial<H>;
  static constexpr const char* kFolder = "binomial";
  static constexpr const char* kVectorFile = "binomial_stable.tsv";
  static constexpr size_t kVectorRows = 800;
  static constexpr uint64_t kMaxBuckets = 0x7FFFFFFF;
  static constexpr uint64_t kRandomSeed = 400;
  static uint64_t Function(uint64_t x, uint64_t n) {
    return BinomialHash(x, static_cast<uint32_t>(n));
  }
  static uint64_t Model(uint64_t x, uint64_t n) {
    return testing::RangeHashModel::Binomial(x, n);
  }
};

}  // namespace

namespace testing {
INSTANTIATE_TYPED_TEST_SUITE_P(Binomial, RangeHashContractTest, BinomialTraits);
}  // namespace testing

namespace {

TEST(BinomialHashTest, SingleBucketAndMaximum) {
  SplitMix64 rng(1);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t key = rng();
    EXPECT_EQ(BinomialHash(key, 1), 0u);
    EXPECT_EQ(BinomialHash(key, 0), 0u);
    EXPECT_LT(BinomialHash(key, 0x7FFFFFFF), 0x7FFFFFFFu);
    EXPECT_LT(BinomialHash(key, (1u << 30) + 1), (1u << 30) + 1);
  }
}

// SUPSI's engine updates its filters incrementally (spec §8): addBucket
// doubles E and M (x -> 2x + 1) when the new size exceeds E, removeBucket
// halves them when the new size is <= M. Growing to a power of two thus
// keeps E = 2n - 1 where a fresh engine has E = n - 1, and so does removing
// back down to it. Binomial<H> recomputes the filters from n; this checks
// that the engine's larger filters map every key the same, for start sizes
// >= 2 grown by up to 70 and shrunk back. (An engine constructed with size
// 1 has E = M = 0 and its first addBucket makes M = E; it then returns
// buckets >= n, e.g. bucket 3 for size 3, so that path is no reference.)
TEST(BinomialTest, SupsiIncrementalFiltersMapLikeFreshOnes) {
  SplitMix64 rng(31);
  std::vector<uint64_t> keys(3000);
  for (uint64_t& k : keys) k = rng();
  int larger_filters_seen = 0;
  for (uint32_t start = 2; start <= 40; ++start) {
    binomial_internal::Range r = binomial_internal::MakeRange(start);
    const auto check = [&] {
      const binomial_internal::Range fresh = binomial_internal::MakeRange(r.n);
      if (r.enclosing != fresh.enclosing) ++larger_filters_seen;
      for (uint64_t k : keys) {
        ASSERT_EQ(binomial_internal::Bucket(k, r), BinomialHash(k, r.n))
            << "n " << r.n << " E " << r.enclosing << " M " << r.minor;
      }
    };
    for (int step = 0; step < 70; ++step) {
      if (++r.n > r.enclosing) {  // addBucket
        r.enclosing = (r.enclosing << 1) | 1;
        r.minor = (r.minor << 1) | 1;
      }
      check();
      if (::testing::Test::HasFatalFailure()) return;
    }
    while (r.n > start) {
      if (--r.n <= r.minor) {  // removeBucket
        r.minor >>= 1;
        r.enclosing >>= 1;
      }
      check();
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GT(larger_filters_seen, 0) << "the sequence never reached the case";
}

// The defect noted above: BinomialEngine(1) then addBucket twice has size 3
// with E = M = 3, and the lookup can then return bucket 3.
TEST(BinomialTest, SupsiEngineGrownFromSizeOneLeavesTheRange) {
  binomial_internal::Range r{1, 0, 0};  // BinomialEngine(1)
  for (int i = 0; i < 2; ++i) {
    if (++r.n > r.enclosing) {
      r.enclosing = (r.enclosing << 1) | 1;
      r.minor = (r.minor << 1) | 1;
    }
  }
  ASSERT_EQ(r.n, 3u);
  EXPECT_EQ(r.enclosing, 3u);
  EXPECT_EQ(r.minor, 3u);
  SplitMix64 rng(5);
  int out_of_range = 0;
  for (int i = 0; i < 1000; ++i) {
    if (binomial_internal::Bucket(rng(), r) >= 3) ++out_of_range;
  }
  EXPECT_GT(out_of_range, 0);
}

}  // namespace
}  // namespace chbench
