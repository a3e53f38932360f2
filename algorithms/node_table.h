// Copyright 2026 The chbench Authors.
//
// NodeTable: the bookkeeping every algorithm shares. It hands out node ids in
// order of addition (never reused), keeps each node's spec and liveness, and
// validates node specs with error messages that name the bad value:
//   * empty name, a name already live, a weight that is not finite and > 0;
//   * a weight other than 1 for an algorithm without weights;
//   * removing an id that is unknown or already removed.
//
// A Build goes through Fresh(): one pass that validates the batch (duplicates
// within it included) into a new table with room reserved for it, which the
// algorithm moves into place once its own checks pass, so a failed Build
// leaves the instance unchanged. The live names are indexed by a flat hash
// set of node ids (4 bytes a slot) that hashes and compares the names the
// specs hold, so a name is stored once and nothing is allocated per node.
// Before, a Build filled a validating probe table and then the real one, each
// a std::unordered_map with a heap node per name holding a copy of it. In
// the full-tier build runs at N = 10^4, jump's Build (bookkeeping and little
// else) went from 2.05 ms to 0.29 ms, and Maglev's at M = 65537 from 2.17 ms
// (1.00x Katran's table fill, which keeps no bookkeeping) to 1.50 ms (0.71x).
//
// The specs live on the heap (one vector object that a move does not
// relocate), because the index's hash and equality read them through a
// pointer; a NodeTable is movable, not copyable.

#ifndef CHBENCH_ALGORITHMS_NODE_TABLE_H_
#define CHBENCH_ALGORITHMS_NODE_TABLE_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "algorithms/consistent_hash.h"

namespace chbench {

class NodeTable {
 public:
  explicit NodeTable(std::string_view algorithm, bool weights_supported)
      : algorithm_(algorithm),
        weights_supported_(weights_supported),
        specs_(std::make_unique<std::vector<NodeSpec>>()),
        live_by_name_(0, NameHash{specs_.get()}, NameEq{specs_.get()}) {}
  NodeTable(NodeTable&&) = default;
  NodeTable& operator=(NodeTable&&) = default;
  NodeTable(const NodeTable&) = delete;
  NodeTable& operator=(const NodeTable&) = delete;

  // Validates `spec` without adding it.
  absl::Status Validate(const NodeSpec& spec) const {
    if (absl::Status s = ValidateName(spec); !s.ok()) return s;
    if (live_by_name_.contains(std::string_view(spec.name))) {
      return DuplicateName(spec.name);
    }
    return ValidateWeight(spec);
  }

  // A table of the same algorithm holding exactly `specs`, with ids 0 .. n-1
  // in order; the first invalid spec (a duplicate within the batch included)
  // is the error. This table is not changed.
  absl::StatusOr<NodeTable> Fresh(std::span<const NodeSpec> specs) const {
    NodeTable fresh(algorithm_, weights_supported_);
    // An eighth more room than the batch, so that an AddNode after the Build
    // (what add_node_ns times) does not copy every spec; the index keeps at
    // least an eighth of its slots free anyway.
    const size_t room = specs.size() + specs.size() / 8 + 1;
    fresh.specs_->reserve(room);
    fresh.live_.reserve(room);
    fresh.live_by_name_.reserve(specs.size());
    for (const NodeSpec& spec : specs) {
      if (absl::Status s = ValidateName(spec); !s.ok()) return s;
      const NodeId id = static_cast<NodeId>(fresh.specs_->size());
      fresh.specs_->push_back(spec);  // first: the index reads the name
      if (!fresh.live_by_name_.insert(id).second) {
        return DuplicateName(spec.name);
      }
      if (absl::Status s = ValidateWeight(spec); !s.ok()) return s;
      fresh.live_.push_back(true);
    }
    fresh.live_count_ = specs.size();
    return fresh;
  }

  absl::StatusOr<NodeId> Add(const NodeSpec& spec) {
    if (absl::Status s = Validate(spec); !s.ok()) return s;
    const NodeId id = static_cast<NodeId>(specs_->size());
    specs_->push_back(spec);  // first: the index reads the name
    live_.push_back(true);
    live_by_name_.insert(id);
    ++live_count_;
    return id;
  }

  absl::Status CheckLive(NodeId id) const {
    if (id >= specs_->size()) {
      return absl::NotFoundError(absl::StrCat(
          algorithm_, ": no node with id ", id, "; ids issued so far: 0..",
          specs_->empty() ? std::string("(none)")
                          : absl::StrCat(specs_->size() - 1)));
    }
    if (!live_[id]) {
      return absl::NotFoundError(absl::StrCat(algorithm_, ": node ", id, " ('",
                                              (*specs_)[id].name,
                                              "') was already removed"));
    }
    return absl::OkStatus();
  }

  absl::Status Remove(NodeId id) {
    if (absl::Status s = CheckLive(id); !s.ok()) return s;
    live_by_name_.erase(id);
    live_[id] = false;
    --live_count_;
    return absl::OkStatus();
  }

