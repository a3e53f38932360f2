// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: multiprobe/multiprobe.h
// -----------------------------------------------------------------------------
//
// `MultiProbe<H>`: multi-probe consistent hashing (Ben Appleton and Michael
// O'Reilly, "Multi-probe consistent hashing", arXiv:1505.00062, 2015).
//
// Definition. Every node has ONE point on the circle [0, 2^B) of the hash
// policy H (B = H::kBits, 64 or 32): p(X) = HashString<H>(X, seed 0). A key
// is hashed twice instead of once, and the two hashes generate k probes
// (double hashing); each probe looks for its clockwise successor, and the
// closest successor wins:
//   * the key bytes are the 8 little-endian bytes of the digest x;
//     h1 = H(bytes, seed 1), h2 = H(bytes, seed 2);
//   * probe i = h1 + i * h2 (mod 2^B), i = 0 .. k-1 (k = `probes`, 21 by
//     default, as in go-mpchash's compat test);
//   * a probe's successor is the smallest point STRICTLY GREATER than the
//     probe, wrapping past the largest point to the smallest; its distance
//     is successor - probe (mod 2^B);
//   * the probe with the smallest distance wins, the first one on equal
//     distances; its successor's node owns the key. A distance of 2^64 - 1
//     never wins (go-mpchash starts from that value with a strict '<'); in
//     the 2^-64-probable case that every probe has it, the smallest point's
//     node owns the key.
//   * Equal points (two names hashing alike: likely with a 32-bit H at
//     10^5 nodes) belong to the node listed last, i.e. the live node with
//     the highest id: the same as a fresh Build of the live nodes in id
//     order, so the mapping depends only on the live set.
// For a 32-bit H the circle is [0, 2^32): h1, h2 and the points are below
// 2^32 and every sum and difference above is taken mod 2^32.
//
// The paper's result: a peak-to-average load ratio of 1 + eps with
// 1 + 1/eps probes (21 probes: about 1.05), with one point per node instead
// of the ring's hundreds. The bound is on the peak only: a node whose point
// closely follows another's gets a small share (for k = 21 the standard
// deviation of N * share is about 0.16, with a heavy lower tail; the model
// is in conformance_test.cc).
//
// Guarantees: arbitrary removal; minimal disruption (a node's arrival or
// departure changes only the successors that involve its point, so keys move
// only to the new node, or only off the removed one); no weights, no
// replicas. Bit-exact with dgryski/go-mpchash@7382f34 (Go;
// `mpchash.New(names, h, [2]uint64{1, 2}, 21).Hash(key)` with
// h(b, s) = siphash.Hash(s, 0, b)) when H = SipHash (the `siphash` policy,
// key (seed, 0)), the nodes are named node-0.. node-(n-1) and the key is the
// 8 little-endian bytes of the digest: multiprobe_test.cc checks every row of
// the shared oracle files (testdata/multiprobe_{stable,remove}.tsv,
// n = 1 .. 10^6). go-mpchash has no add/remove; its removal scenario
// rebuilds, which is what a removal here equals.
//
// Lookup structure. The points are kept sorted in one flat array (points_,
// with the owner of each in owners_). A top-bits index `start_` (2^q entries,
// 2^q the smallest power of two > N, so about one point per bucket) gives,
// for a probe in bucket b, the bucket's range [start_[b], start_[b+1]) of
// points_; the successor is start_[b] plus the number of the bucket's points
// <= the probe, counted branch-free over the first 4 slots (the points of a
// bucket are sorted, so the count is the prefix length; a bucket with more
// than 4 points, ~0.4 % of them, takes a binary search). The successor of a
// probe past the bucket is the first point of a later bucket, start_[b+1],
// and points_[N] repeats points_[0] for the wrap. Probes go in groups of 8:
// first the 8 index loads, then the 8 point loads, so that the cache misses
// of independent probes overlap instead of queuing behind each other. The
// owner is loaded once, for the winning position.
//
// Complexity (N live nodes, k probes):
//   Lookup      O(k) expected (2 hashes of 8 bytes, k index + point reads);
//               O(k log N) worst.
//   AddNode     O(N) (insert into the sorted arrays, re-index).
//   RemoveNode  O(N).
//   Build       O(N log N).
//   Memory      16 bytes per node (point, owner, cold id) + 4 bytes per index
//               entry (2^q in (N, 2N]): 20..24 bytes per node, plus the
//               NodeTable (names).
//
// Example:
//   MultiProbe<SipHash> mp(/*probes=*/21);
//   mp.Build(nodes).IgnoreError();
//   NodeId owner = mp.Lookup(mp.HashKey("user:42"));
//
// Reference: dgryski/go-mpchash@7382f34c4cd1ffb9a4600229effe59414edaa6e5 (Go,
// MIT), by Damian Gryski; the authors published no code.

