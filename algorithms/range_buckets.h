// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: range_buckets.h
// -----------------------------------------------------------------------------
//
// RangeBuckets: the node bookkeeping of a *range hash*, an algorithm whose
// mapping is a function f(key, n) onto the bucket numbers 0..n-1 and keeps no
// state besides n (jumpback, flip, power, binomial). chbench wraps such a
// function by numbering the live nodes: bucket b is the b-th live node in id
// order. Since a bucket is a position, the only node that can leave without
// renumbering the others is the one in the last bucket, the live node with
// the highest id; RemoveNode of any other live node is refused with
// FailedPrecondition naming both the refused node and the removable one.
// Growing n by one and shrinking it back restores the previous mapping.
//
// The class holds the NodeTable (names, ids, validation) and the flat
// bucket -> id array (read by Lookup only once a removed node has been
// replaced; see BucketToId in node_table.h). It knows nothing about f.
// RangeHash<P, H> (below) is the one ConsistentHash of all four: P supplies
// f and its per-n constants, recomputed after each change.
//
// Example:
//   RangeBuckets buckets("flip", /*max_nodes=*/1u << 31);
//   CHECK_OK(buckets.Build(specs));
//   NodeId owner = buckets.live()[FlipHash(key, buckets.size())];

#ifndef CHBENCH_ALGORITHMS_RANGE_BUCKETS_H_
#define CHBENCH_ALGORITHMS_RANGE_BUCKETS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"

namespace chbench {

class RangeBuckets {
 public:
  // `algorithm` prefixes every error message; `max_nodes` is the largest n
  // the algorithm's function accepts, and `limit_reason` says why (it ends
  // the too-many-nodes message). Both strings must outlive the object
  // (string literals).
  RangeBuckets(const char* algorithm, size_t max_nodes,
               const char* limit_reason)
      : algorithm_(algorithm),
        max_nodes_(max_nodes),
        limit_reason_(limit_reason),
        table_(algorithm, /*weights_supported=*/false) {}

  // Replaces the node set (ids 0..n-1, node i in bucket i). On error the
  // previous node set is kept.
  absl::Status Build(std::span<const NodeSpec> nodes) {
    if (nodes.size() > max_nodes_) return TooMany(nodes.size());
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    std::vector<NodeId> ids;
    ids.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) ids.push_back(id);
    ids_ = std::move(ids);
    return absl::OkStatus();
  }

  // The new node takes bucket n.
  absl::StatusOr<NodeId> Add(const NodeSpec& node) {
    if (ids_.size() >= max_nodes_) return TooMany(ids_.size() + 1);
    absl::StatusOr<NodeId> id = table_.Add(node);
    if (!id.ok()) return id.status();
    ids_.push_back(*id);
    return *id;
  }

  // Only the node in bucket n-1 can leave.
  absl::Status Remove(NodeId id) {
    if (absl::Status s = table_.CheckLive(id); !s.ok()) return s;
    const NodeId last = ids_.back();
    if (id != last) {
      return absl::FailedPreconditionError(absl::StrCat(
          algorithm_, ": cannot remove node '", table_.name(id), "' (id ", id,
          ") because ", algorithm_,
          " maps keys to bucket numbers 0..n-1 (bucket b = b-th live node) "
          "and removals are last-in first-out; the only node that can be "
          "removed now is '",
          table_.name(last), "' (id ", last, ")"));
    }
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    ids_.pop_back();
    return absl::OkStatus();
  }

  size_t size() const { return ids_.size(); }
  // The bucket -> id array (bucket b holds the b-th live id, ascending).
  const std::vector<NodeId>& live() const { return ids_; }
  const std::string& name(NodeId id) const { return table_.name(id); }

  // Heap bytes owned (not counting the object that embeds this one).
  size_t MemoryBytes() const {
    return table_.MemoryBytes() + ids_.capacity() * sizeof(NodeId);
  }

 private:
  absl::Status TooMany(size_t n) const {
    return absl::InvalidArgumentError(absl::StrCat(
        algorithm_, ": ", n, " nodes requested; ", algorithm_,
        " supports at most ", max_nodes_, " (", limit_reason_, ")"));
  }

  const char* algorithm_;
  size_t max_nodes_;
  const char* limit_reason_;
  NodeTable table_;
  std::vector<NodeId> ids_;
};

