// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: maglev/maglev.h
// -----------------------------------------------------------------------------
//
// Maglev hashing: Eisenbud et al., "Maglev: A Fast and Reliable Software
// Network Load Balancer", NSDI 2016, §3.4 and Pseudocode 1.
//
// Semantics. Each node has a preference list over the M slots of a lookup
// table (M prime):
//
//   offset = H(name, seed 0) mod M
//   skip   = H(name, seed 1) mod (M - 1) + 1
//   permutation[j] = (offset + j * skip) mod M
//
// The table is populated by turns exactly as Pseudocode 1: the live nodes, in
// ascending id order, each take their next preferred empty slot in turn until
// the table is full. A key with digest h belongs to `table[h mod M]`.
//
// Weights (an extension; the paper populates equal shares). Turns are taken in
// rounds r = 1, 2, ...; in round r node i takes a turn only if
//
//   filled_i < r * w_i / w_max          (evaluated in IEEE double)
//
// so the heaviest node takes a turn every round and node i about w_i / w_max
// of them: shares are proportional to weights up to rounding. With all
// weights equal every node takes a turn every round, which is exactly the
// paper's populate.
//
// Table size. `table_size` (AlgorithmParams) fixes M; it must be a prime in
// [2, 4294967291] and at least the number of nodes. With table_size 0, M is
// the smallest prime >= 100 * N, decided by the first Build or AddNode and
// then kept FIXED across later AddNode/RemoveNode calls: changing M would
// reshuffle every key. So an instance grown one AddNode at a time from empty
// gets M = 101 (from N = 1) and cannot hold more than 101 nodes; pass
// table_size when growing incrementally. `Build` starts afresh and chooses M
// again from the batch size.
//
// Guarantees.
//   * Deterministic across processes and machines (given a reproducible H).
//   * Every slot is owned by a live node. With equal weights every node owns
//     floor(M / N) or ceil(M / N) slots; with weights, node i owns within
//     a couple of slots of M * w_i / sum(w) (see maglev_test.cc).
//   * AddNode/RemoveNode repopulate the whole table from the new node set, as
//     the paper does. Disruption is small but NOT minimal (the paper's
//     Table 1: removing B1 also moves slot 6 from B0 to B2).
//
// Complexity. Lookup: one exact reduction h mod M and one table read. The
// reduction is Barrett's (two multiplications and a conditional
// subtraction; FastMod32 below) for tables up to DivisionPaysFrom() bytes
// (8 MiB or more), and the hardware division for larger tables, where it
// measured faster. Populate
// (every Build/AddNode/RemoveNode): O(M log M) probes at worst (the paper,
// §3.4; about M ln(M / N) in practice), made on an M-bit occupancy bitmap (1.25
// MB at M = 10^7, mostly in cache), so that only successful probes touch the
// M-entry table; permutations are never materialized (each node keeps its next
// slot, advanced by +skip mod M); temporary memory M / 8 + O(N) bytes. Memory:
// 2 * M bytes of table while every node id issued is below 2^16 - 1 (4 * M
// after that) plus the node table.
//
// Example:
//   Maglev<Xxh64> maglev(/*table_size=*/65537);
//   absl::Status s = maglev.Build(nodes);
//   NodeId owner = maglev.Lookup(maglev.HashKey("user:42"));

#ifndef CHBENCH_ALGORITHMS_MAGLEV_MAGLEV_H_
#define CHBENCH_ALGORITHMS_MAGLEV_MAGLEV_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/node_table.h"
#include "algorithms/util/huge_page_allocator.h"
#include "algorithms/util/prime.h"

namespace chbench {

inline constexpr Capabilities kMaglevCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = false,
    .weights = true,
    .replicas = false,
    .stateful = false,
};

// Validates the parameters Maglev reads (hash, table_size) and returns an
// empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeMaglev(
    const AlgorithmParams& params);

