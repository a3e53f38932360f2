// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bounded_load/bounded_load.h
// -----------------------------------------------------------------------------
//
// Consistent hashing with bounded loads: Mirrokni, Thorup, Zadimoghaddam,
// "Consistent Hashing with Bounded Loads", SODA 2018 (arXiv:1608.01350).
//
// Semantics. The ring is the `ring` algorithm's: node X has `vnodes` points at
// H("X#0"), ..., H("X#<vnodes-1>") on the 64-bit circle, sorted by
// (point, node name, vnode index); a key's successor is the first point
// strictly greater than its digest, wrapping past the largest point to the
// smallest (for a 32-bit H the circle is [0, 2^32) and the digest is reduced
// mod 2^32 first, as in the ring; the placed-key map uses the full digest).
// Keys are placed one at a time. When m keys are already placed on n live
// nodes, the next key may go to a node whose load is below
//
//   capacity = ⌈c · (m + 1) / n⌉,   c = load_factor > 1,
//
// and goes to the first such node met walking clockwise from its successor
// (points of full nodes are skipped). The product c · (m + 1) is rounded once
// to IEEE double; the ceilings are then exact integer arithmetic.
//
// The algorithm is stateful: `Place(key)` records the key (placing a key
// twice returns its node and counts it once); `Lookup(key)` returns the node
// of a placed key, or for a key never placed the node `Place` would choose
// now, without placing it. Every node change (Build, AddNode, RemoveNode)
// re-places all placed keys, in their original placement order, on the new
// node set, so the assignment always equals that of a fresh instance that
// placed the same keys in the same order (the paper's insertion model; a
// change of n changes every capacity, so an incremental update would not give
// this result in general).
//
// Guarantees.
//   * After every placement, no node holds more than ⌈c · m / n⌉ keys, m the
//     number of placed keys (the paper's invariant; some node always has
//     room because c > 1).
//   * Deterministic across processes and machines (given a reproducible H);
//     the key -> index map is an absl::flat_hash_map, whose per-process seed
//     only changes its iteration order, which nothing here depends on.
//   * Not minimal disruption: a node change shifts every capacity.
//
// Complexity. LookupUnplaced (the stateless routing of a fresh key): the
// ring's successor (a Ring<H> holds the points; one cache line, O(1)
// expected) plus the walk past full nodes (expected O(1/ε²) points with
// c = 1 + ε, the paper's Theorem 1 bounds the expected search), no hash-map
// work. Place: the same plus one hash-map insert. Lookup: one hash-map
// probe, then for a placed key one array read, for an unplaced one
// LookupUnplaced.
// Build/AddNode/RemoveNode: the ring's update, then a replay of every placed
// key in order (sequential arrays and the loads; no hash-map work, since a
// key's placement index never changes). Memory: the ring's (20.5..44 bytes
// per point, see ring.h), 8 bytes per placed key in placement order, 4 for its
// node, the hash map key -> index (about 17 bytes per slot), 8 per node id for
// the loads; the node table is the ring's.
//
// Example:
//   BoundedLoad<Xxh64> bl(/*vnodes=*/100, /*load_factor=*/1.25);
//   absl::Status s = bl.Build(nodes);
//   NodeId where = bl.Place(bl.HashKey("session:17"));
//   assert(bl.Lookup(bl.HashKey("session:17")) == where);

#ifndef CHBENCH_ALGORITHMS_BOUNDED_LOAD_BOUNDED_LOAD_H_
#define CHBENCH_ALGORITHMS_BOUNDED_LOAD_BOUNDED_LOAD_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/node_table.h"
#include "algorithms/ring/ring.h"

namespace chbench {

inline constexpr Capabilities kBoundedLoadCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = false,
    .weights = false,
    .replicas = false,
    .stateful = true,
};

// Validates the parameters BoundedLoad reads (hash, vnodes, load_factor) and
// returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeBoundedLoad(
    const AlgorithmParams& params);

