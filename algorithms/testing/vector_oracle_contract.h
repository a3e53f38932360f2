// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: testing/vector_oracle_contract.h
// -----------------------------------------------------------------------------
//
// RangeHashContractTest: the typed test suite every range hash (jumpback,
// flip, power, binomial: a function f(key, n) onto 0..n-1 wrapped by
// RangeHash, range_buckets.h) passes. It checks
//   * MatchesReferenceVectors: the ConsistentHash instance, the free function
//     and the conformance suite's reference model against the algorithm's
//     reference-vector file (testing/vector_file.h);
//   * AgreesWithModelOnRandomKeysAndCounts: f equals the model, and is in
//     range, on 200000 random (key, n) pairs, n up to 100, 10^5 and
//     T::kMaxBuckets in turn;
//   * GrowingMovesKeysOnlyToTheNewBucket: f(key, n) is f(key, n - 1) or
//     n - 1, for n = 2..300;
//   * BucketsAreBalanced: 10 and 12 buckets within 6 standard deviations;
//   * OnlyTheLastNodeCanBeRemoved and GrowAndShrinkMatchFreshInstances
//     (testing/range_hash_checks.h).
// What is particular to one algorithm (its reference quirks, its internal
// fast paths, its largest n) stays in its own test file.
//
// The type parameter is a traits struct:
//
//   struct FlipTraits {
//     template <typename H> using Algo = Flip<H>;  // the concrete type
//     static constexpr const char* kFolder = "flip";          // algorithms/<>
//     static constexpr const char* kVectorFile = "flip_stable.tsv";
//     static constexpr size_t kVectorRows = 800;
//     static constexpr uint64_t kMaxBuckets = 0x7FFFFFFF;  // random n bound
//     static constexpr uint64_t kRandomSeed = 402;         // Sfc64 seed
//     static uint64_t Function(uint64_t key, uint64_t n);  // f
//     static uint64_t Model(uint64_t key, uint64_t n);     // reference model
//   };
//
// instantiated once in the algorithm's test file. The macros name the suite
// unqualified, so the instantiation sits in namespace chbench::testing:
//
//   namespace testing {
//   INSTANTIATE_TYPED_TEST_SUITE_P(Flip, RangeHashContractTest, FlipTraits);
//   }  // namespace testing

#ifndef CHBENCH_ALGORITHMS_TESTING_VECTOR_ORACLE_CONTRACT_H_
#define CHBENCH_ALGORITHMS_TESTING_VECTOR_ORACLE_CONTRACT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "algorithms/hash/hash_function.h"
#include "algorithms/testing/range_hash_checks.h"
#include "algorithms/testing/vector_file.h"
#include "algorithms/util/random.h"
#include "gtest/gtest.h"

namespace chbench {
namespace testing {

template <typename T>
class RangeHashContractTest : public ::testing::Test {};

TYPED_TEST_SUITE_P(RangeHashContractTest);

TYPED_TEST_P(RangeHashContractTest, MatchesReferenceVectors) {
  const std::vector<VectorRow> rows = ReadVectorFile(
      AlgorithmTestdata(TypeParam::kFolder, TypeParam::kVectorFile));
  ASSERT_EQ(rows.size(), TypeParam::kVectorRows);
  typename TypeParam::template Algo<Xxh64> algo;
  EXPECT_EQ(CountVectorMismatches(algo, rows), 0);
  EXPECT_EQ(CountFunctionMismatches(&TypeParam::Function, rows), 0);
  // The conformance suite's reference model, checked on the same rows.
  EXPECT_EQ(CountFunctionMismatches(&TypeParam::Model, rows), 0);
}

TYPED_TEST_P(RangeHashContractTest, AgreesWithModelOnRandomKeysAndCounts) {
  Sfc64 rng(TypeParam::kRandomSeed);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = rng();
    const uint64_t n =
        1 + rng.Below(i % 3 == 0   ? 100
                      : i % 3 == 1 ? 100000
                                   : TypeParam::kMaxBuckets);
    const uint64_t b = TypeParam::Function(key, n);
    ASSERT_LT(b, n);
    ASSERT_EQ(b, TypeParam::Model(key, n)) << "key " << key << " n " << n;
  }
}

TYPED_TEST_P(RangeHashContractTest, GrowingMovesKeysOnlyToTheNewBucket) {
  SplitMix64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = rng();
    uint64_t prev = 0;
    for (uint64_t n = 2; n <= 300; ++n) {
      const uint64_t b = TypeParam::Function(key, n);
      ASSERT_TRUE(b == prev || b == n - 1) << key << " " << n;
      prev = b;
    }
  }
}

TYPED_TEST_P(RangeHashContractTest, BucketsAreBalanced) {
  for (int buckets : {10, 12}) {
    const int keys = 100000;
    std::vector<int> load(buckets);
    SplitMix64 rng(11);
    for (int i = 0; i < keys; ++i) {
      ++load[TypeParam::Function(rng(), static_cast<uint64_t>(buckets))];
    }
    // Binomial sd <= sqrt(1e5 * 0.1 * 0.9) ~ 95: 6 sd = 570.
    for (int b = 0; b < buckets; ++b) {
      EXPECT_NEAR(load[b], keys / buckets, 570) << "bucket " << b;
    }
  }
}

TYPED_TEST_P(RangeHashContractTest, OnlyTheLastNodeCanBeRemoved) {
  typename TypeParam::template Algo<Xxh64> algo;
  CheckOnlyLastNodeRemovable(algo);
}

// Adding nodes and removing them again (through powers of two: 2, 4, ...,
// 64) gives, at every size, the mapping of a fresh instance of that size.
TYPED_TEST_P(RangeHashContractTest, GrowAndShrinkMatchFreshInstances) {
  CheckGrowAndShrink(
      [] {
        return std::make_unique<typename TypeParam::template Algo<Md5>>();
      },
      [](uint64_t key, size_t n) { return TypeParam::Function(key, n); }, 70);
}

REGISTER_TYPED_TEST_SUITE_P(RangeHashContractTest, MatchesReferenceVectors,
                            AgreesWithModelOnRandomKeysAndCounts,
                            GrowingMovesKeysOnlyToTheNewBucket,
                            BucketsAreBalanced, OnlyTheLastNodeCanBeRemoved,
                            GrowAndShrinkMatchFreshInstances);

}  // namespace testing
}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_TESTING_VECTOR_ORACLE_CONTRACT_H_
