// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: modulo/modulo.h
// -----------------------------------------------------------------------------
//
// `Modulo<H>`: "hash mod N", the baseline every consistent-hashing scheme is
// measured against. The owner of a key is
//
//   live_nodes[key_hash % N]
//
// where `live_nodes` are the N live node ids in ascending order. It is exactly
// balanced for uniform digests and needs no memory beyond the node list, but
// when N changes almost every key moves: going from N to N + 1 nodes keeps a
// key only if `h % N == h % (N + 1)`, a fraction of about 1/(N + 1) of the
// keys, instead of moving only the 1/(N + 1) that must move (Karger et al.,
// "Consistent Hashing and Random Trees", STOC 1997, introduce consistent
// hashing as the fix; the seed articles show 80 % of keys moving from 4 to 5
// servers).
//
// Guarantees:
//   * Any live node can be removed; the list shrinks and later nodes shift
//     down one position, so most keys move (no minimal disruption).
//   * No weights (a weight other than 1 is rejected), no replicas.
//   * Every 64-bit value is a valid `key_hash`; only its residue mod N
//     matters.
//
// Complexity (N live nodes):
//   Lookup      O(1): one 64-bit division, and one load of the slot's id
//               once the live ids are no longer 0..N-1 (BucketToId,
//               node_table.h).
//   AddNode     O(1) amortized.   RemoveNode  O(N).   Build  O(N).
//   Memory      4 bytes per live node plus the NodeTable.
//
// Example:
//   Modulo<Xxh64> m;
//   m.Build(nodes).IgnoreError();
//   NodeId owner = m.Lookup(m.HashKey("user:42"));

#ifndef CHBENCH_ALGORITHMS_MODULO_MODULO_H_
#define CHBENCH_ALGORITHMS_MODULO_MODULO_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"
#include "algorithms/node_table_algorithm.h"

namespace chbench {

inline constexpr Capabilities kModuloCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = false,
    .weights = false,
    .replicas = false,
    .stateful = false,
};

template <typename H>
class Modulo final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  Modulo() : NodeTableAlgorithm<H>("modulo", /*weights_supported=*/false) {}

  std::string_view name() const override { return "modulo"; }
  Capabilities capabilities() const override { return kModuloCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    std::vector<NodeId> live;
    live.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) live.push_back(id);
    live_ = std::move(live);
    ids_ = IdTableOrNull(live_);
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    absl::StatusOr<NodeId> id = table_.Add(node);
    if (!id.ok()) return id.status();
    live_.push_back(*id);  // ids grow, so live_ stays ascending
    ids_ = IdTableOrNull(live_);
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    live_.erase(std::lower_bound(live_.begin(), live_.end(), id));
    ids_ = IdTableOrNull(live_);
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  // out[i] = Lookup(key_hashes[i]): the plain loop (LookupEach), inlined
  // through the final type; a remainder and at most one read of the bucket ->
  // id table (absent while ids are 0..n-1): nothing worth prefetching.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    LookupEach(*this, key_hashes, out);
  }

  NodeId Lookup(uint64_t key_hash) const override {
    return BucketToId(ids_, key_hash % live_.size());
  }

  // h mod N: bucket b (the b-th live id) holds the residue b's digests.
  std::vector<double> DigestSpaceShares() const override {
    return ResidueShares(live_.size(), H::kBits);
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kFromState;
  }


  // Heap bytes including the object itself (as allocated by MakeModulo).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() +
           live_.capacity() * sizeof(NodeId);
  }
  size_t size() const override { return live_.size(); }
  std::vector<NodeId> LiveNodes() const override { return live_; }

 private:
  using NodeTableAlgorithm<H>::table_;
  std::vector<NodeId> live_;  // live ids, ascending
  // live_.data(), or nullptr while the live ids are 0..N-1 (BucketToId).
  const NodeId* ids_ = nullptr;
};

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeModulo(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_MODULO_MODULO_H_
