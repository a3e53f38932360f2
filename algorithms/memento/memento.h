// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: memento/memento.h
// -----------------------------------------------------------------------------
//
// MementoHash (Massimo Coluzzi, Amos Brocco, Alessandro Antonucci and Tiziano
// Leidi, "MementoHash: A Stateful, Minimal Memory, Best Performing Consistent
// Hash Algorithm", arXiv:2306.09783, IEEE/ACM Transactions on Networking,
// 2024).
//
// Definition. Jump consistent hash over a "b-array" of B buckets, plus a
// replacement table that remembers only the removed buckets. Removing bucket
// b records b -> (replacer = the working count right after the removal,
// prevRemoved = the bucket removed before b), except when nothing is
// recorded and b is the last bucket (b = B - 1): then B just shrinks, as in
// Jump. A key x takes b = Jump(h0(x), B); while b has a replacer rep, it
// re-draws among the rep buckets that were working when b left,
// b = hb(x, b) mod rep, and follows replacers of removed buckets r >= rep
// (b = r) until it reaches a bucket below rep; the walk ends at a working
// bucket. AddNode restores the most recently removed bucket (LIFO), or
// appends bucket B when nothing is removed. There is no capacity.
//
// Hash paths (h0 and hb), both from the C++ port's MementoEngine:
//   * kCrc32c (used by `Memento<H>`): h0 = crc(x, 0) zero-extended to 64
//     bits, hb(x, b) = crc(x, b), b = hb mod rep in uint32
//     (getBucketCRC32c(x, 0); crc is util/crc32c.h, the hash AnchorHash uses).
//   * kXxh64: h0 = XXH64(LE bytes of x, 8, seed 0), hb(x, b) = XXH64(bytes,
//     8, seed b), b = hb mod rep in uint64 (getBucket(string_view of the 8
//     bytes)). `MementoHashCore::Bucket<MementoPath::kXxh64>` exposes it.
//
// chbench's node ids: after Build(n) node i is bucket i (MementoEngine(n, n));
// RemoveNode(id) of any live node removes its bucket; AddNode restores the
// bucket MementoEngine::addBucket() would and gives it a fresh id; `Lookup`
// returns that id.
//
// Guarantees:
//   * Bit-exact with
//   slashdotted/cpp-consistent-hashing-algorithms@2e535897ab856d0fd763a340c3a5747a110aa4f7
//     (memento/mementoengine.h, the C++ port by co-author Amos Brocco):
//     Lookup(x) is the id of getBucketCRC32c(x, 0) after the same
//     constructor, removeBucket and addBucket calls; the kXxh64 path equals
//     getBucket over the 8 little-endian bytes of x. The original Java
//     engine (SUPSI-DTI-ISIN/java-consistent-hashing-algorithms) hashes
//     strings and cannot take a digest, so "bit-exact" is relative to the
//     port. Checked on memento/testdata/memento_{crc32c,xxh64}_{stable,
//     remove}.tsv by memento_test.cc.
//   * Arbitrary removal; minimal disruption (a removal moves only the removed
//     bucket's keys, AddNode undoes the last removal); no weights, no
//     replicas. The mapping depends on the add/remove history.
//
// Complexity (B b-array size, w working, R = B - w removed):
//   Lookup      Jump's O(ln B) plus, for keys on removed buckets, the
//               replacement walk (short while R is a moderate fraction of B).
//               With nothing removed: Jump plus one test of the table's size.
//   AddNode, RemoveNode  O(1) expected.   Build  O(n).
//   Memory      the replacement table: a flat open-addressing map of
//               12-byte entries at load <= 1/2 (24..48 bytes per removed
//               bucket), 4 bytes per b-array slot (bucket -> id) and per
//               issued id (id -> bucket), plus the NodeTable.
//
// Example:
//   auto memento = MakeMemento(AlgorithmParams{}).value();
//   memento->Build(nodes).IgnoreError();          // buckets 0..n-1
//   memento->RemoveNode(17).IgnoreError();        // any node
//   NodeId back = memento->AddNode(spec).value();  // bucket 17, id n
//
// Citation: the paper above; reference code
// slashdotted/cpp-consistent-hashing-algorithms (GPL-3.0; this file shares no
// code with it).

