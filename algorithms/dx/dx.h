// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: dx/dx.h
// -----------------------------------------------------------------------------
//
// DxHash (Chaos Dong and Fang Wang, "DxHash: A Scalable Consistent Hash Based
// on the Pseudo-Random Sequence", arXiv:2107.07930, 2021).
//
// Definition. An array of `size` slots, each active (a working node) or not.
// A key walks a pseudo-random sequence of slots and takes the first active
// one. The key enters as 32 bits, key32 = the low 32 bits of the digest; with
// s = key32 * 421757 + 1 (mod 2^32), the sequence is bs_0 = crc(key32, s),
// bs_{j+1} = crc(bs_j, s), slot_j = bs_j mod size (crc: the raw CRC-32C step
// of util/crc32c.h). Removal deactivates a slot. AddNode, as in the
// reference's `updateAddition`, first grows the array to the smallest power
// of two > the working count when every slot is active (new slots inactive),
// then activates the first INACTIVE slot on the sequence of the fixed key
// 1228; it does not bring back the most recently removed node.
//
// chbench's node ids: after Build(n) node i is slot i (the reference's
// constructors activate slots 0..n-1). RemoveNode(id) of any live node
// deactivates its slot; AddNode activates the slot above under a fresh id;
// `Lookup` returns the id. The slot -> id array doubles as the activity
// array (kInvalidNode = inactive), so a probe is one 4-byte load.
//
// Capacity. AlgorithmParams::capacity is the array size at Build:
// 0 = DxHash(n), the smallest power of two >= n; c >= n = DxHash(c, n), any c.
// Before the first Build the array is DxHash(c, 0), or one slot for c = 0.
// The array only grows (by AddNode when full), up to kMaxSize = 2^31 slots.
//
// Guarantees:
//   * Bit-exact with ChaosD/DxHash@acadb66fb953b9b49266e6bb54da1179d285d79d,
//     class DxHash (src/DxHash.cpp): Lookup(x) is the id of the slot
//     getNodeID((uint32_t)x, &probes) returns after the same constructor,
//     updateRemoval and updateAddition calls. Checked on
//     dx/testdata/dx_{stable,remove,remove_pow2}.tsv by dx_test.cc. Only the
//     low 32 bits of the digest matter: at most 2^32 keys are told apart.
//   * Beyond the reference: the reference gives up after 4 * size probes
//     (getNodeID returns 0xFFFFFFFF; updateAddition would then index out of
//     range). Where it gives up, chbench continues with a linear scan from
//     the slot of the abandoned probe (inclusive, upwards, wrapping) to the
//     first slot of the wanted state, so every lookup returns a live node.
//     This happens only when few slots are active, e.g. about e^-4 = 2 % of
//     keys with one active slot; the probe walk it extends is the reference's
//     up to that point.
//   * Arbitrary removal. Removal moves only the removed node's keys, and an
//     AddNode that does not grow the array moves keys only to the new node;
//     but an AddNode that grows it changes every key's slot modulus and
//     remaps keys among the old nodes too (dx_test.cc shows it), so
//     minimal_disruption is false. No weights, no replicas. The mapping
//     depends on the add/remove history.
//
// Complexity (size slots, w active):
//   Lookup      size / w expected probes (geometric), each one CRC, one fast
//               modulo and one load; at most 4 * size probes plus the scan.
//   AddNode     O(size / (size - w)) expected probes; O(size) when it grows.
//   RemoveNode  O(1).   Build  O(size).
//   Memory      4 bytes per slot (slot -> id; the reference keeps 1 bit) and
//               4 bytes per issued id (id -> slot), plus the NodeTable.
//
// Example:
//   auto dx = MakeDx(AlgorithmParams{}).value();
//   dx->Build(nodes).IgnoreError();          // 100 nodes: 128 slots
//   dx->RemoveNode(17).IgnoreError();        // any node
//   NodeId id = dx->AddNode(spec).value();   // the first inactive slot on
//                                            // key 1228's sequence
//
// Citation: the paper above; reference code ChaosD/DxHash.

#ifndef CHBENCH_ALGORITHMS_DX_DX_H_
#define CHBENCH_ALGORITHMS_DX_DX_H_

#include <bit>
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

// The reference DxHash state machine on slots, without node names: its two
// constructors, getNodeID, updateRemoval and updateAddition (with the
// give-up extension above). Each slot holds a 32-bit payload, kInvalidNode
// when inactive; the bare machine stores the slot number in active slots.
class DxHashCore {
 public:
  static constexpr uint64_t kMaxSize = uint64_t{1} << 31;
  static constexpr uint32_t kAddKey = 1228;  // updateAddition's probe key

  // DxHash(n)'s array size: the smallest power of two >= n (1 for n = 0).
  static uint64_t PowerOfTwoAtLeast(uint64_t n) {
    return n <= 1 ? 1 : std::bit_ceil(n);
  }

