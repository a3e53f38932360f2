// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: flip/flip.h
// -----------------------------------------------------------------------------
//
// FlipHash (Charles Masson and Homin K. Lee, Datadog, "FlipHash: A Constant-
// Time Consistent Range-Hashing Algorithm", arXiv:2402.17549, 2024).
// Reference implementation: DataDog/fliphash-rs, crate `fliphash` 0.1.0,
// `fliphash_64(key, ..=n-1)` with seed 0.
//
// Definition. `FlipHash(x, n)` maps a 64-bit key x to a bucket in [0, n). All
// randomness comes from one keyed mixer, H(x, a, i) (64-bit wrapping
// arithmetic): k = x * (2a + 1); k = (k ^ k >> 27) * 0x3C79AC492BA7B653;
// k *= 2i + 1; k = (k ^ k >> 33) * 0x1C69B3F74AC4AE35; return k ^ k >> 27.
//   * Power-of-two ranges first. For a range [0, 2^b), take m = H(x, 0, 0)
//     masked to b bits; if m != 0, flip the bits of m below its top bit t with
//     H(x, t, 0). This "pow2" answer is consistent as b grows: a key moves
//     only into the new upper half.
//   * General n, with e = n - 1 and b = bit length of e: the pow2 answer for
//     2^b buckets is kept if it is <= e. Otherwise (the key sits in the
//     missing part of the upper half) up to 64 draws d_i = H(x, floor(log2 e),
//     i) masked to b bits decide: a draw in the lower half ends the loop, a
//     draw in [2^(b-1), e] is the answer. After the loop the key takes its
//     pow2 answer for the lower half, 2^(b-1) buckets.
//
// `Flip<H>` wraps the function as a `ConsistentHash`: bucket b is the b-th
// live node in id order (algorithms/range_buckets.h), so only the most
// recently added live node can be removed.
//
// Guarantees:
//   * Bit-exact with DataDog/fliphash-rs@00c0ad0 on the shared vectors:
//     Lookup(x) with Build("node-0".."node-(n-1)") returns node
//     fliphash_64(x, ..=n-1), x being the 64-bit key digest
//     (testdata/flip_stable.tsv). (SUPSI's Java FlipEngine is a different
//     function: it draws with another hash and parameter.)
//   * Minimal disruption (monotone): growing n to n + 1 moves only keys to
//     bucket n; removing the last node restores the previous mapping.
//   * Uniform over [0, n) up to the 2^-64 chance of exhausting the draws.
//   * No weights (a weight other than 1 is rejected), no replicas.
//
// Complexity (N live nodes):
//   Lookup      O(1) expected: 2 mixes when the pow2 answer is in range (more
//               than half the keys), fewer than 2 draws on average otherwise,
//               at most 64 draws + 3 mixes; no memory access except the
//               bucket's id, read only once the ids are no longer 0..N-1
//               (BucketToId, node_table.h). When N is more than 1/8 below the
//               next power of two, the lower half's answer and the first two
//               draws are always computed and the likely outcomes picked
//               without branches (BucketSpeculative): the outcome is a coin
//               flip there, and mispredicted branches, not arithmetic, cost the
//               time.
//   AddNode     O(1) amortized.   RemoveNode  O(1) (last node only).
//   Build       O(N).             Memory      4 bytes per live node (the
//                                             bucket -> id array) plus the
//                                             NodeTable.
//
// Example:
//   Flip<Xxh64> flip;
//   flip.Build(nodes).IgnoreError();
//   NodeId owner = flip.Lookup(flip.HashKey("user:42"));
//   uint64_t bucket = FlipHash(0x1234, 10);  // in [0, 10)

