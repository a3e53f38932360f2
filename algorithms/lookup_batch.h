// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: lookup_batch.h
// -----------------------------------------------------------------------------
//
// The building blocks of `LookupBatch` (consistent_hash.h), the lookup of
// many keys in one call. A lookup into a structure larger than the cache
// waits for one or two memory reads whose addresses depend only on the key;
// one key at a time, an out-of-order core overlaps only the few lookups its
// reorder window holds. Batched, the addresses of a whole group of keys are
// computed and prefetched first, then the group is finished from cache:
// group prefetching (Chen, Ailamaki, Gibbons and Mowry, "Improving Hash Join
// Performance through Prefetching", ICDE 2004).
//
//   * LookupEach(algo, keys, out): the plain loop over `algo.Lookup`, the
//     default of every algorithm whose lookup is compute-bound, and of the
//     prefetching ones on structures that fit in cache.
//     LookupEachWith(keys, out, lookup): the same loop over any callable.
//   * GroupedLookup(keys, out, start, finish): group prefetching. `start(key)`
//     computes what the key's first memory read needs, issues the prefetch
//     and returns that state; `finish(key, state)` returns the owner. Groups
//     of kLookupGroup keys.
//   * HashAndLookupBatch(algo, keys, out): the string path; hashes a group of
//     keys with `algo.HashKey`, then looks the group up with
//     `algo.LookupBatch`.
//
// Guarantees: out[i] is exactly what `Lookup(keys[i])` returns (the owner
// does not depend on the batch; a prefetch changes no value). No allocation,
// no lock; with a concrete final type `A`, no virtual call per key.
//
// Precondition everywhere: out.size() >= keys.size(), and `out` overlaps
// neither the keys nor the algorithm.
//
// Example:
//   std::vector<NodeId> owners(digests.size());
//   ring.LookupBatch(digests, owners);  // Ring<H>: inlined, prefetched
//   GroupedLookup(keys, out,
//                 [&](uint64_t h) { uint64_t s = h % m;
//                                   __builtin_prefetch(&table[s]);
//                                   return s; },
//                 [&](uint64_t, uint64_t s) { return table[s]; });

#ifndef CHBENCH_ALGORITHMS_LOOKUP_BATCH_H_
#define CHBENCH_ALGORITHMS_LOOKUP_BATCH_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "absl/base/attributes.h"
#include "algorithms/consistent_hash.h"

