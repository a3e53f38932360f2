// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: registry.h
// -----------------------------------------------------------------------------
//
// The algorithm registry: one explicit row per algorithm (SMHasher's
// `g_hashes[]` is the model), in the order the CLI and reports list them.
// Each row carries the name used on the command line, in CSV rows and in plot
// legends, a one-line description, the paper, the capabilities, the factory,
// `golden`: `MappingChecksum` (algorithms/checksum.h) of the algorithm's
// mapping with default parameters and hash xxh64, pinned so that a silent
// change of behaviour fails algorithms/registry_test.cc; and the lookup
// complexity, its class, and the parameters the factory reads (listed by
// `chbench list --json`).
//
// Adding an algorithm = a folder algorithms/<name>/ with <name>.h and
// <name>_test.cc, a row here, a conformance instantiation, a README line.

#ifndef CHBENCH_ALGORITHMS_REGISTRY_H_
#define CHBENCH_ALGORITHMS_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"

namespace chbench {

struct AlgorithmInfo {
  std::string_view name;
  std::string_view description;
  std::string_view citation;
  Capabilities capabilities;
  // Validates `params` (hash name, vnodes, table size, load factor) and
  // returns an empty instance; nodes come with Build/AddNode.
  absl::StatusOr<std::unique_ptr<ConsistentHash>> (*make)(
      const AlgorithmParams& params);
  uint64_t golden;
  // Lookup cost in the algorithm's own terms (N live nodes, P ring points),
  // as its header's Complexity section states it, e.g. "O(1)", "O(log N)".
  std::string_view lookup_complexity;
  // The same, in one of three classes for plots and tables: "constant",
  // "logarithmic" or "linear" (kLookupClasses); an expected bound counts.
  std::string_view lookup_class;
  // The AlgorithmParams fields `make` reads ("hash", "vnodes", "table_size",
  // "load_factor", "capacity"), in that order.
  std::span<const std::string_view> parameters;
};

// The values AlgorithmInfo::lookup_class takes.
inline constexpr std::string_view kLookupClasses[] = {"constant",
                                                      "logarithmic", "linear"};

std::span<const AlgorithmInfo> Algorithms();
// nullptr when unknown.
const AlgorithmInfo* FindAlgorithm(std::string_view name);
// "modulo, ring, rendezvous, jump, maglev, bounded_load"
std::string AlgorithmNames();
// The algorithms whose capabilities include weights: "ring, rendezvous, ...".
std::string WeightedAlgorithmNames();

// FindAlgorithm + make, with an error naming the valid algorithms.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeAlgorithm(
    std::string_view name, const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_REGISTRY_H_
