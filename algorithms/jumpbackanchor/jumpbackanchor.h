// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: jumpbackanchor/jumpbackanchor.h
// -----------------------------------------------------------------------------
//
// JumpBackAnchorHash (Otmar Ertl, dynatrace-oss/hash4j, 2025:
// ConsistentHashing.jumpBackAnchorHash; no paper of its own). It combines
// AnchorHash (Mendelson et al., "AnchorHash: A Scalable Consistent Hash",
// IEEE/ACM ToN 29(2), 2021) in its memory-optimised form
// (anchorhash/cpp-anchorhash@3ef98f0, mem/) with JumpBackHash (Ertl,
// Software: Practice and Experience 55(3), 2025; jumpback/jumpback.h), the
// way MementoHash (Coluzzi et al., IEEE/ACM ToN 2024) combines it with Jump:
// AnchorHash's arbitrary removal without a fixed capacity.
//
// Definition. State: a, the historic maximum bucket count (buckets are
// 0..a-1); the stack R of removed buckets (r = |R|); for each removed bucket
// b, A[b] = the number of working buckets right after b was removed and K[b]
// = the bucket that replaced it. view(u, v): while u is removed and
// A[u] >= v, u = K[u]. A key x seeds one SplitMix64 stream G (state x; each
// value adds 0x9E3779B97F4A7C15 and mixes). Lookup:
//   * a <= 1: bucket 0, nothing drawn;
//   * b = JumpBackHash(a) drawing from G (jumpback/jumpback.h's walk over the
//     historic maximum a, not the working count);
//   * while b is removed: v = A[b]; u = uniform(v) from the *same* G, going
//     on after JumpBack's last value (Lemire's method with 32-bit words: the
//     low 32 bits of a value times v, redrawn while the low product word is
//     below 2^32 mod v); b = view(u, v).
// RemoveNode(b): the last working bucket resets everything (a = 0); else
// b = a - 1 with nothing removed shrinks a (JumpBack's own removal); else b
// is pushed on R, w = a - r, A[b] = w, K[b] = view(w, w + 1) (computed
// before b is marked). AddNode: with nothing removed, bucket a (a += 1);
// else the top of R comes back (LIFO), which restores the mapping from
// before its removal.
//
// chbench's node ids: after Build(n) node i is bucket i; RemoveNode(id) of
// any live node removes its bucket; AddNode activates the bucket the
// reference's addBucket() returns under a fresh id; `Lookup` returns that
// id.
//
// Guarantees:
//   * Bit-exact with
//     dynatrace-oss/hash4j@41d814f94c5289a6108ad77c2f4529329a65e146
//     (src/main/java/com/dynatrace/hash4j/consistent/
//     ConsistentJumpBackAnchorBucketSetHasher.java with
//     PseudoRandomGeneratorProvider.splitMix64_V1(); unchanged in results
//     since v0.22.0): Lookup(x) is the id of getBucket(x) after the same
//     addBucket and removeBucket calls, x being the Java long with the
//     digest's bits. Checked on jumpbackanchor/testdata/jba_*.tsv by
//     jumpbackanchor_test.cc. With nothing removed it is
//     JumpBackHashSplitMix64(x, a) (jumpback/jumpback.h).
//   * Arbitrary removal; minimal disruption (a removal moves only the removed
//     bucket's keys, an add only keys to the added bucket; re-adding undoes
//     the last removal exactly); no weights, no replicas. No capacity:
//     AddNode appends a bucket when nothing is removed. The mapping depends
//     on the order of removals (the stack), not only on the live set.
//
// Complexity (a historic maximum, w working, r = a - w removed):
//   Lookup      JumpBackHash's O(1) expected, plus one 4-byte load (a
//               working bucket's word is its id); for keys on removed
//               buckets O(1 + ln^2(a / w)) expected under random removals
//               (hash4j's javadoc), Theta(a / w) view steps for adversarial
//               removal orders. No allocation.
//   AddNode, RemoveNode  O(1) amortized plus one view walk on removal.
//   Build       O(N).
//   Memory      4 bytes per bucket ever added (id, or A with the top bit
//               set), 4 per bucket up to the largest removed one (K), 4 per
//               removed bucket (R) and per issued id (id -> bucket), plus the
//               NodeTable.
//
// Example:
//   auto jba = MakeJumpBackAnchor(AlgorithmParams{}).value();
//   jba->Build(nodes).IgnoreError();          // buckets 0..n-1
//   jba->RemoveNode(17).IgnoreError();        // any node
//   NodeId back = jba->AddNode(spec).value(); // bucket 17, id n

#ifndef CHBENCH_ALGORITHMS_JUMPBACKANCHOR_JUMPBACKANCHOR_H_
#define CHBENCH_ALGORITHMS_JUMPBACKANCHOR_JUMPBACKANCHOR_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/jumpback/jumpback.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"
#include "algorithms/node_table_algorithm.h"