#ifndef CHBENCH_ALGORITHMS_MEMENTO_MEMENTO_H_
#define CHBENCH_ALGORITHMS_MEMENTO_MEMENTO_H_

#include <bit>
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
#include "algorithms/jump/jump.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"
#include "algorithms/node_table_algorithm.h"
#include "algorithms/util/crc32c.h"

namespace chbench {

enum class MementoPath { kCrc32c, kXxh64 };

namespace memento_internal {

// Removed bucket -> (replacer, prevRemoved): open addressing with linear
// probing, power-of-two capacity, load <= 1/2, backward-shift deletion (no
// tombstones). Keys are bucket numbers < 2^31; kEmpty marks a free slot.
class ReplacementTable {
 public:
  static constexpr uint32_t kEmpty = ~uint32_t{0};

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // The replacer of `bucket`, or -1 when it is not in the table.
  int64_t Replacer(uint32_t bucket) const {
    if (size_ == 0) return -1;
    for (size_t i = Home(bucket);; i = (i + 1) & mask_) {
      const Entry& e = entries_[i];
      if (e.bucket == bucket) return e.replacer;
      if (e.bucket == kEmpty) return -1;
    }
  }

  // Precondition: `bucket` is not in the table.
  void Insert(uint32_t bucket, uint32_t replacer, uint32_t prev) {
    if (2 * (size_ + 1) > entries_.size()) Grow();
    size_t i = Home(bucket);
    while (entries_[i].bucket != kEmpty) i = (i + 1) & mask_;
    entries_[i] = Entry{bucket, replacer, prev};
    ++size_;
  }

  // Removes `bucket` (precondition: present) and returns its prevRemoved.
  uint32_t Erase(uint32_t bucket) {
    size_t i = Home(bucket);
    while (entries_[i].bucket != bucket) i = (i + 1) & mask_;
    const uint32_t prev = entries_[i].prev;
    // Backward shift: move later entries of the cluster into the hole when
    // their home position does not lie cyclically in (hole, their slot].
    for (size_t j = (i + 1) & mask_; entries_[j].bucket != kEmpty;
         j = (j + 1) & mask_) {
      const size_t home = Home(entries_[j].bucket);
      const bool stays =
          i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!stays) {
        entries_[i] = entries_[j];
        i = j;
      }
    }
    entries_[i].bucket = kEmpty;
    --size_;
    return prev;
  }

  // Prefetches the home slot of `bucket` (where Replacer starts); nothing
  // when the table is empty.
  void Prefetch(uint32_t bucket) const {
    if (size_ != 0) __builtin_prefetch(entries_.data() + Home(bucket));
  }

  void Clear() {
    entries_.clear();
    entries_.shrink_to_fit();
    size_ = 0;
    mask_ = 0;
    shift_ = 64;
  }

  size_t MemoryBytes() const { return entries_.capacity() * sizeof(Entry); }

 private:
  struct Entry {
    uint32_t bucket;
    uint32_t replacer;
    uint32_t prev;
  };

  // Fibonacci hashing: the top bits of bucket * 2^64 / phi.
  size_t Home(uint32_t bucket) const {
    return static_cast<size_t>((bucket * 0x9E3779B97F4A7C15ULL) >> shift_);
  }

  void Grow() {
    const size_t cap = entries_.empty() ? 8 : 2 * entries_.size();
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(cap, Entry{kEmpty, 0, 0});
    mask_ = cap - 1;
    shift_ = 64 - std::countr_zero(cap);
    for (const Entry& e : old) {
      if (e.bucket == kEmpty) continue;
      size_t i = Home(e.bucket);
      while (entries_[i].bucket != kEmpty) i = (i + 1) & mask_;
      entries_[i] = e;
    }
  }