// The table size Maglev uses when AlgorithmParams::table_size is 0 (the
// default): the smallest prime >= 100 N, as the paper suggests (M > 100 N
// keeps every node's share within 1 % of the others). 0 for N = 0; above the
// maximum table size (N > ~4.3 * 10^7) Build reports an error.
inline uint64_t MaglevDefaultTableSize(uint32_t nodes) {
  return nodes == 0 ? 0 : NextPrime(100 * uint64_t{nodes});
}

namespace maglev_internal {

// The largest prime below 2^32: table entries and positions are 32-bit, and
// FastMod32 needs a 32-bit divisor.
inline constexpr uint64_t kMaxTableSize = 4294967291ULL;

// Primality is shared with the spec and CLI checks (algorithms/util/prime.h).
using ::chbench::IsPrime;
using ::chbench::MulMod;
using ::chbench::NextPrime;

// OK for 0 (the default) or a prime in [2, kMaxTableSize]; otherwise
// InvalidArgument naming the value and the valid ones, e.g.
// "maglev: table size 1000 is not prime; next prime >= 1000 is 1009".
absl::Status ValidateTableSize(uint64_t table_size);

// Exact a mod d for any 64-bit a and a fixed divisor 1 <= d < 2^32, in one
// of two ways, with equal results:
//   * Barrett reduction (Barrett, "Implementing the Rivest Shamir and Adleman
//     Public Key Encryption Algorithm on a Standard Digital Signal
//     Processor", CRYPTO 1986) with one correction step: with
//     m = floor(2^64 / d) (2^64 - 1 for d = 1), q = floor(a * m / 2^64)
//     satisfies a / d - q < 1 + a / 2^64 < 2, so q is floor(a / d) or one
//     less, and r = a - q * d lies in [0, 2d): one conditional subtraction
//     makes it exact. Two multiplications, no division, no branch.
//   * `use_division`: the hardware division (a % d), as Katran does.
// Which is faster depends on the table read that follows (see
// DivisionPaysFrom): with the table in cache, Barrett is twice as fast as a
// division; once the table is read from DRAM, the division measured faster
// (M = 10^7: 3.7 against 5.6 ns per lookup on a Xeon, 9.5 against 11.7 on
// an EPYC), as if the cheaper index let more table misses overlap than the
// memory system serves well.
class FastMod32 {
 public:
  FastMod32() : FastMod32(1) {}
  explicit FastMod32(uint32_t d, bool use_division = false)
      : m_(d == 1 ? ~uint64_t{0}
                  : static_cast<uint64_t>(
                        (static_cast<unsigned __int128>(1) << 64) / d)),
        d_(d),
        division_(use_division) {}

  // Both fields are read before the branch, so that a loop of lookups keeps
  // them in registers: GCC does not hoist a load that only one branch makes
  // (the object might not be readable on the other path).
  uint64_t operator()(uint64_t a) const {
    const uint64_t m = m_;
    const uint64_t d = d_;
    // Constant per instance, so predicted. The division is laid out inline:
    // it serves DRAM-sized tables, where Lookup is otherwise the same
    // instructions as Katran's table[h % M]; Barrett's tables (in cache,
    // where Lookup takes 0.4-0.8 of Katran's time) take the jump.
    if (ABSL_PREDICT_TRUE(division_)) return a % d;
    return Barrett(a, m, d);
  }
  // a mod d by Barrett's reduction whatever uses_division() says: the same
  // value, without the branch (Maglev::LookupBatch's loops).
  uint64_t Barrett(uint64_t a) const { return Barrett(a, m_, d_); }
  uint32_t divisor() const { return static_cast<uint32_t>(d_); }
  bool uses_division() const { return division_; }

 private:
  static uint64_t Barrett(uint64_t a, uint64_t m, uint64_t d) {
    const uint64_t q =
        static_cast<uint64_t>((static_cast<unsigned __int128>(a) * m) >> 64);
    const uint64_t r = a - q * d;
    return r >= d ? r - d : r;
  }