namespace chbench {
namespace jumpbackanchor_internal {

using jumpback_internal::SplitMix64Stream;

// hash4j's ConsistentJumpBackBucketHasher.getBucket(n, generator): the walk
// of jumpback_internal::WalkLoop on the caller's stream, which is left at the
// last value drawn. Preconditions: 2 <= n <= 2^31 - 1, mask == RangeMask(n).
inline uint32_t JumpBackOn(SplitMix64Stream& g, uint32_t n, uint32_t mask) {
  const uint64_t r0 = g.First();
  uint32_t m = static_cast<uint32_t>(r0 ^ (r0 >> 32)) & mask;
  while (m != 0) {
    const uint32_t lo = uint32_t{1} << (31 ^ std::countl_zero(m));
    // The high half of r0 while popcount(m) is odd (Java's shift by
    // popcount * 32, taken mod 64).
    const uint32_t half =
        static_cast<uint32_t>(r0 >> ((std::popcount(m) & 1) << 5));
    const uint32_t first = lo + (half & (lo - 1));
    if (first < n) return first;
    const uint32_t range = (lo << 1) - 1;
    for (;;) {
      const uint64_t r = g.Next();
      uint32_t b = static_cast<uint32_t>(r) & range;
      if (b < lo) break;
      if (b < n) return b;
      b = static_cast<uint32_t>(r >> 32) & range;
      if (b < lo) break;
      if (b < n) return b;
    }
    m ^= lo;
  }
  return 0;
}

// hash4j's AbstractPseudoRandomGenerator.uniformInt(v), 1 <= v < 2^31
// (Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1),
// 2019, algorithm 5 with L = 32).
inline uint32_t Uniform(SplitMix64Stream& g, uint32_t v) {
  uint64_t m = (g.Next() & 0xFFFFFFFFULL) * v;
  uint32_t l = static_cast<uint32_t>(m);
  if (l < v) {
    const uint32_t t = static_cast<uint32_t>(-v) % v;  // 2^32 mod v
    while (l < t) {
      m = (g.Next() & 0xFFFFFFFFULL) * v;
      l = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

}  // namespace jumpbackanchor_internal

// The ConsistentJumpBackAnchorBucketSetHasher state machine on buckets,
// without node names. A working bucket's 32-bit word holds a payload
// (chbench keeps the bucket's NodeId there), a removed bucket's
// kRemoved | A[b], so a lookup reads one word per bucket it visits.
// Preconditions are the reference's: Remove a working bucket, Bucket with at
// least one working bucket.
class JumpBackAnchorCore {
 public:
  static constexpr uint32_t kRemoved = uint32_t{1} << 31;
  // Java int bucket ids; payloads stay below kRemoved.
  static constexpr uint32_t kMaxBuckets = std::numeric_limits<int32_t>::max();

  JumpBackAnchorCore() = default;
  // n addBucket() calls on a new hasher; bucket b's payload is b.
  explicit JumpBackAnchorCore(uint32_t n) { Init(n); }

  void Init(uint32_t n) {
    hot_.resize(n);
    for (uint32_t b = 0; b < n; ++b) hot_[b] = b;
    K_.clear();
    removed_.clear();
    Refresh();
  }

  // getBucket(x): the bucket.
  uint32_t Bucket(uint64_t x) const {
    const uint32_t b = First(x);
    if ((hot_[b] & kRemoved) == 0) [[likely]] {
      return b;
    }
    return Rehash(x);
  }

  // payload(getBucket(x)), reading the first bucket's word once.
  uint32_t Lookup(uint64_t x) const {
    const uint32_t v = hot_[First(x)];
    if ((v & kRemoved) == 0) [[likely]] {
      return v;
    }
    return hot_[Rehash(x)];
  }

  // removeBucket(b) for a working b.
  void Remove(uint32_t b) {
    const uint32_t a = historic_max();
    const uint32_t r = static_cast<uint32_t>(removed_.size());
    if (a - 1 == r) {  // the last working bucket: back to a new hasher
      hot_.clear();
      K_.clear();
      removed_.clear();
    } else if (b == a - 1 && r == 0) {
      hot_.pop_back();  // JumpBackHash's own removal
    } else {
      removed_.push_back(b);
      const uint32_t w = a - r - 1;
      const uint32_t h = View(w, w + 1);  // b is not marked yet
      if (K_.size() <= b) K_.resize(b + 1);
      K_[b] = h;
      hot_[b] = kRemoved | w;
    }
    Refresh();
  }

  // addBucket(): the bucket it activates, with `payload`.
  uint32_t Add(uint32_t payload) {
    uint32_t b;
    if (removed_.empty()) {
      b = historic_max();
      hot_.push_back(payload);
    } else {
      b = removed_.back();
      removed_.pop_back();
      hot_[b] = payload;
    }
    Refresh();
    return b;
  }

  // The bucket Add() would activate.
  uint32_t next_add() const {
    return removed_.empty() ? historic_max() : removed_.back();
  }
  uint32_t historic_max() const { return static_cast<uint32_t>(hot_.size()); }
  uint32_t working() const {
    return historic_max() - static_cast<uint32_t>(removed_.size());
  }
  bool removed(uint32_t b) const { return (hot_[b] & kRemoved) != 0; }
  // The removal stack, bottom first (hash4j's getState() after a).
  const std::vector<uint32_t>& removal_stack() const { return removed_; }
  uint32_t payload(uint32_t b) const { return hot_[b]; }

  size_t MemoryBytes() const {
    return (hot_.capacity() + K_.capacity() + removed_.capacity()) *
           sizeof(uint32_t);
  }

 private:
  // JumpBackHash over a (0 for a <= 1, drawing nothing).
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint32_t First(uint64_t x) const {
    return jumpback_internal::Walk<jumpback_internal::SplitMix64Stream>(
        x, range_.n, range_.mask);
  }

  // The whole lookup again, keeping the stream (out of line: only keys whose
  // JumpBack bucket was removed come here).
  [[gnu::noinline]] uint32_t Rehash(uint64_t x) const {
    jumpbackanchor_internal::SplitMix64Stream g(x);
    uint32_t b = jumpbackanchor_internal::JumpBackOn(g, range_.n, range_.mask);
    for (uint32_t word = hot_[b]; (word & kRemoved) != 0; word = hot_[b]) {
      const uint32_t v = word & ~kRemoved;
      b = View(jumpbackanchor_internal::Uniform(g, v), v);
    }
    return b;
  }

  // view(u, v): follow K while u is removed with A[u] >= v. A working
  // bucket's word is below kRemoved | v, so one compare decides.
  uint32_t View(uint32_t u, uint32_t v) const {
    while (hot_[u] >= (kRemoved | v)) u = K_[u];
    return u;
  }

  void Refresh() { range_ = jumpback_internal::MakeRange(hot_.size()); }

  // Per bucket: its payload while it works, kRemoved | A[b] once removed.
  std::vector<uint32_t> hot_;
  std::vector<uint32_t> K_;        // K[b], up to the largest removed bucket
  std::vector<uint32_t> removed_;  // the stack R, top at the back
  jumpback_internal::Range range_ = jumpback_internal::MakeRange(0);
};

inline constexpr Capabilities kJumpBackAnchorCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
    .history_dependent = true,
};

template <typename H>
class JumpBackAnchor final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  static constexpr size_t kMaxNodes = JumpBackAnchorCore::kMaxBuckets;

  JumpBackAnchor()
      : NodeTableAlgorithm<H>("jumpbackanchor", /*weights_supported=*/false) {}

  std::string_view name() const override { return "jumpbackanchor"; }
  Capabilities capabilities() const override {
    return kJumpBackAnchorCapabilities;
  }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    if (nodes.size() > kMaxNodes) return TooMany(nodes.size());
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    core_.Init(static_cast<uint32_t>(nodes.size()));
    bucket_of_.clear();
    bucket_of_.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) bucket_of_.push_back(id);
    return absl::OkStatus();
  }

