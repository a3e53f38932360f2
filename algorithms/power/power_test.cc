// Copyright 2026 The chbench Authors.

#include "algorithms/power/power.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "algorithms/testing/reference_models.h"
#include "algorithms/testing/vector_oracle_contract.h"
#include "algorithms/util/random.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

// The range-hash contract (testing/vector_oracle_contract.h). Vectors: SUPSI
// java-consistent-hashing-algorithms@68803f8 PowerEngine with XXHash32, 100
// inputs x 8 bucket counts.
struct PowerTraits {
  template <typename H>
  using Algo = Power<H>;
  static constexpr const char* kFolder = "power";
  static constexpr const char* kVectorFile = "power_stable.tsv";
  static constexpr size_t kVectorRows = 800;
  static constexpr uint64_t kMaxBuckets = uint64_t{1} << 30;
  static constexpr uint64_t kRandomSeed = 401;
  static uint64_t Function(uint64_t x, uint64_t n) {
    return PowerHash(x, static_cast<uint32_t>(n));
  }
  static uint64_t Model(uint64_t x, uint64_t n) {
    return testing::RangeHashModel::Power(x, n);
  }
};

}  // namespace

namespace testing {
INSTANTIATE_TYPED_TEST_SUITE_P(Power, RangeHashContractTest, PowerTraits);
}  // namespace testing

namespace {

// The unrolled 12-byte XXH32 equals libxxhash's XXH32 over the buffer
// BE64(x) || BE32(h).
TEST(PowerHashTest, UnrolledXxh32MatchesLibxxhash) {
  Sfc64 rng(32);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t x = rng();
    const uint32_t h = static_cast<uint32_t>(rng());
    unsigned char buf[12];
    for (int b = 0; b < 8; ++b)
      buf[b] = static_cast<unsigned char>(x >> (56 - 8 * b));
    for (int b = 0; b < 4; ++b)
      buf[8 + b] = static_cast<unsigned char>(h >> (24 - 8 * b));
    ASSERT_EQ(power_internal::Xxh32LongInt(x, h), XXH32(buf, sizeof(buf), 0))
        << x << " " << h;
  }
}

// The key whose first Guava-LCG state (2862933555777941757 * key + 1) is
// `state`: the multiplier is odd, so the step is invertible mod 2^64.
uint64_t KeyWithFirstState(uint64_t state) {
  constexpr uint64_t kA = 2862933555777941757ULL;
  uint64_t inverse = kA;  // Newton: each step doubles the correct low bits
  for (int i = 0; i < 6; ++i) inverse *= 2 - kA * inverse;
  EXPECT_EQ(kA * inverse, 1u);
  return (state - 1) * inverse;
}

// A key that reaches g (f(m1) >= n) and whose first LCG state has
// state >>> 33 == 2^31 - 1 (wrap) or 0 (saturating cast).
uint64_t QuirkKey(uint32_t n, uint64_t top31) {
  const power_internal::Range r = power_internal::MakeRange(n);
  for (uint64_t low = 0;; ++low) {
    const uint64_t key = KeyWithFirstState((top31 << 33) | low);
    if (power_internal::F(key, r.m1) >= n) return key;
  }
}

// Java's (int)(state >>> 33) + 1 wraps to -2^31 when state >>> 33 is
// 2^31 - 1: u = -1.0, next = -(c + 1) < 0 and g stops at its start m2, so
// the answer is f(m2) <= m2. Without the wrap u would be +1.0, the walk would
// step to m2 + 1 (< n here) and the answer would be > m2.
TEST(PowerHashTest, JavaIntWrapInTheLcg) {
  for (uint32_t n : {5u, 100u, 1000u, 65536u + 3}) {
    const uint64_t key = QuirkKey(n, 0x7FFFFFFFULL);
    const power_internal::Range r = power_internal::MakeRange(n);
    const uint32_t b = PowerHash(key, n);
    EXPECT_EQ(b, PowerTraits::Model(key, n)) << "n " << n;
    EXPECT_LE(b, r.m2) << "n " << n;
    EXPECT_EQ(b, power_internal::F(key, r.m2)) << "n " << n;
  }
}

// state >>> 33 == 0 gives u = 2^-31 and a quotient (m2 + 1) * 2^31 >= 2^31,
// which Java's cast saturates to 2^31 - 1 (>= n: stop; a plain C++ cast of
// it would be undefined).
TEST(PowerHashTest, JavaSaturatingCast) {
  for (uint32_t n : {5u, 100u, 1000u, 65536u + 3}) {
    const uint64_t key = QuirkKey(n, 0);
    const power_internal::Range r = power_internal::MakeRange(n);
    const uint32_t b = PowerHash(key, n);
    EXPECT_EQ(b, PowerTraits::Model(key, n)) << "n " << n;
    EXPECT_EQ(b, power_internal::F(key, r.m2)) << "n " << n;
  }
}

TEST(PowerHashTest, SingleBucketAndMaximum) {
  SplitMix64 rng(1);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t key = rng();
    EXPECT_EQ(PowerHash(key, 1), 0u);
    EXPECT_LT(PowerHash(key, 1u << 30), 1u << 30);
    EXPECT_LT(PowerHash(key, (1u << 29) + 1), (1u << 29) + 1);
  }
}

// The engine's addBucket/removeBucket rules (spec §7) keep m, m1 and m2
// equal to a fresh engine's at every size, so recomputing them from n (what
// Power<H> does) is the same. Emulated here from n = 1 up to 300 and back.
TEST(PowerTest, SupsiIncrementalConstantsEqualFreshOnes) {
  int32_t size = 1, m = 1, m1 = 0, m2 = -1;  // PowerEngine(1)
  const auto expect_fresh = [&] {
    const power_internal::Range r =
        power_internal::MakeRange(static_cast<uint32_t>(size));
    EXPECT_EQ(r.m1, static_cast<uint32_t>(m1)) << size;
    EXPECT_EQ(r.m2, static_cast<uint32_t>(m2)) << size;
  };
  for (int i = 0; i < 300; ++i) {
    if (++size > m) {  // addBucket
      m2 = m - 1;
      m = m << 1;
      m1 = m - 1;
    }
    expect_fresh();
  }
  while (size > 1) {
    const int32_t half = m >> 1;  // removeBucket
    if (--size <= half) {
      m = half;
      m1 = m - 1;
      m2 = (m >> 1) - 1;
    }
    expect_fresh();
  }
}

}  // namespace
}  // namespace chbench