  uint64_t m_;
  uint64_t d_;
  bool division_;
};

// Table bytes above which Lookup reduces with the hardware division: 1.5
// times this machine's L2 cache (sysconf; 2 MiB if unknown), and at least
// 8 MiB. Measured crossovers (prehashed throughput, 32-bit entries):
//   * a 2 MiB-L2 Xeon VM: Barrett faster up to 2.8 MB tables (2.42 against
//     2.62 ns), the division from 4 MB (2.59 against 2.72 ns) and beyond
//     (M = 10^8: 13.9 against 16.3 ns);
//   * a 1 MiB-L2 EPYC (Zen 5) VM: Barrett faster up to 8 MB (0.89 of
//     Katran's h % M at M = 2 * 10^6), the division from 12 MB (Barrett
//     1.12 of it at M = 3 * 10^6; 1.25-1.33 from M = 10^7).
// The crossover follows the last-level cache share, which neither VM
// reports (sysconf gives the EPYC's L3 as 508 MiB). The 8 MiB floor costs
// the Xeon 5 % at 4 MB (its only measured size between 4 and 8 MB) and
// gains the EPYC 10-45 % at 1.5-8 MB (M = 10^6, 2 MB of 16-bit entries:
// 0.98 -> 0.56 of Katran's time). Only the speed depends on it, never an
// owner.
uint64_t DivisionPaysFrom();

// How Populate schedules the weighted turns. All strategies give the same
// table; kAuto picks the fastest (kEqual when all weights are equal, kRounds
// when the weights are close, kCalendar when a few nodes are much heavier).
//   kEqual     Pseudocode 1 verbatim (ignores weights).
//   kRounds    one pass over all nodes per round, skipping ineligible ones.
//   kCalendar  a calendar queue of the rounds in which each node is next
//              eligible: O(1) amortized per turn whatever the weights.
enum class PopulateStrategy { kAuto, kEqual, kRounds, kCalendar };

// Fills out[0..M) with labels[i] of the node i that owns each slot.
// offset_skip[i] = (offset, skip) of node i with offset < M, 1 <= skip < M;
// weights empty = all equal; 1 <= N <= M <= kMaxTableSize. kEqual ignores
// weights. T is uint32_t, or uint16_t when every label is below 2^16 - 1.
template <typename T>
void PopulateTable(uint64_t M,
                   std::span<const std::pair<uint64_t, uint64_t>> offset_skip,
                   std::span<const double> weights,
                   std::span<const uint32_t> labels, std::span<T> out,
                   PopulateStrategy strategy = PopulateStrategy::kAuto);

}  // namespace maglev_internal

template <typename H>
class Maglev final : public ConsistentHash {
 public:
  // `table_size`: a prime M, or 0 for the default (smallest prime >= 100 * N).
  // An invalid size is reported by Build/AddNode (MakeMaglev reports it
  // earlier).
  explicit Maglev(uint64_t table_size = 0) : requested_size_(table_size) {}
  explicit Maglev(const AlgorithmParams& params) : Maglev(params.table_size) {}

  // The test hook used by the class: the table (as indices into offset_skip)
  // that Pseudocode 1 builds for nodes with these (offset, skip) pairs, in
  // this turn order, with these weights (empty = equal).
  static std::vector<uint32_t> Populate(
      uint64_t M, std::span<const std::pair<uint64_t, uint64_t>> offset_skip,
      std::span<const double> weights = {},
      maglev_internal::PopulateStrategy strategy =
          maglev_internal::PopulateStrategy::kAuto) {
    std::vector<uint32_t> labels(offset_skip.size());
    for (size_t i = 0; i < labels.size(); ++i) {
      labels[i] = static_cast<uint32_t>(i);
    }
    std::vector<uint32_t> out(M);
    maglev_internal::PopulateTable<uint32_t>(M, offset_skip, weights, labels,
                                             out, strategy);
    return out;
  }