#ifndef CHBENCH_ALGORITHMS_MULTIPROBE_MULTIPROBE_H_
#define CHBENCH_ALGORITHMS_MULTIPROBE_MULTIPROBE_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
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
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"
#include "algorithms/node_table_algorithm.h"

namespace chbench {

inline constexpr Capabilities kMultiProbeCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
    .weights = false,
    .replicas = false,
    .stateful = false,
};

// Valid range of AlgorithmParams::probes for multiprobe (the paper's k).
inline constexpr uint32_t kMultiProbeMinProbes = 1;
inline constexpr uint32_t kMultiProbeMaxProbes = 1024;
// The default, go-mpchash's compat setting.
inline constexpr uint32_t kMultiProbeDefaultProbes = 21;

// The two probe hashes of digest `x`: H over the 8 little-endian bytes of x
// with seeds 1 and 2 (go-mpchash's seeds {1, 2}).
struct MultiProbeHashes {
  uint64_t h1;
  uint64_t h2;
};

template <typename H>
inline MultiProbeHashes MultiProbeKeyHashes(uint64_t x) {
  unsigned char bytes[8];
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(bytes, &x, 8);
  } else {
    for (int i = 0; i < 8; ++i) {
      bytes[i] = static_cast<unsigned char>(x >> (8 * i));
    }
  }
  return {H::Hash(bytes, 8, 1), H::Hash(bytes, 8, 2)};
}

// The definition over a sorted point array, one binary search per probe:
// returns the index in `sorted` (ascending, non-empty, points below 2^B) of
// the winning successor point, as the first index of its run of equal
// points (the caller owns the tie rule between equal points). For tests and
// for reading; MultiProbe<H>::Lookup is the fast form of the same thing.
template <int kBits>
inline size_t MultiProbeChoose(std::span<const uint64_t> sorted,
                               MultiProbeHashes h, uint32_t probes) {
  static_assert(kBits == 32 || kBits == 64);
  const uint64_t mask = kBits == 64 ? ~uint64_t{0} : (uint64_t{1} << kBits) - 1;
  uint64_t best = ~uint64_t{0};
  size_t best_index = 0;
  uint64_t probe = h.h1 & mask;
  for (uint32_t i = 0; i < probes; ++i) {
    size_t s = static_cast<size_t>(
        std::upper_bound(sorted.begin(), sorted.end(), probe) - sorted.begin());
    if (s == sorted.size()) s = 0;
    const uint64_t distance = (sorted[s] - probe) & mask;
    if (distance < best) {
      best = distance;
      best_index = s;
    }
    probe = (probe + h.h2) & mask;
  }
  return best_index;
}

