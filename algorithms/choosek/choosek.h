// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: choosek/choosek.h
// -----------------------------------------------------------------------------
//
// ConsistentChooseK and ConsistentNodeMap from the crate consistent-choose-k
// of github/rust-gems (crates/consistent-choose-k, MIT; there is no paper:
// the crate's README proves the properties and relates the method to
// reservoir sampling). chbench's `choosek` is the node map: a consistent
// k-subset of n slots with O(1) state per key, ranked, plus a set of deleted
// slots for arbitrary removal.
//
// Definition. A key K (the 64-bit digest) seeds SipHash-1-3 with both keys
// zero, Rust's std DefaultHasher; H(w1, w2, ...) is that hash over the
// 8-byte little-endian words w1, w2, ... (the running state is cloned and
// extended, never rewound). For an index i and a bit value b = 2^j:
//   * mask(K, i) = H(K, i);  draw r of bit b = H(K, i, b, C, ..., C) with r
//     copies of C = 54387634019 (r = 1, 2, ...).
//   * prev(K, i, m), m >= 1: the set bits of mask(K, i) & (P - 1), P the
//     smallest power of two >= m, from the top. For bit b the first candidate
//     is b + (draw 1 & (b - 1)); then draws masked to 2b - 1 until one is
//     below b (next lower bit) or in [b, m). A candidate below m is the
//     answer; 0 when no bit gives one. prev(m) is the largest element below
//     m of a fixed set Z(K, i) that contains 0, so prev(m') = prev(m) for
//     prev(m) < m' <= m ("consistency").
//   * sample(K, i, m) = i + prev(K, i, m - i), in [i, m).
//   * S(0, n) = {}; S(k, n) = {M} + S(k - 1, M), M = max over i < k of
//     sample(K, i, n): a uniformly chosen k-subset of 0..n-1, with
//     S(k, n) in S(k + 1, n) and at most one member changing (to n) when n
//     grows by one.
//   * The ranking rho_0, rho_1, ... is the permutation of 0..n-1 with
//     {rho_0, ..., rho_(k-1)} = S(k, n) for every k; rho_0 = prev(K, 0, n).
//     It is computed incrementally as the reference's `grow_k` does (O(j)
//     sample calls for rho_j): ChooseKRanking below.
//   * The node map (T slots, a set D of deleted slots): Lookup(K) is the
//     first rho_j of the ranking over n = T that is not in D. RemoveNode of
//     the slot T - 1 pops it (T -= 1; a deleted slot that becomes the last
//     one stays in D); of any other slot, adds it to D. AddNode reuses the
//     smallest deleted slot (the reference reuses an unspecified one, the
//     first of a Rust HashSet's randomised order: chbench's deterministic
//     choice), else appends slot T. LookupReplicas(K, r) is the first r
//     slots of the same ranking not in D, in ranking order; with
//     `distinct_zones`, slots of untaken zones first, then the ones passed
//     over, in ranking order.
//
// chbench's node ids: after Build(n) node i is slot i; a node added later
// gets a fresh id (ids are never reused) and the slot AddNode chooses.
//
// Guarantees:
//   * Bit-exact with
//     github/rust-gems@a7aecfb97c96723415856b2b1119d37f39793670,
//     crates/consistent-choose-k (src/consistent_hash.rs, src/choose_k.rs,
//     src/node_map.rs), with the key fed as `key.hash(&mut h)`, key: u64,
//     into h = DefaultHasher::default() (rustc 1.95.0, 64-bit): with
//     Build(n), LookupReplicas(K, k) are the slots of
//     ConsistentChooseKHasher::new(h, n).take(k); after the same add() and
//     remove() calls, Lookup(K) is ConsistentNodeMap::get(h). Checked on
//     choosek/testdata/{choosek,nodemap}_*.tsv by choosek_test.cc.
//   * Replicas: distinct live slots in ranking order, the first is Lookup's,
//     and raising r only appends (the ranking is fixed for fixed T, D).
//   * Minimal disruption: removing a node moves only its keys, each to the
//     next live slot of its own ranking (uniform over the survivors); adding
//     slot T moves keys only to it (the ranking over T + 1 without T is the
//     ranking over T); re-adding a deleted slot undoes its deletion.
//   * Uniform: every live slot gets 1/N of uniform keys (the ranking is a
//     uniformly random permutation; the crate's README).
//   * The mapping is a function of (T, D), not of the order of changes, but
//     it is not that of a fresh Build of the live nodes once a slot below
//     T - 1 was deleted: Capabilities::history_dependent is true.
//   * No weights.
//
// Complexity (T slots, N live, h deleted slots met before a live one):
//   Lookup      O(1) expected with nothing deleted: one prev, i.e. about two
//               SipHash-1-3 finalizations per bit visited, as JumpBackHash's
//               walk but with SipHash instead of SplitMix64 steps; with
//               deletions O((h + 1)^2) sample calls, (1 + ln(T / N))^2
//               expected (the crate's README). No allocation below 64
//               ranking steps.
//   LookupReplicas  O(r^2) sample calls (more past deleted slots or taken
//               zones); one allocation for the result.
//   AddNode, RemoveNode  O(log |D|).   Build  O(N).
//   Memory      4 bytes per slot (slot -> id), 4 per issued id
//               (id -> slot), 4 per deleted slot, plus the NodeTable.
//
// Example:
//   auto ck = MakeChooseK(AlgorithmParams{}).value();
//   ck->Build(nodes).IgnoreError();             // slots 0..n-1
//   std::vector<NodeId> three;
//   ck->LookupReplicas(ck->HashKey("user:42"), 3, false, &three).IgnoreError();
//   ck->RemoveNode(three[0]).IgnoreError();     // its keys go to three[1]...

