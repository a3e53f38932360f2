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
// gives back the binomial).
//
// Aggregate balance. Since the loads sum to m, the mean m/n is exact and
// the population variance of the loads, S^2 = (1/n) sum (L_i - m/n)^2, has
// expectation Var(L) (the per-node variance above). T = S^2 / Var(L) has
// mean 1 and, for near-normal loads, standard error sqrt(2 (n - 1)) / n
// (about a chi-squared with n - 1 degrees of freedom over n - 1). The suite
// checks |T - 1| <= 4 SE for N >= 10: a wrong spread over all nodes fails,
// and so does one node at 1.5x its share at N = 10 (T ~ 3.6 for a
// 100-vnode ring, 1 + 4 SE = 2.7). A single node's 1.5x at N = 50 is within
// the ring's own spread (5 sigma of one share) and is not detectable in
// aggregate.

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

// The owners of `keys`. For a stateful algorithm (bounded_load) the keys are
// placed (Place, in order; placed keys keep their node), so that it is tested
// under load and not as its unloaded ring.
inline std::vector<NodeId> Map(ConsistentHash& algo,
                               const std::vector<uint64_t>& keys) {
  std::vector<NodeId> owners(keys.size());
  const bool stateful = algo.capabilities().stateful;
  for (size_t i = 0; i < keys.size(); ++i) {
    owners[i] = stateful ? algo.Place(keys[i]) : algo.Lookup(keys[i]);
  }
  return owners;
}

// Lookup only, on a const instance (no placement).
inline std::vector<NodeId> LookupAll(const ConsistentHash& algo,
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

// The aggregate balance statistic (header comment): `t` = S^2 / Var(L) and
// its z-score (t - 1) / SE. `per_node_variance` = CountSigma(...)^2.
struct AggregateBalance {
  double t = 0;
  double z = 0;
  double se = 0;
};
inline AggregateBalance CheckAggregateBalance(const std::vector<size_t>& counts,
                                              double per_node_variance) {
  AggregateBalance a;
  const double n = static_cast<double>(counts.size());
  double m = 0;
  for (size_t c : counts) m += static_cast<double>(c);
  const double mean = m / n;
  double ss = 0;
  for (size_t c : counts) {
    ss += (static_cast<double>(c) - mean) * (static_cast<double>(c) - mean);
  }
  a.t = ss / n / per_node_variance;
  a.se = std::sqrt(2 * (n - 1)) / n;
  a.z = (a.t - 1) / a.se;
  return a;
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
