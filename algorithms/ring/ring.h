// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: ring/ring.h
// -----------------------------------------------------------------------------
//
// `Ring<H>`: the consistent-hash ring with virtual nodes (Karger et al.,
// "Consistent Hashing and Random Trees", STOC 1997; virtual nodes and replica
// lists as in DeCandia et al., "Dynamo", SOSP 2007).
//
// Definition (the seed articles' `bisect_right` ring):
//   * The circle is [0, 2^kBits) of the hash policy H (64 or 32 bits).
//   * Node X with weight w gets round(vnodes * w) points (half away from
//     zero); point i is HashString<H>("X#i", 0), i = 0, 1, ... A weight
//     that rounds to no point (w < 0.5 / vnodes) is an error naming the
//     smallest weight with a point and the vnodes that would represent w:
//     the node would otherwise get no keys (or, floored to one point, a
//     share unrelated to its weight).
//   * A key belongs to the first point STRICTLY GREATER than its digest,
//     wrapping past the largest point to the smallest. A digest equal to a
//     point therefore belongs to the next point.
//   * Equal points (likely with 32-bit hashes) are ordered by (point, node
//     name, vnode index); the earliest in that order owns the keys before it,
//     so the mapping depends only on the set of live nodes, never on the order
//     in which they were added.
//   * For a 32-bit H, `Lookup` reduces the digest mod 2^32 (a no-op for
//     digests from `HashKey`).
//   * LookupReplicas(key, r) walks clockwise from the owner's point and
//     collects the first r distinct nodes. With `distinct_zones` it is
//     Cassandra's NetworkTopologyStrategy rule within one data center: nodes
//     whose zone is not yet taken first (zones compare as strings, "" is one
//     zone), then, when the zones run out, the nodes passed over, in ring
//     order; so the list always has r nodes.
//
// Guarantees: arbitrary removal; minimal disruption (adding a node moves only
// the keys its points capture, removing one moves only its keys); weights
// through the number of points; replicas.
//
// Lookup structure. Points and owners live in two contiguous arrays (SoA),
// which LookupReplicas walks and points()/owners() expose. Lookup reads one
// 64-byte line per key instead: 2^k bucket lines, line b for the points
// whose top k bits are b. A line holds, for the first points of its bucket,
// a 16-bit fingerprint (the 16 bits below the top k) and the owner, plus the
// owner of the first point after the bucket. The key's fingerprint is
// compared with all of them at once (SSE2: two compares, a pack, a movemask
// and a bit scan); the count of smaller fingerprints indexes the line's
// owners directly. Only when a fingerprint equals the key's (probability
// about (points per bucket) * 2^-16) or the bucket holds more points than the
// line does Lookup fall back to a binary search of the bucket in the points
// array. A lookup thus touches one cache line (about one miss on a large
// ring) where a binary search of the sorted points takes ~log2(P) dependent
// reads.
//
// Two line layouts (compact_lines() says which):
//   * compact, from P > 65536 points while every node id issued is below
//     65535: 16-bit owners, up to 15 points per line, 2^k in [P/8, P/4) (4 to 8
//     points per bucket; Poisson(8) > 15 for 0.8 % of buckets). The lines
//     take 8..16 bytes per point: 8 MiB at P = 10^6, where the wide layout took
//     16 MiB.
//   * wide, for P <= 65536 (at most 1 MiB of lines, which stay in L2, where
//     half the footprint buys nothing; see kCompactMinPoints) or once 65535
//     ids have been issued (ids are never reused): 32-bit owners, up to 8
//     points per line, 2^k in [P/4, P/2) (Poisson(4) > 8 for 2.1 % of
//     buckets), 16..32 bytes per point.
// The choice is one well-predicted branch per lookup. It is not free: in the
// runs at 96a60a6, small rings' throughput read 0.1..0.25 ns per lookup
// slower than before the compact layout existed, bounded_load's unplaced
// keys 0.5 ns (latency equal or better).
//
// Complexity (N nodes, P points, V = vnodes):
//   Lookup      O(1) expected (bucket size is Poisson(2..8)); O(log P) worst.
//   AddNode     O(P + V log V): hash V points, sort them, merge, re-index.
//   RemoveNode  O(P): filter, re-index.
//   Build       O(P log P) (bucketed by top bits, then sorted per bucket).
//   Memory      12 bytes per point (points, owners) + the lines: compact
//               8..16 bytes per point plus 4 bytes per bucket (its position
//               in points, read only by the fallback and SuccessorPosition),
//               i.e. 20.5..29 bytes per point; wide 28..44 bytes per point.
//               Line arrays of 2 MiB or more are 2 MiB-aligned and marked
//               MADV_HUGEPAGE (HugePageAllocator), so that a lookup into a
//               large ring does not also miss the TLB.
//
// Example:
//   Ring<Xxh64> ring(/*vnodes=*/100);
//   ring.Build(nodes).IgnoreError();
//   NodeId owner = ring.Lookup(ring.HashKey("user:42"));

