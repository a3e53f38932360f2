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
// Free helpers built on a policy:
//   HashString<H>(s, seed)     H over the bytes of s.
//   HashPair<H>(a, b)          H over the 16 little-endian bytes of (a, b):
//                              the rendezvous score h(key, node).
//   ToUnitInterval<H>(h)       (h + 0.5) / 2^kBits (64-bit: top 53 bits), in
//                              the open interval (0, 1).
//
// Guarantees: every policy with kReproducible == true returns the same value
// for the same bytes and seed on every run and machine (little-endian reading
// of inputs is fixed, not native). The SMHasher verification value of each is
// pinned in the registry (hash/hash_registry.cc) and checked by
// hash/hash_function_test.cc.
//
// Not guaranteed: `absl_hash` is seeded per process; it exists to measure
// latency only and the runner refuses it where a result must be reproducible.

#ifndef CHBENCH_ALGORITHMS_HASH_HASH_FUNCTION_H_
#define CHBENCH_ALGORITHMS_HASH_HASH_FUNCTION_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace chbench {

// First 8 bytes of MD5, read big-endian, as in the seed articles
// (`int.from_bytes(md5(s).digest()[:8], "big")`). Seed s != 0 hashes the
// 8 little-endian bytes of s followed by the data.
struct Md5 {
  static constexpr std::string_view kName = "md5";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// XXH64 (xxHash 0.8, libxxhash).
struct Xxh64 {
  static constexpr std::string_view kName = "xxh64";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// XXH3_64bits_withSeed (xxHash 0.8, libxxhash).
struct Xxh3 {
  static constexpr std::string_view kName = "xxh3";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// MurmurHash3_x64_128 (libmurmurhash), low 64 bits (first output word). The
// seed is truncated to 32 bits as the function takes a 32-bit seed.
struct Murmur3_128 {
  static constexpr std::string_view kName = "murmur3_128";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// MurmurHash3_x86_32 (libmurmurhash).
struct Murmur3_32 {
  static constexpr std::string_view kName = "murmur3_32";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib's crc32);
// the seed is the initial CRC value.
struct Crc32 {
  static constexpr std::string_view kName = "crc32";
  static constexpr int kBits = 32;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// FNV-1a 64-bit (offset basis 14695981039346656037, prime 1099511628211);
// a seed s != 0 is xored into the offset basis.
struct Fnv1a {
  static constexpr std::string_view kName = "fnv1a";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = true;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

// absl::Hash over the bytes, combined with the seed. Seeded per process:
// latency measurements only.
struct AbslHash {
  static constexpr std::string_view kName = "absl_hash";
  static constexpr int kBits = 64;
  static constexpr bool kReproducible = false;
  static uint64_t Hash(const void* data, size_t len, uint64_t seed);
};

template <typename H>
inline uint64_t HashString(std::string_view s, uint64_t seed = 0) {
  return H::Hash(s.data(), s.size(), seed);
}

template <typename H>
inline uint64_t HashPair(uint64_t a, uint64_t b) {
  unsigned char buf[16];
  for (int i = 0; i < 8; ++i) {
    buf[i] = static_cast<unsigned char>(a >> (8 * i));
    buf[8 + i] = static_cast<unsigned char>(b >> (8 * i));
  }
  return H::Hash(buf, sizeof(buf), 0);
}

template <typename H>
inline double ToUnitInterval(uint64_t h) {
  // 64-bit outputs keep their top 53 bits so that the sum is exact and the
  // result never rounds to 1.0 (which would make ln(u) = 0).
  if constexpr (H::kBits == 64) {
    return (static_cast<double>(h >> 11) + 0.5) * 0x1p-53;
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
  if (name == Murmur3_32::kName) return f.template operator()<Murmur3_32>(), true;
  if (name == Crc32::kName) return f.template operator()<Crc32>(), true;
  if (name == Fnv1a::kName) return f.template operator()<Fnv1a>(), true;
  if (name == AbslHash::kName) return f.template operator()<AbslHash>(), true;
  return false;
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_HASH_HASH_FUNCTION_H_