#ifndef CHBENCH_ALGORITHMS_CHOOSEK_CHOOSEK_H_
#define CHBENCH_ALGORITHMS_CHOOSEK_CHOOSEK_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
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
#include "algorithms/node_table_algorithm.h"

namespace chbench {
namespace choosek_internal {

// The constant each draw appends (the reference's HashSequence::next).
inline constexpr uint64_t kDrawWord = 54387634019ULL;  // 0xCA9C16F63

// SipHash-1-3 with both 64-bit keys zero, fed whole 8-byte little-endian
// words only (every value the algorithm hashes is a u64 or usize), so there
// is never a partial block. Copying the object clones the hasher, as the
// reference clones its DefaultHasher.
struct Sip13 {
  uint64_t v0 = 0x736f6d6570736575ULL;
  uint64_t v1 = 0x646f72616e646f6dULL;
  uint64_t v2 = 0x6c7967656e657261ULL;
  uint64_t v3 = 0x7465646279746573ULL;
  uint64_t len = 0;  // bytes written

  ABSL_ATTRIBUTE_ALWAYS_INLINE void Round() {
    v0 += v1;
    v1 = std::rotl(v1, 13);
    v1 ^= v0;
    v0 = std::rotl(v0, 32);
    v2 += v3;
    v3 = std::rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = std::rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = std::rotl(v1, 17);
    v1 ^= v2;
    v2 = std::rotl(v2, 32);
  }

  // One compression round per word (the "1" of SipHash-1-3).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void Write(uint64_t m) {
    v3 ^= m;
    Round();
    v0 ^= m;
    len += 8;
  }

  // finish() on a copy: the running state goes on unchanged.
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint64_t Finish() const {
    Sip13 s = *this;
    const uint64_t b = (len & 0xff) << 56;
    s.v3 ^= b;
    s.Round();
    s.v0 ^= b;
    s.v2 ^= 0xff;
    s.Round();
    s.Round();
    s.Round();
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
  }
};

// The key hasher: DefaultHasher after `key.hash(&mut h)`.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline Sip13 KeyHasher(uint64_t key) {
  Sip13 s;
  s.Write(key);
  return s;
}

// prev over the index hasher `s` (the key hasher with i written): the
// largest element below m of its set Z; m >= 1. The reference's
// ConsistentHashRevIterator::next for a builder `s`.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t Prev(const Sip13& s, uint64_t m) {
  if (m <= 1) return 0;  // P = 1: no bits (the reference draws nothing)
  uint64_t bits = s.Finish() & (std::bit_ceil(m) - 1);
  while (bits != 0) {
    const uint64_t b = uint64_t{1} << (63 ^ std::countl_zero(bits));
    Sip13 seq = s;
    seq.Write(b);
    seq.Write(kDrawWord);
    uint64_t v = b + (seq.Finish() & (b - 1));
    if (v < m) return v;
    for (;;) {
      seq.Write(kDrawWord);
      v = seq.Finish() & (2 * b - 1);
      if (v < b) break;
      if (v < m) return v;
    }
    bits ^= b;
  }
  return 0;
}

// sample(K, i, m) = i + prev(K, i, m - i), for m > i; `key` = KeyHasher(K).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t Sample(const Sip13& key,
                                                    uint64_t i, uint64_t m) {
  Sip13 s = key;
  s.Write(i);
  return i + Prev(s, m - i);
}

// The ranking over n slots, one element at a time, as the reference's
// ConsistentChooseKHasher iterator (grow_k): the state is S(k, n) in
// ascending order. The first kInline elements live in the object (no
// allocation), deeper walks in a vector.
class RankingWalk {
 public:
  static constexpr size_t kInline = 64;

