// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: workload/zipf.h
// -----------------------------------------------------------------------------
//
// Zipf popularity over a universe of U items: item r (0-based rank) is drawn
// with probability
//
//   p(r) = (r + 1)^-s / H(U, s),   H(U, s) = sum_{i=1..U} i^-s,
//
// s >= 0; s = 0 is uniform. Rank 0 is the most popular item. The cluster
// experiment (bench/cluster/) draws its request stream from it: "the ring
// balances keys, not requests" is a statement about s > 0.
//
// Sampling uses Walker's alias method (A. J. Walker, "An efficient method for
// generating discrete random variables with general distributions", ACM TOMS
// 3(3), 1977; Vose's O(U) construction, IEEE TSE 17(9), 1991): one bounded
// integer and one 64-bit comparison per draw from an Sfc64 stream
// (algorithms/util/random.h). The probabilities are computed once in double
// precision in a fixed order and the acceptance thresholds are stored as
// 64-bit integers, so a (U, s, seed) gives the same sequence on every run of
// a build with the same libm (std::pow).
//
// Complexity: construction O(U) time, 12 bytes per item; a draw O(1).
//
// Example:
//   Zipf zipf(/*universe=*/100000, /*s=*/0.99);
//   Sfc64 rng(/*seed=*/7);
//   uint32_t key = zipf.Sample(rng);   // 0 is the hottest key

#ifndef CHBENCH_WORKLOAD_ZIPF_H_
#define CHBENCH_WORKLOAD_ZIPF_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/util/random.h"

namespace chbench {

class Zipf {
 public:
  // The largest universe: item indices are 32-bit.
  static constexpr uint64_t kMaxUniverse = uint64_t{1} << 31;
  // s is checked by Make; the constructor assumes 1 <= universe <=
  // kMaxUniverse and 0 <= s <= 10.
  Zipf(uint32_t universe, double s);

  // InvalidArgument naming the bad value and the valid range.
  static absl::StatusOr<Zipf> Make(uint64_t universe, double s);

  uint32_t Sample(Sfc64& rng) const {
    const uint32_t i = static_cast<uint32_t>(rng.Below(threshold_.size()));
    return rng() < threshold_[i] ? i : alias_[i];
  }

  uint32_t universe() const { return static_cast<uint32_t>(alias_.size()); }
  double s() const { return s_; }
  // p(rank), as computed for the table.
  double Probability(uint32_t rank) const;

 private:
  double s_;
  double norm_;  // H(U, s)
  // Accept item i with probability threshold_[i] / 2^64 (saturated: always),
  // else take alias_[i].
  std::vector<uint64_t> threshold_;
  std::vector<uint32_t> alias_;
};

}  // namespace chbench

#endif  // CHBENCH_WORKLOAD_ZIPF_H_