  DxHashCore() = default;
  // DxHash(size, working): slots 0..working-1 active. working <= size,
  // 1 <= size <= kMaxSize.
  DxHashCore(uint32_t size, uint32_t working) { Init(size, working); }

  void Init(uint32_t size, uint32_t working) {
    slots_.assign(size, kInvalidNode);
    for (uint32_t i = 0; i < working; ++i) slots_[i] = i;
    working_ = working;
    mod_ = FastMod32(size);
  }

  // The slot getNodeID(key32) returns. Precondition: working() > 0.
  uint32_t Slot(uint64_t x) const {
    const uint32_t key = static_cast<uint32_t>(x);
    const uint32_t s = key * 421757u + 1u;
    const uint32_t bs = Crc32c(key, s);
    const uint32_t i = mod_(bs);
    if (slots_[i] != kInvalidNode) [[likely]] {
      return i;
    }
    return Walk</*kActive=*/true>(bs, s);
  }

  // The payload of Slot(x), with the first probe's load reused.
  uint32_t Lookup(uint64_t x) const {
    const uint32_t key = static_cast<uint32_t>(x);
    const uint32_t s = key * 421757u + 1u;
    const uint32_t bs = Crc32c(key, s);
    const uint32_t p = slots_[mod_(bs)];
    if (p != kInvalidNode) [[likely]] {
      return p;
    }
    return WalkPayload(bs, s);
  }

  // Slot arrays below this many bytes fit in a 32 KiB L1 data cache, where
  // LookupBatch takes the plain loop. Measured batched/single (N = 1000,
  // 4 KB: prefetched 1.07, plain 0.97; N = 10^4, 64 KB: prefetched 0.85,
  // plain 1.04): dx's lookup is short enough that prefetching from L2
  // already pays, unlike Maglev's and the ring's (kPrefetchPaysFromBytes).
  static constexpr size_t kSlotsPrefetchFromBytes = size_t{32} << 10;

  // out[i] = Lookup(keys[i]), by groups of kLookupGroup keys: the first
  // probe's slot of every key of a group is prefetched, then read; a key
  // whose first slot is inactive continues its sequence from there. Arrays
  // under kSlotsPrefetchFromBytes (L1-resident) take the plain loop.
  void LookupBatch(std::span<const uint64_t> keys,
                   std::span<uint32_t> out) const {
    if (slots_.size() * sizeof(uint32_t) < kSlotsPrefetchFromBytes) {
      LookupEach(*this, keys, out);
      return;
    }
    const uint32_t* const slots = slots_.data();
    GroupedLookup(
        keys, out,
        [&](uint64_t x) {
          const uint32_t key = static_cast<uint32_t>(x);
          const uint32_t bs = Crc32c(key, key * 421757u + 1u);
          const uint32_t i = mod_(bs);
          __builtin_prefetch(slots + i);
          return (uint64_t{bs} << 32) | i;
        },
        [&](uint64_t x, uint64_t state) {
          const uint32_t p = slots[static_cast<uint32_t>(state)];
          if (p != kInvalidNode) [[likely]] {
            return p;
          }
          const uint32_t key = static_cast<uint32_t>(x);
          return WalkPayload(static_cast<uint32_t>(state >> 32),
                             key * 421757u + 1u);
        });
  }

  // updateRemoval(i) of an active slot.
  void Remove(uint32_t i) {
    slots_[i] = kInvalidNode;
    --working_;
  }

  // True when the next Add must grow the array.
  bool full() const { return working_ == slots_.size(); }
  // The array size after the next Add.
  uint64_t size_after_add() const {
    return full() ? std::bit_ceil(uint64_t{working_} + 1) : slots_.size();
  }

  // updateAddition(): grows when full, then activates the first inactive
  // slot on key 1228's sequence; returns it. Precondition:
  // size_after_add() <= kMaxSize.
  uint32_t Add() {
    if (full()) {
      slots_.resize(size_after_add(), kInvalidNode);
      mod_ = FastMod32(static_cast<uint32_t>(slots_.size()));
    }
    const uint32_t s = kAddKey * 421757u + 1u;
    const uint32_t bs = Crc32c(kAddKey, s);
    uint32_t i = mod_(bs);
    if (slots_[i] != kInvalidNode) i = Walk</*kActive=*/false>(bs, s);
    slots_[i] = i;
    ++working_;
    return i;
  }

  uint32_t size() const { return static_cast<uint32_t>(slots_.size()); }
  uint32_t working() const { return working_; }
  bool active(uint32_t i) const { return slots_[i] != kInvalidNode; }
  uint32_t payload(uint32_t i) const { return slots_[i]; }
  void set_payload(uint32_t i, uint32_t v) { slots_[i] = v; }

  size_t MemoryBytes() const { return slots_.capacity() * sizeof(uint32_t); }