  RankingWalk(uint64_t key_hash, uint64_t n)
      : key_(KeyHasher(key_hash)), n_(n) {}
  RankingWalk(const RankingWalk&) = delete;
  RankingWalk& operator=(const RankingWalk&) = delete;

  // Elements returned so far (k).
  size_t count() const { return k_; }
  bool done() const { return k_ >= n_; }

  // rho_k, then k += 1. Precondition: !done().
  uint32_t Next() {
    if (k_ == kInline && heap_.empty()) {
      heap_.assign(inline_.begin(), inline_.end());
    }
    if (!heap_.empty() && heap_.size() <= k_) heap_.resize(2 * k_);
    uint32_t* s = heap_.empty() ? inline_.data() : heap_.data();
    const size_t k = k_++;
    const uint64_t x = Sample(key_, k, n_);
    if (k == 0 || s[k - 1] < x) {
      s[k] = static_cast<uint32_t>(x);
      return s[k];
    }
    // S(k + 1, n) = {L} + S(k, L) with L = s[k - 1] unchanged: one level
    // down at a time, the new maximum of indices 0..idx below `bound` is
    // either sample(idx, bound) or the known maximum s[idx - 1] of the
    // others (the reference's shrink_n_inner).
    const uint32_t last = s[k - 1];
    uint64_t bound = last;
    size_t pos = 0;
    for (size_t idx = k; idx-- > 0;) {
      if (s[idx] < bound) {
        pos = idx + 1;
        break;
      }
      const uint64_t y = Sample(key_, idx, bound);
      s[idx] =
          idx > 0 && s[idx - 1] > y ? s[idx - 1] : static_cast<uint32_t>(y);
      bound = s[idx];
    }
    s[k] = last;
    return s[pos];
  }

 private:
  Sip13 key_;
  uint64_t n_;
  size_t k_ = 0;
  std::array<uint32_t, kInline> inline_;
  std::vector<uint32_t> heap_;
};

}  // namespace choosek_internal

// The first k slots of the ranking of `key_hash` over n slots (k <= n), in
// ranking order: ConsistentChooseKHasher::new(h, n).take(k).
inline std::vector<uint32_t> ChooseKRanking(uint64_t key_hash, uint64_t n,
                                            size_t k) {
  choosek_internal::RankingWalk walk(key_hash, n);
  std::vector<uint32_t> out;
  out.reserve(k);
  while (out.size() < k && !walk.done()) out.push_back(walk.Next());
  return out;
}

// rho_0 over n >= 1 slots: prev(K, 0, n), the crate's replacement for
// JumpBackHash.
inline uint32_t ChooseKFirst(uint64_t key_hash, uint64_t n) {
  choosek_internal::Sip13 s = choosek_internal::KeyHasher(key_hash);
  s.Write(0);
  return static_cast<uint32_t>(choosek_internal::Prev(s, n));
}

inline constexpr Capabilities kChooseKCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
    .weights = false,
    .replicas = true,
    .stateful = false,
    // Not the order, but the slots ever issued: see the header comment.
    .history_dependent = true,
};

