// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: anchor/anchor.h
// -----------------------------------------------------------------------------
//
// AnchorHash (Gal Mendelson, Shay Vargaftik, Katherine Barabash, Dean Lorenz,
// Isaac Keslassy and Ariel Orda, "AnchorHash: A Scalable Consistent Hash",
// arXiv:1812.09674, IEEE/ACM Transactions on Networking 29(2), 2021).
//
// Definition. A fixed "anchor" of a buckets, w <= a of them working. Each
// bucket b has A[b] = 0 while it works, else the number of working buckets
// left right after b was removed. A key x first picks bs = crc(x, 0) and
// b = bs mod a. While b is removed (A[b] > 0) the key draws again, this time
// uniformly among the A[b] buckets that were still working when b left:
// bs = crc(x - bs, bs), h = bs mod A[b]; if h was itself removed no earlier
// than b (A[h] >= A[b]) the key follows the "replaced by" pointers
// h = K[h] until it reaches a bucket that was working when b left. The
// removal order is a stack: bucket b is replaced by the last bucket of the
// working-set permutation W (L is W's inverse), and AddNode pops the stack,
// so buckets come back in reverse removal order (LIFO). crc is the raw
// CRC-32C step of util/crc32c.h; all arithmetic is uint32 except x - bs
// (64-bit wrapping).
//
// chbench's node ids: after Build(n) node i is bucket i (the reference's
// constructor AnchorHashQre(a, n), whose buckets n..a-1 are "initially
// removed" in descending order, so the stack top is n). RemoveNode(id) of any
// live node removes its bucket; AddNode re-activates the bucket on top of the
// stack (first the initial removals n, n+1, ..., a-1, then removed buckets in
// LIFO order) and gives it a fresh id; `Lookup` returns that id.
//
// Capacity. a = AlgorithmParams::capacity, or, when it is 0, the node count
// of the first non-empty Build (a = w: the paper's stable setting, no room to
// add). a is fixed for the instance's life; Build(n) with n > a fails, and
// AddNode fails when all a buckets work. Maximum a = 2^31 (kMaxCapacity).
//
// Guarantees:
//   * Bit-exact with
//   anchorhash/cpp-anchorhash@3ef98f05cbfe1a449f92b97cdfb1363317db85e1,
//     `AnchorHashQre::ComputeBucket(x, 0)` (key2 = 0 pinned by chbench) after
//     the same constructor, UpdateRemoval and UpdateNewBucket calls: Lookup(x)
//     is the id of that bucket. Checked on the shared oracle files
//     (anchor/testdata/anchor_{stable,capacity2x,remove}.tsv) by
//     anchor_test.cc.
//   * Arbitrary removal; minimal disruption (a removal moves only the removed
//     bucket's keys; AddNode undoes the last removal exactly); no weights, no
//     replicas. The mapping depends on the add/remove history, not only on
//     the live set.
//
// Complexity (a buckets, w working):
//   Lookup      expected 1 + ln(a/w) rehash rounds (the paper's bound), each
//               with a short K walk; at w = a: one CRC, one fast modulo, one
//               4-byte load (a working bucket's word is its id; a removed
//               bucket's is A[b] with the top bit set), like a plain id table.
//   AddNode, RemoveNode  O(1).   Build  O(a).
//   Memory      16 bytes per anchor slot (A/id, K, W, L: the reference's
//               16, with the id in A's word while A is 0), 4 bytes per removed bucket
//               (the stack) and 4 bytes per issued id (id -> bucket), plus the
//               NodeTable.
//
// Example:
//   AlgorithmParams p;  p.capacity = 1000;
//   auto anchor = MakeAnchor(p).value();
//   anchor->Build(nodes).IgnoreError();     // 800 nodes: buckets 0..799
//   anchor->RemoveNode(17).IgnoreError();   // any node
//   NodeId back = anchor->AddNode(spec).value();  // bucket 17, id 800
//
// Citation: the paper above; reference code anchorhash/cpp-anchorhash (MIT).

#ifndef CHBENCH_ALGORITHMS_ANCHOR_ANCHOR_H_
#define CHBENCH_ALGORITHMS_ANCHOR_ANCHOR_H_

#include <cstddef>
#include <cstdint>
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
#include "algorithms/util/crc32c.h"

namespace chbench {

// The AnchorHashQre state machine on buckets, without node names: the
// reference's constructor, ComputeBucket(x, 0), UpdateRemoval and
// UpdateNewBucket. A working bucket's A[b] is 0, so one 32-bit word per
// bucket holds either its payload (chbench keeps the bucket's NodeId there)
// while it works, or kRemoved | A[b] once removed: a lookup at 0 % removed
// reads one 4-byte word, as a plain id table would. Preconditions are the reference's: Remove a working bucket,
// Add with a non-empty stack, Bucket with at least one working bucket.
class AnchorHashCore {
 public:
  AnchorHashCore() = default;
  // AnchorHashQre(a, w): buckets w..a-1 initially removed, in descending
  // order (stack top w). Requires w <= a.
  AnchorHashCore(uint32_t a, uint32_t w) { Init(a, w); }

