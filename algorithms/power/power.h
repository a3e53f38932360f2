// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: power/power.h
// -----------------------------------------------------------------------------
//
// PowerCH (Eric Leu, "Power Consistent Hashing", arXiv:2307.12448, 2023),
// in the form of SUPSI-DTI-ISIN/java-consistent-hashing-algorithms'
// `PowerEngine` with the suite's default XXHash32. The paper's author
// published no code and leaves its two auxiliary hash functions open; the
// existing ports disagree, so "bit-exact" here is relative to that engine.
//
// Definition. `PowerHash(x, n)` maps a 64-bit key x to a bucket in [0, n).
// Let m be the smallest power of two >= n, m1 = m - 1 and m2 = m/2 - 1
// (32-bit two's complement, as Java ints).
//   * f(mx): the key's bucket when the range is [0, mx + 1) with mx + 1 a
//     power of two. kb = x & mx (low 32 bits); 0 if kb = 0; else, with h the
//     highest set bit of kb, h + (XXH32(BE64(x) || BE32(h), seed 0) & (h - 1)),
//     i.e. a uniform bucket in kb's power-of-two range [h, 2h).
//   * g(): a jump-hash walk that starts at candidate c = m2 and uses Guava's
//     LCG (state = x; state = 2862933555777941757 * state + 1;
//     u = ((int)(state >>> 33) + 1) / 2^31): next = (int)((c + 1) / u);
//     while 0 <= next < n, c = next; then g = c. Two Java details are
//     reproduced: the int addition wraps, so u = -1.0 when state >>> 33 is
//     2^31 - 1 (next is then negative and the walk stops), and the double ->
//     int cast saturates (a quotient >= 2^31 becomes 2^31 - 1, >= n: stop).
//   * Lookup: r1 = f(m1); if r1 < n, r1. Else r2 = g(); if r2 > m2, r2.
//     Else f(m2).
//
// `Power<H>` wraps the function as a `ConsistentHash`: bucket b is the b-th
// live node in id order (algorithms/range_buckets.h), so only the most
// recently added live node can be removed. The engine's addBucket and
// removeBucket keep m, m1, m2 equal to a fresh engine's, so they are
// recomputed from n.
//
// Guarantees:
//   * Bit-exact, relative to SUPSI-DTI-ISIN/java-consistent-hashing-
//     algorithms@68803f8 `PowerEngine` with commons-codec XXHash32 (seed 0)
//     as every byte hash, on the shared vectors: Lookup(x) with
//     Build("node-0".."node-(n-1)") returns node new PowerEngine(n, h)
//     .getBucket(key) where h.hash(key) returns x, the 64-bit key digest as
//     the Java long with the same bits (testdata/power_stable.tsv). The two
//     Java quirks do not occur in those rows; power_test.cc pins them with
//     constructed keys.
//   * Minimal disruption: growing n to n + 1 moves only keys to bucket n;
//     removing the last node restores the previous mapping.
//   * No weights (a weight other than 1 is rejected), no replicas.
//
// Complexity (N live nodes):
//   Lookup      O(1) expected: one XXH32 of 12 bytes (inlined) when
//               f(m1) < n, else an expected O(1) LCG walk (it starts at
//               m/2 - 1 >= (N - 1)/2, so few jumps stay below N) and
//               possibly a second XXH32; no memory access except the
//               bucket's id, read only once the ids are no longer 0..N-1
//               (BucketToId, node_table.h).
//   AddNode     O(1) amortized.   RemoveNode  O(1) (last node only).
//   Build       O(N).             Memory      4 bytes per live node (the
//                                             bucket -> id array) plus the
//                                             NodeTable.
//
// Example:
//   Power<Xxh64> power;
//   power.Build(nodes).IgnoreError();
//   NodeId owner = power.Lookup(power.HashKey("user:42"));
//   uint32_t bucket = PowerHash(0x1234, 10);  // in [0, 10)

#ifndef CHBENCH_ALGORITHMS_POWER_POWER_H_
#define CHBENCH_ALGORITHMS_POWER_POWER_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/range_buckets.h"

