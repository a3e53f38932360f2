// Copyright 2026 The chbench Authors.

#include "algorithms/binomial/binomial.h"

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
using testing::ModelBinomialHash;
using testing::Node;
using testing::ReadVectorFile;
using testing::VectorRow;

uint64_t Model(uint64_t x, uint64_t n) {
  return static_cast<uint64_t>(
      ModelBinomialHash(static_cast<int64_t>(x), static_cast<int32_t>(n)));
}

// SUPSI java-consistent-hashing-algorithms@68803f8 BinomialEngine: 100
// inputs x 8 bucket counts.
TEST(BinomialVectorsTest, MatchesSupsiBinomialEngine) {
  const std::vector<VectorRow> rows =
      ReadVectorFile(AlgorithmTestdata("binomial", "binomial_stable.tsv"));
  ASSERT_EQ(rows.size(), 800u);
  Binomial<Xxh64> binomial;
  EXPECT_EQ(CountVectorMismatches(binomial, rows), 0);
  EXPECT_EQ(CountFunctionMismatches(
                [](uint64_t x, uint64_t n) {
                  return BinomialHash(x, static_cast<uint32_t>(n));
                },
                rows),
            0);
  // The conformance suite's reference model, checked on the same rows.
  EXPECT_EQ(CountFunctionMismatches(&Model, rows), 0);
}

TEST(BinomialHashTest, AgreesWithModelOnRandomKeysAndCounts) {
  Sfc64 rng(400);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = rng();
    const uint32_t n = static_cast<uint32_t>(
        1 + rng.Below(i % 3 == 0 ? 100 : (i % 3 == 1 ? 100000 : 0x7FFFFFFF)));
    const uint32_t b = BinomialHash(key, n);
    ASSERT_LT(b, n);
    ASSERT_EQ(b, Model(key, n)) << "key " << key << " n " << n;
  }
}

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

TEST(BinomialHashTest, GrowingMovesKeysOnlyToTheNewBucket) {
  SplitMix64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = rng();
    uint32_t prev = 0;
    for (uint32_t n = 2; n <= 300; ++n) {
      const uint32_t b = BinomialHash(key, n);
      ASSERT_TRUE(b == prev || b == n - 1) << key << " " << n;
      prev = b;
    }
  }
}

TEST(BinomialHashTest, BucketsAreBalanced) {
  for (int buckets : {10, 12}) {
    const int keys = 100000;
    std::vector<int> load(buckets);
    SplitMix64 rng(11);
    for (int i = 0; i < keys; ++i) ++load[BinomialHash(rng(), buckets)];
    // Binomial sd <= sqrt(1e5 * 0.1 * 0.9) ~ 95: 6 sd = 570.
    for (int b = 0; b < buckets; ++b) {
      EXPECT_NEAR(load[b], keys / buckets, 570) << "bucket " << b;
    }
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

// Adding nodes and removing them again (through powers of two: 2, 4, ...,
// 64) gives, at every size, the mapping of a fresh instance of that size.
TEST(BinomialTest, GrowAndShrinkMatchFreshInstances) {
  testing::CheckGrowAndShrink([] { return std::make_unique<Binomial<Md5>>(); },
                              [](uint64_t key, size_t n) {
                                return BinomialHash(key,
                                                    static_cast<uint32_t>(n));
                              },
                              70);
}

TEST(BinomialTest, OnlyTheLastNodeCanBeRemoved) {
  Binomial<Xxh64> binomial;
  testing::CheckOnlyLastNodeRemovable(binomial);
}

}  // namespace
}  // namespace chbench
