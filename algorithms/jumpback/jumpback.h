// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: jumpback/jumpback.h
// -----------------------------------------------------------------------------
//
// JumpBackHash (Otmar Ertl, "JumpBackHash: Say Goodbye to the Modulo Operation
// to Distribute Keys Uniformly to Buckets", arXiv:2403.18682; Software:
// Practice and Experience 55(3), 2025). Reference implementation:
// dynatrace-oss/hash4j, ConsistentHashing.jumpBackHash(splitMix64_V1()).
//
// Definition. `JumpBackHashSplitMix64(x, n)` maps a 64-bit key x to a bucket
// in [0, n). Jump hash walks *forward* from bucket 0 through the buckets where
// a key would move as n grows; JumpBackHash walks *backward* from the largest
// possible bucket and stops at the first one that exists, so the walk is
// short whatever n is. The key seeds a stream of 64-bit random values r0, r1,
// ... (here SplitMix64 started at state x: r_j is the SplitMix64 output
// function of x + (j + 1) * 0x9E3779B97F4A7C15). The buckets are grouped in
// power-of-two ranges [2^k, 2^(k+1)); bit k of m = (the two 32-bit halves of
// r0 xor-ed) says whether the key's last move happened inside range k, for
// every k below the bit length of n - 1. From the highest set bit of m down:
//   * the key's candidate in that range is 2^k plus k low bits of one half of
//     r0 (the high half when popcount(m) is odd, the low half when even, as
//     hash4j's shift by popcount * 32 behaves under Java's shift masking);
//     if the candidate is < n, it is the answer;
//   * otherwise the move was to a bucket >= n, so fresh values from the
//     stream are drawn, their low then high 32 bits masked to k + 1 bits: a
//     value below 2^k means there was no earlier move in range k (go to the
//     next set bit of m); a value in [2^k, n) is the answer.
// No set bit left means bucket 0.
//
// `JumpBackHashXorshift(x, n)` is the same walk with hash4j's cheaper
// generator (jumpBackHashXorshiftL7R9: r0 = x, then v ^= v << 7; v ^= v >> 9).
// It gives different buckets; the registry algorithm uses SplitMix64.
//
// `JumpBack<H>` wraps the SplitMix64 function as a `ConsistentHash`: bucket b
// is the b-th live node in id order (algorithms/range_buckets.h), so only the
// most recently added live node can be removed.
//
// Guarantees:
//   * Bit-exact with dynatrace-oss/hash4j@41d814f (lookup logic unchanged
//     since v0.17.0, the version SUPSI's JumpBackEngine calls) on the shared
//     vectors: Lookup(x) with Build("node-0".."node-(n-1)") returns node
//     jumpBackHash(splitMix64_V1()).getBucket(x, n), x being the 64-bit key
//     digest taken as the Java long with the same bits (testdata/
//     jumpback_splitmix64_stable.tsv); the xorshift function matches
//     jumpBackHashXorshiftL7R9() (testdata/jumpback_xorshift_stable.tsv).
//   * Minimal disruption: growing n to n + 1 moves only keys to bucket n, and
//     removing the last node restores the mapping from before it was added.
//   * Uniform: each bucket gets a fraction 1/n of uniform keys.
//   * No weights (a weight other than 1 is rejected), no replicas.
//
// Complexity (N live nodes):
//   Lookup      O(1) expected: 1 + Bernoulli * Geometric random values, with a
//               bound independent of N (the paper); integer operations only,
//               plus one load of the bucket's id.
//   AddNode     O(1) amortized.   RemoveNode  O(1) (last node only).
//   Build       O(N).             Memory      4 bytes per live node (the
//                                             bucket -> id array) plus the
//                                             NodeTable.
//
// Example:
//   JumpBack<Xxh64> jb;
//   jb.Build(nodes).IgnoreError();
//   NodeId owner = jb.Lookup(jb.HashKey("user:42"));
//   uint32_t bucket = JumpBackHashSplitMix64(0x1234, 10);  // in [0, 10)

