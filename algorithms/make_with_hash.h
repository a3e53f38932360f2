// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: make_with_hash.h
// -----------------------------------------------------------------------------
//
// `MakeWithHash<A>(params, args...)`: the hash dispatch shared by the
// registry factories. It looks up `params.hash` among the hash policies
// (DispatchHash, hash/hash_function.h) and returns a new `A<H>(args...)` for
// the policy `H` of that name, held as a `ConsistentHash`.
//
// Guarantees:
//   * An unknown hash name gives UnknownHashError(params.hash) (hash/
//     hash_registry.h): InvalidArgument naming the bad name and the valid ones.
//   * It validates nothing else: each factory checks its own parameters, with
//     its own messages, before calling it.
//
// `A` is a class template over the hash policy. A template with more
// parameters passes through an alias template that fixes the others, e.g.
// `template <typename H> using FlipHash = RangeHash<FlipPolicy, H>;`.
//
// Complexity: one comparison per hash name until the match, one allocation.
//
// Example:
//   // ring.cc (the factory is defined out of line, in its folder's .cc)
//   absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeRing(
//       const AlgorithmParams& params) {
//     if (params.vnodes < kRingMinVnodes) return ...;  // own validation
//     return MakeWithHash<Ring>(params, params.vnodes);
//   }

#ifndef CHBENCH_ALGORITHMS_MAKE_WITH_HASH_H_
#define CHBENCH_ALGORITHMS_MAKE_WITH_HASH_H_

#include <memory>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/hash_registry.h"

namespace chbench {

template <template <typename> class A, typename... Args>
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeWithHash(
    const AlgorithmParams& params, const Args&... args) {
  std::unique_ptr<ConsistentHash> algo;
  const bool known = DispatchHash(params.hash, [&]<typename H>() {
    algo = std::make_unique<A<H>>(args...);
  });
  if (!known) return UnknownHashError(params.hash);
  return algo;
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_MAKE_WITH_HASH_H_