// RangeHash<P, H>: the ConsistentHash of a range hash, a function that maps
// a 64-bit digest to a bucket in [0, n) and supports only growing and
// shrinking n at the top (jumpback, flip, power, binomial). Bucket b is the
// b-th live node; only the last node can be removed (RangeBuckets). The
// policy P supplies what differs between them:
//
//   struct P {
//     static constexpr const char* kName;          // registry name
//     static constexpr size_t kMaxNodes;           // largest n
//     static constexpr const char* kLimitReason;   // why (for the error)
//     static constexpr Capabilities kCapabilities;
//     using Range = ...;                           // per-n constants
//     static Range MakeRange(size_t n);
//     static uint64_t Bucket(uint64_t x, const Range& r);  // in [0, n)
//   };
//
// Lookup reads the Range and, once a removed node has been replaced (ids no
// longer 0..n-1), the bucket -> id array, both refreshed after every change;
// it is P::Bucket plus BucketToId (node_table.h), inlinable through the
// concrete type. H is the hash policy of HashKey (keys are digests: the
// range functions hash nothing themselves).
template <typename P, typename H>
class RangeHash final : public ConsistentHash {
 public:
  static constexpr size_t kMaxNodes = P::kMaxNodes;

  RangeHash() : buckets_(P::kName, P::kMaxNodes, P::kLimitReason) {}

  std::string_view name() const override { return P::kName; }
  Capabilities capabilities() const override { return P::kCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    absl::Status s = buckets_.Build(nodes);
    Refresh();
    return s;
  }
  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    absl::StatusOr<NodeId> id = buckets_.Add(node);
    Refresh();
    return id;
  }
  // Only the last node (highest live id, bucket N - 1) can be removed.
  absl::Status RemoveNode(NodeId id) override {
    absl::Status s = buckets_.Remove(id);
    Refresh();
    return s;
  }

  // out[i] = Lookup(key_hashes[i]): the plain loop (LookupEachWith) over
  // P::Bucket, arithmetic over per-n constants, with the bucket -> id
  // choice (BucketToId) made once per call instead of once per key: one of
  // two loops, with or without the id table.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    const typename P::Range range = range_;
    const NodeId* const ids = ids_;
    if (ids == nullptr) {
      LookupEachWith(key_hashes, out,
                     [range](uint64_t h) ABSL_ATTRIBUTE_ALWAYS_INLINE {
                       return static_cast<NodeId>(P::Bucket(h, range));
                     });
    } else {
      LookupEachWith(key_hashes, out,
                     [range, ids](uint64_t h) ABSL_ATTRIBUTE_ALWAYS_INLINE {
                       return ids[P::Bucket(h, range)];
                     });
    }
  }

  // Precondition: size() > 0.
  NodeId Lookup(uint64_t key_hash) const override {
    return BucketToId(ids_, P::Bucket(key_hash, range_));
  }

  // Every live bucket equally likely for a uniform digest: the algorithm's
  // guarantee (its paper's proof), not a property of this instance.
  std::vector<double> DigestSpaceShares() const override {
    return UniformShares(size());
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kByConstruction;
  }

  uint64_t HashKey(std::string_view key) const override {
    return HashString<H>(key, 0);
  }

  // Heap bytes including the object itself (as allocated by MakeRangeHash).
  size_t MemoryBytes() const override {
    return sizeof(*this) + buckets_.MemoryBytes();
  }
  size_t size() const override { return buckets_.size(); }
  std::vector<NodeId> LiveNodes() const override { return buckets_.live(); }
  const std::string& NodeName(NodeId id) const override {
    return buckets_.name(id);
  }

 private:
  // The per-n constants Lookup reads, recomputed after every change.
  void Refresh() {
    ids_ = IdTableOrNull(buckets_.live());
    range_ = P::MakeRange(buckets_.size());
  }

  // Hot fields first: one cache line with the vtable pointer.
  // bucket -> id (RangeBuckets' array), or nullptr while ids are 0..n-1.
  const NodeId* ids_ = nullptr;
  typename P::Range range_ = P::MakeRange(0);
  RangeBuckets buckets_;
};

// RangeHashOf<P>::type<H> is RangeHash<P, H>: the one-parameter template
// that MakeWithHash instantiates per hash policy.
template <typename P>
struct RangeHashOf {
  template <typename H>
  using type = RangeHash<P, H>;
};

// Factory for the registry rows of range hashes: validates `params.hash`
// (the only parameter that applies) and returns an empty instance.
template <typename P>
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeRangeHash(
    const AlgorithmParams& params) {
  return MakeWithHash<RangeHashOf<P>::template type>(params);
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_RANGE_BUCKETS_H_
