// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: hash/hash_function.h
// -----------------------------------------------------------------------------
//
// The hash-function set. Each function is a *policy*: a struct with static
// members, passed as the template parameter `H` of every algorithm so that the
// hash reaches every hash the algorithm computes and inlines into lookups.
//
//   struct Xxh64 {
//     static constexpr std::string_view kName = "xxh64";
//     static constexpr int kBits = 64;            // output width
//     static constexpr bool kReproducible = true; // same value everywhere
//     static uint64_t Hash(const void* data, size_t len, uint64_t seed);
//   };
//
// `Hash(data, len, 0)` is the plain function (e.g. md5 of the bytes); other
// seeds give independent functions (Maglev draws offset and skip from seeds
// 0 and 1). Outputs are right-aligned: a 32-bit function returns values below
// 2^32; algorithms that need a fraction use `ToUnitInterval<H>`.
//
// Example:
//
//   uint64_t h = chbench::HashString<chbench::Xxh3>("key-17");
//   uint64_t skip = chbench::HashString<chbench::Xxh3>("node-3", /*seed=*/1);
//
// Free helpers built on a policy:
//   HashString<H>(s, seed)     H over the bytes of s.
//   HashPair<H>(a, b)          H over the 16 little-endian bytes of (a, b):
//                              the rendezvous score h(key, node).
//   ToUnitInterval<H>(h)       (h + 0.5) / 2^kBits (64-bit: of the top 52
//                              bits), in the open interval (0, 1).
//
// Guarantees: every policy with kReproducible == true returns the same value
// for the same bytes and seed on every run and machine (little-endian reading
// of inputs is fixed, not native). The SMHasher verification value of each is
// pinned in the registry (hash/hash_registry.cc) and checked by
// hash/hash_function_test.cc.
//
// Not guaranteed: `absl_hash` is seeded per process; it exists to measure
// latency only and the runner refuses it where a result must be reproducible.
//
// Performance: every policy except `md5` is defined inline in this header
// (xxHash through XXH_INLINE_ALL, CRC-32 through constexpr slicing-by-8
// tables, murmur3 as a direct call into libmurmurhash), so hashing a key in a
// lookup costs no extra call layer. No policy allocates or locks.

#ifndef CHBENCH_ALGORITHMS_HASH_HASH_FUNCTION_H_
#define CHBENCH_ALGORITHMS_HASH_HASH_FUNCTION_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

// xxHash inlined into every unit (its functions become static inline with
// private names), as recommended for small keys by the xxHash documentation
// ("XXH_INLINE_ALL", xxhash.h).
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <murmurhash.h>
#include <xxhash.h>

