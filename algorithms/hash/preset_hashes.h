// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: hash/preset_hashes.h
// -----------------------------------------------------------------------------
//
// The key hashes of production systems, as the presets (algorithms/presets/)
// need them bit for bit, including their known quirks. Each is a policy like
// those of hash_function.h (kName, kBits, Hash(data, len, seed)) and has a row
// with a pinned SMHasher-style verification value in the preset-hash part of
// the hash registry (PresetHashFunctions(), hash/hash_registry.h). They are
// not offered as the `hash` of the generic algorithms: each exists to
// reproduce one system.
//
// Sources (read for the definitions; checked by make verify-presets):
//   oaat_libhashkit     libmemcached 1.1.4 libhashkit/one_at_a_time.cc
//   md5_le32            libmemcached/twemproxy/hashring `ketama` key hash
//   fnv1a_64_twemproxy  twemproxy 0.5.0 hashkit/nc_fnv.c hash_fnv1a_64
//   sdbm, djb2          HAProxy 2.6 src/hash.c
//   haproxy_avalanche   HAProxy 2.6 include/haproxy/intops.h full_hash
//   murmur3_cassandra   Cassandra utils/MurmurHash.hash3_x64_128 (h1)
//
// Seeds: where a function has an initial state, `seed` is xored into it
// (seed 0 gives the system's function); md5_le32 prefixes a non-zero seed's 8
// little-endian bytes as the md5 policy does.
//
// Quirks kept on purpose (each pinned by a test with a byte >= 0x80):
//   * oaat_libhashkit and fnv1a_64_twemproxy read the key as C `char`, which
//     is signed on x86: bytes >= 0x80 are sign-extended before mixing.
//   * fnv1a_64_twemproxy is 32-bit: the low halves of the FNV-64 offset basis
//     (0x84222325) and prime (0x1b3) in uint32 arithmetic.
//   * murmur3_cassandra widens the tail bytes (len mod 16) as Java `byte`,
//     i.e. sign-extended; the 16-byte blocks are read as standard murmur3.

#ifndef CHBENCH_ALGORITHMS_HASH_PRESET_HASHES_H_
#define CHBENCH_ALGORITHMS_HASH_PRESET_HASHES_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "algorithms/hash/hash_function.h"

namespace chbench {

// The 16-byte MD5 digest of seed-prefix ++ data (seed as in Md5::Hash).
std::array<unsigned char, 16> Md5Digest(const void* data, size_t len,
                                        uint64_t seed = 0);

namespace md5_internal {
// MD5 (RFC 1321) of prefix ++ data, with no allocation: what Md5Digest
// computes (hash_function.cc). Exposed for the test against OpenSSL.
std::array<unsigned char, 16> Digest(const unsigned char* prefix,
                                     size_t prefix_len, const void* data,
                                     size_t len);
}  // namespace md5_internal

// Bytes 4j..4j+3 of a 16-byte digest, little-endian (ketama's points).
inline uint32_t DigestLe32(const std::array<unsigned char, 16>& d, int j) {
  return hash_internal::LoadLe32(d.data() + 4 * j);
}

// Jenkins one-at-a-time as libhashkit computes it (signed char input).
struct OaatLibhashkit {
  static constexpr std::string_view kName = "oaat_libhashkit";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed) {
    const auto* p = static_cast<const signed char*>(data);
    uint32_t v = static_cast<uint32_t>(seed);
    for (size_t i = 0; i < len; ++i) {
      v += static_cast<uint32_t>(static_cast<int32_t>(p[i]));
      v += v << 10;
      v ^= v >> 6;
    }
    v += v << 3;
    v ^= v >> 11;
    v += v << 15;
    return v;
  }
};

// le32(md5(data), 0): the first four digest bytes, little-endian.
struct Md5Le32 {
  static constexpr std::string_view kName = "md5_le32";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed) {
    return DigestLe32(Md5Digest(data, len, seed), 0);
  }
};

// twemproxy's `fnv1a_64`: 32-bit FNV-1a with the truncated 64-bit constants,
// signed chars.
struct Fnv1a64Twemproxy {
  static constexpr std::string_view kName = "fnv1a_64_twemproxy";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed) {
    const auto* p = static_cast<const signed char*>(data);
    uint32_t h = 0x84222325u ^ static_cast<uint32_t>(seed);
    for (size_t i = 0; i < len; ++i) {
      h ^= static_cast<uint32_t>(static_cast<int32_t>(p[i]));
      h *= 0x1b3u;
    }
    return h;
  }
};

