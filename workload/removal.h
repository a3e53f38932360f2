// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: workload/removal.h
// -----------------------------------------------------------------------------
//
// Removal sequences: which nodes fail, and in which order, in the removal
// scenarios of the MementoHash and AnchorHash papers (Coluzzi et al., IEEE/ACM
// ToN 2024; Mendelson et al., IEEE/ACM ToN 2020). The experiments (removal
// kind) and the timing harness (lookup after removals) both draw from here, so
// a lookup timed "after 50 % random removals" runs on exactly the node set
// whose balance and disruption the removal rows report.
//
//   "fifo"    the oldest nodes first: 0, 1, 2, ...
//   "lifo"    the newest first: N-1, N-2, ... (the only order that range
//             hashes such as jump accept)
//   "random"  a uniformly random order: the first `count` entries of a
//             Fisher-Yates shuffle of 0..N-1 driven by Sfc64(seed ^ salt).
//
// Node i is the node built i-th (NodeId i after Build). Deterministic:
// the same (order, n, count, seed) gives the same sequence on every machine.
//
// Applying a sequence: an algorithm whose mapping depends only on the live
// set (arbitrary_removal, not history_dependent; the conformance suite checks
// it) gives the same mapping when built on the survivors as after the
// removals, and building is much cheaper than r O(N) removals (ring, Maglev,
// multiprobe at N = 10^5). RebuildsSurvivors says when; Survivors lists them.
//
// Example:
//   absl::StatusOr<std::vector<uint32_t>> ids = RemovalSequence("random",
//                                                                1000, 500, 7);
//   if (RebuildsSurvivors(algo.capabilities(), *ids)) {
//     algo.Build(Survivors(nodes, *ids).nodes);
//   }

#ifndef CHBENCH_WORKLOAD_REMOVAL_H_
#define CHBENCH_WORKLOAD_REMOVAL_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/util/random.h"

namespace chbench {

inline constexpr std::array<std::string_view, 3> kRemovalOrders = {
    "random", "fifo", "lifo"};

// The number of nodes removed at `fraction` of n: round(fraction * n),
// at most n - 1 (one node stays live).
inline uint32_t RemovedCount(uint32_t n, double fraction) {
  if (n == 0) return 0;
  const double r = std::llround(fraction * static_cast<double>(n));
  return static_cast<uint32_t>(std::min<double>(std::max(r, 0.0), n - 1.0));
}

// The `count` node indices to remove from n nodes, in removal order.
// InvalidArgument for an unknown order or count >= n.
inline absl::StatusOr<std::vector<uint32_t>> RemovalSequence(
    std::string_view order, uint32_t n, uint32_t count, uint64_t seed) {
  if (count >= n && count > 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "removal: ", count, " of ", n, " nodes requested; at most ", n - 1,
        " can be removed (one must stay live)"));
  }
  std::vector<uint32_t> out;
  out.reserve(count);
  if (order == "fifo") {
    for (uint32_t i = 0; i < count; ++i) out.push_back(i);
  } else if (order == "lifo") {
    for (uint32_t i = 0; i < count; ++i) out.push_back(n - 1 - i);
  } else if (order == "random") {
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0u);
    Sfc64 rng(seed ^ 0x72656d6f76616cULL);  // "removal"
    for (uint32_t i = 0; i < count; ++i) {
      std::swap(perm[i], perm[i + rng.Below(n - i)]);
    }
    out.assign(perm.begin(), perm.begin() + count);
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown removal order '", std::string(order),
        "'; valid: random, fifo, lifo"));
  }
  return out;
}

// Whether removing `order` from an instance with `caps` may be done by
// building the survivors (see file comment): a non-empty order, and a mapping
// that depends only on the live set.
inline bool RebuildsSurvivors(const Capabilities& caps,
                              std::span<const uint32_t> order) {
  return caps.arbitrary_removal && !caps.history_dependent && !order.empty();
}

// The nodes left after removing the indices `removed` from `nodes`, in their
// original order, and each one's index in `nodes` (index[k] for nodes[k]).
struct SurvivingNodes {
  std::vector<NodeSpec> nodes;
  std::vector<uint32_t> index;
};

// O(|nodes| + |removed|). Indices of `removed` must be < nodes.size().
inline SurvivingNodes Survivors(std::span<const NodeSpec> nodes,
                                std::span<const uint32_t> removed) {
  std::vector<bool> out(nodes.size(), false);
  for (uint32_t r : removed) out[r] = true;
  SurvivingNodes live;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (out[i]) continue;
    live.nodes.push_back(nodes[i]);
    live.index.push_back(i);
  }
  return live;
}

}  // namespace chbench

#endif  // CHBENCH_WORKLOAD_REMOVAL_H_
