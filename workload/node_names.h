// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: workload/node_names.h
// -----------------------------------------------------------------------------
//
// NodeName: the name of node i in every workload of the suite (experiment
// cells, timing groups, the cache cluster). Node i is "node-<i>" for seed 0
// and "node-<i>-s<seed>" otherwise, so that a repetition at another seed also
// draws a fresh ring or table layout (names are hashed by most algorithms).
//
// Guarantees: deterministic and injective over (i, seed); decimal numbers, no
// padding. meta.json states the rule ("node_names").
//
// Complexity: O(1) (one small string).
//
// Example:
//   NodeName(3, 0)  // "node-3"
//   NodeName(3, 7)  // "node-3-s7"

#ifndef CHBENCH_WORKLOAD_NODE_NAMES_H_
#define CHBENCH_WORKLOAD_NODE_NAMES_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"

namespace chbench {

// Node i's name under seed `seed` (see file comment).
inline std::string NodeName(size_t i, uint64_t seed) {
  return seed == 0 ? absl::StrCat("node-", i)
                   : absl::StrCat("node-", i, "-s", seed);
}

}  // namespace chbench

#endif  // CHBENCH_WORKLOAD_NODE_NAMES_H_