#ifndef CHBENCH_ALGORITHMS_RING_RING_H_
#define CHBENCH_ALGORITHMS_RING_RING_H_

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"
#include "algorithms/node_table_algorithm.h"
#include "algorithms/util/huge_page_allocator.h"

namespace chbench {

inline constexpr Capabilities kRingCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
    .weights = true,
    .replicas = true,
    .stateful = false,
};

// Valid range of AlgorithmParams::vnodes for ring.
inline constexpr uint32_t kRingMinVnodes = 1;
inline constexpr uint32_t kRingMaxVnodes = 1u << 20;

template <typename H>
class Ring final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  // Points a bucket line holds (see Line).
  static constexpr uint32_t kLineSlots = 8;
  // Points a compact line holds (see CompactLine), and the owner value that
  // marks a crowded compact bucket: compact lines are used while every id
  // issued is below it.
  static constexpr uint32_t kCompactSlots = 15;
  static constexpr uint16_t kCrowdedOwner = 0xFFFF;
  // Compact lines are used above this many points (and while the ids fit).
  // Up to it the wide lines take at most 1 MiB and stay in L2, where half
  // the footprint buys nothing, so the layout measured before the compact
  // one existed is kept there. (Whether compact lines would be as fast there
  // is not settled: the only full run with compact lines at every size, at
  // cb17b0d, had the two-layout Lookup before it was forced inline, see the
  // comment at Lookup.)
  static constexpr uint32_t kCompactMinPoints = uint32_t{1} << 16;

  // Which line layout Reindex picks: by the rule above (kAuto), or, for
  // tests, compact whenever the ids fit, or always wide.
  enum class LineLayout { kAuto, kCompactWhenIdsFit, kWide };
  // Points per node and in total: positions are uint32 and owners_ carries
  // one padding entry.
  static constexpr uint64_t kMaxPointsPerNode = uint64_t{1} << 24;
  static constexpr uint64_t kMaxPoints = uint64_t{1} << 31;

  explicit Ring(uint32_t vnodes = 100)
      : Ring(vnodes, "ring", /*weights_supported=*/true) {}
  // For an algorithm built on the ring (bounded_load): error messages name
  // `owner`, and with `weights_supported` false a weight other than 1 is
  // rejected.
  Ring(uint32_t vnodes, std::string_view owner, bool weights_supported)
      : NodeTableAlgorithm<H>(owner, weights_supported),
        owner_(owner),
        vnodes_(vnodes) {
    Reindex();
  }

  std::string_view name() const override { return "ring"; }
  Capabilities capabilities() const override { return kRingCapabilities; }
  uint32_t vnodes() const { return vnodes_; }

  // The number of points node `spec` gets: round(vnodes * weight); 0 and
  // counts above kMaxPointsPerNode are rejected by CheckPointCount.
  uint64_t PointCount(const NodeSpec& spec) const {
    return PointCountAt(vnodes_, spec.weight);
  }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    uint64_t total = 0;
    for (const NodeSpec& spec : nodes) {
      const uint64_t count = PointCount(spec);
      if (absl::Status s = CheckPointCount(spec, count, total); !s.ok()) {
        return s;
      }
      total += count;
    }
    table_ = *std::move(fresh);
    std::vector<Entry> entries;
    entries.reserve(total);
    std::string buf;
    for (NodeId id = 0; id < nodes.size(); ++id) {
      const NodeSpec& spec = nodes[id];
      AppendPoints(spec.name, PointCount(spec), id, &buf, &entries);
    }
    SortEntries(&entries);
    FromSortedEntries(entries);
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = table_.Validate(node); !s.ok()) return s;
    const uint64_t count = PointCount(node);
    if (absl::Status s = CheckPointCount(node, count, num_points_); !s.ok()) {
      return s;
    }
    const NodeId id = *table_.Add(node);
    std::vector<Entry> fresh;
    fresh.reserve(count);
    std::string buf;
    AppendPoints(node.name, count, id, &buf, &fresh);
    // One node: ties are between its own vnodes, ordered by vnode index.
    std::sort(fresh.begin(), fresh.end(), [](const Entry& a, const Entry& b) {
      return a.point != b.point ? a.point < b.point : a.vnode < b.vnode;
    });
    MergeFresh(fresh, node.name);
    return id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    std::vector<uint64_t> points;
    std::vector<NodeId> owners;
    size_t keep = 0;
    for (uint32_t i = 0; i < num_points_; ++i) keep += owners_[i] != id;
    points.reserve(keep);
    owners.reserve(keep + 1);
    for (uint32_t i = 0; i < num_points_; ++i) {
      if (owners_[i] != id) {
        points.push_back(points_[i]);
        owners.push_back(owners_[i]);
      }
    }
    points_ = std::move(points);
    owners_ = std::move(owners);
    num_points_ = static_cast<uint32_t>(keep);
    Reindex();
    return absl::OkStatus();
  }

  // The position in [0, P] of the first point strictly greater than the
  // (circle-reduced) digest; P means "past the largest point" (wrap to 0).
  // Always inlined, like Lookup.
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint32_t
  SuccessorPosition(uint64_t key_hash) const {
    const uint64_t x = ReduceToCircle(key_hash);
    const uint64_t b = x >> shift_;
    uint32_t below;
    if (ABSL_PREDICT_TRUE(compact_)) {
      const CompactLine& line = compact_lines_[b];
      const int16_t key = BiasedFingerprint(x);
      below = CompactCountBelow(line, key);
      if (ABSL_PREDICT_FALSE(!CompactDecided(line, key, below))) {
        return CompactSlowPosition(b, x);
      }
      return bucket_start_[b] + below;
    }
    const Line& line = lines_[b];
    if (ABSL_PREDICT_FALSE(!CountBelow(line, Fingerprint(x), &below))) {
      return SlowPosition(line, x);
    }
    return line.start + below;
  }

  // The owner of the first point strictly greater than the digest, wrapping
  // around. On an empty ring returns kInvalidNode. Always inlined where the
  // type is known (timed loops, bounded_load, presets): with two layouts GCC
  // -O2 stopped inlining it, which cost about 0.4 ns per lookup at small N.
  ABSL_ATTRIBUTE_ALWAYS_INLINE NodeId Lookup(uint64_t key_hash) const override {
    const uint64_t x = ReduceToCircle(key_hash);
    const uint64_t b = x >> shift_;
    uint32_t below;
    if (ABSL_PREDICT_TRUE(compact_)) {
      const CompactLine& line = compact_lines_[b];
      const int16_t key = BiasedFingerprint(x);
      below = CompactCountBelow(line, key);
      if (ABSL_PREDICT_FALSE(!CompactDecided(line, key, below))) {
        return owners_[CompactSlowPosition(b, x)];
      }
      return line.owner[below];
    }
    const Line& line = lines_[b];
    if (ABSL_PREDICT_FALSE(!CountBelow(line, Fingerprint(x), &below))) {
      // owners_[P] is a copy of owners_[0]: no wrap branch.
      return owners_[SlowPosition(line, x)];
    }
    return line.owner[below];
  }

  // Issues a prefetch of the bucket line Lookup(key_hash) reads first (the
  // only line it reads unless the bucket is crowded or a fingerprint ties).
  // Changes nothing; for batched lookups (LookupBatch, bounded_load, the
  // ring presets). O(1), no memory access besides the prefetch.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void PrefetchLine(uint64_t key_hash) const {
    const uint64_t b = ReduceToCircle(key_hash) >> shift_;
    // Both array addresses are read before the branch (one is empty), as in
    // Lookup's layout choice.
    const CompactLine* compact = compact_lines_.data();
    const Line* wide = lines_.data();
    __builtin_prefetch(compact_ ? static_cast<const void*>(compact + b)
                                : static_cast<const void*>(wide + b));
  }

  // out[i] = Lookup(key_hashes[i]), by groups of kLookupGroup keys (twice
  // as many from kDeepPrefetchFromBytes of lines): every key's bucket line
  // is prefetched, then the group is looked up from cache.
  // On a ring whose lines exceed the cache (P >~ 10^6 points) the group's
  // line misses overlap instead of the few a core's reorder window holds;
  // lines under kPrefetchPaysFromBytes take the plain loop.
  // Same owners as Lookup; O(1) expected per key.
  //
  // Example:
  //   std::vector<NodeId> owners(digests.size());
  //   ring.LookupBatch(digests, owners);
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    if (!prefetch_pays_) {
      LookupEach(*this, key_hashes, out);
      return;
    }
    const auto start = [this](uint64_t h) {
      PrefetchLine(h);
      return true;
    };
    const auto finish = [this](uint64_t h, bool) { return Lookup(h); };
    const size_t line_bytes =
        (compact_ ? compact_lines_.size() : lines_.size()) * 64;
    if (line_bytes >= kDeepPrefetchFromBytes) {
      GroupedLookup<2 * kLookupGroup>(key_hashes, out, start, finish);
    } else {
      GroupedLookup(key_hashes, out, start, finish);
    }
  }

  absl::Status LookupReplicas(uint64_t key_hash, size_t r, bool distinct_zones,
                              std::vector<NodeId>* out) const override {
    out->clear();
    if (r == 0 || r > table_.live_count()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "ring: replica count r = ", r, " is out of range; valid: 1..",
          table_.live_count(), " (the number of live nodes)"));
    }
    const uint32_t n = num_points_;
    uint32_t pos = SuccessorPosition(key_hash);
    if (pos >= n) pos = 0;
    // Few replicas: a linear check of `out` beats a bitmap.
    std::vector<bool> seen;
    const bool use_bitmap = r > 16;
    if (use_bitmap) seen.assign(table_.issued(), false);
    // With zones: the nodes passed over because their zone was taken, in
    // ring order (each once), which fill the list when the zones run out.
    // Once every live zone is in `out` and `skipped` holds enough to fill
    // it, the rest of the walk would only append to `skipped`: stop (the
    // same list, without walking the whole ring when r > zones).
    std::vector<NodeId> skipped;
    const size_t zones = distinct_zones ? live_zones_ : r;
    for (uint32_t step = 0;
         step < n && out->size() < r &&
         (out->size() < zones || out->size() + skipped.size() < r);
         ++step) {
      const NodeId owner = owners_[pos];
      if (++pos == n) pos = 0;
      const bool taken =
          use_bitmap ? static_cast<bool>(seen[owner])
                     : (std::find(out->begin(), out->end(), owner) !=
                            out->end() ||
                        std::find(skipped.begin(), skipped.end(), owner) !=
                            skipped.end());
      if (taken) continue;
      if (use_bitmap) seen[owner] = true;
      if (distinct_zones && ZoneTaken(*out, owner)) {
        skipped.push_back(owner);
        continue;
      }
      out->push_back(owner);
    }
    for (size_t i = 0; i < skipped.size() && out->size() < r; ++i) {
      out->push_back(skipped[i]);
    }
    return absl::OkStatus();
  }


  // Heap bytes including the object itself (as allocated by MakeRing).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() +
           points_.capacity() * sizeof(uint64_t) +
           owners_.capacity() * sizeof(NodeId) +
           lines_.capacity() * sizeof(Line) +
           compact_lines_.capacity() * sizeof(CompactLine) +
           bucket_start_.capacity() * sizeof(uint32_t);
  }
  size_t size() const override { return table_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }

  // The ring's points in circle order (ascending; ties in (point, node name,
  // vnode) order) and the owner of each, whatever the internal layout. Not
  // for hot paths: it copies. The timed peers (bench/peers/) build their own
  // structures from it, so they search exactly the same points.
  void ExportPoints(std::vector<uint64_t>* points,
                    std::vector<NodeId>* owners) const {
    points->assign(points_.begin(), points_.begin() + num_points_);
    owners->assign(owners_.begin(), owners_.begin() + num_points_);
  }

  // Each live node's share of the circle: point i owns the digests from the
  // previous point (inclusive) up to itself (exclusive), the first point
  // also those from the last point on, wrapping (Lookup's "first point
  // strictly greater"); equal points give the later ones an empty arc.
  std::vector<double> DigestSpaceShares() const override {
    const std::vector<NodeId> live = table_.LiveIds();
    const uint32_t n = num_points_;
    if (live.empty() || n == 0) return {};
    std::vector<double> by_id(table_.issued(), 0.0);
    const double circle = std::ldexp(1.0, kCircleBits);
    // The first point's arc wraps: the circle less the span of the points.
    by_id[owners_[0]] +=
        circle - static_cast<double>(points_[n - 1] - points_[0]);
    for (uint32_t i = 1; i < n; ++i) {
      by_id[owners_[i]] += static_cast<double>(points_[i] - points_[i - 1]);
    }
    std::vector<double> shares;
    shares.reserve(live.size());
    for (NodeId id : live) shares.push_back(by_id[id] / circle);
    return shares;
  }
  ShareSource DigestShareSource() const override {
    return ShareSource::kFromState;
  }

  // The node bookkeeping (ids, names, liveness).
  const NodeTable& table() const { return table_; }

  // Which bucket-line layout Lookup reads: compact (16-bit owners, up to 15
  // points per line) when the ring has more than 65536 points and every id
  // issued is below 65535, else wide (32-bit owners, up to 8). Ids are never
  // reused, so once a ring has issued 65535 ids it stays wide.
  bool compact_lines() const { return compact_; }
  // Whether LookupBatch prefetches: the bucket lines take
  // kPrefetchPaysFromBytes or more (smaller ones are read from cache).
  bool prefetch_pays() const { return prefetch_pays_; }

  // Test hook: overrides the layout rule (and re-indexes), so that both
  // layouts can be tested on small hand-placed rings.
  void SetLineLayoutForTesting(LineLayout layout) {
    layout_ = layout;
    Reindex();
  }

  // The sorted points and their owners (without the padding), e.g. to check
  // Lookup against std::upper_bound.
  std::span<const uint64_t> points() const {
    return {points_.data(), num_points_};
  }
  std::span<const NodeId> owners() const {
    return {owners_.data(), num_points_};
  }

  // Like Build, but node i gets exactly the points `points[i]` (its vnode
  // v = points[i][v]) instead of hashed ones: for tests that place points by
  // hand (ties, wrap-around) and for the production presets
  // (presets/preset.h), whose systems define their own points.
  absl::Status BuildFromPoints(
      std::span<const NodeSpec> nodes,
      std::span<const std::vector<uint64_t>> points) {
    if (nodes.size() != points.size()) {
      return absl::InvalidArgumentError("ring: one point list per node");
    }
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    std::vector<Entry> entries;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const NodeId id = static_cast<NodeId>(i);
      for (size_t v = 0; v < points[i].size(); ++v) {
        entries.push_back(
            {ReduceToCircle(points[i][v]), id, static_cast<uint32_t>(v)});
      }
    }
    SortEntries(&entries);
    FromSortedEntries(entries);
    return absl::OkStatus();
  }

 private:
  static constexpr int kCircleBits = H::kBits;
  static_assert(kCircleBits == 32 || kCircleBits == 64);

  struct Entry {
    uint64_t point;
    NodeId owner;
    uint32_t vnode;
  };

  static uint64_t ReduceToCircle(uint64_t h) {
    if constexpr (kCircleBits == 64) {
      return h;
    } else {
      return h & ((uint64_t{1} << kCircleBits) - 1);
    }
  }

  // One bucket of the lookup structure, one cache line. The bucket holds the
  // points whose top k bits equal its index (k = kCircleBits - shift_), at
  // positions [start, start + count) of points_. fp[j] is the fingerprint
  // (the 16 bits below the top k, xor 0x8000 for a signed compare) of the
  // bucket's j-th point; owner[j] its owner. Slots j >= count hold fp
  // 0x7FFF (0xFFFF unbiased) and the owner of the first point after the
  // bucket, owners_[start + count] (wrapping), so that "no point of the
  // bucket is greater" needs no branch. A bucket with more than kLineSlots
  // points holds none in its slots (count says so) and is searched in
  // points_.
  struct alignas(64) Line {
    uint16_t fp[kLineSlots];
    NodeId owner[kLineSlots + 1];
    uint32_t start;
    uint32_t count;
  };
  static_assert(sizeof(Line) == 64);

  // The compact bucket line, used while every node id is below
  // kCrowdedOwner (at most 65535 nodes ever added): 16-bit owners, so that a
  // line holds up to kCompactSlots = 15 points and the line array takes half
  // the bytes of Line's for the same points. fp[j] and owner[j] for
  // j < count are as in Line; fp[count..15] hold 0x7FFF (so fp[15] always
  // does, and the count of smaller fingerprints is at most 15) and
  // owner[count..15] the owner of the first point after the bucket. A bucket
  // with more than 15 points has kCrowdedOwner in every owner slot, which
  // sends Lookup to the binary search of the bucket ([bucket_start_[b],
  // bucket_start_[b + 1]) of points_). The line has no room for the
  // bucket's position; the fallback and SuccessorPosition read it from
  // bucket_start_, which the common path never touches.
  struct alignas(64) CompactLine {
    uint16_t fp[kCompactSlots + 1];
    uint16_t owner[kCompactSlots + 1];
  };
  static_assert(sizeof(CompactLine) == 64);

  // The 16 bits of x below its top k bits (zero-filled past the circle).
  uint16_t Fingerprint(uint64_t x) const {
    return static_cast<uint16_t>((x << fp_shift_) >> 48);
  }

  // The fingerprint xor 0x8000, as a signed lane value (the stored form).
  int16_t BiasedFingerprint(uint64_t x) const {
    return static_cast<int16_t>(Fingerprint(x) ^ 0x8000);
  }

  // Sets *below to the number of the line's points <= the key with
  // fingerprint f, and returns true, when the fingerprints decide it: the
  // bucket is not crowded and no point shares the key's fingerprint (a
  // point with a smaller fingerprint is smaller than the key, one with a
  // larger fingerprint larger). Otherwise returns false.
  static bool CountBelow(const Line& line, uint16_t f, uint32_t* below) {
    const int16_t key = static_cast<int16_t>(f ^ 0x8000);  // the stored form
#if defined(__SSE2__)
    const __m128i fps =
        _mm_load_si128(reinterpret_cast<const __m128i*>(line.fp));
    const __m128i k = _mm_set1_epi16(key);
    const uint32_t lt =
        static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmplt_epi16(fps, k)));
    const uint32_t eq =
        static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi16(fps, k)));
    // The used slots are sorted and the empty ones hold the largest value,
    // so the lanes below the key are a prefix: count its trailing ones
    // (a single bsf; std::popcount is a libgcc call without -mpopcnt).
    *below = static_cast<uint32_t>(std::countr_zero(~lt)) / 2;