template <typename H>
class ChooseK final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  // Slots are uint32 below kInvalidNode, and ids are NodeIds.
  static constexpr size_t kMaxSlots = std::numeric_limits<int32_t>::max();

  ChooseK() : NodeTableAlgorithm<H>("choosek", /*weights_supported=*/false) {}

  std::string_view name() const override { return "choosek"; }
  Capabilities capabilities() const override { return kChooseKCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    if (nodes.size() > kMaxSlots) return TooMany(nodes.size());
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    ids_.clear();
    slot_of_.clear();
    deleted_.clear();
    ids_.reserve(nodes.size());
    slot_of_.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) {
      ids_.push_back(id);
      slot_of_.push_back(id);
    }
    live_zones_ = LiveZoneCount();
    return absl::OkStatus();
  }

  // Reuses the smallest deleted slot, else appends slot T; a fresh id.
  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = table_.Validate(node); !s.ok()) return s;
    if (deleted_.empty() && ids_.size() >= kMaxSlots) {
      return TooMany(ids_.size() + 1);
    }
    const NodeId id = *table_.Add(node);
    uint32_t slot;
    if (!deleted_.empty()) {
      std::pop_heap(deleted_.begin(), deleted_.end(), std::greater<>());
      slot = deleted_.back();
      deleted_.pop_back();
      ids_[slot] = id;
    } else {
      slot = static_cast<uint32_t>(ids_.size());
      ids_.push_back(id);
    }
    slot_of_.push_back(slot);
    live_zones_ = LiveZoneCount();
    return id;
  }

  // Pops the last slot, or marks any other slot deleted.
  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    const uint32_t slot = slot_of_[id];
    if (slot + 1 == ids_.size()) {
      ids_.pop_back();  // a deleted slot now last stays deleted
    } else {
      ids_[slot] = kInvalidNode;
      deleted_.push_back(slot);
      std::push_heap(deleted_.begin(), deleted_.end(), std::greater<>());
    }
    live_zones_ = LiveZoneCount();
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  // out[i] = Lookup(key_hashes[i]): the plain loop (LookupEach), inlined
  // through the final type; the lookup is SipHash arithmetic plus a read of
  // the N-entry slot table, small beside the hashing.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    LookupEach(*this, key_hashes, out);
  }

  NodeId Lookup(uint64_t key_hash) const override {
    const NodeId id = ids_[ChooseKFirst(key_hash, ids_.size())];
    if (id != kInvalidNode) [[likely]] {
      return id;
    }
    return LookupPastDeleted(key_hash);
  }

  absl::Status LookupReplicas(uint64_t key_hash, size_t r, bool distinct_zones,
                              std::vector<NodeId>* out) const override {
    out->clear();
    const size_t live = table_.live_count();
    if (r == 0 || r > live) {
      return absl::InvalidArgumentError(absl::StrCat(
          "choosek: replica count r = ", r, " is out of range; valid: 1..",
          live, " (the number of live nodes)"));
    }
    out->reserve(r);
    // With distinct zones: slots of untaken zones first, then the slots
    // passed over, in ranking order (the ring's NetworkTopologyStrategy
    // rule); once every live zone is taken, the walk stops as soon as the
    // two together hold r.
    const size_t zones = distinct_zones ? live_zones_ : r;
    std::vector<NodeId> skipped;
    choosek_internal::RankingWalk walk(key_hash, ids_.size());
    while (out->size() < r && !walk.done() &&
           (out->size() < zones || out->size() + skipped.size() < r)) {
      const NodeId id = ids_[walk.Next()];
      if (id == kInvalidNode) continue;
      if (distinct_zones && ZoneTaken(*out, id)) {
        skipped.push_back(id);
        continue;
      }
      out->push_back(id);
    }
    for (size_t i = 0; i < skipped.size() && out->size() < r; ++i) {
      out->push_back(skipped[i]);
    }
    return absl::OkStatus();
  }

  // Every live slot equally likely for a uniform digest: the ranking is a
  // uniformly random permutation (the crate's README), so its first live
  // slot is uniform over the live ones.
  std::vector<double> DigestSpaceShares() const override {
    return UniformShares(size());
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kByConstruction;
  }

  // Heap bytes including the object itself (as allocated by MakeChooseK).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() +
           (ids_.capacity() + slot_of_.capacity() + deleted_.capacity()) *
               sizeof(uint32_t);
  }
  size_t size() const override { return table_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }

  // T, the slot count, and the deleted slots (ascending), for tests.
  size_t slot_count() const { return ids_.size(); }
  std::vector<uint32_t> deleted_slots() const {
    std::vector<uint32_t> d = deleted_;
    std::sort(d.begin(), d.end());
    return d;
  }
  // The slot of a live id.
  uint32_t slot_of(NodeId id) const { return slot_of_[id]; }

 private:
  // The ranking walk past deleted slots (out of line: the first slot is live
  // for all keys while nothing is deleted).
  [[gnu::noinline]] NodeId LookupPastDeleted(uint64_t key_hash) const {
    choosek_internal::RankingWalk walk(key_hash, ids_.size());
    while (!walk.done()) {
      const NodeId id = ids_[walk.Next()];
      if (id != kInvalidNode) return id;
    }
    return kInvalidNode;  // no live slot: the precondition was broken
  }

  size_t LiveZoneCount() const {
    std::unordered_set<std::string_view> zones;
    for (NodeId id : ids_) {
      if (id != kInvalidNode) zones.insert(table_.spec(id).zone);
    }
    return zones.size();
  }

  bool ZoneTaken(const std::vector<NodeId>& chosen, NodeId candidate) const {
    const std::string& zone = table_.spec(candidate).zone;
    for (NodeId id : chosen) {
      if (table_.spec(id).zone == zone) return true;
    }
    return false;
  }

  static absl::Status TooMany(size_t n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "choosek: ", n, " slots requested; choosek supports at most ",
        kMaxSlots, " (uint32 slot ids below the invalid id)"));
  }

  using NodeTableAlgorithm<H>::table_;
  std::vector<NodeId> ids_;        // slot -> id (kInvalidNode: deleted)
  std::vector<uint32_t> slot_of_;  // id -> slot
  std::vector<uint32_t> deleted_;  // D, a min-heap
  // Distinct zones of the live nodes (LiveZoneCount), kept by Build,
  // AddNode and RemoveNode so that LookupReplicas does not count them.
  size_t live_zones_ = 0;
};

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeChooseK(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_CHOOSEK_CHOOSEK_H_