  const NodeSpec& spec(NodeId id) const { return (*specs_)[id]; }
  const std::string& name(NodeId id) const { return (*specs_)[id].name; }
  bool live(NodeId id) const { return id < live_.size() && live_[id]; }
  size_t live_count() const { return live_count_; }
  size_t issued() const { return specs_->size(); }

  std::vector<NodeId> LiveIds() const {
    std::vector<NodeId> ids;
    ids.reserve(live_count_);
    for (NodeId id = 0; id < specs_->size(); ++id) {
      if (live_[id]) ids.push_back(id);
    }
    return ids;
  }

  // Heap bytes: the specs' vector (its object too) with the strings beyond
  // SSO, the liveness bits, and the name index: one block of a control byte
  // per slot plus 16 (the sentinel and the cloned group), padded to the
  // slots' alignment, then the 4-byte slots.
  size_t MemoryBytes() const {
    const size_t slots = live_by_name_.capacity();
    constexpr size_t kAlign = alignof(NodeId);
    const size_t index_bytes =
        slots == 0 ? 0
                   : (slots + 16 + kAlign - 1) / kAlign * kAlign +
                         slots * sizeof(NodeId);
    size_t bytes = sizeof(std::vector<NodeSpec>) +
                   specs_->capacity() * sizeof(NodeSpec) +
                   live_.capacity() / 8 + index_bytes;
    for (const NodeSpec& s : *specs_) {
      bytes += HeapStringBytes(s.name) + HeapStringBytes(s.zone);
    }
    return bytes;
  }

 private:
  // The checks of Validate that do not depend on the other nodes, in its
  // order: the name before the duplicate check, the weight after it.
  absl::Status ValidateName(const NodeSpec& spec) const {
    if (spec.name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(algorithm_, ": node name must not be empty"));
    }
    return absl::OkStatus();
  }

  absl::Status ValidateWeight(const NodeSpec& spec) const {
    if (!std::isfinite(spec.weight) || spec.weight <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          algorithm_, ": invalid weight ", spec.weight, " for node '",
          spec.name, "'; weights must be finite and > 0"));
    }
    if (!weights_supported_ && spec.weight != 1.0) {
      return absl::InvalidArgumentError(
          absl::StrCat(algorithm_, " does not support weights (node '",
                       spec.name, "' has weight ", spec.weight,
                       "); `chbench list` shows the algorithms with "
                       "weights"));
    }
    return absl::OkStatus();
  }

  absl::Status DuplicateName(const std::string& name) const {
    return absl::InvalidArgumentError(
        absl::StrCat(algorithm_, ": duplicate node name '", name,
                     "'; node names must be unique"));
  }

  static size_t HeapStringBytes(const std::string& s) {
    // libstdc++ keeps up to 15 chars inline; longer strings allocate
    // capacity + 1.
    return s.capacity() > 15 ? s.capacity() + 1 : 0;
  }

  // The index's hash and equality: a node id stands for its name; lookups
  // may also pass a name.
  struct NameHash {
    using is_transparent = void;
    const std::vector<NodeSpec>* specs;
    size_t operator()(NodeId id) const { return (*this)((*specs)[id].name); }
    size_t operator()(std::string_view name) const {
      // absl's own string_view: this Abseil (Debian's 20220623) is not built
      // on std::string_view and hashes that with std::hash, 2x slower here.
      return absl::Hash<absl::string_view>()(
          absl::string_view(name.data(), name.size()));
    }
  };
  struct NameEq {
    using is_transparent = void;
    const std::vector<NodeSpec>* specs;
    std::string_view Name(NodeId id) const { return (*specs)[id].name; }
    std::string_view Name(std::string_view name) const { return name; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return Name(a) == Name(b);
    }
  };

  std::string algorithm_;
  bool weights_supported_;
  std::unique_ptr<std::vector<NodeSpec>> specs_;  // before the index
  std::vector<bool> live_;
  absl::flat_hash_set<NodeId, NameHash, NameEq> live_by_name_;
  size_t live_count_ = 0;
};

// The bucket -> id step of the position-numbered algorithms (jump and the
// range hashes of range_buckets.h): bucket b is the b-th live id in ascending
// order. Ids are handed out in order and never reused, so the live ids are
// exactly 0..n-1 (bucket b *is* id b) until a removed node is replaced; in
// that state a lookup need not read the table.
//
// IdTableOrNull(ids) is nullptr when the ascending `ids` are 0..n-1 (the last
// one is n - 1), else ids.data(); recompute it after every change of `ids`.
// BucketToId(table_or_null, b) is b or table_or_null[b]: one well-predicted
// branch (the state changes only with the node set) instead of a load that
// misses cache once the table outgrows it.
inline const NodeId* IdTableOrNull(const std::vector<NodeId>& ascending_ids) {
  const size_t n = ascending_ids.size();
  return n == 0 || ascending_ids.back() == n - 1 ? nullptr
                                                 : ascending_ids.data();
}

inline NodeId BucketToId(const NodeId* table_or_null, uint64_t bucket) {
  if (table_or_null == nullptr) [[likely]] {
    return static_cast<NodeId>(bucket);
  }
  return table_or_null[bucket];
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_NODE_TABLE_H_
