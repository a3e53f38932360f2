// Copyright 2026 The chbench Authors.
//
// Tests of util/crc32c.h: Crc32c against a bytewise transcription of the
// definition, against the SSE4.2 instruction at run time where the CPU has
// it, and against published CRC-32C values; FastMod32 against %.

#include "algorithms/util/crc32c.h"

#include <cstdint>
#include <limits>

#include "algorithms/util/random.h"
#include "gtest/gtest.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace chbench {
namespace {

using crc32c_internal::Crc32cBytewise;
using crc32c_internal::Crc32cSoftware;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

// The instruction itself, compiled for SSE4.2 whatever the build flags; call
// only when the CPU reports SSE4.2.
#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t HardwareCrc32c(uint64_t k,
                                                          uint64_t seed) {
  return static_cast<uint32_t>(_mm_crc32_u64(seed & 0xFFFFFFFFu, k));
}
bool CpuHasSse42() { return __builtin_cpu_supports("sse4.2"); }
#endif

TEST(Crc32cTest, TableMatchesThePolynomial) {
  // Published entries of the reflected Castagnoli table (e.g. RFC 3720's
  // CRC-32C table, iSCSI): T[1] = 0xF26B8303, T[128] = 0x82F63B78.
  EXPECT_EQ(crc32c_internal::kTables[0][1], 0xF26B8303u);
  EXPECT_EQ(crc32c_internal::kTables[0][128], 0x82F63B78u);
  EXPECT_EQ(crc32c_internal::kTables[0][255], 0xAD7D5351u);
}

TEST(Crc32cTest, StandardCheckValueThroughTheRawStep) {
  // CRC-32C("123456789") = 0xE3069283 with initial and final inversion. The
  // raw step has neither: feed the 9 bytes as one 8-byte step and one
  // bytewise step from ~0, then invert.
  const uint64_t first8 = 0x3837363534333231ULL;  // "12345678" LE
  uint32_t c = Crc32c(first8, 0xFFFFFFFFu);
  c = crc32c_internal::kTables[0][(c ^ '9') & 0xFF] ^ (c >> 8);
  EXPECT_EQ(~c, 0xE3069283u);
}

TEST(Crc32cTest, SoftwareEqualsBytewiseDefinition) {
  SplitMix64 rng(1);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t k = rng();
    const uint64_t s = i % 3 == 0 ? rng() : rng() & 0xFFFFFFFFu;
    ASSERT_EQ(Crc32cSoftware(k, s), Crc32cBytewise(k, s)) << k << " " << s;
    ASSERT_EQ(Crc32c(k, s), Crc32cBytewise(k, s)) << k << " " << s;
  }
  for (uint64_t k : {uint64_t{0}, uint64_t{1}, kMax, uint64_t{1} << 63}) {
    for (uint64_t s : {uint64_t{0}, uint64_t{0xFFFFFFFF}, kMax}) {
      EXPECT_EQ(Crc32c(k, s), Crc32cBytewise(k, s));
    }
  }
  // The seed's upper half is ignored; k = 0 from seed 0 stays 0 (no
  // inversion).
  EXPECT_EQ(Crc32c(12345, 0x1234567800000009ULL), Crc32c(12345, 9));
  EXPECT_EQ(Crc32c(0, 0), 0u);
}

TEST(Crc32cTest, EqualsTheInstruction) {
#if defined(__x86_64__)
  if (!CpuHasSse42()) GTEST_SKIP() << "this CPU has no SSE4.2";
  SplitMix64 rng(2);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t k = rng();
    const uint64_t s = rng();
    ASSERT_EQ(Crc32c(k, s), HardwareCrc32c(k, s)) << k << " " << s;
    ASSERT_EQ(Crc32cSoftware(k, s), HardwareCrc32c(k, s)) << k << " " << s;
  }
  EXPECT_EQ(Crc32c(kMax, kMax), HardwareCrc32c(kMax, kMax));
#else
  GTEST_SKIP() << "not x86-64: no crc32 instruction to compare with";
#endif
}

TEST(FastMod32Test, EqualsRemainder) {
  const uint32_t kU32Max = std::numeric_limits<uint32_t>::max();
  const uint32_t divisors[] = {
      1,    2,     3,       7,          10,         100,         128,    200,
      1000, 65536, 1000000, 0x7FFFFFFF, 0x80000000, kU32Max - 1, kU32Max};
  const uint32_t xs[] = {0,   1,          2,          99,          100,
                         101, 0x7FFFFFFF, 0x80000000, kU32Max - 1, kU32Max};
  for (uint32_t d : divisors) {
    const FastMod32 mod(d);
    EXPECT_EQ(mod.divisor(), d);
    for (uint32_t x : xs) ASSERT_EQ(mod(x), x % d) << x << " % " << d;
  }
  SplitMix64 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t r = rng();
    uint32_t d = static_cast<uint32_t>(r >> 32);
    if (i % 2 == 0) d >>= (r & 31);  // small divisors too
    if (d == 0) d = 1;
    const uint32_t x = static_cast<uint32_t>(r);
    ASSERT_EQ(FastMod32(d)(x), x % d) << x << " % " << d;
  }
}

}  // namespace
}  // namespace chbench