 private:
  // Continues the sequence after slot_0 = mod(bs) missed, until a slot whose
  // state is kActive; the reference's give-up point (count = 4 * size) hands
  // over to the linear scan.
  template <bool kActive>
  [[gnu::noinline]] uint32_t Walk(uint32_t bs, uint32_t s) const {
    const uint64_t limit = 4 * uint64_t{slots_.size()};
    uint64_t count = 1;
    while (true) {
      bs = Crc32c(bs, s);
      const uint32_t i = mod_(bs);
      if (++count >= limit) return Scan<kActive>(i);
      if ((slots_[i] != kInvalidNode) == kActive) return i;
    }
  }

  // slots_[Walk<true>(bs, s)], so that Lookup's slow path is a tail call.
  [[gnu::noinline]] uint32_t WalkPayload(uint32_t bs, uint32_t s) const {
    return slots_[Walk</*kActive=*/true>(bs, s)];
  }

  template <bool kActive>
  uint32_t Scan(uint32_t from) const {
    const size_t n = slots_.size();
    for (size_t k = 0; k < n; ++k) {
      const size_t i = (from + k) % n;
      if ((slots_[i] != kInvalidNode) == kActive)
        return static_cast<uint32_t>(i);
    }
    return from;  // unreachable under the preconditions
  }

  std::vector<uint32_t> slots_;  // payload; kInvalidNode = inactive
  uint32_t working_ = 0;
  FastMod32 mod_;
};

inline constexpr Capabilities kDxCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = false,  // growth remaps keys among old nodes
    .weights = false,
    .replicas = false,
    .stateful = false,
    .history_dependent = true,
};

template <typename H>
class Dx final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  static constexpr uint64_t kMaxSize = DxHashCore::kMaxSize;

  // capacity: the array size at Build (0: the smallest power of two >= N).
  explicit Dx(uint64_t capacity)
      : NodeTableAlgorithm<H>("dx", /*weights_supported=*/false), capacity_(capacity) {}

  std::string_view name() const override { return "dx"; }
  Capabilities capabilities() const override { return kDxCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    const uint64_t n = nodes.size();
    if (n > kMaxSize) {
      return absl::InvalidArgumentError(
          absl::StrCat("dx: ", n, " nodes requested; dx supports at most ",
                       kMaxSize, " slots"));
    }
    if (capacity_ != 0 && capacity_ < n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dx: cannot build ", n, " nodes in an array of capacity ", capacity_,
          " slots; set the capacity parameter to at least ", n,
          " or to 0 (the smallest power of two >= the node count)"));
    }
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    const uint64_t size =
        capacity_ != 0 ? capacity_ : DxHashCore::PowerOfTwoAtLeast(n);
    core_.Init(static_cast<uint32_t>(size), static_cast<uint32_t>(n));
    bucket_of_.clear();
    bucket_of_.reserve(n);
    for (NodeId id = 0; id < nodes.size(); ++id) {
      bucket_of_.push_back(id);  // payload of slot i is already i
    }
    return absl::OkStatus();
  }

  // Activates the first inactive slot on key 1228's probe sequence (growing
  // a full array first) under a fresh id.
  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = table_.Validate(node); !s.ok()) return s;
    if (core_.size() == 0) {
      core_.Init(capacity_ != 0 ? static_cast<uint32_t>(capacity_) : 1, 0);
    }
    if (core_.size_after_add() > kMaxSize) {
      return absl::FailedPreconditionError(absl::StrCat(
          "dx: cannot add node '", node.name, "': all ", core_.size(),
          " slots are active and the array cannot double beyond ", kMaxSize,
          " slots"));
    }
    const NodeId id = *table_.Add(node);
    const uint32_t slot = core_.Add();
    core_.set_payload(slot, id);
    bucket_of_.push_back(slot);
    return id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    core_.Remove(bucket_of_[id]);
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  NodeId Lookup(uint64_t key_hash) const override {
    return core_.Lookup(key_hash);
  }
  // out[i] = Lookup(key_hashes[i]): the first probes' slots of a group of
  // keys are prefetched, then read (DxHashCore::LookupBatch). Same owners
  // as Lookup; O(1) expected per key.
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


  // Heap bytes including the object itself (as allocated by MakeDx).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() + core_.MemoryBytes() +
           bucket_of_.capacity() * sizeof(uint32_t);
  }
  size_t size() const override { return table_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }

  const DxHashCore& core() const { return core_; }
  // The slot of a node (also of a removed one: its last slot).
  uint32_t slot_of(NodeId id) const { return bucket_of_[id]; }

 private:
  using NodeTableAlgorithm<H>::table_;
  uint64_t capacity_;  // the parameter
  DxHashCore core_;
  std::vector<uint32_t> bucket_of_;  // id -> slot
};

// Factory for the registry: validates `params.hash` and `params.capacity`
// (0, or 1..2^31) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeDx(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_DX_DX_H_