  // Payloads must stay below this bit.
  static constexpr uint32_t kRemoved = uint32_t{1} << 31;

  void Init(uint32_t a, uint32_t w) {
    hot_.assign(a, 0);
    K_.resize(a);
    W_.resize(a);
    L_.resize(a);
    for (uint32_t b = 0; b < a; ++b) K_[b] = W_[b] = L_[b] = b;
    removed_.clear();
    removed_.reserve(a - w);
    for (uint32_t b = a; b-- > w;) {  // a-1 down to w
      hot_[b] = kRemoved | b;
      removed_.push_back(b);
    }
    working_ = w;
    mod_a_ = FastMod32(a);
  }

  // ComputeBucket(x, 0).
  uint32_t Bucket(uint64_t x) const {
    const uint32_t bs = Crc32c(x, 0);
    const uint32_t b = mod_a_(bs);
    if ((hot_[b] & kRemoved) == 0) [[likely]] {
      return b;
    }
    return Rehash(x, bs, b);
  }

  // payload(Bucket(x)), reading the first bucket's word once.
  uint32_t Lookup(uint64_t x) const {
    const uint32_t bs = Crc32c(x, 0);
    const uint32_t v = hot_[mod_a_(bs)];
    if ((v & kRemoved) == 0) [[likely]] {
      return v;
    }
    return RehashPayload(x, bs, mod_a_(bs));
  }

  // out[i] = Lookup(keys[i]), by groups of kLookupGroup keys: the first
  // bucket's word of every key of a group is prefetched, then read; a key
  // whose first bucket was removed takes the rehash rounds from there.
  void LookupBatch(std::span<const uint64_t> keys,
                   std::span<uint32_t> out) const {
    const uint32_t* const hot = hot_.data();
    GroupedLookup(
        keys, out,
        [&](uint64_t x) {
          const uint32_t bs = Crc32c(x, 0);
          const uint32_t b = mod_a_(bs);
          __builtin_prefetch(hot + b);
          return (uint64_t{bs} << 32) | b;
        },
        [&](uint64_t x, uint64_t state) {
          const uint32_t b = static_cast<uint32_t>(state);
          const uint32_t v = hot[b];
          if ((v & kRemoved) == 0) [[likely]] {
            return v;
          }
          return RehashPayload(x, static_cast<uint32_t>(state >> 32), b);
        });
  }

  // UpdateRemoval(b).
  void Remove(uint32_t b) {
    removed_.push_back(b);
    --working_;
    const uint32_t last = W_[working_];
    W_[L_[b]] = last;
    L_[last] = L_[b];
    K_[b] = last;
    hot_[b] = kRemoved | working_;
  }

  // UpdateNewBucket(): the most recently removed bucket.
  uint32_t Add() {
    const uint32_t b = removed_.back();
    removed_.pop_back();
    L_[W_[working_]] = working_;
    W_[L_[b]] = b;
    ++working_;
    hot_[b] = 0;  // A[b] = 0; the caller sets the payload
    K_[b] = b;
    return b;
  }

  uint32_t capacity() const { return static_cast<uint32_t>(hot_.size()); }
  uint32_t working() const { return working_; }
  bool stack_empty() const { return removed_.empty(); }
  // The bucket AddNode would re-activate (precondition: !stack_empty()).
  uint32_t stack_top() const { return removed_.back(); }

  // A working bucket's payload.
  uint32_t payload(uint32_t b) const { return hot_[b]; }
  // Precondition: b works and v < kRemoved.
  void set_payload(uint32_t b, uint32_t v) { hot_[b] = v; }

  size_t MemoryBytes() const {
    return hot_.capacity() * sizeof(uint32_t) +
           (K_.capacity() + W_.capacity() + L_.capacity() +
            removed_.capacity()) *
               sizeof(uint32_t);
  }

 private:
  // A[b]: 0 while b works.
  uint32_t A(uint32_t b) const {
    const uint32_t v = hot_[b];
    return (v & kRemoved) != 0 ? v & ~kRemoved : 0;
  }

  // The rounds after the first bucket b (removed) was drawn with bs (out of
  // line: the fast path with b working stays small).
  [[gnu::noinline]] uint32_t Rehash(uint64_t x, uint32_t bs, uint32_t b) const {
    return RehashImpl(x, bs, b);
  }
  // payload(Rehash(...)), so that Lookup's slow path is a tail call.
  [[gnu::noinline]] uint32_t RehashPayload(uint64_t x, uint32_t bs,
                                           uint32_t b) const {
    return hot_[RehashImpl(x, bs, b)];
  }
  uint32_t RehashImpl(uint64_t x, uint32_t bs, uint32_t b) const {
    uint32_t ab = A(b);
    while (ab != 0) {
      bs = Crc32c(x - bs, bs);
      uint32_t h = bs % ab;
      while (A(h) >= ab) h = K_[h];
      b = h;
      ab = A(b);
    }
    return b;
  }