  std::vector<Entry> entries_;
  size_t size_ = 0;
  size_t mask_ = 0;
  int shift_ = 64;
};

inline uint64_t Xxh64OfDigest(uint64_t x, uint64_t seed) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i)
    bytes[i] = static_cast<unsigned char>(x >> (8 * i));
  return XXH64(bytes, sizeof(bytes), seed);
}

}  // namespace memento_internal

// The MementoEngine state machine on buckets, without node names: the
// port's constructor MementoEngine(n, n), getBucketCRC32c(x, 0) /
// getBucket(8 bytes of x), removeBucket and addBucket. Preconditions are the
// port's: Remove a working bucket; Bucket with at least one working bucket.
class MementoHashCore {
 public:
  // Buckets are int32 for Jump.
  static constexpr uint32_t kMaxBuckets = std::numeric_limits<int32_t>::max();

  MementoHashCore() = default;
  explicit MementoHashCore(uint32_t n) { Init(n); }

  void Init(uint32_t n) {
    b_array_size_ = n;
    last_removed_ = n;
    table_.Clear();
  }

  template <MementoPath P = MementoPath::kCrc32c>
  uint32_t Bucket(uint64_t x) const {
    uint64_t h0;
    if constexpr (P == MementoPath::kCrc32c) {
      h0 = Crc32c(x, 0);
    } else {
      h0 = memento_internal::Xxh64OfDigest(x, 0);
    }
    const uint32_t b = static_cast<uint32_t>(
        JumpConsistentHash(h0, static_cast<int32_t>(b_array_size_)));
    if (table_.empty()) [[likely]] {
      return b;
    }
    return Walk<P>(x, b);
  }

  // removeBucket(b).
  void Remove(uint32_t b) {
    if (last_removed_ == b_array_size_ && b == b_array_size_ - 1) {
      b_array_size_ = last_removed_ = b;
      return;
    }
    table_.Insert(b, working() - 1, last_removed_);
    last_removed_ = b;
  }

  // addBucket(): the bucket it restores.
  uint32_t Add() {
    const uint32_t bucket = last_removed_;
    last_removed_ = table_.empty() ? bucket + 1 : table_.Erase(bucket);
    if (bucket + 1 > b_array_size_) b_array_size_ = bucket + 1;
    return bucket;
  }

  // The bucket Add() would restore.
  // Bucket<kCrc32c>(x) in two steps, for batched lookups: FirstBucket is
  // Jump's bucket over the b-array (prefetching the replacement table's
  // home slot of it when buckets are removed), FinishBucket(x, b) the walk
  // from it, so that Bucket(x) = FinishBucket(x, FirstBucket(x)).
  uint32_t FirstBucket(uint64_t x) const {
    const uint32_t b = static_cast<uint32_t>(
        JumpConsistentHash(Crc32c(x, 0), static_cast<int32_t>(b_array_size_)));
    table_.Prefetch(b);
    return b;
  }
  uint32_t FinishBucket(uint64_t x, uint32_t b) const {
    if (table_.empty()) [[likely]] {
      return b;
    }
    return Walk<MementoPath::kCrc32c>(x, b);
  }

  uint32_t next_add() const { return last_removed_; }
  uint32_t b_array_size() const { return b_array_size_; }
  uint32_t working() const {
    return b_array_size_ - static_cast<uint32_t>(table_.size());
  }
  size_t removed() const { return table_.size(); }
  size_t MemoryBytes() const { return table_.MemoryBytes(); }

 private:
  // The replacement walk from Jump's bucket b (out of line: the fast path
  // with nothing removed stays small).
  template <MementoPath P>
  [[gnu::noinline]] uint32_t Walk(uint64_t x, uint32_t b) const {
    int64_t rep = table_.Replacer(b);
    while (rep >= 0) {
      if constexpr (P == MementoPath::kCrc32c) {
        b = Crc32c(x, b) % static_cast<uint32_t>(rep);
      } else {
        b = static_cast<uint32_t>(memento_internal::Xxh64OfDigest(x, b) %
                                  static_cast<uint64_t>(rep));
      }
      int64_t r = table_.Replacer(b);
      while (r >= rep) {
        b = static_cast<uint32_t>(r);
        r = table_.Replacer(b);
      }
      rep = r;
    }
    return b;
  }