  // (offset, skip) of a node name for table size M (the paper's §3.4).
  static std::pair<uint64_t, uint64_t> OffsetSkip(std::string_view name,
                                                  uint64_t M) {
    return {HashString<H>(name, 0) % M, HashString<H>(name, 1) % (M - 1) + 1};
  }

  std::string_view name() const override { return "maglev"; }
  Capabilities capabilities() const override { return kMaglevCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    // The instance changes only once everything succeeded.
    absl::StatusOr<NodeTable> fresh = nodes_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    absl::StatusOr<uint64_t> m = ChooseTableSize(nodes.size());
    if (!m.ok()) return m.status();
    nodes_ = *std::move(fresh);
    SetTableSize(*m);
    Repopulate();
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = nodes_.Validate(node); !s.ok()) return s;
    uint64_t m = table_size_;
    if (m == 0) {
      absl::StatusOr<uint64_t> chosen =
          ChooseTableSize(nodes_.live_count() + 1);
      if (!chosen.ok()) return chosen.status();
      m = *chosen;
    } else if (nodes_.live_count() + 1 > m) {
      return absl::FailedPreconditionError(absl::StrCat(
          "maglev: cannot add node '", node.name, "': ",
          nodes_.live_count() + 1, " nodes would exceed the table size ", m,
          "; the table size is fixed after the first Build/AddNode, so pass "
          "a prime table_size >= the largest node count"));
    }
    absl::StatusOr<NodeId> id = nodes_.Add(node);
    if (!id.ok()) return id.status();
    if (m != table_size_) SetTableSize(m);
    Repopulate();
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = nodes_.Remove(id); !s.ok()) return s;
    Repopulate();
    return absl::OkStatus();
  }

  // table[key_hash mod M]. Precondition: at least one live node.
  NodeId Lookup(uint64_t key_hash) const override {
    return slot(mod_(key_hash));
  }

  // out[i] = Lookup(key_hashes[i]). The slot is reduced by Barrett's method
  // whatever the table size (Lookup's hardware division for large tables
  // paid only by letting more lookups overlap, which the prefetches do), in
  // a loop over the table's width chosen once per call, with the table and
  // the divisor in locals (so that the owners' stores cannot alias them).
  // Tables of kPrefetchPaysFromBytes or more are read by groups of
  // kLookupGroup keys: every key's slot is computed and its table entry
  // prefetched, then the group's entries are read, so that the group's
  // misses overlap; smaller tables, read from cache, take the plain loop.
  // Same owners as Lookup; O(1) per key.
  //
  // Example:
  //   std::vector<NodeId> owners(digests.size());
  //   maglev.LookupBatch(digests, owners);
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    const bool prefetch =
        table_size_ * entry_bytes() >= kPrefetchPaysFromBytes;
    if (narrow_) {
      LookupInTable(narrow_table_.data(), mod_, prefetch, key_hashes, out);
    } else {
      LookupInTable(table_.data(), mod_, prefetch, key_hashes, out);
    }
  }

  uint64_t HashKey(std::string_view key) const override {
    return HashString<H>(key, 0);
  }

  size_t MemoryBytes() const override {
    // The object itself counts: the factory allocates it on the heap.
    return sizeof(*this) + nodes_.MemoryBytes() +
           table_.capacity() * sizeof(NodeId) +
           narrow_table_.capacity() * sizeof(uint16_t);
  }
  size_t size() const override { return nodes_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return nodes_.LiveIds(); }
  const std::string& NodeName(NodeId id) const override {
    static const std::string* const kUnknown = new std::string();
    return id < nodes_.issued() ? nodes_.name(id) : *kUnknown;
  }

  // Each live node's slots, each slot weighted by its share of the digests
  // (h mod M: the first 2^kBits mod M slots hold one digest more).
  std::vector<double> DigestSpaceShares() const override {
    const std::vector<NodeId> live = nodes_.LiveIds();
    if (live.empty() || table_size_ == 0) return {};
    const std::vector<double> slot_share = ResidueShares(table_size_, H::kBits);
    std::vector<double> by_id(nodes_.issued(), 0.0);
    for (uint64_t s = 0; s < table_size_; ++s) by_id[slot(s)] += slot_share[s];
    std::vector<double> shares;
    shares.reserve(live.size());
    for (NodeId id : live) shares.push_back(by_id[id]);
    return shares;
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kFromState;
  }

  // The current table size M (0 before the first Build/AddNode with the
  // default size) and a copy of the table (owner of each slot; kInvalidNode
  // with no live node).
  uint64_t table_size() const { return table_size_; }
  std::vector<NodeId> TableCopy() const {
    if (table_size_ == 0) return {};
    if (narrow_) return {narrow_table_.begin(), narrow_table_.end()};
    return {table_.begin(), table_.end()};
  }
  // The owner of slot s < table_size() (narrow_ is constant per instance,
  // so the branch is predicted). Both tables' addresses are read before the
  // branch, for the reason given at FastMod32::operator().
  NodeId slot(uint64_t s) const {
    const uint16_t* const narrow = narrow_table_.data();
    const NodeId* const wide = table_.data();
    return narrow_ ? NodeId{narrow[s]} : wide[s];
  }
  // The table itself when its entries are 32-bit (every slot's owner, valid
  // until the next Build/AddNode/RemoveNode); empty while they are 16-bit
  // or before the first build. For a peer that must read the same memory
  // (bench/peers/maglev_katran.h).
  std::span<const NodeId> WideTable() const {
    if (narrow_ || table_size_ == 0) return {};
    return {table_.data(), table_.size()};
  }
  // The table itself when its entries are 16-bit (empty otherwise), and
  // Lookup's reduction h -> h mod M: for a peer that repeats Lookup over a
  // copy of the table (bench/peers/maglev_small_pages.h).
  std::span<const uint16_t> NarrowEntries() const {
    if (!narrow_ || table_size_ == 0) return {};
    return {narrow_table_.data(), narrow_table_.size()};
  }
  const maglev_internal::FastMod32& reduction() const { return mod_; }
  // Whether Lookup reduces h mod M with the hardware division (tables past
  // maglev_internal::DivisionPaysFrom() bytes) rather than Barrett's.
  bool reduces_by_division() const { return mod_.uses_division(); }
  // Bytes per table entry: 2 while every node id issued is below 2^16 - 1,
  // else 4.
  size_t entry_bytes() const { return narrow_ ? 2 : 4; }

 private:
  // M for a node set of n nodes: the requested size (checked against n), or
  // the smallest prime >= 100 * n.
  absl::StatusOr<uint64_t> ChooseTableSize(size_t n) const {
    if (requested_size_ != 0) {
      if (absl::Status s = maglev_internal::ValidateTableSize(requested_size_);
          !s.ok()) {
        return s;
      }
      if (n > requested_size_) {
        return absl::InvalidArgumentError(absl::StrCat(
            "maglev: table size ", requested_size_,
            " is smaller than the number of nodes ", n,
            "; the table size must be a prime >= the number of nodes, e.g. ",
            maglev_internal::NextPrime(n < 2 ? 2 : n)));
      }
      return requested_size_;
    }
    if (n == 0) return 0;
    const uint64_t m = MaglevDefaultTableSize(static_cast<uint32_t>(n));
    if (m == 0 || m > maglev_internal::kMaxTableSize) {
      return absl::InvalidArgumentError(absl::StrCat(
          "maglev: default table size (smallest prime >= 100 * ", n,
          " nodes) exceeds the maximum ", maglev_internal::kMaxTableSize,
          "; pass a prime table_size in [", n, ", ",
          maglev_internal::kMaxTableSize, "]"));
    }
    return m;
  }

  // LookupBatch over one table width: out[i] = table[keys[i] mod M].
  template <typename T>
  static void LookupInTable(const T* const table,
                            const maglev_internal::FastMod32 mod,
                            bool prefetch, std::span<const uint64_t> keys,
                            std::span<NodeId> out) {
    if (!prefetch) {
      const size_t n = keys.size();
      const uint64_t* const k = keys.data();
      NodeId* const o = out.data();
      for (size_t i = 0; i < n; ++i) o[i] = table[mod.Barrett(k[i])];
      return;
    }
    GroupedLookup(
        keys, out,
        [&](uint64_t h) {
          const uint64_t s = mod.Barrett(h);
          __builtin_prefetch(table + s);
          return s;
        },
        [&](uint64_t, uint64_t s) { return NodeId{table[s]}; });
  }

  // Every caller repopulates next, which allocates the table (SetLayout).
  void SetTableSize(uint64_t m) { table_size_ = m; }

  // Allocates the table of M entries in the given width (exact capacity, so
  // that MemoryBytes() is what the allocator sees), frees the other one, and
  // picks the reduction for the table's size in bytes. Kept when unchanged.
  void SetLayout(bool narrow) {
    const uint64_t m = table_size_ == 0 ? 1 : table_size_;
    if (narrow) {
      if (narrow_table_.size() != m) NarrowTable(m).swap(narrow_table_);
      Table().swap(table_);
    } else {
      if (table_.size() != m) Table(m, kInvalidNode).swap(table_);
      NarrowTable().swap(narrow_table_);
    }
    narrow_ = narrow;
    mod_ = maglev_internal::FastMod32(static_cast<uint32_t>(m),
                                      /*use_division=*/m * entry_bytes() >
                                          maglev_internal::DivisionPaysFrom());
  }

  void Repopulate() {
    const std::vector<NodeId> ids = nodes_.LiveIds();
    if (ids.empty()) {
      SetLayout(/*narrow=*/false);
      std::fill(table_.begin(), table_.end(), kInvalidNode);
      return;
    }
    // Ids are issued in increasing order, so every live id is below issued().
    SetLayout(/*narrow=*/nodes_.issued() <= kNarrowIds);
    std::vector<std::pair<uint64_t, uint64_t>> offset_skip;
    std::vector<double> weights;
    offset_skip.reserve(ids.size());
    weights.reserve(ids.size());
    bool equal = true;
    for (NodeId id : ids) {
      offset_skip.push_back(OffsetSkip(nodes_.name(id), table_size_));
      weights.push_back(nodes_.spec(id).weight);
      equal = equal && weights.back() == weights.front();
    }
    if (equal) weights.clear();
    if (narrow_) {
      maglev_internal::PopulateTable<uint16_t>(table_size_, offset_skip,
                                               weights, ids, narrow_table_);
    } else {
      maglev_internal::PopulateTable<uint32_t>(table_size_, offset_skip,
                                               weights, ids, table_);
    }
  }

  NodeTable nodes_{"maglev", /*weights_supported=*/true};
  uint64_t requested_size_;
  uint64_t table_size_ = 0;  // M; 0 = not decided yet
  maglev_internal::FastMod32 mod_;
  // The table: M entries in one of two widths. 16-bit while every id issued
  // fits (ids 0 .. 2^16 - 2), which halves the table's memory and its cache
  // footprint (M = 10^6: 2 MB instead of 4, so it stays in a 2 MiB L2);
  // 32-bit otherwise, and with no live node (one kInvalidNode entry while M
  // is undecided, so that Lookup on an empty instance reads valid memory).
  // Huge pages (2 MiB, where the kernel allows them) for tables of 2 MiB or
  // more: at M = 10^7 a lookup is one DRAM access, and with 4 KiB pages
  // also a TLB miss and a page walk, which caps the lookups in flight.
  static constexpr uint32_t kNarrowIds = 0xFFFF;  // ids below it fit 16 bits
  using Table = std::vector<NodeId, HugePageAllocator<NodeId>>;
  using NarrowTable = std::vector<uint16_t, HugePageAllocator<uint16_t>>;
  bool narrow_ = false;
  Table table_ = Table(1, kInvalidNode);
  NarrowTable narrow_table_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_MAGLEV_MAGLEV_H_
