// Copyright 2026 The chbench Authors.
//
// MappingChecksum: a fingerprint of an algorithm's mapping, used as the golden
// value of each registry row and as the correctness gate the experiment
// runner checks before any timing (martinus/map_benchmark verifies a checksum
// on every measurement in the same spirit).
//
// The fixed configuration: nodes "node-0" .. "node-9" (weight 1), 100 000 key
// digests from SplitMix64(kChecksumSeed); each key is looked up (or placed,
// for a stateful algorithm) in order and its owner's id is folded into an
// FNV-1a-style accumulator.

#ifndef CHBENCH_ALGORITHMS_CHECKSUM_H_
#define CHBENCH_ALGORITHMS_CHECKSUM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/util/random.h"

namespace chbench {

inline constexpr uint64_t kChecksumSeed = 0x636862656e6368ULL;  // "chbench"
inline constexpr int kChecksumNodes = 10;
inline constexpr int kChecksumKeys = 100000;

// Folds one owner id into a running checksum.
inline uint64_t FoldChecksum(uint64_t acc, uint64_t id) {
  return (acc ^ id) * 0x100000001b3ULL;
}
inline constexpr uint64_t kChecksumInit = 0xcbf29ce484222325ULL;

// Builds `algo` with the fixed nodes and returns the checksum of its mapping.
inline absl::StatusOr<uint64_t> MappingChecksum(ConsistentHash& algo) {
  std::vector<NodeSpec> nodes(kChecksumNodes);
  for (int i = 0; i < kChecksumNodes; ++i) {
    nodes[i].name = "node-" + std::to_string(i);
  }
  if (absl::Status s = algo.Build(nodes); !s.ok()) return s;
  SplitMix64 rng(kChecksumSeed);
  const bool stateful = algo.capabilities().stateful;
  uint64_t acc = kChecksumInit;
  for (int i = 0; i < kChecksumKeys; ++i) {
    const uint64_t key = rng();
    acc = FoldChecksum(acc, stateful ? algo.Place(key) : algo.Lookup(key));
  }
  return acc;
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_CHECKSUM_H_
