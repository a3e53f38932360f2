// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: util/crc32c.h
// -----------------------------------------------------------------------------
//
// `Crc32c(k, seed)`: the CRC-32C step that AnchorHash, MementoHash (its crc32c
// path) and DxHash use to hash a 64-bit key, defined as the SSE4.2 `crc32q`
// instruction that their reference implementations call through inline
// assembly (e.g. anchorhash/cpp-anchorhash, ChaosD/DxHash):
//
//   * the register starts at the low 32 bits of `seed` (the instruction
//     ignores the upper half);
//   * the 8 bytes of `k` are folded in least significant first with the
//     reflected Castagnoli table (polynomial 0x82F63B78):
//     c = T[(c ^ byte) & 0xFF] ^ (c >> 8);
//   * no initial or final inversion; the result is 32 bits.
//
// This is *not* the standard CRC-32C of the 8 bytes (that one inverts before
// and after): Crc32c(k, s) equals ~crc32c_standard(bytes(k)) only when s is
// 0xFFFFFFFF.
//
// Implementation: with __SSE4_2__ defined at compile time (e.g. -msse4.2 or
// -march=native on a machine that has it) one `_mm_crc32_u64`; otherwise a
// slicing-by-8 software form whose tables are generated at compile time
// (Kounavis and Berry, ISCC 2005). Both give the same bits on every input
// (util/crc32c_test.cc checks them against each other, against the
// instruction at run time where the CPU has it, and against a bytewise
// reference).

#ifndef CHBENCH_ALGORITHMS_UTIL_CRC32C_H_
#define CHBENCH_ALGORITHMS_UTIL_CRC32C_H_

#include <array>
#include <cstdint>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

namespace chbench {
namespace crc32c_internal {

inline constexpr uint32_t kCastagnoliReflected = 0x82F63B78u;

// Table k advances a byte through k further zero bytes; table 0 is the
// classic bytewise table (entry 1 == 0xF26B8303).
using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) {
      c = (c & 1) ? (c >> 1) ^ kCastagnoliReflected : c >> 1;
    }
    t[0][i] = c;
  }
  for (int k = 1; k < 8; ++k) {
    for (uint32_t i = 0; i < 256; ++i) {
      const uint32_t prev = t[k - 1][i];
      t[k][i] = (prev >> 8) ^ t[0][prev & 0xFF];
    }
  }
  return t;
}

inline constexpr Tables kTables = MakeTables();

// The software form: all 8 bytes in one slicing-by-8 step.
inline uint32_t Crc32cSoftware(uint64_t k, uint64_t seed) {
  const auto& t = kTables;
  const uint32_t lo = static_cast<uint32_t>(k) ^ static_cast<uint32_t>(seed);
  const uint32_t hi = static_cast<uint32_t>(k >> 32);
  return t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^
         t[4][lo >> 24] ^ t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^
         t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
}

// The definition, one byte at a time (tests only).
inline uint32_t Crc32cBytewise(uint64_t k, uint64_t seed) {
  uint32_t c = static_cast<uint32_t>(seed);
  for (int i = 0; i < 8; ++i) {
    const uint32_t byte = static_cast<uint32_t>(k >> (8 * i)) & 0xFF;
    c = kTables[0][(c ^ byte) & 0xFF] ^ (c >> 8);
  }
  return c;
}

}  // namespace crc32c_internal

// True when Crc32c compiles to the SSE4.2 instruction.
inline constexpr bool kCrc32cHardware =
#if defined(__SSE4_2__)
    true;
#else
    false;
#endif

// crc32q(k) on a register started at the low 32 bits of `seed`.
inline uint32_t Crc32c(uint64_t k, uint64_t seed) {
#if defined(__SSE4_2__)
  return static_cast<uint32_t>(_mm_crc32_u64(seed & 0xFFFFFFFFu, k));
#else
  return crc32c_internal::Crc32cSoftware(k, seed);
#endif
}

// Lemire, Kaser & Kurz, "Faster Remainder by Direct Computation" (Software:
// Practice and Experience 49(6), 2019), fastmod_u32: x % d for a divisor d
// fixed in advance, with two multiplications instead of a division. Exact for
// every 32-bit x and every d in [1, 2^32) (the paper's theorem 1 with
// N = 32, F = 64); util/crc32c_test.cc compares it with % on edges and random
// inputs. FastMod32(0) is a valid divisor object only for d >= 1.
class FastMod32 {
 public:
  FastMod32() = default;
  explicit FastMod32(uint32_t d)
      : m_(~uint64_t{0} / (d == 0 ? 1 : d) + 1), d_(d) {}
  uint32_t divisor() const { return d_; }
  uint32_t operator()(uint32_t x) const {
    const uint64_t low = m_ * x;
    return static_cast<uint32_t>((static_cast<unsigned __int128>(low) * d_) >>
                                 64);
  }

 private:
  uint64_t m_ = 0;
  uint32_t d_ = 0;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_UTIL_CRC32C_H_