#else
    uint32_t lt = 0;
    uint32_t eq = 0;
    for (uint32_t j = 0; j < kLineSlots; ++j) {
      const int16_t fj = static_cast<int16_t>(line.fp[j]);
      lt += fj < key ? 1 : 0;
      eq |= fj == key ? 1 : 0;
    }
    *below = lt;
#endif
    return (eq | (line.count > kLineSlots ? 1u : 0u)) == 0;
  }

  // The number of the compact line's fingerprints below f (biased like the
  // stored ones), at most 15 since fp[15] is the largest value. The stored
  // fingerprints are non-decreasing, so the lanes below f are a prefix and
  // fp[result] is the smallest one >= f: a fingerprint equals f exactly
  // when fp[result] does, which Lookup checks with one scalar load.
  static uint32_t CompactCountBelow(const CompactLine& line, int16_t key) {
#if defined(__AVX2__)
    const __m256i fps =
        _mm256_load_si256(reinterpret_cast<const __m256i*>(line.fp));
    const uint32_t lt = static_cast<uint32_t>(
        _mm256_movemask_epi8(_mm256_cmpgt_epi16(_mm256_set1_epi16(key), fps)));
    return static_cast<uint32_t>(std::countr_zero(~lt)) / 2;
#elif defined(__SSE2__)
    const __m128i lo =
        _mm_load_si128(reinterpret_cast<const __m128i*>(line.fp));
    const __m128i hi =
        _mm_load_si128(reinterpret_cast<const __m128i*>(line.fp + 8));
    const __m128i k = _mm_set1_epi16(key);
    // One bit per lane: bit j is fp[j] < key.
    const uint32_t lt = static_cast<uint32_t>(_mm_movemask_epi8(
        _mm_packs_epi16(_mm_cmplt_epi16(lo, k), _mm_cmplt_epi16(hi, k))));
    return static_cast<uint32_t>(std::countr_zero(~lt));
#else
    uint32_t lt = 0;
    for (uint32_t j = 0; j <= kCompactSlots; ++j) {
      lt += static_cast<int16_t>(line.fp[j]) < key ? 1 : 0;
    }
    return lt;
#endif
  }

  // Whether the fingerprints of compact line `line` decide the key's
  // position: no stored fingerprint equals `key` (see CompactCountBelow)
  // and the bucket is not crowded.
  static bool CompactDecided(const CompactLine& line, int16_t key,
                             uint32_t below) {
    return (static_cast<int16_t>(line.fp[below]) != key) &
           (line.owner[below] != kCrowdedOwner);
  }

  // Binary search of compact bucket b in points_. Out of line, like
  // SlowPosition: the rare path must not make Lookup too large for the
  // compiler to inline it into callers' loops.
  [[gnu::noinline]] uint32_t CompactSlowPosition(uint64_t b, uint64_t x) const {
    const uint64_t* begin = points_.data() + bucket_start_[b];
    const uint64_t* end = points_.data() + bucket_start_[b + 1];
    return static_cast<uint32_t>(std::upper_bound(begin, end, x) -
                                 points_.data());
  }

  // Binary search of the line's bucket in points_ (crowded bucket or equal
  // fingerprints). Out of line (see CompactSlowPosition).
  [[gnu::noinline]] uint32_t SlowPosition(const Line& line, uint64_t x) const {
    const uint64_t* begin = points_.data() + line.start;
    return static_cast<uint32_t>(
        std::upper_bound(begin, begin + line.count, x) - points_.data());
  }

  static uint64_t PointCountAt(uint64_t vnodes, double weight) {
    const double want = std::round(static_cast<double>(vnodes) * weight);
    if (!(want < static_cast<double>(kMaxPointsPerNode + 1))) {
      return kMaxPointsPerNode + 1;  // rejected by CheckPointCount
    }
    return static_cast<uint64_t>(want);
  }

  absl::Status CheckPointCount(const NodeSpec& spec, uint64_t count,
                               uint64_t existing) const {
    if (count == 0) {
      // The smallest weight with a point, printed so that it rounds to one
      // (%.6g may round 0.5 / vnodes down), and the vnodes that give
      // spec.weight a point.
      const double least = 0.5 / static_cast<double>(vnodes_);
      std::string text = absl::StrFormat("%.6g", least);
      if (PointCountAt(vnodes_, std::stod(text)) == 0) {
        text = absl::StrFormat("%.6g", least * (1 + 1e-5));
      }
      // The vnodes that give spec.weight a point (a double: a weight below
      // 2^-53 needs more vnodes than a uint64_t counts exactly).
      double need = std::ceil(0.5 / spec.weight);
      if (need < 0x1p53 &&
          PointCountAt(static_cast<uint64_t>(need), spec.weight) == 0) {
        need += 1;
      }
      return absl::InvalidArgumentError(absl::StrCat(
          owner_, ": node '", spec.name, "' weight ", spec.weight,
          " would get round(vnodes ", vnodes_, " x weight ", spec.weight,
          ") = 0 points and no keys; the smallest weight with a point at "
          "vnodes ", vnodes_, " is ", text, " (or use vnodes >= ",
          absl::StrFormat("%.15g", need), ")"));
    }
    if (count > kMaxPointsPerNode) {
      return absl::InvalidArgumentError(absl::StrCat(
          owner_, ": node '", spec.name, "' would get round(vnodes ", vnodes_,
          " x weight ", spec.weight, ") points; at most ", kMaxPointsPerNode,
          " per node"));
    }
    if (existing + count > kMaxPoints) {
      return absl::ResourceExhaustedError(absl::StrCat(
          owner_, ": adding node '", spec.name, "' would make ",
          existing + count, " points; at most ", kMaxPoints, " in total"));
    }
    return absl::OkStatus();
  }

  // Appends the points "name#0" .. "name#(count-1)".
  static void AppendPoints(std::string_view name, uint64_t count, NodeId id,
                           std::string* buf, std::vector<Entry>* out) {
    buf->assign(name);
    buf->push_back('#');
    const size_t base = buf->size();
    buf->resize(base + 24);
    for (uint64_t v = 0; v < count; ++v) {
      char* begin = buf->data() + base;
      char* end = std::to_chars(begin, begin + 24, v).ptr;
      const uint64_t point = ReduceToCircle(
          H::Hash(buf->data(), static_cast<size_t>(end - buf->data()), 0));
      out->push_back({point, id, static_cast<uint32_t>(v)});
    }
  }

  // (point, node name, vnode): a strict total order over live points.
  bool TieLess(const Entry& a, const Entry& b) const {
    if (a.owner != b.owner) return table_.name(a.owner) < table_.name(b.owner);
    return a.vnode < b.vnode;
  }

  // Sorts by (point, name, vnode). Large inputs are first scattered by the
  // top bits of the point (one counting pass, ~4..8 entries per bucket for a
  // good hash), then each bucket is sorted with the full comparator: about
  // twice as fast as one std::sort at 10^6..10^7 points, and no worse for a
  // skewed hash (a crowded bucket is simply a larger std::sort).
  void SortEntries(std::vector<Entry>* entries) const {
    std::vector<Entry>& e = *entries;
    const auto less = [this](const Entry& a, const Entry& b) {
      return a.point != b.point ? a.point < b.point : TieLess(a, b);
    };
    if (e.size() < 4096) {
      std::sort(e.begin(), e.end(), less);
      return;
    }
    const int k =
        std::clamp(static_cast<int>(std::bit_width(e.size())) - 3, 1, 16);
    const int shift = kCircleBits - k;
    std::vector<uint32_t> start((size_t{1} << k) + 1, 0);
    for (const Entry& x : e) ++start[(x.point >> shift) + 1];
    for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    std::vector<Entry> out(e.size());
    {
      std::vector<uint32_t> next(start.begin(), start.end() - 1);
      for (const Entry& x : e) out[next[x.point >> shift]++] = x;
    }
    for (size_t b = 0; b + 1 < start.size(); ++b) {
      std::sort(out.begin() + start[b], out.begin() + start[b + 1], less);
    }
    e.swap(out);
  }

  void FromSortedEntries(const std::vector<Entry>& entries) {
    const size_t n = entries.size();
    std::vector<uint64_t> points;
    std::vector<NodeId> owners;
    points.reserve(n);
    owners.reserve(n + 1);
    for (const Entry& e : entries) {
      points.push_back(e.point);
      owners.push_back(e.owner);
    }
    points_ = std::move(points);
    owners_ = std::move(owners);
    num_points_ = static_cast<uint32_t>(n);
    Reindex();
  }

  // Merges one new node's sorted points into the arrays (exact-size copies).
  void MergeFresh(const std::vector<Entry>& fresh, const std::string& name) {
    const size_t n = num_points_ + fresh.size();
    std::vector<uint64_t> points;
    std::vector<NodeId> owners;
    points.reserve(n);
    owners.reserve(n + 1);
    uint32_t i = 0;
    size_t j = 0;
    while (i < num_points_ || j < fresh.size()) {
      bool take_old;
      if (j == fresh.size()) {
        take_old = true;
      } else if (i == num_points_) {
        take_old = false;
      } else if (points_[i] != fresh[j].point) {
        take_old = points_[i] < fresh[j].point;
      } else {
        take_old =
            table_.name(owners_[i]) < name;  // names of live nodes differ
      }
      if (take_old) {
        points.push_back(points_[i]);
        owners.push_back(owners_[i]);
        ++i;
      } else {
        points.push_back(fresh[j].point);
        owners.push_back(fresh[j].owner);
        ++j;
      }
    }
    points_ = std::move(points);
    owners_ = std::move(owners);
    num_points_ = static_cast<uint32_t>(n);
    Reindex();
  }

  // Pads owners_ (points_ and owners_ have exactly num_points_ entries on
  // entry) and rebuilds the bucket lines.
  void Reindex() {
    std::unordered_set<std::string_view> zones;
    for (NodeId id : table_.LiveIds()) zones.insert(table_.spec(id).zone);
    live_zones_ = zones.size();
    const uint32_t n = num_points_;
    points_.resize(n);
    owners_.resize(n);
    owners_.push_back(n > 0 ? owners_[0] : kInvalidNode);
    const bool ids_fit = table_.issued() <= kCrowdedOwner;
    compact_ = layout_ == LineLayout::kWide   ? false
               : layout_ == LineLayout::kAuto ? ids_fit && n > kCompactMinPoints
                                              : ids_fit;
    // Wide lines: 2^k buckets with 2^k in [n/4, n/2) (at least 2), 2 to 4
    // points each on average, so that a bucket rarely overflows its 8 slots
    // (Poisson(4) > 8: 2.1 %). Compact lines: 2^k in [n/8, n/4), 4 to 8
    // points each (Poisson(8) > 15: 0.8 %).
    const int shrink = compact_ ? 3 : 2;
    int k = n > 3 ? static_cast<int>(std::bit_width(n - 1)) - shrink : 1;
    k = std::clamp(k, 1, kCircleBits - 1);
    shift_ = kCircleBits - k;
    fp_shift_ = 64 - kCircleBits + k;
    const size_t buckets = size_t{1} << k;
    prefetch_pays_ = buckets * 64 >= kPrefetchPaysFromBytes;
    if (compact_) {
      ReindexCompact(buckets);
      return;
    }
    compact_lines_ = {};
    bucket_start_ = {};
    std::vector<Line, HugePageAllocator<Line>> lines(buckets);
    uint32_t pos = 0;
    for (size_t b = 0; b < buckets; ++b) {
      const uint32_t start = pos;
      while (pos < n && (points_[pos] >> shift_) == b) ++pos;
      Line& line = lines[b];
      line.start = start;
      line.count = pos - start;
      const uint32_t used = line.count <= kLineSlots ? line.count : 0;
      for (uint32_t j = 0; j < kLineSlots; ++j) {
        line.fp[j] =
            j < used
                ? static_cast<uint16_t>(BiasedFingerprint(points_[start + j]))
                : uint16_t{0x7FFF};
      }
      for (uint32_t j = 0; j <= kLineSlots; ++j) {
        line.owner[j] = j < used ? owners_[start + j] : owners_[pos];
      }
    }
    lines_ = std::move(lines);
  }

  // The compact lines and bucket_start_ for 2^k = `buckets` buckets.
  void ReindexCompact(size_t buckets) {
    const uint32_t n = num_points_;
    std::vector<CompactLine, HugePageAllocator<CompactLine>> lines(buckets);
    std::vector<uint32_t> starts(buckets + 1);
    uint32_t pos = 0;
    for (size_t b = 0; b < buckets; ++b) {
      const uint32_t start = pos;
      while (pos < n && (points_[pos] >> shift_) == b) ++pos;
      starts[b] = start;
      const uint32_t count = pos - start;
      const bool crowded = count > kCompactSlots;
      const uint32_t used = crowded ? 0 : count;
      CompactLine& line = lines[b];
      for (uint32_t j = 0; j <= kCompactSlots; ++j) {
        line.fp[j] =
            j < used
                ? static_cast<uint16_t>(BiasedFingerprint(points_[start + j]))
                : uint16_t{0x7FFF};
        // Ids are below kCrowdedOwner here; an empty ring's padding owner
        // (kInvalidNode) truncates to kCrowdedOwner and takes the fallback.
        line.owner[j] =
            crowded ? kCrowdedOwner
                    : static_cast<uint16_t>(j < used ? owners_[start + j]
                                                     : owners_[pos]);
      }
    }
    starts[buckets] = n;
    compact_lines_ = std::move(lines);
    bucket_start_ = std::move(starts);
    lines_ = {};
  }

  bool ZoneTaken(const std::vector<NodeId>& chosen, NodeId candidate) const {
    const std::string& zone = table_.spec(candidate).zone;
    for (NodeId id : chosen) {
      if (table_.spec(id).zone == zone) return true;
    }
    return false;
  }

  std::string owner_;  // the algorithm named in errors
  using NodeTableAlgorithm<H>::table_;
  uint32_t vnodes_;
  uint32_t num_points_ = 0;
  size_t live_zones_ = 0;  // distinct zones of the live nodes
  int shift_ = kCircleBits - 1;   // bucket of x: x >> shift_
  int fp_shift_ = 64 - kCircleBits + 1;  // Fingerprint: (x << fp_shift_) >> 48
  std::vector<uint64_t> points_;  // sorted
  std::vector<NodeId> owners_;    // parallel; then owners_[0] once more
  // Exactly one of the two line arrays is in use (2^k buckets): compact_
  // says which.
  bool compact_ = false;
  // The line array is large enough for LookupBatch to prefetch.
  bool prefetch_pays_ = false;
  LineLayout layout_ = LineLayout::kAuto;
  std::vector<Line, HugePageAllocator<Line>> lines_;
  std::vector<CompactLine, HugePageAllocator<CompactLine>> compact_lines_;
  std::vector<uint32_t> bucket_start_;  // compact only: 2^k + 1 entries
};

// Factory for the registry: validates `params.vnodes` and `params.hash` and
// returns an empty ring.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeRing(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_RING_RING_H_
