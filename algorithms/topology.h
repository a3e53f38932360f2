// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: topology.h
// -----------------------------------------------------------------------------
//
// The topology file: the nodes of a placement that needs failure domains,
// with their weights and locations, in one format shared by every placement
// and by `chbench map --topology`.
//
// Format (UTF-8 text, one node a line, in id order):
//
//   # comment
//   10.0.0.1:9042<TAB>1<TAB>dc1/r1
//   10.0.0.2:9042<TAB>1<TAB>dc1/r2
//
//   * Exactly three TAB-separated fields: name, weight, location.
//   * name: non-empty, unique in the file.
//   * weight: a finite number > 0 (decimal; an algorithm or preset without
//     weights accepts only 1).
//   * location: a path of failure domains from the largest down, separated
//     by '/', e.g. `dc1/r1` (datacenter, rack) or `region/zone/host`; every
//     component non-empty. Placements read the levels they know: Cassandra
//     NetworkTopologyStrategy the first two (datacenter, rack); the ring's
//     and rendezvous' distinct zones the whole path as one zone, or its
//     first K levels (`chbench map --zone-level K`, LeadingLevels).
//   * Blank lines and lines starting with '#' are skipped; a trailing '\r'
//     is stripped.
//
// The location becomes NodeSpec::zone unchanged (SplitLocation splits it).
// Errors are one line naming the source, the line number and the bad value,
// e.g. "topo.tsv line 3: invalid weight 'x'; expected a finite number > 0".
//
// Example:
//   absl::StatusOr<std::vector<NodeSpec>> nodes =
//       ReadTopologyFile("cluster.tsv");

#ifndef CHBENCH_ALGORITHMS_TOPOLOGY_H_
#define CHBENCH_ALGORITHMS_TOPOLOGY_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"

namespace chbench {

// Parses topology text; `source` names it in errors (e.g. the file name).
absl::StatusOr<std::vector<NodeSpec>> ParseTopology(std::string_view text,
                                                    std::string_view source);

// Reads and parses the file at `path` (errors name it).
absl::StatusOr<std::vector<NodeSpec>> ReadTopologyFile(const std::string& path);

// "dc1/r1" -> {"dc1", "r1"}; "" -> {}.
std::vector<std::string_view> SplitLocation(std::string_view location);

// The first `levels` components of `location` (levels >= 1): ("dc1/r1/h3",
// 2) -> "dc1/r1"; a location with fewer components is returned whole. The
// failure domain `chbench map --zone-level` spreads replicas over.
std::string LeadingLevels(std::string_view location, int levels);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_TOPOLOGY_H_