// HAProxy's full_hash: Bob Jenkins' 32-bit integer hash, then * 3221225473.
inline uint32_t HaproxyFullHash(uint32_t a) {
  a = (a + 0x7ed55d16u) + (a << 12);
  a = (a ^ 0xc761c23cu) ^ (a >> 19);
  a = (a + 0x165667b1u) + (a << 5);
  a = (a + 0xd3a2646cu) ^ (a << 9);
  a = (a + 0xfd7046c5u) + (a << 3);
  a = (a ^ 0xb55a4f09u) ^ (a >> 16);
  return a * 3221225473u;
}

// HAProxy's sdbm: h = c + (h << 6) + (h << 16) - h over unsigned bytes.
struct Sdbm {
  static constexpr std::string_view kName = "sdbm";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed) {
    const auto* p = static_cast<const unsigned char*>(data);
    uint32_t h = static_cast<uint32_t>(seed);
    for (size_t i = 0; i < len; ++i) h = p[i] + (h << 6) + (h << 16) - h;
    return h;
  }
};

// HAProxy's djb2: h = h * 33 + c from 5381, unsigned bytes.
struct Djb2 {
  static constexpr std::string_view kName = "djb2";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed) {
    const auto* p = static_cast<const unsigned char*>(data);
    uint32_t h = 5381u ^ static_cast<uint32_t>(seed);
    for (size_t i = 0; i < len; ++i) h = (h << 5) + h + p[i];
    return h;
  }
};

// HAProxy's plain `hash-type consistent`: full_hash(sdbm(key)).
struct SdbmAvalanche {
  static constexpr std::string_view kName = "sdbm_avalanche";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed) {
    return HaproxyFullHash(static_cast<uint32_t>(Sdbm::Hash(data, len, seed)));
  }
};

// h1 of MurmurHash3_x64_128 (seed = the 32-bit murmur seed, 0 in Cassandra)
// with Cassandra's sign-extended tail bytes, as the uint64 bits of the
// int64 token.
struct Murmur3Cassandra {
  static constexpr std::string_view kName = "murmur3_cassandra";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

namespace hash_internal {
inline uint64_t Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}
}  // namespace hash_internal

inline uint64_t Murmur3Cassandra::Hash(const void* data, size_t len,
                                       uint64_t seed) {
  using hash_internal::Fmix64;
  using hash_internal::LoadLe64;
  constexpr uint64_t c1 = 0x87c37b91114253d5ull;
  constexpr uint64_t c2 = 0x4cf5ad432745937full;
  const auto* p = static_cast<const unsigned char*>(data);
  const size_t blocks = len / 16;
  uint64_t h1 = static_cast<uint32_t>(seed);
  uint64_t h2 = static_cast<uint32_t>(seed);
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k1 = LoadLe64(p + 16 * i);
    uint64_t k2 = LoadLe64(p + 16 * i + 8);
    k1 *= c1;
    k1 = std::rotl(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 = std::rotl(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= c2;
    k2 = std::rotl(k2, 33);
    k2 *= c1;
    h2 ^= k2;
    h2 = std::rotl(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  // Tail: Java widens each byte with sign (the Cassandra quirk).
  const auto* tail = reinterpret_cast<const signed char*>(p + 16 * blocks);
  const size_t rest = len & 15;
  auto b = [&](size_t i) {
    return static_cast<uint64_t>(static_cast<int64_t>(tail[i]));
  };
  uint64_t k1 = 0;
  uint64_t k2 = 0;
  for (size_t i = rest; i > 8; --i) k2 ^= b(i - 1) << (8 * (i - 9));
  if (rest > 8) {
    k2 *= c2;
    k2 = std::rotl(k2, 33);
    k2 *= c1;
    h2 ^= k2;
  }
  for (size_t i = rest < 8 ? rest : 8; i > 0; --i) k1 ^= b(i - 1) << (8 * (i - 1));
  if (rest > 0) {
    k1 *= c1;
    k1 = std::rotl(k1, 31);
    k1 *= c2;
    h1 ^= k1;
  }
  h1 ^= len;
  h2 ^= len;
  h1 += h2;
  h2 += h1;
  h1 = Fmix64(h1);
  h2 = Fmix64(h2);
  h1 += h2;
  return h1;
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_HASH_PRESET_HASHES_H_
