// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/ring_search.h
// -----------------------------------------------------------------------------
//
// Three timed peers of `Ring<H>` (algorithms/ring/ring.h). All search exactly
// the points of a built ring, copied once with `Ring<H>::ExportPoints`, and
// return the owner of the first point STRICTLY GREATER than the digest,
// wrapping past the largest point to the smallest, as Ring<H>::Lookup does.
// For a 32-bit hash policy the digest is first reduced mod 2^32 (as
// Ring<H>::Lookup does), so the two agree on every 64-bit input.
//
//   RingUpperBound<H>  std::upper_bound over the sorted points (the textbook
//                      ring: Python's bisect_right in the seed articles), then
//                      a wrap branch. ~log2(P) dependent, unpredictable
//                      branches and cache misses.
//   RingBranchless<H>  a branchless binary search, the
//                      `base += (base[half] <= x) * half` form (Khuong and
//                      Morin, "Array Layouts for Comparison-Based Searching",
//                      ACM JEA 2017, the branch-free sorted-array search):
//                      log2(P) conditional moves, no mispredictions; the
//                      wrap is a padded owner entry, not a branch.
//   RingInterleaved<H> the batched peer: RingBranchless's search run for a
//                      group of keys in lockstep (LookupBatch), each step of
//                      every key issued before the next step of any, with a
//                      prefetch of both places the key's next step may read:
//                      the interleaved binary search (Psaropoulos et al.,
//                      "Interleaving with Coroutines", VLDB 2017, Sec. 3;
//                      Khuong and Morin's prefetching branch-free search).
//                      The group's misses overlap, which a single-key
//                      search cannot do for its own dependent steps. Timed
//                      beside the ring's LookupBatch (TimingMember::batch).
//
// Ours (Ring<H>::Lookup) instead reads a top-bits bucket index and scans
// about 8 points: the ratio to these peers is what the index buys.
//
// Example:
//   Ring<Xxh64> ring(100);
//   ring.Build(nodes).IgnoreError();
//   RingBranchless<Xxh64> peer(ring);
//   NodeId owner = peer.Lookup(key_hash);  // == ring.Lookup(key_hash)
//   RingInterleaved<Xxh64> batched(ring);
//   batched.LookupBatch(key_hashes, owners);  // owners[i] == ring.Lookup(...)

#ifndef CHBENCH_BENCH_PEERS_RING_SEARCH_H_
#define CHBENCH_BENCH_PEERS_RING_SEARCH_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/consistent_hash.h"
#include "algorithms/ring/ring.h"
#include "algorithms/util/huge_page_allocator.h"

namespace chbench {
namespace peers {
namespace ring_internal {

// Ring<H>'s circle reduction: identity for 64-bit H, mod 2^32 for 32-bit H.
template <typename H>
inline uint64_t ReduceToCircle(uint64_t h) {
  static_assert(H::kBits == 32 || H::kBits == 64);
  if constexpr (H::kBits == 64) {
    return h;
  } else {
    return h & 0xFFFFFFFFull;
  }
}

}  // namespace ring_internal

template <typename H>
class RingUpperBound {
 public:
  explicit RingUpperBound(const Ring<H>& ring) {
    std::vector<uint64_t> points;
    std::vector<NodeId> owners;
    ring.ExportPoints(&points, &owners);
    points_.assign(points.begin(), points.end());
    owners_.assign(owners.begin(), owners.end());
  }

  // Precondition: the ring had at least one point.
  NodeId Lookup(uint64_t key_hash) const {
    const uint64_t x = ring_internal::ReduceToCircle<H>(key_hash);
    const auto it = std::upper_bound(points_.begin(), points_.end(), x);
    const size_t pos =
        it == points_.end() ? 0 : static_cast<size_t>(it - points_.begin());
    return owners_[pos];
  }

  size_t num_points() const { return points_.size(); }

 private:
  std::vector<uint64_t, HugePageAllocator<uint64_t>> points_;  // ascending
  std::vector<NodeId, HugePageAllocator<NodeId>> owners_;      // parallel
};

template <typename H>
class RingBranchless {
 public:
  explicit RingBranchless(const Ring<H>& ring) {
    std::vector<uint64_t> points;
    std::vector<NodeId> owners;
    ring.ExportPoints(&points, &owners);
    points_.assign(points.begin(), points.end());
    owners_.assign(owners.begin(), owners.end());
    n_ = points_.size();
    // owners_[n] = owners_[0]: "past the largest point" wraps without a
    // branch.
    if (!owners_.empty()) owners_.push_back(owners_[0]);
  }