#ifndef CHBENCH_ALGORITHMS_JUMPBACK_JUMPBACK_H_
#define CHBENCH_ALGORITHMS_JUMPBACK_JUMPBACK_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
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
namespace jumpback_internal {

inline constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;

// SplitMix64's output function (Steele, Lea & Flood, OOPSLA 2014).
inline uint64_t SplitMix64Output(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The two random streams, as (first value, next value) pairs.
struct SplitMix64Stream {
  explicit SplitMix64Stream(uint64_t x) : state(x + kGoldenGamma) {}
  uint64_t First() const { return SplitMix64Output(state); }
  uint64_t Next() {
    state += kGoldenGamma;
    return SplitMix64Output(state);
  }
  uint64_t state;
};

struct XorshiftL7R9Stream {
  explicit XorshiftL7R9Stream(uint64_t x) : v(x) {}
  uint64_t First() const { return v; }
  uint64_t Next() {
    v ^= v << 7;
    v ^= v >> 9;
    return v;
  }
  uint64_t v;
};

// The mask of n - 1's bit length: 0xFFFFFFFF >> nlz32(n - 1); 0 for n <= 1,
// which makes Walk return 0 without a separate test.
inline uint32_t RangeMask(uint32_t n) {
  return n <= 1 ? 0 : ~uint32_t{0} >> std::countl_zero(n - 1);
}

// The per-n constants of a lookup.
struct Range {
  uint32_t n;
  uint32_t mask;  // RangeMask(n)
};

inline Range MakeRange(size_t n) {
  const uint32_t n32 = static_cast<uint32_t>(n);
  return Range{n32, RangeMask(n32)};
}

// The backward walk. Preconditions: n <= 2^31 - 1, mask == RangeMask(n).
template <typename Stream>
inline uint32_t Walk(uint64_t x, uint32_t n, uint32_t mask) {
  Stream stream(x);
  const uint64_t r0 = stream.First();
  uint32_t m = static_cast<uint32_t>(r0 ^ (r0 >> 32)) & mask;
  // Which half of r0 gives the first candidate: the high one while
  // popcount(m) is odd (a shift by 0 or 32, never 64). Clearing one bit of m
  // per round flips the parity.
  uint32_t odd = static_cast<uint32_t>(__builtin_parity(m));
  while (m != 0) {
    const uint32_t lo = uint32_t{1} << (31 - std::countl_zero(m));
    const uint32_t half = static_cast<uint32_t>(r0 >> (odd << 5));
    const uint32_t first = lo + (half & (lo - 1));
    if (first < n) return first;
    const uint32_t range = (lo << 1) - 1;  // lo <= 2^30: no overflow
    for (;;) {
      const uint64_t r = stream.Next();
      uint32_t b = static_cast<uint32_t>(r) & range;
      if (b < lo) break;
      if (b < n) return b;
      b = static_cast<uint32_t>(r >> 32) & range;
      if (b < lo) break;
      if (b < n) return b;
    }
    m ^= lo;
    odd ^= 1;
  }
  return 0;
}

}  // namespace jumpback_internal

// hash4j's jumpBackHash(splitMix64_V1()).getBucket(x, n) for 1 <= n <= 2^31-1
// (returns 0 for n <= 1).
inline uint32_t JumpBackHashSplitMix64(uint64_t x, uint32_t n) {
  return jumpback_internal::Walk<jumpback_internal::SplitMix64Stream>(
      x, n, jumpback_internal::RangeMask(n));
}

// hash4j's jumpBackHashXorshiftL7R9().getBucket(x, n), same domain.
inline uint32_t JumpBackHashXorshift(uint64_t x, uint32_t n) {
  return jumpback_internal::Walk<jumpback_internal::XorshiftL7R9Stream>(
      x, n, jumpback_internal::RangeMask(n));
}

inline constexpr Capabilities kJumpBackCapabilities = {
    .arbitrary_removal = false,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
};

// The RangeHash policy (algorithms/range_buckets.h).
struct JumpBackPolicy {
  static constexpr const char* kName = "jumpback";
  static constexpr size_t kMaxNodes = std::numeric_limits<int32_t>::max();
  static constexpr const char* kLimitReason = "Java int bucket count";
  static constexpr Capabilities kCapabilities = kJumpBackCapabilities;
  using Range = jumpback_internal::Range;
  static Range MakeRange(size_t n) { return jumpback_internal::MakeRange(n); }
  static uint64_t Bucket(uint64_t x, const Range& r) {
    return jumpback_internal::Walk<jumpback_internal::SplitMix64Stream>(x, r.n, r.mask);
  }
};

// The registry's "jumpback": bucket b is the b-th live node; only the last
// node can be removed (RangeHash, algorithms/range_buckets.h).
template <typename H>
using JumpBack = RangeHash<JumpBackPolicy, H>;

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
inline absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeJumpBack(
    const AlgorithmParams& params) {
  return MakeRangeHash<JumpBackPolicy>(params);
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_JUMPBACK_JUMPBACK_H_
