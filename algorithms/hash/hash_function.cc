// Copyright 2026 The chbench Authors.
//
// Out-of-line hash policies (see hash_function.h). Only MD5 lives here:
// chbench's own implementation of RFC 1321, written for the latency of short
// keys (a dependent chain of lookups waits on every digest). Against
// OpenSSL's MD5_Init/Update/Final it saves the context copies and calls,
// which cost about a tenth of a one-block digest; hash_function_test.cc
// checks it against OpenSSL at every length around the block boundaries.

#include "algorithms/hash/hash_function.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "algorithms/hash/preset_hashes.h"

namespace chbench {
namespace md5_internal {

// RFC 1321, section 3.4: T[i] = floor(2^32 * |sin(i + 1)|). The per-step
// rotations and word orders are in Compress.
constexpr uint32_t kT[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
    0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
    0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
    0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
    0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
    0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

inline uint32_t Rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

// One step a = b + rotl(a + f(b, c, d) + x + t, s) per round function, each
// written so that the newest input b (the previous step's result) is used
// as late as possible: the word, the constant and every term without b are
// added first. Round 2 uses G = (b & d) + (c & ~d) (disjoint bits, so + is
// |) to move c & ~d off b's path.
inline void StepF(uint32_t& a, uint32_t b, uint32_t c, uint32_t d, uint32_t x,
                  uint32_t t, int s) {
  a += x + t;
  a += d ^ (b & (c ^ d));
  a = Rotl(a, s) + b;
}
inline void StepG(uint32_t& a, uint32_t b, uint32_t c, uint32_t d, uint32_t x,
                  uint32_t t, int s) {
  a += x + t + (c & ~d);
  a += b & d;
  a = Rotl(a, s) + b;
}
inline void StepH(uint32_t& a, uint32_t b, uint32_t c, uint32_t d, uint32_t x,
                  uint32_t t, int s) {
  a += x + t;
  a += b ^ (c ^ d);
  a = Rotl(a, s) + b;
}
inline void StepI(uint32_t& a, uint32_t b, uint32_t c, uint32_t d, uint32_t x,
                  uint32_t t, int s) {
  a += x + t;
  a += c ^ (b | ~d);
  a = Rotl(a, s) + b;
}

// The MD5 compression of one 64-byte block into state (RFC 1321, 3.4).
void Compress(uint32_t state[4], const unsigned char block[64]) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = hash_internal::LoadLe32(block + 4 * i);
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  // Step i of round r uses word k(i) (round 1: i; 2: 1 + 5i; 3: 5 + 3i;
  // 4: 7i; mod 16), constant kT[16r + i] and the round's rotation for i mod 4.
  // Written out so that every index is a constant.
  StepF(a, b, c, d, x[0], kT[0], 7);
  StepF(d, a, b, c, x[1], kT[1], 12);
  StepF(c, d, a, b, x[2], kT[2], 17);
  StepF(b, c, d, a, x[3], kT[3], 22);
  StepF(a, b, c, d, x[4], kT[4], 7);
  StepF(d, a, b, c, x[5], kT[5], 12);
  StepF(c, d, a, b, x[6], kT[6], 17);
  StepF(b, c, d, a, x[7], kT[7], 22);
  StepF(a, b, c, d, x[8], kT[8], 7);
  StepF(d, a, b, c, x[9], kT[9], 12);
  StepF(c, d, a, b, x[10], kT[10], 17);
  StepF(b, c, d, a, x[11], kT[11], 22);
  StepF(a, b, c, d, x[12], kT[12], 7);
  StepF(d, a, b, c, x[13], kT[13], 12);
  StepF(c, d, a, b, x[14], kT[14], 17);
  StepF(b, c, d, a, x[15], kT[15], 22);
  StepG(a, b, c, d, x[1], kT[16], 5);
  StepG(d, a, b, c, x[6], kT[17], 9);
  StepG(c, d, a, b, x[11], kT[18], 14);
  StepG(b, c, d, a, x[0], kT[19], 20);
  StepG(a, b, c, d, x[5], kT[20], 5);
  StepG(d, a, b, c, x[10], kT[21], 9);
  StepG(c, d, a, b, x[15], kT[22], 14);
  StepG(b, c, d, a, x[4], kT[23], 20);
  StepG(a, b, c, d, x[9], kT[24], 5);
  StepG(d, a, b, c, x[14], kT[25], 9);
  StepG(c, d, a, b, x[3], kT[26], 14);
  StepG(b, c, d, a, x[8], kT[27], 20);
  StepG(a, b, c, d, x[13], kT[28], 5);
  StepG(d, a, b, c, x[2], kT[29], 9);
  StepG(c, d, a, b, x[7], kT[30], 14);
  StepG(b, c, d, a, x[12], kT[31], 20);
  StepH(a, b, c, d, x[5], kT[32], 4);
  StepH(d, a, b, c, x[8], kT[33], 11);
  StepH(c, d, a, b, x[11], kT[34], 16);
  StepH(b, c, d, a, x[14], kT[35], 23);
  StepH(a, b, c, d, x[1], kT[36], 4);
  StepH(d, a, b, c, x[4], kT[37], 11);
  StepH(c, d, a, b, x[7], kT[38], 16);
  StepH(b, c, d, a, x[10], kT[39], 23);
  StepH(a, b, c, d, x[13], kT[40], 4);
  StepH(d, a, b, c, x[0], kT[41], 11);
  StepH(c, d, a, b, x[3], kT[42], 16);
  StepH(b, c, d, a, x[6], kT[43], 23);
  StepH(a, b, c, d, x[9], kT[44], 4);
  StepH(d, a, b, c, x[12], kT[45], 11);
  StepH(c, d, a, b, x[15], kT[46], 16);
  StepH(b, c, d, a, x[2], kT[47], 23);
  StepI(a, b, c, d, x[0], kT[48], 6);
  StepI(d, a, b, c, x[7], kT[49], 10);
  StepI(c, d, a, b, x[14], kT[50], 15);
  StepI(b, c, d, a, x[5], kT[51], 21);
  StepI(a, b, c, d, x[12], kT[52], 6);
  StepI(d, a, b, c, x[3], kT[53], 10);
  StepI(c, d, a, b, x[10], kT[54], 15);
  StepI(b, c, d, a, x[1], kT[55], 21);
  StepI(a, b, c, d, x[8], kT[56], 6);
  StepI(d, a, b, c, x[15], kT[57], 10);
  StepI(c, d, a, b, x[6], kT[58], 15);
  StepI(b, c, d, a, x[13], kT[59], 21);
  StepI(a, b, c, d, x[4], kT[60], 6);
  StepI(d, a, b, c, x[11], kT[61], 10);
  StepI(c, d, a, b, x[2], kT[62], 15);
  StepI(b, c, d, a, x[9], kT[63], 21);
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

// The four state words after the last block: the digest is their
// little-endian bytes.
void DigestWords(const unsigned char* prefix, size_t prefix_len,
                 const void* data, size_t len, uint32_t state[4]) {
  state[0] = 0x67452301;
  state[1] = 0xefcdab89;
  state[2] = 0x98badcfe;
  state[3] = 0x10325476;
  const auto* p = static_cast<const unsigned char*>(data);
  size_t rest = len;
  unsigned char block[128];
  size_t fill = prefix_len;  // bytes of `block` in use
  if (prefix_len > 0) std::memcpy(block, prefix, prefix_len);
  if (fill > 0 && rest >= 64 - fill) {
    std::memcpy(block + fill, p, 64 - fill);
    Compress(state, block);
    p += 64 - fill;
    rest -= 64 - fill;
    fill = 0;
  }
  if (fill == 0) {
    for (; rest >= 64; p += 64, rest -= 64) Compress(state, p);
  }
  // The tail (fill + rest < 64 bytes), 0x80, zeros and the bit length: one
  // block if it fits in 56 bytes, else two.
  if (rest > 0) std::memcpy(block + fill, p, rest);
  const size_t tail = fill + rest;
  const size_t padded = tail < 56 ? 64 : 128;
  block[tail] = 0x80;
  std::memset(block + tail + 1, 0, padded - 8 - tail - 1);
  const uint64_t bits = static_cast<uint64_t>(prefix_len + len) * 8;
  for (int i = 0; i < 8; ++i) {
    block[padded - 8 + i] = static_cast<unsigned char>(bits >> (8 * i));
  }
  Compress(state, block);
  if (padded == 128) Compress(state, block + 64);
}

std::array<unsigned char, 16> Digest(const unsigned char* prefix,
                                     size_t prefix_len, const void* data,
                                     size_t len) {
  uint32_t state[4];
  DigestWords(prefix, prefix_len, data, len, state);
  std::array<unsigned char, 16> digest;
  if constexpr (std::endian::native == std::endian::little) {
    // Whole words: a caller's 4-byte read of the digest (DigestLe32) is then
    // forwarded from one store; byte stores would stall it.
    std::memcpy(digest.data(), state, sizeof(state));
  } else {
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        digest[4 * i + j] = static_cast<unsigned char>(state[i] >> (8 * j));
      }
    }
  }
  return digest;
}

}  // namespace md5_internal

namespace {

// The seed's 8 little-endian bytes (none for seed 0) in prefix; returns
// their count.
size_t SeedPrefix(uint64_t seed, unsigned char prefix[8]) {
  if (seed == 0) return 0;
  for (int i = 0; i < 8; ++i) {
    prefix[i] = static_cast<unsigned char>(seed >> (8 * i));
  }
  return 8;
}

}  // namespace

std::array<unsigned char, 16> Md5Digest(const void* data, size_t len,
                                        uint64_t seed) {
  unsigned char prefix[8] = {};
  return md5_internal::Digest(prefix, SeedPrefix(seed, prefix), data, len);
}

uint64_t Md5::Hash(const void* data, size_t len, uint64_t seed) {
  unsigned char prefix[8] = {};
  uint32_t state[4];
  md5_internal::DigestWords(prefix, SeedPrefix(seed, prefix), data, len, state);
  // Digest bytes 0..7 big-endian: each word's little-endian bytes reversed.
  return (uint64_t{__builtin_bswap32(state[0])} << 32) |
         __builtin_bswap32(state[1]);
}

}  // namespace chbench