namespace bounded_load_internal {

inline constexpr uint32_t kMaxVnodes = 1000000;

// OK for 1 <= vnodes <= kMaxVnodes and a finite load factor > 1; otherwise
// InvalidArgument naming the value and the valid range.
absl::Status ValidateParams(uint32_t vnodes, double load_factor);

// ⌈c · (m + 1) / n⌉ for n >= 1: c · (m + 1) rounded once to double, then
// exact integer ceilings. Saturates at 2^64 - 1.
inline uint64_t Capacity(double c, uint64_t m_plus_1, uint64_t n) {
  const double t = c * static_cast<double>(m_plus_1);
  if (!(t < 0x1p64)) return std::numeric_limits<uint64_t>::max();
  const uint64_t ceil_t = static_cast<uint64_t>(std::ceil(t));
  return ceil_t / n + (ceil_t % n != 0 ? 1 : 0);
}

}  // namespace bounded_load_internal

template <typename H>
class BoundedLoad final : public ConsistentHash {
 public:
  // Parameters are checked by MakeBoundedLoad; invalid ones given here are
  // reported by Build/AddNode.
  explicit BoundedLoad(uint32_t vnodes = 100, double load_factor = 1.25)
      : vnodes_(vnodes),
        c_(load_factor),
        ring_(vnodes, "bounded_load", /*weights_supported=*/false) {}
  explicit BoundedLoad(const AlgorithmParams& params)
      : BoundedLoad(params.vnodes, params.load_factor) {}