  // Precondition: the ring had at least one point.
  NodeId Lookup(uint64_t key_hash) const {
    const uint64_t x = ring_internal::ReduceToCircle<H>(key_hash);
    const uint64_t* base = points_.data();
    size_t n = n_;
    // Invariant: the answer (number of points <= x) lies in
    // [base - points, base - points + n].
    while (n > 1) {
      const size_t half = n / 2;
      base += static_cast<size_t>(base[half] <= x) * half;
      n -= half;
    }
    const size_t pos =
        static_cast<size_t>(base - points_.data()) + (*base <= x ? 1 : 0);
    return owners_[pos];
  }

  size_t num_points() const { return n_; }

 private:
  std::vector<uint64_t, HugePageAllocator<uint64_t>> points_;  // ascending
  // Parallel, plus owners_[0] at the end.
  std::vector<NodeId, HugePageAllocator<NodeId>> owners_;
  size_t n_ = 0;
};

// RingInterleaved<H>: a batched successor search over the ring's points,
// not chbench's (which reads a top-bits bucket index): the branch-free
// binary search of RingBranchless, interleaved over a group of up to
// kGroup keys.
//
// Guarantees: LookupBatch(keys, out) writes out[i] == Ring<H>::Lookup(keys[i])
// for every i (the first point strictly greater than the digest reduced to
// the circle, wrapping past the largest point); Lookup(key) is the same for
// one key. No allocation, no virtual call, no lock.
//
// Complexity: ceil(log2(P)) steps per key for P points; the steps of the
// keys of one group are independent, so their cache misses overlap (up to
// kGroup outstanding), and each step prefetches the two points the key's
// next step may compare with.
//
// Example:
//   RingInterleaved<Xxh64> peer(ring);           // copies the points
//   std::vector<NodeId> owners(keys.size());
//   peer.LookupBatch(keys, owners);
template <typename H>
class RingInterleaved {
 public:
  // Keys searched in lockstep: enough to keep a core's miss buffers busy
  // (10-16 line fill buffers on current x86), small enough for registers
  // and the stack.
  static constexpr size_t kGroup = 16;

  explicit RingInterleaved(const Ring<H>& ring) {
    std::vector<uint64_t> points;
    std::vector<NodeId> owners;
    ring.ExportPoints(&points, &owners);
    points_.assign(points.begin(), points.end());
    owners_.assign(owners.begin(), owners.end());
    n_ = points_.size();
    // owners_[n] = owners_[0]: past the largest point wraps, no branch.
    if (!owners_.empty()) owners_.push_back(owners_[0]);
  }

  // Precondition: the ring had at least one point.
  NodeId Lookup(uint64_t key_hash) const {
    NodeId out;
    LookupBatch(std::span<const uint64_t>(&key_hash, 1),
                std::span<NodeId>(&out, 1));
    return out;
  }

  // Precondition: the ring had at least one point; out.size() >=
  // key_hashes.size().
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const {
    const uint64_t* const points = points_.data();
    for (size_t i = 0; i < key_hashes.size(); i += kGroup) {
      const size_t m = std::min(kGroup, key_hashes.size() - i);
      uint64_t x[kGroup];
      const uint64_t* base[kGroup];
      for (size_t j = 0; j < m; ++j) {
        x[j] = ring_internal::ReduceToCircle<H>(key_hashes[i + j]);
        base[j] = points;
      }
      // Invariant, as in RingBranchless: key j's answer (the number of
      // points <= x[j]) lies in [base[j] - points, base[j] - points + n].
      size_t n = n_;
      while (n > 1) {
        const size_t half = n / 2;
        const size_t next_half = (n - half) / 2;
        for (size_t j = 0; j < m; ++j) {
          // The next step reads base[j][next_half] or
          // base[j][half + next_half].
          __builtin_prefetch(base[j] + next_half);
          __builtin_prefetch(base[j] + half + next_half);
          base[j] += static_cast<size_t>(base[j][half] <= x[j]) * half;
        }
        n -= half;
      }
      for (size_t j = 0; j < m; ++j) {
        const size_t pos = static_cast<size_t>(base[j] - points) +
                           (*base[j] <= x[j] ? 1 : 0);
        out[i + j] = owners_[pos];
      }
    }
  }

  size_t num_points() const { return n_; }

 private:
  std::vector<uint64_t, HugePageAllocator<uint64_t>> points_;  // ascending
  // Parallel, plus owners_[0] at the end.
  std::vector<NodeId, HugePageAllocator<NodeId>> owners_;
  size_t n_ = 0;
};

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_RING_SEARCH_H_