namespace chbench {

// First 8 bytes of MD5 (RFC 1321), read big-endian, as in the seed articles
// (`int.from_bytes(md5(s).digest()[:8], "big")`). Seed s != 0 hashes the
// 8 little-endian bytes of s followed by the data; seed 0 hashes the data
// alone. Computed out of line by chbench's own MD5 (hash_function.cc; equal
// to OpenSSL's, tested), with no allocation.
struct Md5 {
  static constexpr std::string_view kName = "md5";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// XXH64 (xxHash 0.8, libxxhash header): XXH64(data, len, seed).
struct Xxh64 {
  static constexpr std::string_view kName = "xxh64";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// XXH3_64bits_withSeed (xxHash 0.8, libxxhash header). With seed 0 this
// equals XXH3_64bits(data, len).
struct Xxh3 {
  static constexpr std::string_view kName = "xxh3";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// MurmurHash3_x64_128 (libmurmurhash `lmmh_x64_128`), low 64 bits (first
// output word, out[0]). The seed is truncated to 32 bits as the function takes
// a 32-bit seed.
struct Murmur3_128 {
  static constexpr std::string_view kName = "murmur3_128";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// MurmurHash3_x86_32 (libmurmurhash `lmmh_x86_32`). The seed is truncated to
// 32 bits.
struct Murmur3_32 {
  static constexpr std::string_view kName = "murmur3_32";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// CRC-32 (IEEE 802.3 / CRC-32/ISO-HDLC: reflected polynomial 0xEDB88320,
// initial register 0xFFFFFFFF, final xor 0xFFFFFFFF), with zlib's seed
// convention: Hash(data, len, seed) == zlib's crc32(seed, data, len), where
// `seed` (truncated to 32 bits) is the CRC of the preceding bytes. Hence
// Hash(d, n, 0) is the standard CRC-32 (Hash("123456789") == 0xCBF43926) and
// Hash(b, |b|, Hash(a, |a|, 0)) == Hash(a ++ b, |a| + |b|, 0). This is also
// SMHasher's `crc32` (crc.cpp), so its verification value is 0x3719DB20.
// Weak by design: CRC is affine over GF(2), so for keys of one length the
// seeded forms differ by a constant xor (Hash(k, 1) ^ Hash(k, 0) is the same
// for every k of that length); seeds do not give independent functions.
struct Crc32 {
  static constexpr std::string_view kName = "crc32";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// FNV-1a 64-bit (offset basis 14695981039346656037, prime 1099511628211;
// Fowler, Noll, Vo, draft-eastlake-fnv); the seed is xored into the offset
// basis (seed 0 is plain FNV-1a), as SMHasher's FNV64a. Weak by design: low
// output bits depend only on low state bits, so seeded forms are correlated
// (bit 0 of Hash(k, 0) ^ Hash(k, 1) is 1 for every k).
struct Fnv1a {
  static constexpr std::string_view kName = "fnv1a";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
// INDOCRYPT 2012), 64-bit output, with the 128-bit key (k0, k1) = (seed, 0):
// Hash(data, len, s) == SipHash24(s, 0, data, len). This is how
// dgryski/go-mpchash's compat test and chbench's multiprobe oracle call it
// (`siphash.Hash(seed, 0, b)`), so multiprobe with this policy is bit-exact
// with go-mpchash. A keyed PRF, slower than the non-cryptographic policies
// (2 rounds per 8-byte word plus 4 final rounds).
struct SipHash {
  static constexpr std::string_view kName = "siphash";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// absl::HashOf(seed, absl::string_view(data, len)): absl::Hash over the seed
// and then the bytes. Seeded per process (absl mixes in the address of a
// global, which moves under ASLR): latency measurements only.
struct AbslHash {
  static constexpr std::string_view kName = "absl_hash";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = false;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

namespace hash_internal {

inline uint32_t LoadLe32(const unsigned char* p) {
  // Byte-wise little-endian read; compilers fold it into one load on
  // little-endian targets.
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

// Slicing-by-8 tables for the reflected CRC-32 polynomial 0xEDB88320
// (Kounavis and Berry, "A Systematic Approach to Building High Performance,
// Software-based, CRC Generators", ISCC 2005). Table 0 is the classic
// byte-at-a-time table (zlib's crc_table[0], e.g. entry 1 == 0x77073096);
// table k advances a byte through k further zero bytes.
using Crc32Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Crc32Tables MakeCrc32Tables() {
  Crc32Tables t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
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

inline constexpr Crc32Tables kCrc32Tables = MakeCrc32Tables();

inline uint64_t LoadLe64(const unsigned char* p) {
  if constexpr (std::endian::native == std::endian::little) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  } else {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
  }
}

// One SipRound (the paper's figure 2.1): two ARX half-rounds over the four
// state words.
inline void SipRound(uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3) {
  v0 += v1;
  v1 = std::rotl(v1, 13);
  v1 ^= v0;
  v0 = std::rotl(v0, 32);
  v2 += v3;
  v3 = std::rotl(v3, 16);
  v3 ^= v2;
  v0 += v3;
  v3 = std::rotl(v3, 21);
  v3 ^= v0;
  v2 += v1;
  v1 = std::rotl(v1, 17);
  v1 ^= v2;
  v2 = std::rotl(v2, 32);
}

}  // namespace hash_internal

// SipHash-2-4 of `len` bytes with the key (k0, k1), where k0 and k1 are the
// key's first and last 8 bytes read little-endian (the paper's section 2):
// the state starts as the key xored with "somepseudorandomlygeneratedbytes";
// each 8-byte little-endian word m is absorbed as v3 ^= m, 2 SipRounds,
// v0 ^= m; the last word holds the 0..7 remaining bytes and len mod 256 in
// its top byte; finalization is v2 ^= 0xff, 4 SipRounds, v0^v1^v2^v3.
inline uint64_t SipHash24(uint64_t k0, uint64_t k1, const void* data,
                          size_t len) {
  using hash_internal::SipRound;
  uint64_t v0 = k0 ^ 0x736f6d6570736575ull;  // "somepseu"
  uint64_t v1 = k1 ^ 0x646f72616e646f6dull;  // "dorandom"
  uint64_t v2 = k0 ^ 0x6c7967656e657261ull;  // "lygenera"
  uint64_t v3 = k1 ^ 0x7465646279746573ull;  // "tedbytes"
  const auto* p = static_cast<const unsigned char*>(data);
  const size_t words = len / 8;
  for (size_t w = 0; w < words; ++w) {
    const uint64_t m = hash_internal::LoadLe64(p + 8 * w);
    v3 ^= m;
    SipRound(v0, v1, v2, v3);
    SipRound(v0, v1, v2, v3);
    v0 ^= m;
  }
  uint64_t b = static_cast<uint64_t>(len & 0xFF) << 56;
  const unsigned char* tail = p + 8 * words;
  for (size_t i = 0; i < (len & 7); ++i) {
    b |= static_cast<uint64_t>(tail[i]) << (8 * i);
  }
  v3 ^= b;
  SipRound(v0, v1, v2, v3);
  SipRound(v0, v1, v2, v3);
  v0 ^= b;
  v2 ^= 0xFF;
  SipRound(v0, v1, v2, v3);
  SipRound(v0, v1, v2, v3);
  SipRound(v0, v1, v2, v3);
  SipRound(v0, v1, v2, v3);
  return v0 ^ v1 ^ v2 ^ v3;
}

inline uint64_t Xxh64::Hash(const void* data, size_t len, uint64_t seed) {
  return XXH64(data, len, seed);
}

inline uint64_t Xxh3::Hash(const void* data, size_t len, uint64_t seed) {
  return XXH3_64bits_withSeed(data, len, seed);
}

inline uint64_t Murmur3_128::Hash(const void* data, size_t len,
                                  uint64_t seed) {
  uint64_t out[2];
  lmmh_x64_128(data, static_cast<unsigned int>(len),
               static_cast<uint32_t>(seed), out);
  return out[0];
}

inline uint64_t Murmur3_32::Hash(const void* data, size_t len, uint64_t seed) {
  uint32_t out[1];
  lmmh_x86_32(data, static_cast<unsigned int>(len),
              static_cast<uint32_t>(seed), out);
  return out[0];
}

inline uint64_t Crc32::Hash(const void* data, size_t len, uint64_t seed) {
  const auto& t = hash_internal::kCrc32Tables;
  const auto* p = static_cast<const unsigned char*>(data);
  uint32_t crc = ~static_cast<uint32_t>(seed);
  while (len >= 8) {
    const uint32_t lo = hash_internal::LoadLe32(p) ^ crc;
    const uint32_t hi = hash_internal::LoadLe32(p + 4);
    crc = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^
          t[4][lo >> 24] ^ t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^
          t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
    p += 8;
    len -= 8;
  }
  while (len-- > 0) crc = t[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

inline uint64_t Fnv1a::Hash(const void* data, size_t len, uint64_t seed) {
  constexpr uint64_t kOffsetBasis = 14695981039346656037ull;
  constexpr uint64_t kPrime = 1099511628211ull;
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = kOffsetBasis ^ seed;
  for (size_t i = 0; i < len; ++i) {
    h ^= p[i];
    h *= kPrime;
  }
  return h;
}

inline uint64_t SipHash::Hash(const void* data, size_t len, uint64_t seed) {
  return SipHash24(seed, 0, data, len);
}

inline uint64_t AbslHash::Hash(const void* data, size_t len, uint64_t seed) {
  // The seed goes first so that every byte is mixed after it (with the seed
  // last, its final multiply-fold left seeds 0 and 1 correlated in the high
  // bits). absl::string_view: this absl build does not alias std::string_view.
  return absl::HashOf(
      seed, absl::string_view(static_cast<const char*>(data), len));
}

template <typename H>
inline uint64_t HashString(std::string_view s, uint64_t seed = 0) {
  return H::Hash(s.data(), s.size(), seed);
}

template <typename H>
inline uint64_t HashPair(uint64_t a, uint64_t b) {
  unsigned char buf[16];
  if constexpr (std::endian::native == std::endian::little) {
    // Two 8-byte stores: a byte-by-byte loop here made every rendezvous score
    // wait on a store-forwarding stall (~25 ns per node instead of ~4).
    std::memcpy(buf, &a, 8);
    std::memcpy(buf + 8, &b, 8);
  } else {
    for (int i = 0; i < 8; ++i) {
      buf[i] = static_cast<unsigned char>(a >> (8 * i));
      buf[8 + i] = static_cast<unsigned char>(b >> (8 * i));
    }
  }
  return H::Hash(buf, sizeof(buf), 0);
}

template <typename H>
inline double ToUnitInterval(uint64_t h) {
  // 64-bit outputs keep their top 52 bits so that x + 0.5 (x < 2^52) is
  // exact in a double's 53-bit significand and the result never rounds to
  // 1.0 (which would make ln(u) = 0): u lies in [2^-53, 1 - 2^-53]. With 53
  // bits, (2^53 - 1) + 0.5 would round (ties-to-even) to 2^53, i.e. u = 1.
  if constexpr (H::kBits == 64) {
    return (static_cast<double>(h >> 12) + 0.5) * 0x1p-52;
  } else {
    return (static_cast<double>(h) + 0.5) * 0x1p-32;
  }
}

// Calls f.template operator()<H>() for the policy named `name`; returns false
// if no policy has that name. The list below is the compile-time set of
// policies; keep it in step with the registry table.
template <typename F>
bool DispatchHash(std::string_view name, F&& f) {
  if (name == Md5::kName) return f.template operator()<Md5>(), true;
  if (name == Xxh64::kName) return f.template operator()<Xxh64>(), true;
  if (name == Xxh3::kName) return f.template operator()<Xxh3>(), true;
  if (name == Murmur3_128::kName)
    return f.template operator()<Murmur3_128>(), true;
  if (name == Murmur3_32::kName)
    return f.template operator()<Murmur3_32>(), true;
  if (name == Crc32::kName) return f.template operator()<Crc32>(), true;
  if (name == Fnv1a::kName) return f.template operator()<Fnv1a>(), true;
  if (name == AbslHash::kName) return f.template operator()<AbslHash>(), true;
  if (name == SipHash::kName) return f.template operator()<SipHash>(), true;
  return false;
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_HASH_HASH_FUNCTION_H_