namespace chbench {

// Structures smaller than this are read from cache, where a prefetch only
// adds work (measured: Maglev at M = 65537 and a ring of 10^4 points ran
// 1.05-1.8x slower batched); the prefetching LookupBatch implementations
// take the plain loop below it (dx, whose lookup is shorter, below 32 KiB:
// DxHashCore::kSlotsPrefetchFromBytes). 4 MiB: past a 1-2 MiB L2, where the
// next level's latency is worth hiding.
inline constexpr size_t kPrefetchPaysFromBytes = size_t{4} << 20;

// Keys whose first memory reads are issued together. 16 outstanding misses
// cover a core's line-fill buffers (10-24 on current x86 cores) while the
// group's state stays in registers and L1.
inline constexpr size_t kLookupGroup = 16;

// Structures of this size or more are read from DRAM or a distant cache
// slice: twice kLookupGroup keys in flight pay there (measured on a 2-core
// Xeon VM, batch 64 over the single-key loop, two runs each: a ring of 10^7
// points, 256 MiB of lines, 0.65-0.66 with 16 keys in flight and 0.58-0.59
// with 32; a ring of 10^6 points, 8 MiB, 0.78-0.83 with 16 and 0.89-0.97
// with 32; Maglev's 40 MB table 0.85-0.92 and 0.87-0.88).
inline constexpr size_t kDeepPrefetchFromBytes = size_t{64} << 20;

namespace lookup_batch_internal {

// out[i] = lookup(keys[i]) for i < n. Not inlined, so that the restrict
// parameters hold (GCC drops them when it inlines the function): without
// them each owner's 32-bit store through `out` could alias any 32-bit
// member of the algorithm (an int or uint32_t field: the ring's shifts, a
// range hash's n, dx's divisor), and the compiler reloads those members for
// every key; with them the members stay in registers, as in a single-key
// loop. Unrolled twice: half the loop's own compares and branches, which
// a compute-bound lookup of 2-5 ns (the range hashes) otherwise pays beside
// the caller's pass over `out`. `lookup` is passed by value (a pointer to
// the algorithm, or a few constants), so that the caller's call is a tail
// jump. Precondition: `out` overlaps neither `keys` nor anything `lookup`
// reads.
template <typename Lookup>
ABSL_ATTRIBUTE_NOINLINE void LookupEachRestrict(
    const uint64_t* __restrict keys, size_t n, NodeId* __restrict out,
    Lookup lookup) {
#pragma GCC unroll 2
  for (size_t i = 0; i < n; ++i) out[i] = lookup(keys[i]);
}

}  // namespace lookup_batch_internal

// The plain loop: out[i] = lookup(keys[i]). Mark the lambda
// ABSL_ATTRIBUTE_ALWAYS_INLINE: in the unrolled loop GCC otherwise calls a
// lookup of some size (RangeHash<Flip>'s) out of line, which the single-key
// loop inlines. Precondition: `out` overlaps neither `keys` nor the
// algorithm's state. Complexity: keys.size() lookups.
template <typename Lookup>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void LookupEachWith(
    std::span<const uint64_t> keys, std::span<NodeId> out, Lookup lookup) {
  lookup_batch_internal::LookupEachRestrict(keys.data(), keys.size(),
                                            out.data(), lookup);
}

// out[i] = algo.Lookup(keys[i]) by LookupEachWith. With a final class A the
// call is direct and inlinable. Complexity: keys.size() lookups.
template <typename A>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void LookupEach(
    const A& algo, std::span<const uint64_t> keys, std::span<NodeId> out) {
  LookupEachWith(keys, out, [&algo](uint64_t h) ABSL_ATTRIBUTE_ALWAYS_INLINE {
    return algo.Lookup(h);
  });
}

// Group prefetching over the keys, kGroup (default kLookupGroup) at a
// time: start(k) for
// every key of the first group (prefetching and returning the key's state),
// then, key by key, out = finish(k, state) for the group in flight while the
// next group's key in the same slot is started (software pipelining: the
// misses of one group overlap the finish of the previous one, with no drain
// at the group boundary). A batch of at most kGroup keys is one group.
// Complexity: one start and one finish per key.
template <size_t kGroup = kLookupGroup, typename Start, typename Finish>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void GroupedLookup(
    std::span<const uint64_t> keys, std::span<NodeId> out, const Start& start,
    const Finish& finish) {
  using State = decltype(start(uint64_t{}));
  constexpr size_t g = kGroup;
  const size_t n = keys.size();
  const uint64_t* k = keys.data();
  NodeId* o = out.data();
  State state[g];
  if (n < g) {
    for (size_t j = 0; j < n; ++j) state[j] = start(k[j]);
    for (size_t j = 0; j < n; ++j) o[j] = finish(k[j], state[j]);
    return;
  }
  // Full groups keep constant trip counts (unrolled, states in registers).
  for (size_t j = 0; j < g; ++j) state[j] = start(k[j]);
  size_t i = 0;  // keys i .. i + g - 1 are in flight
  for (; i + 2 * g <= n; i += g) {
    for (size_t j = 0; j < g; ++j) {
      o[i + j] = finish(k[i + j], state[j]);
      state[j] = start(k[i + g + j]);
    }
  }
  const size_t next = n - (i + g);  // 0 .. g - 1 keys not yet started
  if (next == 0) {
    for (size_t j = 0; j < g; ++j) o[i + j] = finish(k[i + j], state[j]);
    return;
  }
  for (size_t j = 0; j < g; ++j) {
    o[i + j] = finish(k[i + j], state[j]);
    if (j < next) state[j] = start(k[i + g + j]);
  }
  i += g;
  for (size_t j = 0; j < next; ++j) o[i + j] = finish(k[i + j], state[j]);
}

// The string path: the owners of string keys, out[i] =
// algo.Lookup(algo.HashKey(keys[i])). Each group of kLookupGroup keys is
// hashed first, then looked up with algo.LookupBatch, so that the hashing of
// a group (compute) runs beside the memory reads the previous group left in
// flight. With a concrete final type A no call is virtual; with A =
// ConsistentHash (the interface's LookupBatch over strings) HashKey is a
// virtual call per key and LookupBatch one per group.
// Complexity: keys.size() hashes and lookups.
template <typename A>
inline void HashAndLookupBatch(const A& algo,
                               std::span<const std::string_view> keys,
                               std::span<NodeId> out) {
  uint64_t digests[kLookupGroup];
  const size_t n = keys.size();
  for (size_t i = 0; i < n; i += kLookupGroup) {
    const size_t m = std::min(kLookupGroup, n - i);
    for (size_t j = 0; j < m; ++j) digests[j] = algo.HashKey(keys[i + j]);
    algo.LookupBatch(std::span<const uint64_t>(digests, m), out.subspan(i, m));
  }
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_LOOKUP_BATCH_H_