  // Per bucket: its payload while it works, kRemoved | A[b] once removed.
  std::vector<uint32_t> hot_;
  std::vector<uint32_t> K_, W_, L_;
  std::vector<uint32_t> removed_;  // the stack R, top at the back
  uint32_t working_ = 0;           // N
  FastMod32 mod_a_;
};

inline constexpr Capabilities kAnchorCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
    .history_dependent = true,
};

template <typename H>
class Anchor final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  // Bucket numbers, A values and ids are below 2^31 (the top bit of a
  // bucket's word marks it removed); at 16 bytes per slot the maximum is
  // 32 GiB of arrays.
  static constexpr uint64_t kMaxCapacity = uint64_t{1} << 31;

  // capacity 0: a = the node count of the first non-empty Build.
  explicit Anchor(uint64_t capacity)
      : NodeTableAlgorithm<H>("anchor", /*weights_supported=*/false), capacity_(capacity) {}

  std::string_view name() const override { return "anchor"; }
  Capabilities capabilities() const override { return kAnchorCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    const uint64_t a = capacity_ != 0      ? capacity_
                       : anchor_size_ != 0 ? anchor_size_
                                           : nodes.size();
    if (a > kMaxCapacity) return TooMany(nodes.size());
    if (nodes.size() > a) {
      return absl::InvalidArgumentError(absl::StrCat(
          "anchor: cannot build ", nodes.size(),
          " nodes: the capacity is a = ", a, " buckets, ", CapacityOrigin(),
          "; set the capacity parameter to at least ", nodes.size()));
    }
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    anchor_size_ = a;
    core_.Init(static_cast<uint32_t>(a), static_cast<uint32_t>(nodes.size()));
    bucket_of_.clear();
    bucket_of_.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) {
      core_.set_payload(id, id);
      bucket_of_.push_back(id);
    }
    return absl::OkStatus();
  }

  // Re-activates the bucket on top of the removed stack under a fresh id.
  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = table_.Validate(node); !s.ok()) return s;
    if (anchor_size_ == 0 && capacity_ != 0) Reset();
    if (anchor_size_ == 0 || core_.stack_empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "anchor: cannot add node '", node.name, "': all a = ", anchor_size_,
          " buckets are working (", CapacityOrigin(),
          "); AnchorHash has a fixed capacity: set the capacity parameter "
          "(AlgorithmParams::capacity, at most ",
          kMaxCapacity, ") to the most nodes the instance will hold"));
    }
    if (bucket_of_.size() >= AnchorHashCore::kRemoved) {
      return absl::FailedPreconditionError(absl::StrCat(
          "anchor: cannot add node '", node.name, "': ", bucket_of_.size(),
          " node ids handed out; anchor keeps ids below 2^31"));
    }
    const NodeId id = *table_.Add(node);
    const uint32_t b = core_.Add();
    core_.set_payload(b, id);
    bucket_of_.push_back(b);
    return id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    const uint32_t b = bucket_of_[id];
    core_.Remove(b);  // the bucket's word now holds A[b], not the id
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  NodeId Lookup(uint64_t key_hash) const override {
    return core_.Lookup(key_hash);
  }
  // out[i] = Lookup(key_hashes[i]): the first buckets' words of a group of
  // keys are prefetched, then read (AnchorHashCore::LookupBatch). Same
  // owners as Lookup; O(1) expected per key.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    core_.LookupBatch(key_hashes, out);
  }

  // Every live bucket equally likely for a uniform digest: the algorithm's
  // guarantee (its paper's proof), not a property of this instance.
  std::vector<double> DigestSpaceShares() const override {
    return UniformShares(size());
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kByConstruction;
  }


  // Heap bytes including the object itself (as allocated by MakeAnchor).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() + core_.MemoryBytes() +
           bucket_of_.capacity() * sizeof(uint32_t);
  }
  size_t size() const override { return table_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }

  // The anchor size a (0 until fixed) and the state machine, for tests and
  // benchmarks.
  uint64_t anchor_size() const { return anchor_size_; }
  const AnchorHashCore& core() const { return core_; }

 private:
  // AddNode before any Build, with a capacity: AnchorHashQre(a, 0).
  void Reset() {
    anchor_size_ = capacity_;
    core_.Init(static_cast<uint32_t>(capacity_), 0);
  }

  std::string CapacityOrigin() const {
    return capacity_ != 0
               ? absl::StrCat("set by the capacity parameter ", capacity_)
               : std::string(
                     "capacity parameter 0: a = the node count of the "
                     "first Build");
  }

  static absl::Status TooMany(size_t n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "anchor: ", n, " nodes requested; anchor supports at most ",
        kMaxCapacity, " buckets (uint32 arrays)"));
  }

  using NodeTableAlgorithm<H>::table_;
  uint64_t capacity_;         // the parameter
  uint64_t anchor_size_ = 0;  // a; 0 until the first Build/AddNode fixes it
  AnchorHashCore core_;
  std::vector<uint32_t> bucket_of_;  // id -> bucket
};

// Factory for the registry: validates `params.hash` and `params.capacity`
// (0, or 1..2^31) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeAnchor(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_ANCHOR_ANCHOR_H_
