// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: jump/jump.h
// -----------------------------------------------------------------------------
//
// Jump consistent hash (John Lamping and Eric Veach, "A Fast, Minimal Memory,
// Consistent Hash Algorithm", arXiv:1406.2294, 2014).
//
// `JumpConsistentHash(key, n)` maps a 64-bit key to a bucket in [0, n) such
// that growing n to n + 1 moves exactly the keys that land in the new bucket
// n (a fraction 1/(n + 1) in expectation) and no others. It needs no memory:
// the key seeds a 64-bit linear congruential generator (multiplier
// 2862933555777941757, increment 1, from the paper) whose outputs decide, jump
// by jump, the last bucket that n would still keep.
//
// `Jump<H>` wraps it as a `ConsistentHash`: bucket b is the b-th live node in
// id order. Because buckets are positions, only the last node (the live node
// with the highest id) can be removed; removing it restores the mapping from
// before it was added. Removing any other node is refused with
// FailedPrecondition (the paper's abstract: buckets must be numbered
// sequentially, which suits data storage better than web caching).
//
// Guarantees:
//   * Bit-exact with the paper's C++ function, including its double-precision
//     jump `(b + 1) * (2^31 / ((key >> 33) + 1))`. Guava's
//     `Hashing.consistentHash(long input, int buckets)` is the same algorithm:
//     it too uses the input itself as the initial LCG state, with the same
//     multiplier and increment, and jumps while the target is < buckets.
//     It computes the jump as `(candidate + 1) / (((state >>> 33) + 1) /
//     2^31)`, one rounding instead of two; the results agree on all of
//     Guava's HashingTest golden vectors and on 2 * 10^7 random (key, n)
//     pairs we tried, and differ only when (b + 1) * 2^31 / ((state >> 33) +
//     1) is an exact integer that the paper's product rounds down
//     (jump_test.cc pins such a constructed key). We follow the paper.
//   * Minimal disruption for adding a node and for removing the last one.
//   * No weights (a weight other than 1 is rejected), no replicas.
//
// Complexity (N live nodes):
//   Lookup      O(ln N) LCG steps (expected ln N + 1), no memory access except
//               the bucket -> id load, skipped while the ids are 0..N-1
//               (BucketToId, node_table.h).
//   AddNode     O(1) amortized.   RemoveNode  O(1) (last node only).
//   Build       O(N).             Memory      4 bytes per live node plus the
//                                             NodeTable (the bucket -> id map).

#ifndef CHBENCH_ALGORITHMS_JUMP_JUMP_H_
#define CHBENCH_ALGORITHMS_JUMP_JUMP_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"
#include "algorithms/node_table_algorithm.h"

namespace chbench {

// The paper's function (arXiv:1406.2294, figure 1), written out: `b` is the
// current bucket, `j` the next jump target; the loop ends at the first target
// >= num_buckets. Precondition: num_buckets > 0 (returns -1 otherwise).
inline int32_t JumpConsistentHash(uint64_t key, int32_t num_buckets) {
  int64_t b = -1;
  int64_t j = 0;
  while (j < num_buckets) {
    b = j;
    key = key * 2862933555777941757ULL + 1;
    j = static_cast<int64_t>(static_cast<double>(b + 1) *
                             (static_cast<double>(int64_t{1} << 31) /
                              static_cast<double>((key >> 33) + 1)));
  }
  return static_cast<int32_t>(b);
}

inline constexpr Capabilities kJumpCapabilities = {
    .arbitrary_removal = false,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
};

template <typename H>
class Jump final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  // JumpConsistentHash takes an int32 bucket count.
  static constexpr size_t kMaxNodes = std::numeric_limits<int32_t>::max();

  Jump() : NodeTableAlgorithm<H>("jump", /*weights_supported=*/false) {}

  std::string_view name() const override { return "jump"; }
  Capabilities capabilities() const override { return kJumpCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    if (nodes.size() > kMaxNodes) return TooManyNodes(nodes.size());
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
    if (live_.size() >= kMaxNodes) return TooManyNodes(live_.size() + 1);
    absl::StatusOr<NodeId> id = table_.Add(node);
    if (!id.ok()) return id.status();
    live_.push_back(*id);  // the new node is bucket N
    ids_ = IdTableOrNull(live_);
    return *id;
  }

  // Only the last node (highest live id, bucket N - 1) can be removed.
  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.CheckLive(id); !s.ok()) return s;
    const NodeId last = live_.back();
    if (id != last) {
      return absl::FailedPreconditionError(absl::StrCat(
          "jump: cannot remove node '", table_.name(id), "' (id ", id,
          "); jump maps keys to bucket positions, so only the last one ('",
          table_.name(last), "', id ", last, ") can be removed"));
    }
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    live_.pop_back();
    ids_ = IdTableOrNull(live_);
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  // out[i] = Lookup(key_hashes[i]): the plain loop (LookupEach), inlined
  // through the final type; Jump is arithmetic (O(ln N) dependent
  // steps) and reads at most one bucket -> id entry.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    LookupEach(*this, key_hashes, out);
  }

  NodeId Lookup(uint64_t key_hash) const override {
    return BucketToId(ids_, static_cast<uint32_t>(JumpConsistentHash(
                                key_hash, static_cast<int32_t>(live_.size()))));
  }

  // Every live bucket equally likely for a uniform digest: the algorithm's
  // guarantee (its paper's proof), not a property of this instance.
  std::vector<double> DigestSpaceShares() const override {
    return UniformShares(size());
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kByConstruction;
  }


  // Heap bytes including the object itself (as allocated by MakeJump).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() +
           live_.capacity() * sizeof(NodeId);
  }
  size_t size() const override { return live_.size(); }
  std::vector<NodeId> LiveNodes() const override { return live_; }

 private:
  static absl::Status TooManyNodes(size_t n) {
    return absl::InvalidArgumentError(
        absl::StrCat("jump: ", n, " nodes requested; jump supports at most ",
                     kMaxNodes, " (int32 buckets)"));
  }

  using NodeTableAlgorithm<H>::table_;
  std::vector<NodeId> live_;  // bucket b -> id; ascending
  // live_.data(), or nullptr while the live ids are 0..N-1 (BucketToId).
  const NodeId* ids_ = nullptr;
};

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeJump(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_JUMP_JUMP_H_