#ifndef CHBENCH_ALGORITHMS_FLIP_FLIP_H_
#define CHBENCH_ALGORITHMS_FLIP_FLIP_H_

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
namespace flip_internal {

// H(x, a, i) with its two odd multipliers passed ready-made: a_mul = 2a + 1,
// i_mul = 2i + 1 (seed 0), in two halves: MixA depends on a only, so draws
// and flips with the same a share it. (The helpers of a lookup are
// always-inline: in a larger caller, GCC would otherwise call them, which
// costs ~10 % at n = 1000.)
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t MixA(uint64_t x, uint64_t a_mul) {
  const uint64_t k = x * a_mul;
  return (k ^ (k >> 27)) * 0x3C79AC492BA7B653ULL;
}

ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t MixI(uint64_t ka, uint64_t i_mul) {
  uint64_t k = ka * i_mul;
  k = (k ^ (k >> 33)) * 0x1C69B3F74AC4AE35ULL;
  return k ^ (k >> 27);
}

ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t Mix(uint64_t x, uint64_t a_mul,
                                                 uint64_t i_mul) {
  return MixI(MixA(x, a_mul), i_mul);
}

// The pow2 answer for the range [0, mask]: m = hash & mask with the bits
// below its top bit t flipped by H(x, t, 0). Branch-free: for m = 0 (and
// m = 1) t is 0 and nothing is flipped.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t Pow2(uint64_t x, uint64_t hash,
                                                  uint64_t mask) {
  const uint64_t m = hash & mask;
  // 63 - countl_zero, written with ^ (the same for 0..63) so that GCC emits
  // one bsr.
  const int t = 63 ^ std::countl_zero(m | 1);
  const uint64_t below = (uint64_t{1} << t) - 1;
  return m ^ (Mix(x, 2 * static_cast<uint64_t>(t) + 1, 1) & below);
}

// The per-n constants of a lookup.
struct Range {
  uint64_t last;      // e = n - 1
  uint64_t mask;      // 2^bitlen(e) - 1 (0 for n <= 1)
  uint64_t draw_mul;  // 2 * floor(log2 e) + 1, the draws' a multiplier
};

inline Range MakeRange(uint64_t n) {
  Range r{n == 0 ? 0 : n - 1, 0, 1};
  if (r.last != 0) {
    r.mask = ~uint64_t{0} >> std::countl_zero(r.last);
    r.draw_mul = 2 * static_cast<uint64_t>(63 - std::countl_zero(r.last)) + 1;
  }
  return r;
}

// c ? a : b as arithmetic, so that GCC cannot turn it back into a branch.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t Select(bool c, uint64_t a,
                                                    uint64_t b) {
  return b ^ ((a ^ b) & (uint64_t{0} - static_cast<uint64_t>(c)));
}

// The draws d_i for i = i_mul / 2 .. 64 (i_mul = 2i + 1, i odd), given ka =
// MixA(x, draw_mul): the first draw <= e if it is in [lower + 1, e], else
// `low_answer` (also when no draw is left). Two draws at a time, picked
// without branches: near n = 2^k + 1 each draw is a coin flip, and only both
// > e (1 in 4) loops. Out of line: it is the rare tail of a lookup.
[[gnu::noinline]] inline uint64_t Draws(uint64_t ka, const Range& r,
                                        uint64_t i_mul, uint64_t low_answer) {
  const uint64_t n = r.last + 1;
  for (; i_mul < 2 * 64 + 1; i_mul += 4) {  // i odd: pairs end at i = 64
    const uint64_t d1 = MixI(ka, i_mul) & r.mask;
    const uint64_t d2 = MixI(ka, i_mul + 2) & r.mask;
    const uint64_t d = Select(d1 < n, d1, d2);
    if (d < n) return Select(d < (r.mask >> 1) + 1, low_answer, d);
  }
  return low_answer;
}

