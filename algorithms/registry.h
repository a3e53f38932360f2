// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: registry.h
// -----------------------------------------------------------------------------
//
// The algorithm registry: the run-time view of the algorithm catalogue
// (algorithms/catalogue.h), one `AlgorithmInfo` row per algorithm in the
// order the CLI, the specs' `algorithm = "all"` and the reports list them.
// Each row carries the name used on the command line, in CSV rows and in plot
// legends, a one-line description, the paper, the capabilities, the factory,
// the parameters the factory reads with their defaults, the lookup
// complexity and its class, the models the conformance suite checks the
// algorithm against, and `goldens`: `MappingChecksum` (algorithms/checksum.h)
// of the mapping with default parameters, per hash, pinned so that a silent
// change of behaviour fails the conformance suite and `chbench run`.
//
// The rows are defined once, in algorithms/catalogue.h; this header only
// describes them and finds them by name.
//
// Example:
//   const AlgorithmInfo* info = FindAlgorithm("ring");
//   absl::StatusOr<std::unique_ptr<ConsistentHash>> a =
//       info->make(AlgorithmParams{});

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

// A parameter an algorithm's factory reads: the AlgorithmParams field (also
// the spec key and the CSV column, but for `capacity`, which specs set
// through `overprovision`) and the value the algorithm uses when the field
// is left at its AlgorithmParams default, as a function of the node count.
// `effective` is nullptr when that value is the field's own default
// regardless of N (hash, vnodes, load_factor, probes) or when the algorithm
// chooses it at Build in its own way that a spec does not record
// (capacity).
struct ParamInfo {
  std::string_view name;
  // Maglev's table_size: the smallest prime >= 100 N.
  uint64_t (*effective)(uint32_t nodes) = nullptr;
  // The largest value the factory accepts, when it is below the spec axis'
  // own range (bounded_load's vnodes: 10^6, below the ring's 2^20); 0: the
  // axis' range. Specs check it before anything runs.
  uint64_t max = 0;
};

// The key-count balance model the conformance suite checks an algorithm's
// balance against (algorithms/conformance_test.cc), and the report's model.
enum class BalanceModel {
  kBinomial,    // each key lands on a node with probability 1/N
  kRingPoints,  // ring: a node's share is the sum of its arcs (vnodes points)
  kCapacity,    // bounded_load: no node above ceil(c * keys / N)
  kMultiProbe,  // multiprobe: share of one point with k probes
};

// How keys move when the node count changes, beyond
// Capabilities::minimal_disruption.
enum class Churn {
  kMinimal,  // only the keys that must move (minimal_disruption == true)
  kRehash,   // a key stays only if h % N == h % (N + 1)
  kBounded,  // no exact rule; the new node's share is checked instead
};

// What the conformance suite needs to know of an algorithm beyond its
// capabilities.
struct ConformanceTraits {
  BalanceModel balance = BalanceModel::kBinomial;
  Churn churn = Churn::kMinimal;
  // An independent model of the definition exists (MakeReferenceModel,
  // algorithms/testing/reference_models.h); the others are checked against a
  // fresh instance built from the live set.
  bool reference_model = false;
  // AlgorithmParams::capacity in the suite (0: the default). A
  // fixed-capacity algorithm needs room for the suite's AddNode calls and
  // for Build(200).
  uint64_t capacity = 0;
  // Non-empty: AddNode does not undo the last removal, so Build(n) differs
  // from n successive AddNode calls and a re-added node does not get its old
  // keys back, by design. The reason, for GTEST_SKIP and messages.
  std::string_view add_is_not_undo = {};
};

// MappingChecksum of the mapping with default parameters and hash `hash`.
struct HashGolden {
  std::string_view hash;
  uint64_t checksum;
};

struct AlgorithmInfo {
  std::string_view name;
  std::string_view description;
  std::string_view citation;
  Capabilities capabilities;
  // Validates `params` (hash name, vnodes, table size, load factor) and
  // returns an empty instance; nodes come with Build/AddNode.
  absl::StatusOr<std::unique_ptr<ConsistentHash>> (*make)(
      const AlgorithmParams& params);
  // MappingChecksum per hash of the conformance suite (xxh64 first: the
  // regression check of `chbench run` and registry.json's "golden").
  std::span<const HashGolden> goldens;
  // Lookup cost in the algorithm's own terms (N live nodes, P ring points),
  // as its header's Complexity section states it, e.g. "O(1)", "O(log N)".
  std::string_view lookup_complexity;
  // The same, in one of three classes for plots and tables: "constant",
  // "logarithmic" or "linear" (kLookupClasses); an expected bound counts.
  std::string_view lookup_class;
  // The AlgorithmParams fields `make` reads, "hash" first.
  std::span<const ParamInfo> parameters;
  // Timed with every hash function in the hashes experiment (bench/ then
  // instantiates its lookup loops for every hash; the others only for the
  // default hash).
  bool hash_axis = false;
  // Selected by a spec's "all" and by its capability and class selections
  // (experiments/spec.h). false: by name only (`algorithm = ["choosek"]`)
  // or by a selection with `every_row = true`, for an algorithm that only
  // some committed experiments measure, so that a fresh `make experiments`
  // and the committed reference hold the same algorithms. registry.json and
  // `chbench list --json` carry it.
  bool in_sweeps = true;
  // A scheme that caps the loads of another algorithm's order names that
  // algorithm here (bounded_load: the ring, whose successor walk it caps).
  // The cache-cluster simulation (bench/cluster/) then routes with the named
  // algorithm and applies the cap (load_factor) to live request counts
  // itself. Empty: the algorithm routes as itself.
  std::string_view bounds_loads_of = {};
  // `chbench map --crush-map FILE` places with this algorithm over a
  // crushtool text map's devices, buckets and rule (experiments/cli/
  // map_input.h) instead of building it from node names.
  bool accepts_crush_map = false;
  ConformanceTraits conformance;

  // The parameter named `param`, or nullptr when `make` does not read it.
  const ParamInfo* FindParameter(std::string_view param) const {
    for (const ParamInfo& p : parameters) {
      if (p.name == param) return &p;
    }
    return nullptr;
  }
  // The xxh64 golden (goldens[0]).
  uint64_t golden() const { return goldens.empty() ? 0 : goldens[0].checksum; }
};

// The values AlgorithmInfo::lookup_class takes.
inline constexpr std::string_view kLookupClasses[] = {"constant",
                                                      "logarithmic", "linear"};

// The catalogue's rows, in catalogue order.
std::span<const AlgorithmInfo> Algorithms();
// nullptr when unknown.
const AlgorithmInfo* FindAlgorithm(std::string_view name);
// "modulo, ring, rendezvous, jump, maglev, bounded_load"
std::string AlgorithmNames();
// The algorithms whose capabilities include weights: "ring, rendezvous, ...".
std::string WeightedAlgorithmNames();
// The algorithms whose capabilities include replicas (LookupReplicas).
std::string ReplicaAlgorithmNames();
// The algorithms timed with every hash (AlgorithmInfo::hash_axis).
std::string HashAxisAlgorithmNames();

// FindAlgorithm + make, with an error naming the valid algorithms.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeAlgorithm(
    std::string_view name, const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_REGISTRY_H_
