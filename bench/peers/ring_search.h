// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/ring_search.h
// -----------------------------------------------------------------------------
//
// Two timed peers of `Ring<H>` (algorithms/ring/ring.h). Both search exactly
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
//
// Ours (Ring<H>::Lookup) instead reads a top-bits bucket index and scans
// about 8 points: the ratio to these peers is what the index buys.
//
// Example:
//   Ring<Xxh64> ring(100);
//   ring.Build(nodes).IgnoreError();
//   RingBranchless<Xxh64> peer(ring);
//   NodeId owner = peer.Lookup(key_hash);  // == ring.Lookup(key_hash)

#ifndef CHBENCH_BENCH_PEERS_RING_SEARCH_H_
#define CHBENCH_BENCH_PEERS_RING_SEARCH_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
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

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_RING_SEARCH_H_