// The lookup with its likely outcomes computed up front and picked without
// branches; equal to the plain lookup. Let m = hash & mask. If m has its top
// bit b - 1, the pow2 answer flips with H(x, b - 1, 0), and b - 1 =
// floor(log2 e) is also the draws' a: the flip and the draws d_1, d_2 share
// MixA. If not, the pow2 answer is the lower half's, which is also where a
// draw <= lower leads. So hash, the lower half's answer, MixA and three MixI
// give the answer unless the pow2 answer, d_1 and d_2 are all > e (at most 1
// in 8 lookups, for n just above a power of two); only then does a branch go
// to Draws.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t BucketSpeculative(uint64_t x,
                                                               const Range& r) {
  const uint64_t hash = Mix(x, 1, 1);
  const uint64_t lower = r.mask >> 1;
  const uint64_t low_answer = Pow2(x, hash, lower);
  const uint64_t ka = MixA(x, r.draw_mul);
  const uint64_t m = hash & r.mask;
  const uint64_t top_answer = m ^ (MixI(ka, 1) & lower);
  const uint64_t d1 = MixI(ka, 3) & r.mask;
  const uint64_t d2 = MixI(ka, 5) & r.mask;
  // The first of top_answer, d1, d2 that is <= e; a value <= lower (also
  // top_answer when m is in the lower half) stands for low_answer. If none is
  // <= e, v = d2. (Strict tests against e + 1 and lower + 1, neither of which
  // overflows, compile to cmp + sbb.)
  const uint64_t n = r.last + 1;
  uint64_t v = Select(top_answer < n, top_answer, Select(d1 < n, d1, d2));
  v = Select(v < lower + 1, low_answer, v);
  if (v < n) [[likely]]
    return v;
  return Draws(ka, r, 7, low_answer);
}

// The lookup. Whether the pow2 answer is in range is a coin flip the branch
// predictor cannot learn when n is well below the next power of two: it is
// out of range for a fraction (mask - e) / (mask + 1) of the keys (0.375 for
// n = 10, 0.39 for n = 10^4), and the plain branches then cost more than
// BucketSpeculative's extra work (14 vs 8 ns at n = 10 on a 2026 AMD EPYC;
// the two are equal near 1/8). Below 1/8 (n = 1000: 0.023), the plain
// lookup's well-predicted branch is the cheaper (4 vs 7 ns). The test depends
// on n only, so it is predicted.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t Bucket(uint64_t x,
                                                    const Range& r) {
  if (r.mask - r.last > r.mask >> 3) {
    return BucketSpeculative(x, r);
  }
  const uint64_t hash = Mix(x, 1, 1);
  const uint64_t first = Pow2(x, hash, r.mask);
  if (first <= r.last) [[likely]]
    return first;
  return Draws(MixA(x, r.draw_mul), r, 3, Pow2(x, hash, r.mask >> 1));
}

}  // namespace flip_internal

// fliphash-rs `fliphash_64(x, ..=n-1)` (seed 0) for n >= 1; 0 for n = 0.
inline uint64_t FlipHash(uint64_t x, uint64_t n) {
  return flip_internal::Bucket(x, flip_internal::MakeRange(n));
}

inline constexpr Capabilities kFlipCapabilities = {
    .arbitrary_removal = false,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
};

// The RangeHash policy (algorithms/range_buckets.h).
struct FlipPolicy {
  static constexpr const char* kName = "flip";
  static constexpr size_t kMaxNodes = std::numeric_limits<int32_t>::max();
  static constexpr const char* kLimitReason = "32-bit node ids";
  static constexpr Capabilities kCapabilities = kFlipCapabilities;
  using Range = flip_internal::Range;
  static Range MakeRange(size_t n) { return flip_internal::MakeRange(n); }
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint64_t Bucket(uint64_t x,
                                                      const Range& r) {
    return flip_internal::Bucket(x, r);
  }
};

// The registry's "flip": bucket b is the b-th live node; only the last
// node can be removed (RangeHash, algorithms/range_buckets.h).
template <typename H>
using Flip = RangeHash<FlipPolicy, H>;

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeFlip(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_FLIP_FLIP_H_
