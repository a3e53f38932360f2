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
//     the key -> node map is an absl::flat_hash_map, whose per-process seed
//     only changes its iteration order, which nothing here depends on.
//   * Not minimal disruption: a node change shifts every capacity.
//
// Complexity. Place and Lookup of an unplaced key: a binary search over the
// n · vnodes points plus the walk past full nodes (expected O(1/ε²) points
// with c = 1 + ε, the paper's Theorem 1 bounds the expected search). Lookup of
// a placed key: one hash-map probe. Build/AddNode/RemoveNode: rebuild or merge
// the ring, then replay every placed key. Memory: 12 bytes per ring point,
// 8 per placed key in placement order plus the hash map (about 17 bytes per
// slot), 8 per node id for the loads, and the node table.
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
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/node_table.h"

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
      : vnodes_(vnodes), c_(load_factor) {}
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
    if (absl::Status s = nodes_.ValidateBatch(nodes); !s.ok()) return s;
    nodes_.Clear();
    for (const NodeSpec& spec : nodes) (void)nodes_.Add(spec);
    std::vector<Point> points;
    points.reserve(nodes.size() * size_t{vnodes_});
    for (NodeId id = 0; id < nodes.size(); ++id) AppendPoints(id, points);
    std::sort(points.begin(), points.end(),
              [this](const Point& a, const Point& b) { return Less(a, b); });
    SetRing(points);
    Replay();
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = bounded_load_internal::ValidateParams(vnodes_, c_);
        !s.ok()) {
      return s;
    }
    absl::StatusOr<NodeId> id = nodes_.Add(node);
    if (!id.ok()) return id.status();
    std::vector<Point> fresh;
    fresh.reserve(vnodes_);
    AppendPoints(*id, fresh);
    std::sort(fresh.begin(), fresh.end(),
              [this](const Point& a, const Point& b) { return Less(a, b); });
    // Merge the new node's sorted points into the ring.
    std::vector<Point> merged;
    merged.reserve(points_.size() + fresh.size());
    size_t i = 0, j = 0;
    while (i < points_.size() || j < fresh.size()) {
      if (j == fresh.size() ||
          (i < points_.size() && Less({points_[i], owners_[i], 0}, fresh[j]))) {
        merged.push_back({points_[i], owners_[i], 0});
        ++i;
      } else {
        merged.push_back(fresh[j++]);
      }
    }
    SetRing(merged);
    Replay();
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = nodes_.Remove(id); !s.ok()) return s;
    size_t out = 0;
    for (size_t i = 0; i < points_.size(); ++i) {
      if (owners_[i] == id) continue;
      points_[out] = points_[i];
      owners_[out] = owners_[i];
      ++out;
    }
    points_.resize(out);
    owners_.resize(out);
    points_.shrink_to_fit();
    owners_.shrink_to_fit();
    Replay();
    return absl::OkStatus();
  }

  // The node of a placed key; for a key never placed, the node Place would
  // choose now. Precondition: at least one live node.
  NodeId Lookup(uint64_t key_hash) const override {
    const auto it = assignment_.find(key_hash);
    if (it != assignment_.end()) return it->second;
    return Choose(key_hash, keys_.size());
  }

  // Places the key (see the file comment) and returns its node; a key
  // already placed keeps its node. With no live node, returns kInvalidNode
  // and records nothing.
  NodeId Place(uint64_t key_hash) override {
    const auto it = assignment_.find(key_hash);
    if (it != assignment_.end()) return it->second;
    if (nodes_.live_count() == 0) return kInvalidNode;
    const NodeId node = Choose(key_hash, keys_.size());
    ++load_[node];
    keys_.push_back(key_hash);
    assignment_.emplace(key_hash, node);
    return node;
  }

  uint64_t HashKey(std::string_view key) const override {
    return HashString<H>(key, 0);
  }

  size_t MemoryBytes() const override {
    using Slot = std::pair<const uint64_t, NodeId>;
    size_t map_bytes = 0;
    if (const size_t cap = assignment_.capacity(); cap != 0) {
      // absl raw_hash_set's single allocation: capacity + 1 + 15 (cloned)
      // control bytes, rounded up to the slot alignment, then the slots.
      map_bytes = ((cap + 1 + 15 + alignof(Slot) - 1) & ~(alignof(Slot) - 1)) +
                  cap * sizeof(Slot);
    }
    // The object itself counts: the factory allocates it on the heap.
    return sizeof(*this) + nodes_.MemoryBytes() +
           points_.capacity() * sizeof(uint64_t) +
           owners_.capacity() * sizeof(NodeId) +
           load_.capacity() * sizeof(uint64_t) +
           keys_.capacity() * sizeof(uint64_t) + map_bytes;
  }
  size_t size() const override { return nodes_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return nodes_.LiveIds(); }
  const std::string& NodeName(NodeId id) const override {
    static const std::string* const kUnknown = new std::string();
    return id < nodes_.issued() ? nodes_.name(id) : *kUnknown;
  }

  // Introspection (tests, the runner's load metrics).
  // Number of placed keys (m).
  size_t placed() const { return keys_.size(); }
  // Keys on node `id` (0 for removed or unknown ids).
  uint64_t load(NodeId id) const { return id < load_.size() ? load_[id] : 0; }
  // The capacity the next placement is held to: ⌈c · (m + 1) / n⌉.
  uint64_t NextCapacity() const {
    return nodes_.live_count() == 0
               ? 0
               : bounded_load_internal::Capacity(c_, keys_.size() + 1,
                                                 nodes_.live_count());
  }
  // The placed keys in placement order.
  std::span<const uint64_t> placed_keys() const { return keys_; }
  // Forgets every placement (the node set stays).
  void ClearPlacements() {
    std::vector<uint64_t>().swap(keys_);
    absl::flat_hash_map<uint64_t, NodeId>().swap(assignment_);
    std::fill(load_.begin(), load_.end(), 0);
  }
  // The ring: points ascending and the node owning each.
  std::span<const uint64_t> ring_points() const { return points_; }
  std::span<const NodeId> ring_owners() const { return owners_; }

 private:
  struct Point {
    uint64_t point;
    NodeId owner;
    uint32_t vnode;  // only meaningful among one node's points
  };

  // Ring order: (point, node name, vnode index).
  bool Less(const Point& a, const Point& b) const {
    if (a.point != b.point) return a.point < b.point;
    if (a.owner != b.owner) return nodes_.name(a.owner) < nodes_.name(b.owner);
    return a.vnode < b.vnode;
  }

  void AppendPoints(NodeId id, std::vector<Point>& points) const {
    std::string label = absl::StrCat(nodes_.name(id), "#");
    const size_t prefix = label.size();
    for (uint32_t v = 0; v < vnodes_; ++v) {
      label.resize(prefix);
      absl::StrAppend(&label, v);
      points.push_back({HashString<H>(label, 0), id, v});
    }
  }

  void SetRing(const std::vector<Point>& points) {
    std::vector<uint64_t> p(points.size());
    std::vector<NodeId> o(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
      p[i] = points[i].point;
      o[i] = points[i].owner;
    }
    points_.swap(p);
    owners_.swap(o);
  }

  // The first node clockwise from the key's successor whose load is below
  // the capacity for the (m+1)-th key. Some live node always qualifies: the
  // loads sum to m < c · (m + 1) <= n · capacity.
  NodeId Choose(uint64_t key_hash, uint64_t m) const {
    const size_t n_points = points_.size();
    if (n_points == 0) return kInvalidNode;
    const uint64_t cap =
        bounded_load_internal::Capacity(c_, m + 1, nodes_.live_count());
    // As in the ring: for a 32-bit H the circle is [0, 2^32), and a digest
    // is reduced mod 2^32 (a no-op for digests from HashKey).
    if constexpr (H::kBits == 32) key_hash = static_cast<uint32_t>(key_hash);
    size_t i = static_cast<size_t>(
        std::upper_bound(points_.begin(), points_.end(), key_hash) -
        points_.begin());
    for (;; ++i) {
      if (i == n_points) i = 0;
      const NodeId node = owners_[i];
      if (load_[node] < cap) return node;
    }
  }

  // Re-places every placed key, in placement order, on the current nodes.
  void Replay() {
    load_.assign(nodes_.issued(), 0);
    if (nodes_.live_count() == 0) {
      for (auto& [key, node] : assignment_) node = kInvalidNode;
      return;
    }
    for (size_t m = 0; m < keys_.size(); ++m) {
      const NodeId node = Choose(keys_[m], m);
      ++load_[node];
      assignment_.find(keys_[m])->second = node;
    }
  }

  NodeTable nodes_{"bounded_load", /*weights_supported=*/false};
  uint32_t vnodes_;
  double c_;
  std::vector<uint64_t> points_;  // ring points, ascending
  std::vector<NodeId> owners_;    // owners_[i] owns points_[i]
  std::vector<uint64_t> load_;    // keys per node id
  std::vector<uint64_t> keys_;    // placed keys, in placement order
  absl::flat_hash_map<uint64_t, NodeId> assignment_;  // placed key -> node
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_BOUNDED_LOAD_BOUNDED_LOAD_H_