  // Activates the bucket addBucket() returns (the last removed one, or a new
  // bucket a) under a fresh id.
  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = table_.Validate(node); !s.ok()) return s;
    if (core_.next_add() >= kMaxNodes) return TooMany(size() + 1);
    if (table_.issued() >= JumpBackAnchorCore::kRemoved) {
      return absl::FailedPreconditionError(absl::StrCat(
          "jumpbackanchor: cannot add node '", node.name,
          "': ", table_.issued(), " node ids handed out; ids stay below 2^31"));
    }
    const NodeId id = *table_.Add(node);
    bucket_of_.push_back(core_.Add(id));
    return id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    core_.Remove(bucket_of_[id]);  // the bucket's word now holds A, not id
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  // out[i] = Lookup(key_hashes[i]): the plain loop (LookupEach), inlined
  // through the final type; JumpBackHash is arithmetic and the
  // removed buckets' rounds are rare.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    LookupEach(*this, key_hashes, out);
  }

  NodeId Lookup(uint64_t key_hash) const override {
    return core_.Lookup(key_hash);
  }

  // Every live bucket equally likely for a uniform digest: the algorithm's
  // guarantee (AnchorHash's proof over JumpBackHash's uniform first bucket),
  // not a property of this instance.
  std::vector<double> DigestSpaceShares() const override {
    return UniformShares(size());
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kByConstruction;
  }

  // Heap bytes including the object itself (as allocated by
  // MakeJumpBackAnchor).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() + core_.MemoryBytes() +
           bucket_of_.capacity() * sizeof(uint32_t);
  }
  size_t size() const override { return table_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }

  const JumpBackAnchorCore& core() const { return core_; }
  // The bucket of an id (live or not).
  uint32_t bucket_of(NodeId id) const { return bucket_of_[id]; }

 private:
  static absl::Status TooMany(size_t n) {
    return absl::InvalidArgumentError(
        absl::StrCat("jumpbackanchor: ", n,
                     " buckets requested; jumpbackanchor supports "
                     "at most ",
                     kMaxNodes, " (Java int bucket ids)"));
  }

  using NodeTableAlgorithm<H>::table_;
  JumpBackAnchorCore core_;
  std::vector<uint32_t> bucket_of_;  // id -> bucket
};

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeJumpBackAnchor(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_JUMPBACKANCHOR_JUMPBACKANCHOR_H_