  std::string_view name() const override { return "bounded_load"; }
  Capabilities capabilities() const override {
    return kBoundedLoadCapabilities;
  }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    if (absl::Status s = bounded_load_internal::ValidateParams(vnodes_, c_);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = ring_.Build(nodes); !s.ok()) return s;
    Replay();
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = bounded_load_internal::ValidateParams(vnodes_, c_);
        !s.ok()) {
      return s;
    }
    absl::StatusOr<NodeId> id = ring_.AddNode(node);
    if (!id.ok()) return id.status();
    Replay();
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = ring_.RemoveNode(id); !s.ok()) return s;
    Replay();
    return absl::OkStatus();
  }

  // The node of a placed key; for a key never placed, the node Place would
  // choose now. Precondition: at least one live node.
  NodeId Lookup(uint64_t key_hash) const override {
    const auto it = index_of_.find(key_hash);
    if (it != index_of_.end()) return node_of_[it->second];
    return LookupUnplaced(key_hash);
  }

  // out[i] = Lookup(key_hashes[i]), by groups of kLookupGroup keys: the
  // placed-key map's slot and the ring's bucket line of every key of a group
  // are prefetched, then each key is looked up. While both fit in
  // kPrefetchPaysFromBytes (read from cache), the plain loop. Same owners as
  // Lookup.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    if (!ring_.prefetch_pays() &&
        index_of_.capacity() * sizeof(std::pair<const uint64_t, uint64_t>) <
            kPrefetchPaysFromBytes) {
      LookupEach(*this, key_hashes, out);
      return;
    }
    GroupedLookup(
        key_hashes, out,
        [this](uint64_t h) {
          index_of_.prefetch(h);
          ring_.PrefetchLine(h);
          return true;
        },
        [this](uint64_t h, bool) { return Lookup(h); });
  }

  // out[i] = LookupUnplaced(key_hashes[i]), by groups of kLookupGroup keys:
  // the ring's bucket line of every key of a group is prefetched, then each
  // key is routed (successor, load, the walk past full nodes); a ring whose
  // lines fit in cache (Ring::prefetch_pays) takes the plain loop. The
  // batched form of a stateless bounded-load balancer's per-request work.
  void LookupUnplacedBatch(std::span<const uint64_t> key_hashes,
                           std::span<NodeId> out) const {
    if (!ring_.prefetch_pays()) {
      LookupEachWith(key_hashes, out,
                     [this](uint64_t h) ABSL_ATTRIBUTE_ALWAYS_INLINE {
                       return LookupUnplaced(h);
                     });
      return;
    }
    GroupedLookup(
        key_hashes, out,
        [this](uint64_t h) {
          ring_.PrefetchLine(h);
          return true;
        },
        [this](uint64_t h, bool) { return LookupUnplaced(h); });
  }

  // The node Place would choose now for a key that has NOT been placed: the
  // owner of the key's ring successor, or walking clockwise past the points
  // of full nodes, the first node whose load is below NextCapacity(). The
  // placed-key map is not consulted, so for a key already placed the answer
  // may differ from Lookup (it is where the key would go if it were new).
  // This is the per-request work of a stateless bounded-load balancer
  // (loads known, no per-key state). Cost: the ring's Lookup (one line) and
  // one read of the owner's load; each full node met costs one more owner
  // and load read. Precondition: at least one live node (otherwise returns
  // kInvalidNode).
  NodeId LookupUnplaced(uint64_t key_hash) const {
    const NodeId first = ring_.Lookup(key_hash);
    if (ABSL_PREDICT_TRUE(first != kInvalidNode && load_[first] < next_cap_)) {
      return first;
    }
    return Choose(key_hash, keys_.size());
  }

  // Places the key (see the file comment) and returns its node; a key
  // already placed keeps its node. With no live node, returns kInvalidNode
  // and records nothing.
  NodeId Place(uint64_t key_hash) override {
    if (nodes().live_count() == 0) return kInvalidNode;
    return PlaceFrom(key_hash, ring_.SuccessorPosition(key_hash));
  }

  // Place for each key in order, in blocks: first every successor of the
  // block (independent lookups whose cache misses overlap, with prefetches of
  // the owner and the hash-map slot), then the placements in order.
  void PlaceBatch(std::span<const uint64_t> keys,
                  std::span<NodeId> out) override {
    if (nodes().live_count() == 0) {
      std::fill(out.begin(), out.begin() + keys.size(), kInvalidNode);
      return;
    }
    // The batch's size is known: grow the key map and arrays once (no
    // rehash of the map or copy of the arrays while placing).
    index_of_.reserve(index_of_.size() + keys.size());
    keys_.reserve(keys_.size() + keys.size());
    node_of_.reserve(node_of_.size() + keys.size());
    constexpr size_t kBlock = 64;
    uint32_t pos[kBlock];
    const NodeId* owners = ring_.owners().data();
    for (size_t b = 0; b < keys.size(); b += kBlock) {
      const size_t n = std::min(kBlock, keys.size() - b);
      for (size_t i = 0; i < n; ++i) {
        pos[i] = ring_.SuccessorPosition(keys[b + i]);
        __builtin_prefetch(owners + pos[i]);
        index_of_.prefetch(keys[b + i]);
      }
      for (size_t i = 0; i < n; ++i)
        out[b + i] = PlaceFrom(keys[b + i], pos[i]);
    }
  }

  uint64_t HashKey(std::string_view key) const override {
    return HashString<H>(key, 0);
  }

  size_t MemoryBytes() const override {
    using Slot = std::pair<const uint64_t, uint64_t>;
    size_t map_bytes = 0;
    if (const size_t cap = index_of_.capacity(); cap != 0) {
      // absl raw_hash_set's single allocation: capacity + 1 + 15 (cloned)
      // control bytes, rounded up to the slot alignment, then the slots.
      map_bytes = ((cap + 1 + 15 + alignof(Slot) - 1) & ~(alignof(Slot) - 1)) +
                  cap * sizeof(Slot);
    }
    // The object itself counts (the factory allocates it on the heap); the
    // ring's own figure includes its object, which is part of ours.
    return sizeof(*this) + (ring_.MemoryBytes() - sizeof(ring_)) +
           load_.capacity() * sizeof(uint64_t) +
           keys_.capacity() * sizeof(uint64_t) +
           node_of_.capacity() * sizeof(NodeId) + map_bytes;
  }
  size_t size() const override { return nodes().live_count(); }
  std::vector<NodeId> LiveNodes() const override { return nodes().LiveIds(); }
  const std::string& NodeName(NodeId id) const override {
    static const std::string* const kUnknown = new std::string();
    return id < nodes().issued() ? nodes().name(id) : *kUnknown;
  }

  // Introspection (tests, the runner's load metrics).
  // Number of placed keys (m).
  size_t placed() const { return keys_.size(); }
  // Keys on node `id` (0 for removed or unknown ids).
  uint64_t load(NodeId id) const { return id < load_.size() ? load_[id] : 0; }
  // The capacity the next placement is held to: ⌈c · (m + 1) / n⌉.
  uint64_t NextCapacity() const {
    return nodes().live_count() == 0
               ? 0
               : bounded_load_internal::Capacity(c_, keys_.size() + 1,
                                                 nodes().live_count());
  }
  // The placed keys in placement order.
  std::span<const uint64_t> placed_keys() const { return keys_; }
  // Forgets every placement (the node set stays).
  void ClearPlacements() {
    std::vector<uint64_t>().swap(keys_);
    std::vector<NodeId>().swap(node_of_);
    decltype(index_of_)().swap(index_of_);
    std::fill(load_.begin(), load_.end(), 0);
    UpdateNextCapacity();
  }
  // The ring: points ascending and the node owning each.
  std::span<const uint64_t> ring_points() const { return ring_.points(); }
  std::span<const NodeId> ring_owners() const { return ring_.owners(); }

 private:
  const NodeTable& nodes() const { return ring_.table(); }

  // Place, given the key's ring successor position. Precondition: a live
  // node.
  NodeId PlaceFrom(uint64_t key_hash, size_t successor) {
    const uint64_t m = keys_.size();
    const auto [it, inserted] = index_of_.try_emplace(key_hash, m);
    if (!inserted) return node_of_[it->second];
    const NodeId node = ChooseFrom(successor, m);
    ++load_[node];
    keys_.push_back(key_hash);
    node_of_.push_back(node);
    UpdateNextCapacity();
    return node;
  }

  // The first node clockwise from the key's successor whose load is below
  // the capacity for the (m+1)-th key. Some live node always qualifies: the
  // loads sum to m < c · (m + 1) <= n · capacity.
  NodeId Choose(uint64_t key_hash, uint64_t m) const {
    if (ring_.owners().empty()) return kInvalidNode;
    // The ring's successor: its top-bits index, O(1) expected.
    return ChooseFrom(ring_.SuccessorPosition(key_hash), m);
  }

  // Choose from a successor position in [0, P] (P: past the largest point).
  NodeId ChooseFrom(size_t successor, uint64_t m) const {
    const std::span<const NodeId> owners = ring_.owners();
    const size_t n_points = owners.size();
    const uint64_t cap =
        bounded_load_internal::Capacity(c_, m + 1, nodes().live_count());
    for (size_t i = successor;; ++i) {
      if (i == n_points) i = 0;
      const NodeId node = owners[i];
      if (load_[node] < cap) return node;
    }
  }

  // Re-places every placed key, in placement order, on the current nodes.
  // The key -> placement index map does not change.
  void Replay() {
    load_.assign(nodes().issued(), 0);
    UpdateNextCapacity();
    if (nodes().live_count() == 0) {
      std::fill(node_of_.begin(), node_of_.end(), kInvalidNode);
      return;
    }
    for (size_t m = 0; m < keys_.size(); ++m) {
      const NodeId node = Choose(keys_[m], m);
      ++load_[node];
      node_of_[m] = node;
    }
    UpdateNextCapacity();
  }

  // next_cap_ = NextCapacity() (0 with no live node), kept current so that
  // LookupUnplaced needs no division.
  void UpdateNextCapacity() { next_cap_ = NextCapacity(); }

  uint32_t vnodes_;
  double c_;
  // The ring algorithm's points, and the node table (ids, names, liveness;
  // errors name bounded_load, and weights other than 1 are rejected).
  Ring<H> ring_;
  std::vector<uint64_t> load_;   // keys per node id
  uint64_t next_cap_ = 0;        // NextCapacity()
  std::vector<uint64_t> keys_;   // placed keys, in placement order
  std::vector<NodeId> node_of_;  // node_of_[i]: node of keys_[i]
  // key -> its index i
  absl::flat_hash_map<
      uint64_t, uint64_t, absl::Hash<uint64_t>, std::equal_to<uint64_t>,
      HugePageAllocator<std::pair<const uint64_t, uint64_t>>>
      index_of_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_BOUNDED_LOAD_BOUNDED_LOAD_H_