  uint32_t b_array_size_ = 0;
  uint32_t last_removed_ = 0;
  memento_internal::ReplacementTable table_;
};

// Free forms of the two hash paths.
inline uint32_t MementoBucketCrc32c(uint64_t x, const MementoHashCore& core) {
  return core.Bucket<MementoPath::kCrc32c>(x);
}
inline uint32_t MementoBucketXxh64(uint64_t x, const MementoHashCore& core) {
  return core.Bucket<MementoPath::kXxh64>(x);
}

inline constexpr Capabilities kMementoCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
    .history_dependent = true,
};

template <typename H>
class Memento final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  static constexpr size_t kMaxNodes = MementoHashCore::kMaxBuckets;

  Memento() : NodeTableAlgorithm<H>("memento", /*weights_supported=*/false) {}

  std::string_view name() const override { return "memento"; }
  Capabilities capabilities() const override { return kMementoCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    if (nodes.size() > kMaxNodes) return TooMany(nodes.size());
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    core_.Init(static_cast<uint32_t>(nodes.size()));
    ids_.clear();
    bucket_of_.clear();
    ids_.reserve(nodes.size());
    bucket_of_.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) {
      ids_.push_back(id);
      bucket_of_.push_back(id);
    }
    return absl::OkStatus();
  }

  // Restores the most recently removed bucket (or appends bucket B) under a
  // fresh id.
  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = table_.Validate(node); !s.ok()) return s;
    if (core_.next_add() >= kMaxNodes) return TooMany(size() + 1);
    const NodeId id = *table_.Add(node);
    const uint32_t b = core_.Add();
    if (ids_.size() < core_.b_array_size()) {
      ids_.resize(core_.b_array_size(), kInvalidNode);
    }
    ids_[b] = id;
    bucket_of_.push_back(b);
    return id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    const uint32_t b = bucket_of_[id];
    core_.Remove(b);
    ids_[b] = kInvalidNode;
    ids_.resize(core_.b_array_size());  // shrinks with B (keeps capacity)
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  NodeId Lookup(uint64_t key_hash) const override {
    return ids_[core_.Bucket<MementoPath::kCrc32c>(key_hash)];
  }
  // out[i] = Lookup(key_hashes[i]), by groups of kLookupGroup keys: Jump's
  // bucket of every key of a group first (compute), prefetching its
  // bucket -> id entry and, with removed buckets, its replacement-table
  // slot; then each key's replacement walk and id. Same owners as Lookup;
  // Jump's O(ln B) per key plus the walk.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    const NodeId* const ids = ids_.data();
    GroupedLookup(
        key_hashes, out,
        [&](uint64_t x) {
          const uint32_t b = core_.FirstBucket(x);
          __builtin_prefetch(ids + b);
          return b;
        },
        [&](uint64_t x, uint32_t b) { return ids[core_.FinishBucket(x, b)]; });
  }

  // Every live bucket equally likely for a uniform digest: the algorithm's
  // guarantee (its paper's proof), not a property of this instance.
  std::vector<double> DigestSpaceShares() const override {
    return UniformShares(size());
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kByConstruction;
  }


  // Heap bytes including the object itself (as allocated by MakeMemento).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() + core_.MemoryBytes() +
           (ids_.capacity() + bucket_of_.capacity()) * sizeof(uint32_t);
  }
  size_t size() const override { return table_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }

  const MementoHashCore& core() const { return core_; }

 private:
  static absl::Status TooMany(size_t n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "memento: ", n, " buckets requested; memento supports at most ",
        kMaxNodes, " (int32 buckets for Jump)"));
  }

  using NodeTableAlgorithm<H>::table_;
  MementoHashCore core_;
  std::vector<NodeId> ids_;          // bucket -> id (kInvalidNode: removed)
  std::vector<uint32_t> bucket_of_;  // id -> bucket
};

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeMemento(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_MEMENTO_MEMENTO_H_
