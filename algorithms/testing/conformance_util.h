// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: testing/conformance_util.h
// -----------------------------------------------------------------------------
//
// Small helpers shared by the registry-driven tests (conformance_test.cc,
// registry_test.cc, memory_alloc_test.cc): node specs, key digests, mappings,
// and the statistical bounds the conformance suite asserts.
//
// Statistical model. For m uniform keys and a node that owns a fraction p of
// the hash space, the node's key count is Binomial(m, p). When p is itself
// random because it is made of V hashed ring points (a node with v of the V
// points owns a Beta(v, V - v) share of the circle), the count is
// Beta-binomial with variance  m p (1 - p) (V + m) / (V + 1)  (V -> infinity
// gives back the binomial). The suite allows `kSigmas` standard deviations.

#ifndef CHBENCH_ALGORITHMS_TESTING_CONFORMANCE_UTIL_H_
#define CHBENCH_ALGORITHMS_TESTING_CONFORMANCE_UTIL_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/util/random.h"

namespace chbench {
namespace testing {

// Nodes "node-0" .. "node-(n-1)", weight 1 (the names MappingChecksum uses).
inline std::vector<NodeSpec> Specs(size_t n, std::string_view prefix = "node-") {
  std::vector<NodeSpec> specs(n);
  for (size_t i = 0; i < n; ++i) specs[i].name = std::string(prefix) + std::to_string(i);
  return specs;
}

// `count` key digests: the algorithm's own HashKey of the strings
// "key-<seed>-<i>", so that 32-bit hashes get 32-bit digests as in real use.
// A node spec (NodeSpec has a defaulted zone; this keeps -Wextra quiet).
// Shared by the conformance suite and every algorithm's own tests.
inline NodeSpec Node(std::string name, double weight = 1.0,
                     std::string zone = "") {
  NodeSpec spec;
  spec.name = std::move(name);
  spec.weight = weight;
  spec.zone = std::move(zone);
  return spec;
}

inline std::vector<uint64_t> KeyDigests(const ConsistentHash& algo,
                                        size_t count, uint64_t seed) {
  std::vector<uint64_t> keys(count);
  for (size_t i = 0; i < count; ++i) {
    keys[i] = algo.HashKey(absl::StrCat("key-", seed, "-", i));
  }
  return keys;
}

inline std::vector<NodeId> Map(const ConsistentHash& algo,
                               const std::vector<uint64_t>& keys) {
  std::vector<NodeId> owners(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) owners[i] = algo.Lookup(keys[i]);
  return owners;
}

// Standard deviation of a node's key count: m keys, share p, the share made
// of V random ring points (V = 0: a fixed share, i.e. binomial).
inline double CountSigma(double m, double p, double ring_points) {
  const double binomial = m * p * (1 - p);
  if (ring_points <= 0) return std::sqrt(binomial);
  return std::sqrt(binomial * (ring_points + m) / (ring_points + 1));
}

// True when CHBENCH_REGENERATE_GOLDEN=1: golden tests print the values to
// paste instead of failing (absl/hash/internal/low_level_hash_test.cc has the
// same switch).
inline bool RegenerateGolden() {
  const char* v = std::getenv("CHBENCH_REGENERATE_GOLDEN");
  return v != nullptr && std::string_view(v) == "1";
}

}  // namespace testing
}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_TESTING_CONFORMANCE_UTIL_H_
