// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: binomial/binomial.h
// -----------------------------------------------------------------------------
//
// BinomialHash (Massimo Coluzzi, Amos Brocco, Alessandro Antonucci, Tiziano
// Leidi, "BinomialHash: A Constant Time, Minimal Memory Consistent Hash
// Algorithm", arXiv:2406.19836 v2). Reference implementation:
// SUPSI-DTI-ISIN/java-consistent-hashing-algorithms, `BinomialEngine` (the
// "improved" version of 2025-01-30, by the paper's first author).
//
// Definition. `BinomialHash(x, n)` maps a 64-bit key x to a bucket in
// [0, n). Picture the buckets as a complete binary tree stored level by
// level: level k holds buckets [2^k, 2^(k+1)), and 0 and 1 form the root.
// Let E = (smallest power of two >= n) - 1, the enclosing tree's filter, and
// M = E >> 1, the largest tree that fits in n buckets.
//   * rehash(v, s) = (t * t * s) >> 32 with t = 2862933555777941757 * v + 1
//     (products mod 2^64).
//   * relocate(b, h) moves b to a pseudo-random bucket of its own level:
//     b if b < 2, else base + (rehash(h, base - 1) & (base - 1)) with base
//     the highest set bit of b. Taking x & filter and relocating it gives a
//     uniform bucket of the tree, independent of where x's low bits put it
//     inside its level.
//   * Lookup: b = relocate(x & E, x); if b < n, b. Otherwise up to 4 rounds
//     h = rehash(h, E) (h starts at x), b = relocate(h & E, h): a bucket
//     <= M ends the rounds, one in (M, n) is the answer. After the rounds,
//     relocate(x & M, x), a bucket of the minor tree, always valid.
// For n < 2 the answer is 0.
//
// `Binomial<H>` wraps the function as a `ConsistentHash`: bucket b is the
// b-th live node in id order (algorithms/range_buckets.h), so only the most
// recently added live node can be removed. The SUPSI engine updates E and M
// incrementally and keeps the larger pair when n grows to a power of two
// (and after a later removal back to it); a fresh engine of that size has
// the smaller pair. Both map every key identically (the larger tree's upper
// half always ends in the x & M fallback, which is the smaller tree's direct
// answer; binomial_test.cc checks it on sequences of additions and
// removals), so `Binomial<H>` recomputes E and M from n. (Recomputing also
// avoids a defect of the engine's rules: built with size 1, its first
// addBucket sets M = E, after which lookups can leave [0, n).)
//
// Guarantees:
//   * Bit-exact with SUPSI-DTI-ISIN/java-consistent-hashing-algorithms@
//     68803f8 `BinomialEngine` on the shared vectors: Lookup(x) with
//     Build("node-0".."node-(n-1)") returns node new BinomialEngine(n, h)
//     .getBucket(key) where h.hash(key) returns x, the 64-bit key digest as
//     the Java long with the same bits (testdata/binomial_stable.tsv).
//   * Minimal disruption: growing n to n + 1 moves only keys to bucket n;
//     removing the last node restores the previous mapping.
//   * Balance: uniform except for the keys that exhaust the 4 rounds, which
//     land in the minor tree (a fraction at most 2^-4 of the keys whose first
//     bucket is >= n, and far fewer unless n is just above a power of two).
//   * No weights (a weight other than 1 is rejected), no replicas.
//
// Complexity (N live nodes):
//   Lookup      O(1) worst case: at most 6 relocations and 10 rehashes,
//               integer operations only, plus the bucket -> id step
//               (a load once the ids are no longer 0..N-1; BucketToId).
//   AddNode     O(1) amortized.   RemoveNode  O(1) (last node only).
//   Build       O(N).             Memory      4 bytes per live node (the
//                                             bucket -> id array) plus the
//                                             NodeTable.
//
// Example:
//   Binomial<Xxh64> binomial;
//   binomial.Build(nodes).IgnoreError();
//   NodeId owner = binomial.Lookup(binomial.HashKey("user:42"));
//   uint32_t bucket = BinomialHash(0x1234, 10);  // in [0, 10)

#ifndef CHBENCH_ALGORITHMS_BINOMIAL_BINOMIAL_H_
#define CHBENCH_ALGORITHMS_BINOMIAL_BINOMIAL_H_

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
namespace binomial_internal {

inline uint64_t Rehash(uint64_t v, uint32_t s) {
  const uint64_t t = 2862933555777941757ULL * v + 1;
  return (t * t * s) >> 32;
}

inline uint32_t Relocate(uint32_t b, uint64_t h) {
  if (b < 2) return b;
  const uint32_t base = std::bit_floor(b);
  return base + (static_cast<uint32_t>(Rehash(h, base - 1)) & (base - 1));
}

// The tree filters: enclosing E = bit_ceil(n) - 1 and minor M = E >> 1.
struct Range {
  uint32_t n;
  uint32_t enclosing;
  uint32_t minor;
};

inline Range MakeRange(uint32_t n) {
  const uint32_t e = n == 0 ? 0 : std::bit_ceil(n) - 1;
  return {n, e, e >> 1};
}

// Also correct for filters that SUPSI's incremental engine keeps after
// growing to a power of two (E = 2n - 1, M = n - 1); see the file comment.
inline uint32_t Bucket(uint64_t x, const Range& r) {
  const uint32_t first = Relocate(static_cast<uint32_t>(x) & r.enclosing, x);
  if (first < r.n) [[likely]]
    return first;
  uint64_t h = x;
  for (int round = 0; round < 4; ++round) {
    h = Rehash(h, r.enclosing);
    const uint32_t b = Relocate(static_cast<uint32_t>(h) & r.enclosing, h);
    if (b <= r.minor) break;
    if (b < r.n) return b;
  }
  return Relocate(static_cast<uint32_t>(x) & r.minor, x);
}

}  // namespace binomial_internal

// BinomialEngine(n).getBucket with the key's hash = x, for n <= 2^31 - 1
// (0 for n < 2).
inline uint32_t BinomialHash(uint64_t x, uint32_t n) {
  if (n < 2) return 0;
  return binomial_internal::Bucket(x, binomial_internal::MakeRange(n));
}

inline constexpr Capabilities kBinomialCapabilities = {
    .arbitrary_removal = false,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
};

// The RangeHash policy (algorithms/range_buckets.h).
struct BinomialPolicy {
  static constexpr const char* kName = "binomial";
  static constexpr size_t kMaxNodes = std::numeric_limits<int32_t>::max();
  static constexpr const char* kLimitReason = "Java int cluster size";
  static constexpr Capabilities kCapabilities = kBinomialCapabilities;
  using Range = binomial_internal::Range;
  static Range MakeRange(size_t n) { return binomial_internal::MakeRange(static_cast<uint32_t>(n)); }
  static uint64_t Bucket(uint64_t x, const Range& r) {
    return binomial_internal::Bucket(x, r);
  }
};

// The registry's "binomial": bucket b is the b-th live node; only the last
// node can be removed (RangeHash, algorithms/range_buckets.h).
template <typename H>
using Binomial = RangeHash<BinomialPolicy, H>;

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeBinomial(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_BINOMIAL_BINOMIAL_H_
