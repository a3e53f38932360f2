// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/kinds/replicas.h
// -----------------------------------------------------------------------------
//
// The "replicas" experiment kind: replica placement. Each key's preference
// list is LookupReplicas(key, r, distinct_zones): r distinct nodes, the
// first Lookup's answer. A cell builds N nodes of weight 1 on a topology,
// maps K uniform keys and measures the lists as they are, after one node
// joins, and after one node fails (results/README.md defines each metric).
//
// Topologies (node i of N, NodeSpec::zone = its location):
//   flat           no zones (zone ""); placed with distinct_zones = false.
//   zones3         "z<i mod 3>".
//   zones3_uneven  50 / 30 / 20 %: "z0" when 10 i < 5 N, else "z1" when
//                  10 i < 8 N, else "z2" (z0 gets ceil(N / 2) nodes; N = 10:
//                  5 / 3 / 2).
//   racks_hosts    2 nodes per host (host i / 2), hosts round-robin over
//                  R = ceil(sqrt(N / 2)) racks (rack = host mod R):
//                  "r<rack>/h<host>".
// The failure domain of a placement is the whole location (racks_hosts: the
// host); the top-level domain (the first path component: the rack; the zone
// of zones3) is what a zone failure takes down.
// The joined node is node N, named as MakeNodes names it, at the location
// the topology's rule gives index N of N + 1 nodes, the others keeping
// theirs: zones3 "z<N mod 3>", zones3_uneven "z2" (N >= 4), racks_hosts the
// next host slot (host N / 2, with the N-node topology's R racks).
// The failed node is FailedNode(N, seed): the same for every algorithm and
// topology of one N and seed.
//
// Scenarios: zone_aware (distinct_zones = true on a zoned topology, false on
// flat) and zone_blind (distinct_zones = false on a zoned topology; with
// flat it is a spec error).
//
// Example:
//   absl::StatusOr<std::string> z = TopologyLocation("racks_hosts", 5, 100);
//   // "r2/h2"

#ifndef CHBENCH_EXPERIMENTS_KINDS_REPLICAS_H_
#define CHBENCH_EXPERIMENTS_KINDS_REPLICAS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "experiments/result_row.h"
#include "experiments/spec.h"

namespace chbench {
namespace kinds {

// Failure sets enumerated in full up to this many C(N, f); above it,
// kFailureSamples random f-subsets estimate the loss probability.
inline constexpr uint64_t kMaxEnumeratedFailureSets = 2'000'000;
inline constexpr uint64_t kFailureSamples = 200'000;

// The location of node `i` of `n` on `topology` (see above); an error naming
// the valid topologies for an unknown one.
absl::StatusOr<std::string> TopologyLocation(std::string_view topology,
                                             size_t i, size_t n);
// The location of the node that joins `n` nodes on `topology`.
absl::StatusOr<std::string> JoinedLocation(std::string_view topology,
                                           size_t n);
// The node that fails in a cell of `n` nodes at `seed` (uniform, seeded).
uint32_t FailedNode(size_t n, uint64_t seed);

// The probability that f nodes failing at once (a uniform f-subset of `n`
// nodes) include every member of at least one of `copysets` (distinct
// sorted sets of `r` node ids, flattened). Exact when f < r (0), f = r
// (copysets / C(n, r)) or C(n, f) <= max_enumerated (every f-subset);
// otherwise estimated from `samples` random f-subsets drawn with `seed`
// (note "sampled: <samples> failure sets"). No value (note "not
// applicable: ...") when f > n. Requires r <= 5 when r <= f (members are
// packed into 128 bits) and ids < 2^24.
struct LossProbability {
  std::optional<double> value;
  std::string note;
};
LossProbability FailureLossProbability(
    std::span<const uint32_t> copysets, size_t r, size_t n, size_t f,
    uint64_t seed, uint64_t max_enumerated = kMaxEnumeratedFailureSets,
    uint64_t samples = kFailureSamples);

// The rows of one replicas cell.
absl::StatusOr<std::vector<ResultRow>> RunReplicas(const Cell& c,
                                                   const std::string& run_id);

}  // namespace kinds
}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_KINDS_REPLICAS_H_