namespace chbench {
namespace power_internal {

// XXH32 (seed 0) of the 12 bytes BE64(x) || BE32(h), unrolled: xxHash's
// short-input path (length < 16) folds three 4-byte little-endian lanes into
// seed + PRIME32_5 + 12, then avalanches. power_test.cc checks it against
// libxxhash's XXH32 on the byte buffer.
inline uint32_t Xxh32LongInt(uint64_t x, uint32_t h) {
  constexpr uint32_t kP2 = 0x85EBCA77U, kP3 = 0xC2B2AE3DU, kP4 = 0x27D4EB2FU,
                     kP5 = 0x165667B1U;
  // The three lanes written out: as a loop over a local array, GCC kept the
  // array on the stack in the batched loop (LookupEachRestrict) and looped
  // over it, where the single-key loop had it in registers.
  uint32_t acc = kP5 + 12;
  acc += __builtin_bswap32(static_cast<uint32_t>(x >> 32)) * kP3;
  acc = std::rotl(acc, 17) * kP4;
  acc += __builtin_bswap32(static_cast<uint32_t>(x)) * kP3;
  acc = std::rotl(acc, 17) * kP4;
  acc += __builtin_bswap32(h) * kP3;
  acc = std::rotl(acc, 17) * kP4;
  acc ^= acc >> 15;
  acc *= kP2;
  acc ^= acc >> 13;
  acc *= kP3;
  acc ^= acc >> 16;
  return acc;
}

// f(mx) for mx = 2^k - 1 (k <= 30).
inline uint32_t F(uint64_t x, uint32_t mx) {
  const uint32_t kb = static_cast<uint32_t>(x) & mx;
  if (kb == 0) return 0;
  const uint32_t h = std::bit_floor(kb);
  return h + (Xxh32LongInt(x, h) & (h - 1));
}

// g() for 2 <= n <= 2^30, start = m2 < n.
inline uint32_t G(uint64_t x, uint32_t n, uint32_t start) {
  uint64_t state = x;
  uint32_t c = start;
  const double limit = static_cast<double>(n);
  for (;;) {
    state = 2862933555777941757ULL * state + 1;
    const uint32_t k = static_cast<uint32_t>(state >> 33);  // < 2^31
    // Java's (int)k + 1 wraps to -2^31 here: u = -1, next < 0, stop.
    if (k == 0x7FFFFFFFU) [[unlikely]]
      return c;
    const double u = static_cast<double>(k + 1) / 0x1p31;  // exact
    const double q = static_cast<double>(c + 1) / u;       // >= c + 1 > 0
    // (int)q < n, with Java's saturating cast, is q < n for q >= 0.
    if (!(q < limit)) return c;
    c = static_cast<uint32_t>(q);
  }
}

// The per-n constants: m1 = m - 1, m2 = m/2 - 1 (as 32-bit two's
// complement: 0xFFFFFFFF for n = 1, where it is never read).
struct Range {
  uint32_t n;
  uint32_t m1;
  uint32_t m2;
};

inline Range MakeRange(uint32_t n) {
  const uint32_t m = n == 0 ? 0 : std::bit_ceil(n);
  return {n, m - 1, (m >> 1) - 1};
}

// Precondition: 1 <= r.n <= 2^30.
inline uint32_t Bucket(uint64_t x, const Range& r) {
  const uint32_t r1 = F(x, r.m1);
  if (r1 < r.n) [[likely]]
    return r1;
  const uint32_t r2 = G(x, r.n, r.m2);
  if (r2 > r.m2) return r2;
  return F(x, r.m2);
}

}  // namespace power_internal

// PowerEngine(n).getBucket with the key's hash = x, for 1 <= n <= 2^30.
inline uint32_t PowerHash(uint64_t x, uint32_t n) {
  return power_internal::Bucket(x, power_internal::MakeRange(n));
}

inline constexpr Capabilities kPowerCapabilities = {
    .arbitrary_removal = false,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
};

// The RangeHash policy (algorithms/range_buckets.h).
struct PowerPolicy {
  static constexpr const char* kName = "power";
  static constexpr size_t kMaxNodes = size_t{1} << 30;
  static constexpr const char* kLimitReason = "its m, the power of two >= n, is a Java int";
  static constexpr Capabilities kCapabilities = kPowerCapabilities;
  using Range = power_internal::Range;
  static Range MakeRange(size_t n) { return power_internal::MakeRange(static_cast<uint32_t>(n)); }
  static uint64_t Bucket(uint64_t x, const Range& r) {
    return power_internal::Bucket(x, r);
  }
};

// The registry's "power": bucket b is the b-th live node; only the last
// node can be removed (RangeHash, algorithms/range_buckets.h).
template <typename H>
using Power = RangeHash<PowerPolicy, H>;

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakePower(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_POWER_POWER_H_
