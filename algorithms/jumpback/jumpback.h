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
//               plus the bucket -> id step (a load once the ids are no
//               longer 0..N-1; BucketToId). When N is more than 1/8
//               below the next power of two, the first two random values are
//               always computed and the likely outcomes picked without
//               branches (WalkSpeculative): the outcome is a coin flip there,
//               and mispredicted branches, not arithmetic, cost the time.
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

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/attributes.h"
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

// The backward walk, one step at a time. Preconditions: n <= 2^31 - 1,
// mask == RangeMask(n). (The lookup's functions are always-inline: next to
// WalkSpeculative, GCC would otherwise call WalkLoop, which made a lookup
// 3.6 times slower at n = 10^6 with the suite's id load.)
template <typename Stream>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint32_t WalkLoop(uint64_t x, uint32_t n,
                                                      uint32_t mask) {
  Stream stream(x);
  const uint64_t r0 = stream.First();
  uint32_t m = static_cast<uint32_t>(r0 ^ (r0 >> 32)) & mask;
  // Which half of r0 gives the first candidate: the high one while
  // popcount(m) is odd (a shift by 0 or 32, never 64). Clearing one bit of m
  // per round flips the parity.
  uint32_t odd = static_cast<uint32_t>(__builtin_parity(m));
  while (m != 0) {
    const uint32_t lo = uint32_t{1} << (31 ^ std::countl_zero(m));
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

// c ? a : b as arithmetic, so that GCC cannot turn it back into a branch.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint32_t Select(bool c, uint32_t a,
                                                    uint32_t b) {
  return b ^ ((a ^ b) & (uint32_t{0} - static_cast<uint32_t>(c)));
}

// The candidate of m's top set bit lo: lo plus the bits of `half` below lo.
// Without a test: 0 for m == 0 (lo and the bits below it both 0).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint32_t Candidate(uint32_t m,
                                                       uint32_t half) {
  const uint32_t below = (uint32_t{1} << (31 ^ std::countl_zero(m | 1))) - 1;
  return ((below + 1) & m) + (half & below);
}

// WalkSpeculative's rare tail, when top is in m and c_top, b1 and b2 are all
// >= n (or n == 0, where c_low == 0 ends it): the stream's next values, each
// one's low then high 32 bits masked to `mask`, until a draw is < n; c_low if
// that draw is < top. Out of line, so that the inlined lookup stays small.
template <typename Stream>
[[gnu::noinline]] uint32_t DrawOn(Stream stream, uint32_t n, uint32_t mask,
                                  uint32_t c_low) {
  const uint32_t top = (mask >> 1) + 1;
  const uint32_t end = std::max(n, top);  // n, except 1 for n == 0
  for (;;) {
    // Both draws of a value at once, as in WalkSpeculative: near n = 2^k + 1
    // each is a coin flip, and only both >= n (1 in 4) loops.
    const uint64_t r = stream.Next();
    const uint32_t b1 = static_cast<uint32_t>(r) & mask;
    const uint32_t b2 = static_cast<uint32_t>(r >> 32) & mask;
    const uint32_t b = Select(b1 < end, b1, b2);
    if (b < end) return Select(b < top, c_low, b);
  }
}

// The walk with its likely outcomes computed up front and picked without
// branches; equal to WalkLoop. Let top = (mask + 1) / 2, the highest bit m
// can have, and m_low = m without it. Only top's candidate c_top can be >= n;
// below top the walk always ends at c_low, the candidate of m_low's top bit
// (in range, and 0 for m_low == 0), whose half of r0 is the one popcount(m_low)
// selects; when top is in m, popcount(m) has the other parity, so c_top takes
// the other half. The answer is the first of c_top (if top is in m), then the
// first stream value's draws b1 (low 32 bits) and b2 (high 32 bits), masked
// to `mask`, that is < n, with c_low for a draw < top; c_low if top is not in
// m. Only when c_top, b1 and b2 are all >= n (at most 1 in 8 lookups, for n
// just above a power of two) does a branch go to DrawOn. Same preconditions
// as WalkLoop.
template <typename Stream>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint32_t WalkSpeculative(uint64_t x,
                                                             uint32_t n,
                                                             uint32_t mask) {
  Stream stream(x);
  const uint64_t r0 = stream.First();
  const uint32_t low_bits = mask >> 1;  // top - 1
  const uint32_t top = low_bits + 1;    // 1 for mask == 0: never in m
  const uint32_t m = static_cast<uint32_t>(r0 ^ (r0 >> 32)) & mask;
  const uint32_t m_low = m & low_bits;
  // r0 rotated by 32 when popcount(m_low) is odd: c_low's half below, c_top's
  // above.
  const uint64_t halves =
      std::rotr(r0, static_cast<int>(__builtin_parity(m_low)) << 5);
  const uint32_t c_low = Candidate(m_low, static_cast<uint32_t>(halves));
  // c_top when top is in m; else < top, which stands for c_low below.
  const uint32_t c_top =
      (m & top) + (static_cast<uint32_t>(halves >> 32) & low_bits);
  const uint64_t r1 = stream.Next();
  const uint32_t b1 = static_cast<uint32_t>(r1) & mask;
  const uint32_t b2 = static_cast<uint32_t>(r1 >> 32) & mask;
  // The first of c_top, b1, b2 that is < n; a value < top stands for c_low.
  // If none is < n, v = b2 >= n.
  uint32_t v = Select(c_top < n, c_top, Select(b1 < n, b1, b2));
  v = Select(v < top, c_low, v);
  if (v < n) [[likely]]
    return v;
  return DrawOn(stream, n, mask, c_low);
}

// The lookup. Whether the first candidate is in range is a coin flip the
// branch predictor cannot learn when n is well below the next power of two:
// c_top is out of range for a fraction (mask + 1 - n) / (mask + 1) of the keys
// (0.375 for n = 10, 0.39 for n = 10^4), and WalkLoop's branches then cost
// more than WalkSpeculative's extra work (13 vs 7 ns at n = 10 on a 2026 AMD
// EPYC; the two are equal near 1/8). Below 1/8 (n = 1000: 0.023), WalkLoop's
// well-predicted branches are the cheaper (3.5 vs 6 ns). The test depends on
// n only, so it is predicted.
template <typename Stream>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint32_t Walk(uint64_t x, uint32_t n,
                                                  uint32_t mask) {
  if (mask + 1 - n > mask >> 3) {
    return WalkSpeculative<Stream>(x, n, mask);
  }
  return WalkLoop<Stream>(x, n, mask);
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
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint64_t Bucket(uint64_t x,
                                                      const Range& r) {
    return jumpback_internal::Walk<jumpback_internal::SplitMix64Stream>(x, r.n,
                                                                        r.mask);
  }
};

// The registry's "jumpback": bucket b is the b-th live node; only the last
// node can be removed (RangeHash, algorithms/range_buckets.h).
template <typename H>
using JumpBack = RangeHash<JumpBackPolicy, H>;

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeJumpBack(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_JUMPBACK_JUMPBACK_H_