template <typename H>
class MultiProbe final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  // Positions are uint32 and points_ carries kScan padding entries.
  static constexpr size_t kMaxNodes = size_t{1} << 31;

  explicit MultiProbe(uint32_t probes = kMultiProbeDefaultProbes)
      : NodeTableAlgorithm<H>("multiprobe", /*weights_supported=*/false), probes_(probes) {
    Reindex();
  }

  std::string_view name() const override { return "multiprobe"; }
  Capabilities capabilities() const override { return kMultiProbeCapabilities; }
  uint32_t probes() const { return probes_; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    if (nodes.size() > kMaxNodes) return TooManyNodes(nodes.size());
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    std::vector<std::pair<uint64_t, NodeId>> entries;
    entries.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) {
      entries.emplace_back(PointOf(nodes[id].name), id);
    }
    std::sort(entries.begin(), entries.end());  // (point, id)
    std::vector<uint64_t> points;
    std::vector<NodeId> ids;
    points.reserve(entries.size() + kScan);
    ids.reserve(entries.size());
    for (const auto& [point, id] : entries) {
      points.push_back(point);
      ids.push_back(id);
    }
    points_ = std::move(points);
    ids_ = std::move(ids);
    Reindex();
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (ids_.size() >= kMaxNodes) return TooManyNodes(ids_.size() + 1);
    absl::StatusOr<NodeId> id = table_.Add(node);
    if (!id.ok()) return id.status();
    const uint64_t point = PointOf(node.name);
    // The new id is the largest: it goes after every equal point.
    points_.resize(ids_.size());
    const size_t at = static_cast<size_t>(
        std::upper_bound(points_.begin(), points_.end(), point) -
        points_.begin());
    points_.insert(points_.begin() + static_cast<std::ptrdiff_t>(at), point);
    ids_.insert(ids_.begin() + static_cast<std::ptrdiff_t>(at), *id);
    Reindex();
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.CheckLive(id); !s.ok()) return s;
    const uint64_t point = PointOf(table_.name(id));
    const size_t n = ids_.size();
    size_t at = static_cast<size_t>(
        std::lower_bound(points_.begin(), points_.begin() + n, point) -
        points_.begin());
    while (at < n && ids_[at] != id) ++at;  // within the run of `point`
    if (at == n || points_[at] != point) {
      return absl::InternalError(absl::StrCat("multiprobe: live node ", id,
                                              " has no point; state corrupt"));
    }
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    points_.resize(n);
    points_.erase(points_.begin() + static_cast<std::ptrdiff_t>(at));
    ids_.erase(ids_.begin() + static_cast<std::ptrdiff_t>(at));
    Reindex();
    return absl::OkStatus();
  }

  // Precondition: size() > 0 (an empty instance returns kInvalidNode).
  NodeId Lookup(uint64_t key_hash) const override {
    return owners_[WinnerPosition(MultiProbeKeyHashes<H>(key_hash))];
  }


  // out[i] = Lookup(key_hashes[i]), software-pipelined one key ahead: while
  // key i's probes are searched, key i + 1's two hashes are computed and
  // the bucket-index entries of all its probes prefetched, so that the next
  // key's index misses overlap this key's point reads. Same owners as
  // Lookup; O(k) expected per key.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    const size_t n = key_hashes.size();
    if (n == 0) return;
    MultiProbeHashes next = MultiProbeKeyHashes<H>(key_hashes[0]);
    PrefetchProbes(next);
    for (size_t i = 0; i < n; ++i) {
      const MultiProbeHashes current = next;
      if (i + 1 < n) {
        next = MultiProbeKeyHashes<H>(key_hashes[i + 1]);
        PrefetchProbes(next);
      }
      out[i] = owners_[WinnerPosition(current)];
    }
  }

  // Heap bytes including the object itself (as allocated by the factory).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() +
           points_.capacity() * sizeof(uint64_t) +
           owners_.capacity() * sizeof(NodeId) +
           ids_.capacity() * sizeof(NodeId) +
           start_.capacity() * sizeof(uint32_t);
  }
  size_t size() const override { return table_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }

  // The live points, ascending (equal points in id order), and the node of
  // each entry; for tests.
  std::span<const uint64_t> points() const {
    return {points_.data(), ids_.size()};
  }
  std::span<const NodeId> point_ids() const { return ids_; }

  // The node point of `name`: HashString<H>(name, 0).
  static uint64_t PointOf(std::string_view name) {
    return HashString<H>(name, 0);
  }

 private:
  static constexpr int kCircleBits = H::kBits;
  static_assert(kCircleBits == 32 || kCircleBits == 64);
  static constexpr uint64_t kMask =
      kCircleBits == 64 ? ~uint64_t{0} : (uint64_t{1} << kCircleBits) - 1;
  // Slots of a bucket counted branch-free; points_ has this many entries
  // past the last point (points_[N] = points_[0], the wrap).
  static constexpr uint32_t kScan = 4;
  // Probes whose index and point loads are issued together.
  static constexpr uint32_t kGroup = 8;

  // The position in [0, N] of the probe's successor (N: wrap to 0).
  uint32_t Successor(uint64_t probe, uint32_t lo, uint32_t hi) const {
    if (ABSL_PREDICT_FALSE(hi - lo > kScan)) {
      const uint64_t* p = points_.data();
      return static_cast<uint32_t>(std::upper_bound(p + lo, p + hi, probe) - p);
    }
    // The bucket's points are sorted: the ones <= probe are a prefix.
    const uint64_t* p = points_.data() + lo;
    uint32_t count = 0;
    for (uint32_t t = 0; t < kScan; ++t) {
      count += static_cast<uint32_t>((lo + t < hi) & (p[t] <= probe));
    }
    return lo + count;
  }

  // Prefetches the bucket-index entry of each of the key's probes (what
  // WinnerPosition reads first).
  void PrefetchProbes(MultiProbeHashes h) const {
    const uint32_t* const start = start_.data();
    uint64_t probe = h.h1 & kMask;
    const uint64_t step = h.h2 & kMask;
    for (uint32_t j = 0; j < probes_; ++j) {
      __builtin_prefetch(start + (probe >> shift_));
      probe = (probe + step) & kMask;
    }
  }

  uint32_t WinnerPosition(MultiProbeHashes h) const {
    uint64_t best = ~uint64_t{0};
    uint32_t best_pos = 0;
    uint64_t probe = h.h1 & kMask;
    const uint64_t step = h.h2 & kMask;
    for (uint32_t first = 0; first < probes_; first += kGroup) {
      const uint32_t m = std::min(kGroup, probes_ - first);
      uint64_t pr[kGroup];
      uint32_t lo[kGroup];
      uint32_t hi[kGroup];
      for (uint32_t j = 0; j < m; ++j) {
        pr[j] = probe;
        probe = (probe + step) & kMask;
        const uint64_t b = pr[j] >> shift_;
        lo[j] = start_[b];
        hi[j] = start_[b + 1];
      }
      for (uint32_t j = 0; j < m; ++j) {
        const uint32_t pos = Successor(pr[j], lo[j], hi[j]);
        const uint64_t distance = (points_[pos] - pr[j]) & kMask;
        const bool better = distance < best;
        best = better ? distance : best;
        best_pos = better ? pos : best_pos;
      }
    }
    return best_pos;
  }

  static absl::Status TooManyNodes(size_t n) {
    return absl::InvalidArgumentError(
        absl::StrCat("multiprobe: ", n, " nodes requested; at most ", kMaxNodes,
                     " (uint32 positions)"));
  }

  // points_ and ids_ hold exactly the N sorted entries on entry (points_ may
  // carry stale padding); pads points_, recomputes the owners (the highest
  // id of each run of equal points) and the bucket index.
  void Reindex() {
    const uint32_t n = static_cast<uint32_t>(ids_.size());
    points_.resize(n);
    const uint64_t first = n > 0 ? points_[0] : 0;
    for (uint32_t t = 0; t < kScan; ++t) points_.push_back(first);
    std::vector<NodeId> owners(n + 1, kInvalidNode);
    for (uint32_t i = n; i-- > 0;) {
      // The run's last entry (highest id) owns it.
      owners[i] =
          (i + 1 < n && points_[i + 1] == points_[i]) ? owners[i + 1] : ids_[i];
    }
    if (n > 0) owners[n] = owners[0];
    owners_ = std::move(owners);
    // 2^q buckets, 2^q the smallest power of two > N (at least 2).
    const int q = std::clamp(static_cast<int>(std::bit_width(n)), 1,
                             std::min(kCircleBits - 1, 31));
    shift_ = kCircleBits - q;
    const size_t buckets = size_t{1} << q;
    std::vector<uint32_t> start(buckets + 1, 0);
    for (uint32_t i = 0; i < n; ++i) ++start[(points_[i] >> shift_) + 1];
    for (size_t b = 1; b <= buckets; ++b) start[b] += start[b - 1];
    start_ = std::move(start);
  }

  using NodeTableAlgorithm<H>::table_;
  uint32_t probes_;
  int shift_ = kCircleBits - 1;   // bucket of a probe: probe >> shift_
  std::vector<uint64_t> points_;  // sorted by (point, id); then kScan pads
  std::vector<NodeId> owners_;    // owner of each position; then owners_[0]
  std::vector<NodeId> ids_;       // the node of each entry (cold)
  std::vector<uint32_t> start_;   // bucket b -> first position in it; + N
};

// Factory for the registry: validates `params.probes` and `params.hash` and
// returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeMultiProbe(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_MULTIPROBE_MULTIPROBE_H_
