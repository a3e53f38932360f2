// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: testing/reference_models.h
// -----------------------------------------------------------------------------
//
// Reference models for the conformance suite (algorithms/conformance_test.cc)
// and the operation-sequence fuzzer (fuzz/ops_fuzzer.cc):
// deliberately naive implementations of each algorithm's *definition*
// (ARCHITECTURE.md §4), rebuilt from scratch from the current live node set
// on every call to `Rebuild`. The production algorithms are incremental and
// optimized; the suite drives them through random add/remove sequences and
// checks after every step that they agree with these models on every key.
//
// History-dependent algorithms (anchor, memento, dx) map keys by the order
// of their additions and removals, not by the live set alone: their models
// replay the same AddNode/RemoveNode calls (`Added`, `Removed`) and use
// `Rebuild` only as Build.
//
// A model never shares code with the algorithm it checks, so that a bug in
// one is not silently mirrored in the other. Models are slow on purpose
// (std::map, brute-force argmax) and are meant for tests only.
//
// Example:
//   std::unique_ptr<ReferenceModel> ref = MakeReferenceModel("ring", params);
//   ref->Rebuild(live);                       // (id, spec) pairs, ascending id
//   EXPECT_EQ(algo->Lookup(k), ref->Lookup(k));

#ifndef CHBENCH_ALGORITHMS_TESTING_REFERENCE_MODELS_H_
#define CHBENCH_ALGORITHMS_TESTING_REFERENCE_MODELS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "algorithms/consistent_hash.h"
#include "algorithms/crush/crush_hash.h"    // the crush_ln tables (data)
#include "algorithms/hash/hash_function.h"  // also xxhash.h: XXH32

namespace chbench {
namespace testing {

// A live node as the models see it: its id in the algorithm under test and
// its spec.
struct LiveNode {
  NodeId id;
  NodeSpec spec;
};

class ReferenceModel {
 public:
  virtual ~ReferenceModel() = default;
  // Replaces the model's node set; `live` is in ascending id order.
  virtual void Rebuild(std::span<const LiveNode> live) = 0;
  // The owner of `key_hash` by the algorithm's definition.
  virtual NodeId Lookup(uint64_t key_hash) const = 0;
  // Stateful algorithms: records the key and returns its node. Stateless
  // ones: Lookup.
  virtual NodeId Place(uint64_t key_hash) { return Lookup(key_hash); }
  // Replay hooks for history-dependent algorithms (anchor, memento, dx: the
  // mapping depends on the order of additions and removals, not only on the
  // live set). The conformance suite calls them after each successful
  // AddNode (with the id it returned) and RemoveNode, and does not call
  // Rebuild, which for these models means Build(live): buckets 0..n-1 to the
  // given ids. The other models ignore them.
  virtual void Added(NodeId /*id*/, const NodeSpec& /*spec*/) {}
  virtual void Removed(NodeId /*id*/) {}
  // Whether the model describes the node set it was given (false: the
  // algorithm's mapping for it is outside the model's scope, and callers
  // do not compare).
  virtual bool Covers() const { return true; }
};

// Jump consistent hash, transcribed from the paper's Figure 1: Lamping &
// Veach, "A Fast, Minimal Memory, Consistent Hash Algorithm",
// arXiv:1406.2294 (2014). Returns a bucket in [0, num_buckets).
inline int32_t PaperJumpConsistentHash(uint64_t key, int32_t num_buckets) {
  int64_t b = -1;
  int64_t j = 0;
  while (j < num_buckets) {
    b = j;
    key = key * 2862933555777941757ULL + 1;
    j = static_cast<int64_t>((b + 1) *
                             (static_cast<double>(int64_t{1} << 31) /
                              static_cast<double>((key >> 33) + 1)));
  }
  return static_cast<int32_t>(b);
}

// modulo: live[key % n], live in ascending id order (ARCHITECTURE.md §4).
class ModuloModel final : public ReferenceModel {
 public:
  void Rebuild(std::span<const LiveNode> live) override {
    ids_.clear();
    for (const LiveNode& n : live) ids_.push_back(n.id);
  }
  NodeId Lookup(uint64_t key_hash) const override {
    return ids_[key_hash % ids_.size()];
  }

 private:
  std::vector<NodeId> ids_;
};

// jump: the paper's function on the live count; bucket b is the b-th live
// node (consistent_hash.h, "Node identity").
class JumpModel final : public ReferenceModel {
 public:
  void Rebuild(std::span<const LiveNode> live) override {
    ids_.clear();
    for (const LiveNode& n : live) ids_.push_back(n.id);
  }
  NodeId Lookup(uint64_t key_hash) const override {
    return ids_[PaperJumpConsistentHash(key_hash,
                                        static_cast<int32_t>(ids_.size()))];
  }

 private:
  std::vector<NodeId> ids_;
};

// -----------------------------------------------------------------------------
// The range hashes jumpback, flip, power and binomial, transcribed from their
// reference implementations (hash4j jumpBackHash, fliphash-rs fliphash_64,
// SUPSI java-consistent-hashing-algorithms PowerEngine and BinomialEngine;
// the repository@commit of each heads its testdata/*.tsv files) with plain
// loops, Java-style integer types and no shared helpers: bucket b is the
// b-th live node, like jump.
// -----------------------------------------------------------------------------

// JumpBackHash with the SplitMix64 stream (hash4j jumpBackHash): the j-th
// stream value is SplitMix64's output at state x + (j + 1) * gamma; bit
// positions are scanned from 31 down, candidates reduced with % instead of
// masks, and the number of set bits is counted one by one.
inline uint64_t ModelSplitMix64Value(uint64_t x, uint64_t j) {
  uint64_t z = x + (j + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

inline uint32_t ModelJumpBackHash(uint64_t x, uint32_t n) {
  if (n <= 1) return 0;
  int width = 0;  // bit length of n - 1
  while (width < 32 && (uint64_t{1} << width) <= uint64_t{n} - 1) ++width;
  const uint64_t r0 = ModelSplitMix64Value(x, 0);
  uint64_t bits = ((r0 ^ (r0 >> 32)) & 0xFFFFFFFFULL) % (uint64_t{1} << width);
  uint64_t drawn = 1;  // index of the next stream value
  for (int k = 31; k >= 0; --k) {
    if (((bits >> k) & 1) == 0) continue;
    int ones = 0;
    for (int i = 0; i < 32; ++i) ones += static_cast<int>((bits >> i) & 1);
    const uint64_t half = ones % 2 == 1 ? r0 >> 32 : r0 % (uint64_t{1} << 32);
    const uint64_t low = uint64_t{1} << k;
    const uint64_t candidate = low + half % low;
    if (candidate < n) return static_cast<uint32_t>(candidate);
    bool same_range = true;
    while (same_range) {
      const uint64_t r = ModelSplitMix64Value(x, drawn++);
      const uint64_t two[2] = {r % (uint64_t{1} << 32), r >> 32};
      for (uint64_t h : two) {
        const uint64_t t = h % (2 * low);
        if (t < low) {
          same_range = false;
          break;
        }
        if (t < n) return static_cast<uint32_t>(t);
      }
    }
    bits -= low;
  }
  return 0;
}

// FlipHash (fliphash-rs fliphash_64 with seed 0): the mixer H(key, bitlen, i)
// and the pow2 helper written out as in the definition.
inline uint64_t ModelFlipMix(uint64_t key, uint64_t bitlen, uint64_t i) {
  uint64_t k = key;  // key ^ seed, seed 0
  k = k * (2 * bitlen + 1);
  k = (k ^ (k >> 27)) * 0x3C79AC492BA7B653ULL;
  k = k * (2 * i + 1);
  k = (k ^ (k >> 33)) * 0x1C69B3F74AC4AE35ULL;
  return k ^ (k >> 27);
}

inline uint64_t ModelFloorLog2(uint64_t v) {  // v >= 1
  uint64_t r = 0;
  while (v > 1) {
    v /= 2;
    ++r;
  }
  return r;
}

inline uint64_t ModelFlipPow2(uint64_t key, uint64_t hash, uint64_t mask) {
  const uint64_t m = hash & mask;
  if (m == 0) return 0;
  const uint64_t t = ModelFloorLog2(m);
  const uint64_t flip = ModelFlipMix(key, t, 0) % (uint64_t{1} << t);
  return m ^ flip;
}

inline uint64_t ModelFlipHash(uint64_t x, uint64_t n) {
  const uint64_t e = n - 1;
  if (e == 0) return 0;
  uint64_t mask = 0;
  while (mask < e) mask = 2 * mask + 1;  // 2^bitlen(e) - 1
  const uint64_t hash = ModelFlipMix(x, 0, 0);
  const uint64_t f = ModelFlipPow2(x, hash, mask);
  if (f <= e) return f;
  for (uint64_t i = 1; i <= 64; ++i) {
    const uint64_t d = ModelFlipMix(x, ModelFloorLog2(e), i) & mask;
    if (d <= mask / 2) break;
    if (d <= e) return d;
  }
  return ModelFlipPow2(x, hash, mask / 2);
}

// PowerCH as SUPSI's Java PowerEngine computes it with XXHash32, in Java
// types: int32_t for int (with Java's wrapping addition), int64_t for long,
// >>> as an unsigned shift, and Java's saturating (int) cast of a double.
inline int32_t JavaIntAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) +
                              static_cast<uint32_t>(b));
}

inline int32_t JavaDoubleToInt(double d) {  // JLS 5.1.3
  if (std::isnan(d)) return 0;
  if (d >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (d <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(d);  // truncation toward zero
}

inline int32_t JavaHighestOneBit(int32_t i) {
  const uint32_t u = static_cast<uint32_t>(i);
  if (u == 0) return 0;
  uint32_t bit = 0x80000000U;
  while ((u & bit) == 0) bit >>= 1;
  return static_cast<int32_t>(bit);
}

// commons-codec XXHash32 (seed 0) of hash4j-style (long, int) input: the 8
// big-endian bytes of the long, then the 4 big-endian bytes of the int.
inline uint32_t ModelXxh32LongInt(int64_t value, int32_t seed_int) {
  unsigned char bytes[12];
  const uint64_t v = static_cast<uint64_t>(value);
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<unsigned char>(v >> (56 - 8 * i));
  }
  const uint32_t s = static_cast<uint32_t>(seed_int);
  for (int i = 0; i < 4; ++i) {
    bytes[8 + i] = static_cast<unsigned char>(s >> (24 - 8 * i));
  }
  return XXH32(bytes, sizeof(bytes), 0);
}

inline int32_t ModelPowerHash(int64_t hash, int32_t size) {
  int32_t m = JavaHighestOneBit(size);
  if (size > m) m = m << 1;
  const int32_t m1 = JavaIntAdd(m, -1);
  const int32_t m2 = JavaIntAdd(m >> 1, -1);
  const auto f = [&](int32_t mx) -> int32_t {
    const int32_t k_bits = static_cast<int32_t>(hash & int64_t{mx});
    if (k_bits == 0) return 0;
    const int32_t h = JavaHighestOneBit(k_bits);
    const int64_t h2 = ModelXxh32LongInt(hash, h);  // as unsigned 32-bit
    return h + (static_cast<int32_t>(h2) & (h - 1));
  };
  const auto g = [&]() -> int32_t {
    int64_t state = hash;
    int32_t candidate = m2;
    while (true) {
      state = static_cast<int64_t>(
          2862933555777941757ULL * static_cast<uint64_t>(state) + 1);
      const int32_t hi =
          static_cast<int32_t>(static_cast<uint64_t>(state) >> 33);
      const double u = static_cast<double>(JavaIntAdd(hi, 1)) / 0x1p31;
      const int32_t next =
          JavaDoubleToInt(static_cast<double>(JavaIntAdd(candidate, 1)) / u);
      if (next >= 0 && next < size) {
        candidate = next;
      } else {
        return candidate;
      }
    }
  };
  const int32_t r1 = f(m1);
  if (r1 < size) return r1;
  const int32_t r2 = g();
  if (r2 > m2) return r2;
  return f(m2);
}

// BinomialHash as SUPSI's Java BinomialEngine computes it, from a fresh
// engine of `size` buckets.
inline int64_t ModelBinomialRehash(int64_t value, int32_t seed) {
  const uint64_t t = 2862933555777941757ULL * static_cast<uint64_t>(value) + 1;
  return static_cast<int64_t>((t * t * static_cast<uint64_t>(int64_t{seed})) >>
                              32);
}

inline int32_t ModelBinomialRelocate(int32_t bucket, int64_t hash) {
  if (bucket < 2) return bucket;
  const int32_t base = JavaHighestOneBit(bucket);
  const int32_t filter = base - 1;
  return base +
         (static_cast<int32_t>(ModelBinomialRehash(hash, filter)) & filter);
}

inline int32_t ModelBinomialHash(int64_t hash, int32_t size) {
  if (size < 2) return 0;
  int32_t top = JavaHighestOneBit(size);
  if (size > top) top = top << 1;
  const int32_t enclosing = JavaIntAdd(top, -1);  // wraps past 2^30 as Java
  const int32_t minor = enclosing >> 1;
  int32_t bucket =
      ModelBinomialRelocate(static_cast<int32_t>(hash) & enclosing, hash);
  if (bucket < size) return bucket;
  int64_t h = hash;
  for (int i = 0; i < 4; ++i) {
    h = ModelBinomialRehash(h, enclosing);
    bucket = ModelBinomialRelocate(static_cast<int32_t>(h) & enclosing, h);
    if (bucket <= minor) break;
    if (bucket < size) return bucket;
  }
  return ModelBinomialRelocate(static_cast<int32_t>(hash) & minor, hash);
}

// The model of a range hash f(key, n): live[f(key, n)].
class RangeHashModel final : public ReferenceModel {
 public:
  using Function = uint64_t (*)(uint64_t key, uint64_t n);
  explicit RangeHashModel(Function f) : f_(f) {}
  void Rebuild(std::span<const LiveNode> live) override {
    ids_.clear();
    for (const LiveNode& n : live) ids_.push_back(n.id);
  }
  NodeId Lookup(uint64_t key_hash) const override {
    return ids_[f_(key_hash, ids_.size())];
  }

  static uint64_t JumpBack(uint64_t key, uint64_t n) {
    return ModelJumpBackHash(key, static_cast<uint32_t>(n));
  }
  static uint64_t Flip(uint64_t key, uint64_t n) {
    return ModelFlipHash(key, n);
  }
  static uint64_t Power(uint64_t key, uint64_t n) {
    return static_cast<uint64_t>(
        ModelPowerHash(static_cast<int64_t>(key), static_cast<int32_t>(n)));
  }
  static uint64_t Binomial(uint64_t key, uint64_t n) {
    return static_cast<uint64_t>(
        ModelBinomialHash(static_cast<int64_t>(key), static_cast<int32_t>(n)));
  }

 private:
  Function f_;
  std::vector<NodeId> ids_;
};

// ring: vnode i of node X sits at H("X#i"); a key belongs to the first point
// strictly greater than its digest, wrapping past the largest point to the
// smallest; equal points are resolved in favour of the smallest
// (name, vnode index). `vnodes_of(spec)` is the number of points of a node
// (the ring's weight rule), passed in so that the model states it explicitly.
template <typename H>
class RingModel final : public ReferenceModel {
 public:
  using VnodeRule = uint32_t (*)(uint32_t vnodes, double weight);
  RingModel(uint32_t vnodes, VnodeRule rule) : vnodes_(vnodes), rule_(rule) {}

  void Rebuild(std::span<const LiveNode> live) override {
    points_.clear();
    for (const LiveNode& n : live) {
      const uint32_t count = rule_(vnodes_, n.spec.weight);
      for (uint32_t i = 0; i < count; ++i) {
        const uint64_t p =
            HashString<H>(n.spec.name + "#" + std::to_string(i));
        Owner candidate{n.spec.name, i, n.id};
        auto [it, inserted] = points_.emplace(p, candidate);
        if (!inserted && std::tie(candidate.name, candidate.vnode) <
                             std::tie(it->second.name, it->second.vnode)) {
          it->second = candidate;
        }
      }
    }
  }
  NodeId Lookup(uint64_t key_hash) const override {
    auto it = points_.upper_bound(key_hash);
    if (it == points_.end()) it = points_.begin();
    return it->second.id;
  }

 private:
  struct Owner {
    std::string name;
    uint32_t vnode;
    NodeId id;
  };
  uint32_t vnodes_;
  VnodeRule rule_;
  std::map<uint64_t, Owner> points_;
};

// The ring's weight rule (vnodes per node in proportion to the weight): a
// node of weight w gets round(vnodes * w) points; the ring refuses a weight
// that gets none, so 0 here names a node the ring never holds.
inline uint32_t RingVnodes(uint32_t vnodes, double weight) {
  return static_cast<uint32_t>(
      std::round(static_cast<double>(vnodes) * weight));
}

// rendezvous: brute-force argmax over the live nodes of the score
// s = HashPair<H>(key, HashString<H>(name)); when the live weights differ,
// of -w / ln(ToUnitInterval<H>(s)) (the logarithmic method: Schindelhauer &
// Schomaker, "Weighted Distributed Hash Tables", SPAA 2005). Equal scores go
// to the smaller id.
template <typename H>
class RendezvousModel final : public ReferenceModel {
 public:
  void Rebuild(std::span<const LiveNode> live) override {
    live_.assign(live.begin(), live.end());
    weighted_ = false;
    for (const LiveNode& n : live_) {
      weighted_ = weighted_ || n.spec.weight != live_.front().spec.weight;
    }
  }
  NodeId Lookup(uint64_t key_hash) const override {
    NodeId best_id = kInvalidNode;
    uint64_t best_int = 0;
    double best_real = 0;
    for (const LiveNode& n : live_) {  // ascending id: '>' keeps the smaller
      const uint64_t s = HashPair<H>(key_hash, HashString<H>(n.spec.name));
      if (weighted_) {
        const double w = -n.spec.weight / std::log(ToUnitInterval<H>(s));
        if (best_id == kInvalidNode || w > best_real) {
          best_real = w;
          best_id = n.id;
        }
      } else if (best_id == kInvalidNode || s > best_int) {
        best_int = s;
        best_id = n.id;
      }
    }
    return best_id;
  }

 private:
  std::vector<LiveNode> live_;
  bool weighted_ = false;
};

// bounded_load, written from the definition (Mirrokni, Thorup &
// Zadimoghaddam, SODA 2018; the semantics in bounded_load/bounded_load.h),
// not from the implementation: a plain sorted vector of ring points
// (point, node name, vnode index, id), H("X#i") for node X's i-th point, and
// a std::map of loads. With m keys placed on n nodes, a new key goes to the
// first node met walking clockwise from the first point strictly greater
// than its digest (wrapping) whose load is below ceil(c (m + 1) / n), with
// c (m + 1) rounded once to double. A placed key keeps its node; Lookup of an
// unplaced key is where Place would put it now. Rebuild re-places every
// placed key, in placement order, on the new node set (from empty loads).
// Points that collide exactly keep both entries in (name, vnode) order; the
// walk skips the later one's node only if full (a difference from a
// deduplicated ring only on a 64-bit collision). 64-bit hashes only.
template <typename H>
class BoundedLoadModel final : public ReferenceModel {
 public:
  BoundedLoadModel(uint32_t vnodes, double load_factor)
      : vnodes_(vnodes), c_(load_factor) {}

  void Rebuild(std::span<const LiveNode> live) override {
    points_.clear();
    for (const LiveNode& n : live) {
      for (uint32_t i = 0; i < vnodes_; ++i) {
        points_.push_back(
            {HashString<H>(n.spec.name + "#" + std::to_string(i)), n.spec.name,
             i, n.id});
      }
    }
    std::sort(points_.begin(), points_.end(), [](const Point& a, const Point& b) {
      return std::tie(a.point, a.name, a.vnode) <
             std::tie(b.point, b.name, b.vnode);
    });
    nodes_ = live.size();
    // Replay from scratch, in placement order.
    loads_.clear();
    for (const LiveNode& n : live) loads_[n.id] = 0;
    placed_.clear();
    for (uint64_t key : order_) {
      const NodeId to = Choose(key);
      placed_[key] = to;
      ++loads_[to];
    }
  }

  NodeId Lookup(uint64_t key_hash) const override {
    auto it = placed_.find(key_hash);
    return it != placed_.end() ? it->second : Choose(key_hash);
  }

  NodeId Place(uint64_t key_hash) override {
    auto it = placed_.find(key_hash);
    if (it != placed_.end()) return it->second;
    const NodeId to = Choose(key_hash);
    placed_[key_hash] = to;
    ++loads_[to];
    order_.push_back(key_hash);
    return to;
  }

  // Keys on `id`'s node, and the ring owner (first point's node) of a key.
  uint64_t Load(NodeId id) const {
    auto it = loads_.find(id);
    return it == loads_.end() ? 0 : it->second;
  }
  NodeId RingOwner(uint64_t key_hash) const {
    return points_[Successor(key_hash)].id;
  }

 private:
  struct Point {
    uint64_t point;
    std::string name;
    uint32_t vnode;
    NodeId id;
  };

  size_t Successor(uint64_t key_hash) const {
    const auto it = std::upper_bound(
        points_.begin(), points_.end(), key_hash,
        [](uint64_t k, const Point& p) { return k < p.point; });
    return it == points_.end() ? 0 : static_cast<size_t>(it - points_.begin());
  }

  // m = placed_.size() keys already placed.
  NodeId Choose(uint64_t key_hash) const {
    if (points_.empty()) return kInvalidNode;
    const double t = c_ * static_cast<double>(placed_.size() + 1);
    const uint64_t ct = static_cast<uint64_t>(std::ceil(t));
    const uint64_t capacity = (ct + nodes_ - 1) / nodes_;
    const size_t start = Successor(key_hash);
    for (size_t k = 0; k < points_.size(); ++k) {
      const Point& p = points_[(start + k) % points_.size()];
      if (loads_.at(p.id) < capacity) return p.id;
    }
    return kInvalidNode;  // impossible for c > 1
  }

  uint32_t vnodes_;
  double c_;
  size_t nodes_ = 0;
  std::vector<Point> points_;
  std::map<NodeId, uint64_t> loads_;
  std::map<uint64_t, NodeId> placed_;
  std::vector<uint64_t> order_;
};

// The raw CRC-32C step of util/crc32c.h (the SSE4.2 crc32q instruction),
// one bit at a time: register = low 32 bits of `seed`, the 8 bytes of `k`
// least significant first, reflected polynomial 0x82F63B78, no inversion.
inline uint32_t NaiveCrc32cStep(uint64_t k, uint64_t seed) {
  uint32_t c = static_cast<uint32_t>(seed & 0xFFFFFFFFu);
  for (int byte = 0; byte < 8; ++byte) {
    c ^= static_cast<uint32_t>((k >> (8 * byte)) & 0xFF);
    for (int bit = 0; bit < 8; ++bit) {
      c = (c & 1) != 0 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
  }
  return c;
}

// anchor, transcribed from the spec (section 2) in the reference's own
// AnchorHashQre form: std::map arrays A, K, W, L, a vector stack R, lookup
// with key2 = 0 and the "A[h] = 0 or A[h] < A[b], else translate" test.
// Capacity a = `capacity`, or the node count of the first Rebuild when 0.
class AnchorModel final : public ReferenceModel {
 public:
  explicit AnchorModel(uint64_t capacity) : capacity_(capacity) {}

  void Rebuild(std::span<const LiveNode> live) override {
    if (a_ == 0) a_ = capacity_ != 0 ? capacity_ : live.size();
    Init(static_cast<uint32_t>(live.size()));
    for (size_t i = 0; i < live.size(); ++i) {
      owner_[static_cast<uint32_t>(i)] = live[i].id;
    }
  }

  void Added(NodeId id, const NodeSpec&) override {
    if (a_ == 0) {  // AddNode before any Build: AnchorHashQre(a, 0)
      a_ = capacity_;
      Init(0);
    }
    const uint32_t b = R_.back();  // UpdateNewBucket
    R_.pop_back();
    L_[W_[N_]] = N_;
    W_[L_[b]] = b;
    ++N_;
    A_[b] = 0;
    K_[b] = b;
    owner_[b] = id;
  }

  void Removed(NodeId id) override {
    uint32_t b = 0;
    for (const auto& [bucket, who] : owner_) {
      if (who == id) b = bucket;
    }
    owner_.erase(b);
    R_.push_back(b);  // UpdateRemoval
    --N_;
    W_[L_[b]] = W_[N_];
    L_[W_[N_]] = L_[b];
    K_[b] = W_[N_];
    A_[b] = N_;
  }

  NodeId Lookup(uint64_t key_hash) const override {
    uint32_t bs = NaiveCrc32cStep(key_hash, 0);
    uint32_t b = bs % static_cast<uint32_t>(a_);
    while (A_.at(b) != 0) {
      bs = NaiveCrc32cStep(key_hash - bs, bs);
      uint32_t h = bs % A_.at(b);
      if (A_.at(h) == 0 || A_.at(h) < A_.at(b)) {
        b = h;
      } else if (h == b) {
        b = K_.at(b);
      } else {
        while (A_.at(b) <= A_.at(h)) h = K_.at(h);
        b = h;
      }
    }
    return owner_.at(b);
  }

 private:
  // AnchorHashQre(a, w): buckets a-1 down to w removed in that order.
  void Init(uint32_t w) {
    A_.clear();
    K_.clear();
    W_.clear();
    L_.clear();
    R_.clear();
    owner_.clear();
    for (uint32_t b = 0; b < a_; ++b) {
      A_[b] = 0;
      K_[b] = W_[b] = L_[b] = b;
    }
    for (int64_t b = static_cast<int64_t>(a_) - 1; b >= w; --b) {
      A_[static_cast<uint32_t>(b)] = static_cast<uint32_t>(b);
      R_.push_back(static_cast<uint32_t>(b));
    }
    N_ = w;
  }

  uint64_t capacity_;
  uint64_t a_ = 0;
  uint32_t N_ = 0;
  std::map<uint32_t, uint32_t> A_, K_, W_, L_;
  std::vector<uint32_t> R_;
  std::map<uint32_t, NodeId> owner_;  // working bucket -> id
};

// memento, transcribed from the spec (section 3), crc32c path: Jump (the
// paper's function above) over B buckets of h0 = crc(x, 0); a std::map
// table bucket -> (replacer, prevRemoved); the Java engine's "table empty"
// test for the shrinking removal.
class MementoModel final : public ReferenceModel {
 public:
  void Rebuild(std::span<const LiveNode> live) override {
    table_.clear();
    owner_.clear();
    b_ = last_removed_ = static_cast<uint32_t>(live.size());
    for (size_t i = 0; i < live.size(); ++i) {
      owner_[static_cast<uint32_t>(i)] = live[i].id;
    }
  }

  void Added(NodeId id, const NodeSpec&) override {
    const uint32_t bucket = last_removed_;
    if (table_.empty()) {
      last_removed_ = bucket + 1;
    } else {
      last_removed_ = table_.at(bucket).second;
      table_.erase(bucket);
    }
    b_ = std::max(b_, bucket + 1);
    owner_[bucket] = id;
  }

  void Removed(NodeId id) override {
    uint32_t b = 0;
    for (const auto& [bucket, who] : owner_) {
      if (who == id) b = bucket;
    }
    owner_.erase(b);
    if (table_.empty() && b == b_ - 1) {
      b_ = last_removed_ = b;
      return;
    }
    const uint32_t working = b_ - static_cast<uint32_t>(table_.size());
    table_[b] = {working - 1, last_removed_};
    last_removed_ = b;
  }

  NodeId Lookup(uint64_t key_hash) const override {
    int64_t b = PaperJumpConsistentHash(NaiveCrc32cStep(key_hash, 0),
                                        static_cast<int32_t>(b_));
    int64_t rep = Replacer(b);
    while (rep >= 0) {
      b = NaiveCrc32cStep(key_hash, static_cast<uint64_t>(b)) %
          static_cast<uint32_t>(rep);
      int64_t r = Replacer(b);
      while (r >= rep) {
        b = r;
        r = Replacer(b);
      }
      rep = r;
    }
    return owner_.at(static_cast<uint32_t>(b));
  }

 private:
  int64_t Replacer(int64_t b) const {
    auto it = table_.find(static_cast<uint32_t>(b));
    return it == table_.end() ? -1 : int64_t{it->second.first};
  }

  uint32_t b_ = 0;
  uint32_t last_removed_ = 0;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> table_;
  std::map<uint32_t, NodeId> owner_;  // working bucket -> id
};

// dx, transcribed from the spec (section 4) and the reference's class
// DxHash: a std::vector<bool> activity array; the 32-bit key
// (low half of the digest) with seed key * 421757 + 1; give up after
// 4 * size probes, where chbench continues with a linear scan from the
// abandoned slot (dx/dx.h); AddNode grows a full array to the smallest power
// of two > the working count and activates the first inactive slot of key
// 1228. `capacity` is the array size at Rebuild (0: the smallest power of two
// >= n) and before the first one (0: one slot).
class DxModel final : public ReferenceModel {
 public:
  explicit DxModel(uint64_t capacity) : capacity_(capacity) {}

  void Rebuild(std::span<const LiveNode> live) override {
    uint64_t size = capacity_;
    if (size == 0) {
      size = 1;
      while (size < live.size()) size *= 2;
    }
    active_.assign(size, false);
    owner_.clear();
    for (size_t i = 0; i < live.size(); ++i) {
      active_[i] = true;
      owner_[static_cast<uint32_t>(i)] = live[i].id;
    }
  }

  void Added(NodeId id, const NodeSpec&) override {
    if (active_.empty()) active_.assign(capacity_ != 0 ? capacity_ : 1, false);
    const uint64_t working = owner_.size();
    if (working == active_.size()) {
      uint64_t size = 1;
      while (size <= working) size *= 2;
      active_.resize(size, false);
    }
    const uint32_t slot = Probe(1228, /*want_active=*/false);
    active_[slot] = true;
    owner_[slot] = id;
  }

  void Removed(NodeId id) override {
    for (auto it = owner_.begin(); it != owner_.end(); ++it) {
      if (it->second == id) {
        active_[it->first] = false;
        owner_.erase(it);
        return;
      }
    }
  }

  NodeId Lookup(uint64_t key_hash) const override {
    return owner_.at(Probe(static_cast<uint32_t>(key_hash), true));
  }

  // The slot the probe sequence of `key` settles on (for dx_test.cc too).
  uint32_t Probe(uint32_t key, bool want_active) const {
    const uint64_t size = active_.size();
    const uint32_t seed = key * 421757u + 1u;
    uint32_t bs = NaiveCrc32cStep(key, seed);
    uint64_t index = bs % size;
    uint64_t probes = 1;
    while (active_[index] != want_active) {
      bs = NaiveCrc32cStep(bs, seed);
      index = bs % size;
      probes += 1;
      if (probes >= 4 * size) {
        for (uint64_t k = 0; k < size; ++k) {
          if (active_[(index + k) % size] == want_active) {
            return static_cast<uint32_t>((index + k) % size);
          }
        }
      }
    }
    return static_cast<uint32_t>(index);
  }

 private:
  uint64_t capacity_;
  std::vector<bool> active_;
  std::map<uint32_t, NodeId> owner_;  // active slot -> id
};

// jumpbackanchor, transcribed from hash4j's
// ConsistentJumpBackAnchorBucketSetHasher (dynatrace-oss/hash4j@41d814f):
// std::map arrays A and K, a vector stack R; the key's SplitMix64 values
// indexed from 0 (ModelSplitMix64Value) with a counter of values drawn,
// JumpBack written out with % instead of masks, uniformInt with 64-bit
// arithmetic. Buckets map to ids through a std::map.
class JumpBackAnchorModel final : public ReferenceModel {
 public:
  void Rebuild(std::span<const LiveNode> live) override {
    a_ = static_cast<uint32_t>(live.size());
    R_.clear();
    A_.clear();
    K_.clear();
    owner_.clear();
    for (size_t i = 0; i < live.size(); ++i) {
      owner_[static_cast<uint32_t>(i)] = live[i].id;
    }
  }

  void Added(NodeId id, const NodeSpec&) override {
    uint32_t b;
    if (R_.empty()) {
      b = a_++;
    } else {
      b = R_.back();
      R_.pop_back();
      A_.erase(b);
      K_.erase(b);
    }
    owner_[b] = id;
  }

  void Removed(NodeId id) override {
    uint32_t b = 0;
    for (const auto& [bucket, who] : owner_) {
      if (who == id) b = bucket;
    }
    owner_.erase(b);
    const uint32_t r = static_cast<uint32_t>(R_.size());
    if (a_ - 1 == r) {
      a_ = 0;
      R_.clear();
      A_.clear();
      K_.clear();
    } else if (b == a_ - 1 && r == 0) {
      a_ -= 1;
    } else {
      R_.push_back(b);
      const uint32_t n = a_ - static_cast<uint32_t>(R_.size());
      const uint32_t h = View(n, n + 1);
      A_[b] = n;
      K_[b] = h;
    }
  }

  NodeId Lookup(uint64_t key_hash) const override {
    return owner_.at(Bucket(key_hash));
  }

  uint32_t Bucket(uint64_t x) const {
    if (a_ <= 1) return 0;
    uint64_t drawn = 0;  // values of the key's stream used so far
    uint32_t b = JumpBack(x, a_, &drawn);
    while (A_.count(b) != 0) {
      const uint64_t v = A_.at(b);
      b = View(UniformInt(x, &drawn, v), static_cast<uint32_t>(v));
    }
    return b;
  }

  // uniformInt(v) on the key's stream from value *drawn on (Lemire with
  // 32-bit words: redraw while the low product word is below 2^32 mod v).
  static uint32_t UniformInt(uint64_t x, uint64_t* drawn, uint64_t v) {
    uint64_t m =
        (ModelSplitMix64Value(x, (*drawn)++) % (uint64_t{1} << 32)) * v;
    if (m % (uint64_t{1} << 32) < v) {
      const uint64_t t = (uint64_t{1} << 32) % v;
      while (m % (uint64_t{1} << 32) < t) {
        m = (ModelSplitMix64Value(x, (*drawn)++) % (uint64_t{1} << 32)) * v;
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

 private:
  // The first draw is value 0; *drawn counts the values used.
  static uint32_t JumpBack(uint64_t x, uint32_t n, uint64_t* drawn) {
    const uint64_t r0 = ModelSplitMix64Value(x, (*drawn)++);
    int width = 0;  // bit length of n - 1
    while ((uint64_t{1} << width) <= uint64_t{n} - 1) ++width;
    uint64_t bits =
        ((r0 ^ (r0 >> 32)) % (uint64_t{1} << 32)) % (uint64_t{1} << width);
    for (int k = 31; k >= 0; --k) {
      const uint64_t low = uint64_t{1} << k;
      if ((bits / low) % 2 == 0) continue;
      int ones = 0;
      for (int i = 0; i < 32; ++i) ones += static_cast<int>((bits >> i) & 1);
      const uint64_t half = ones % 2 == 1 ? r0 >> 32 : r0 % (uint64_t{1} << 32);
      if (low + half % low < n) return static_cast<uint32_t>(low + half % low);
      for (bool same = true; same;) {
        const uint64_t r = ModelSplitMix64Value(x, (*drawn)++);
        for (uint64_t h : {r % (uint64_t{1} << 32), r >> 32}) {
          const uint64_t t = h % (2 * low);
          if (t < low) {
            same = false;
            break;
          }
          if (t < n) return static_cast<uint32_t>(t);
        }
      }
      bits -= low;
    }
    return 0;
  }

  uint32_t View(uint32_t u, uint32_t v) const {
    while (A_.count(u) != 0 && A_.at(u) >= v) u = K_.at(u);
    return u;
  }

  uint32_t a_ = 0;
  std::vector<uint32_t> R_;
  std::map<uint32_t, uint32_t> A_, K_;  // removed buckets only
  std::map<uint32_t, NodeId> owner_;    // working bucket -> id
};

// choosek, written from the crate's definitions (github/rust-gems@a7aecfb,
// crates/consistent-choose-k): SipHash-1-3 with zero keys over a byte
// buffer (the message rebuilt for every hash, no cloned state), prev and
// sample as defined, the set S(k, n) by its recursion
// S(k, n) = {M} + S(k - 1, M), and rho_j as the one element of
// S(j + 1, n) minus S(j, n) (not the incremental walk of choosek.h). The
// node map: T slots, a std::set of deleted slots, AddNode takes the smallest
// deleted slot.
inline uint64_t ModelRotl(uint64_t x, int b) {
  return (x << b) | (x >> (64 - b));
}

inline uint64_t ModelSipHash13(const std::vector<unsigned char>& msg) {
  uint64_t v[4] = {0x736f6d6570736575ULL, 0x646f72616e646f6dULL,
                   0x6c7967656e657261ULL, 0x7465646279746573ULL};
  const auto round = [&v] {
    v[0] += v[1];
    v[1] = ModelRotl(v[1], 13) ^ v[0];
    v[0] = ModelRotl(v[0], 32);
    v[2] += v[3];
    v[3] = ModelRotl(v[3], 16) ^ v[2];
    v[0] += v[3];
    v[3] = ModelRotl(v[3], 21) ^ v[0];
    v[2] += v[1];
    v[1] = ModelRotl(v[1], 17) ^ v[2];
    v[2] = ModelRotl(v[2], 32);
  };
  const size_t blocks = msg.size() / 8;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t m = 0;
    for (int j = 7; j >= 0; --j) m = m * 256 + msg[8 * i + j];
    v[3] ^= m;
    round();
    v[0] ^= m;
  }
  uint64_t b = static_cast<uint64_t>(msg.size() % 256) << 56;
  for (size_t j = 8 * blocks; j < msg.size(); ++j) {
    b |= static_cast<uint64_t>(msg[j]) << (8 * (j - 8 * blocks));
  }
  v[3] ^= b;
  round();
  v[0] ^= b;
  v[2] ^= 0xff;
  for (int i = 0; i < 3; ++i) round();
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}

// H(w1, w2, ...) over 8-byte little-endian words.
inline uint64_t ModelSipWords(const std::vector<uint64_t>& words) {
  std::vector<unsigned char> msg;
  for (uint64_t w : words) {
    for (int i = 0; i < 8; ++i)
      msg.push_back(static_cast<unsigned char>(w >> (8 * i)));
  }
  return ModelSipHash13(msg);
}

// prev(K, i, m), m >= 1.
inline uint64_t ModelChooseKPrev(uint64_t key, uint64_t i, uint64_t m) {
  uint64_t p = 1;
  while (p < m) p *= 2;
  const uint64_t bits = ModelSipWords({key, i}) % p;
  for (int j = 63; j >= 0; --j) {
    const uint64_t b = uint64_t{1} << j;
    if ((bits / b) % 2 == 0) continue;
    std::vector<uint64_t> words = {key, i, b, 54387634019ULL};
    uint64_t v = b + ModelSipWords(words) % b;
    if (v < m) return v;
    while (true) {
      words.push_back(54387634019ULL);
      v = ModelSipWords(words) % (2 * b);
      if (v < b) break;
      if (v < m) return v;
    }
  }
  return 0;
}

inline uint64_t ModelChooseKSample(uint64_t key, uint64_t i, uint64_t m) {
  return i + ModelChooseKPrev(key, i, m - i);
}

// S(k, n) by the recursion, ascending.
inline std::set<uint64_t> ModelChooseKSet(uint64_t key, uint64_t n,
                                          uint64_t k) {
  std::set<uint64_t> s;
  while (k > 0) {
    uint64_t max = 0;
    for (uint64_t i = 0; i < k; ++i) {
      max = std::max(max, ModelChooseKSample(key, i, n));
    }
    s.insert(max);
    n = max;
    --k;
  }
  return s;
}

// rho_0 .. rho_(k-1) over n slots: successive set differences.
inline std::vector<uint64_t> ModelChooseKRanking(uint64_t key, uint64_t n,
                                                 uint64_t k) {
  std::vector<uint64_t> out;
  std::set<uint64_t> prev;
  for (uint64_t j = 1; j <= k && j <= n; ++j) {
    const std::set<uint64_t> next = ModelChooseKSet(key, n, j);
    for (uint64_t x : next) {
      if (prev.count(x) == 0) out.push_back(x);
    }
    prev = next;
  }
  return out;
}

class ChooseKModel final : public ReferenceModel {
 public:
  void Rebuild(std::span<const LiveNode> live) override {
    slots_ = live.size();
    deleted_.clear();
    owner_.clear();
    for (size_t i = 0; i < live.size(); ++i) owner_[i] = live[i].id;
  }

  void Added(NodeId id, const NodeSpec&) override {
    uint64_t slot = slots_;
    if (!deleted_.empty()) {
      slot = *deleted_.begin();
      deleted_.erase(deleted_.begin());
    } else {
      ++slots_;
    }
    owner_[slot] = id;
  }

  void Removed(NodeId id) override {
    uint64_t slot = 0;
    for (const auto& [s, who] : owner_) {
      if (who == id) slot = s;
    }
    owner_.erase(slot);
    if (slot + 1 == slots_) {
      --slots_;
    } else {
      deleted_.insert(slot);
    }
  }

  // The first ranking slot over T that is not deleted.
  NodeId Lookup(uint64_t key_hash) const override {
    std::set<uint64_t> before;
    for (uint64_t j = 1; j <= slots_; ++j) {
      const std::set<uint64_t> set = ModelChooseKSet(key_hash, slots_, j);
      for (uint64_t x : set) {
        if (before.count(x) == 0 && deleted_.count(x) == 0) {
          return owner_.at(x);
        }
      }
      before = set;
    }
    return kInvalidNode;
  }

 private:
  uint64_t slots_ = 0;
  std::set<uint64_t> deleted_;
  std::map<uint64_t, NodeId> owner_;  // live slot -> id
};

// multiprobe (Appleton & O'Reilly, arXiv:1505.00062; the definition in
// multiprobe/multiprobe.h and dgryski/go-mpchash), brute force: node X's
// point is H(X, seed 0); the digest's 8 little-endian bytes hashed with seeds
// 1 and 2 give h1, h2; probe i = h1 + i h2 on the circle [0, 2^B). For each
// probe every live node is scanned: its clockwise gap from the probe to the
// point, (point - probe - 1) mod 2^B, is smallest for the successor (the
// first point strictly greater, wrapping; a point equal to the probe comes
// last). Equal points: the later node in ascending id order wins ('<=').
// The distance is successor - probe mod 2^B; the probe with the smallest
// distance wins, the first on ties ('<' from 2^64 - 1, as go-mpchash).
template <typename H>
class MultiProbeModel final : public ReferenceModel {
 public:
  explicit MultiProbeModel(uint32_t probes) : probes_(probes) {}

  void Rebuild(std::span<const LiveNode> live) override {
    nodes_.clear();
    for (const LiveNode& n : live) {
      nodes_.push_back({HashString<H>(n.spec.name, 0), n.id});
    }
  }

  NodeId Lookup(uint64_t key_hash) const override {
    const uint64_t mask =
        H::kBits == 64 ? ~uint64_t{0} : (uint64_t{1} << H::kBits) - 1;
    unsigned char bytes[8];
    for (int i = 0; i < 8; ++i) {
      bytes[i] = static_cast<unsigned char>(key_hash >> (8 * i));
    }
    const uint64_t h1 = H::Hash(bytes, 8, 1);
    const uint64_t h2 = H::Hash(bytes, 8, 2);
    uint64_t best_distance = ~uint64_t{0};
    NodeId best = kInvalidNode;
    for (uint32_t i = 0; i < probes_; ++i) {
      const uint64_t probe = (h1 + uint64_t{i} * h2) & mask;
      uint64_t best_gap = 0;
      const Point* successor = nullptr;
      for (const Point& p : nodes_) {  // ascending id: '<=' keeps the later
        const uint64_t gap = (p.point - probe - 1) & mask;
        if (successor == nullptr || gap <= best_gap) {
          best_gap = gap;
          successor = &p;
        }
      }
      const uint64_t distance = (successor->point - probe) & mask;
      if (distance < best_distance) {
        best_distance = distance;
        best = successor->id;
      }
    }
    if (best == kInvalidNode) {  // every distance 2^64 - 1 (never in tests)
      const Point* smallest = &nodes_.front();
      for (const Point& p : nodes_) {
        if (p.point <= smallest->point) smallest = &p;
      }
      best = smallest->id;
    }
    return best;
  }

 private:
  struct Point {
    uint64_t point;
    NodeId id;
  };
  uint32_t probes_;
  std::vector<Point> nodes_;
};

// crush (the flat map every conformance node set gives: no zones),
// transcribed from the project's CRUSH design notes (§2.2, §3.1, §4, §7):
// the live OSDs in id order (osd.i = node id i, so the model replays the
// calls: ids are never reused), owner = the first OSD of the largest straw2
// draw at rank 0, draw = (crush_ln(u) - 2^48) / w in signed 64-bit
// (truncating), u = rjenkins1 hash32_3(x, id, 0) & 0xFFFF, x the low 32
// bits of the key hash, w = (uint32_t)((float)weight * 65536). With every
// OSD in and result_max 1 the rule's first attempt never collides, so that
// is crush_do_rule's first OSD. It shares crush_hash.h's two tables (data,
// pinned by their SHA-256 in crush_test.cc), not its code.
class CrushModel final : public ReferenceModel {
 public:
  void Rebuild(std::span<const LiveNode> live) override {
    osds_.clear();
    zoned_ = false;
    for (const LiveNode& n : live) Added(n.id, n.spec);
  }
  void Added(NodeId id, const NodeSpec& spec) override {
    osds_.push_back({id, static_cast<uint32_t>(static_cast<float>(spec.weight) *
                                               65536.0f)});
    zoned_ = zoned_ || !spec.zone.empty();
  }
  // The flat map only: once a node with a zone came, the algorithm's map is
  // root -> zones -> OSDs (for good, as Crush's), which this model does not
  // describe.
  bool Covers() const override { return !zoned_; }
  void Removed(NodeId id) override {
    for (size_t i = 0; i < osds_.size(); ++i) {
      if (osds_[i].first == id) {
        osds_.erase(osds_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
    }
  }

  NodeId Lookup(uint64_t key_hash) const override {
    const uint32_t x = static_cast<uint32_t>(key_hash);
    NodeId owner = kInvalidNode;
    int64_t best = 0;
    for (const auto& [id, w] : osds_) {
      const uint32_t u = Hash3(x, id, 0) & 0xFFFF;
      const int64_t draw = (static_cast<int64_t>(Ln(u)) - (int64_t{1} << 48)) /
                           static_cast<int64_t>(w);
      if (owner == kInvalidNode || draw > best) {
        owner = id;
        best = draw;
      }
    }
    return owner;
  }

 private:
  // Jenkins' mix on (v[i], v[j], v[k]) as (a, b, c): line n updates role
  // n % 3 from the next two roles, xoring a left shift on the b lines and
  // right shifts on the others.
  static void Mix(uint32_t* v, int i, int j, int k) {
    static constexpr int kShift[9] = {13, 8, 13, 12, 16, 5, 3, 10, 15};
    const int role[3] = {i, j, k};
    for (int line = 0; line < 9; ++line) {
      const int dst = role[line % 3];
      const int s1 = role[(line + 1) % 3];
      const int s2 = role[(line + 2) % 3];
      v[dst] -= v[s1];
      v[dst] -= v[s2];
      v[dst] ^= line % 3 == 1 ? v[s2] << kShift[line] : v[s2] >> kShift[line];
    }
  }
  static uint32_t Hash3(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t v[6] = {a, b, c, 231232, 1232, 1315423911u ^ a ^ b ^ c};
    Mix(v, 0, 1, 5);  // (a, b, h)
    Mix(v, 2, 3, 5);  // (c, x, h)
    Mix(v, 4, 0, 5);  // (y, a, h)
    Mix(v, 1, 3, 5);  // (b, x, h)
    Mix(v, 4, 2, 5);  // (y, c, h)
    return v[5];
  }
  static uint64_t Ln(uint32_t u) {
    uint64_t x = u + 1;
    uint64_t e = 15;
    while ((x & 0x18000) == 0) {
      x <<= 1;
      --e;
    }
    const uint64_t i = (x >> 8) << 1;
    const uint64_t y = (x * crush::kRhLh[i - 256]) >> 48;
    return (e << 44) + ((crush::kRhLh[i - 255] + crush::kLl[y & 0xFF]) >> 4);
  }

  std::vector<std::pair<NodeId, uint32_t>> osds_;  // (id, 16.16 weight)
  bool zoned_ = false;
};

// The reference model of registry algorithm `algorithm` with `params` (the
// hash, vnodes, load factor, capacity and probes it reads): an independent
// model of the definition where one exists, else nullptr (maglev). Shared by
// the conformance suite and the operation-sequence fuzzer
// (fuzz/ops_fuzzer.cc).
inline std::unique_ptr<ReferenceModel> MakeReferenceModel(
    std::string_view algorithm, const AlgorithmParams& params) {
  if (algorithm == "modulo") return std::make_unique<ModuloModel>();
  if (algorithm == "jump") return std::make_unique<JumpModel>();
  if (algorithm == "anchor") {
    return std::make_unique<AnchorModel>(params.capacity);
  }
  if (algorithm == "memento") return std::make_unique<MementoModel>();
  if (algorithm == "crush") return std::make_unique<CrushModel>();
  if (algorithm == "dx") return std::make_unique<DxModel>(params.capacity);
  if (algorithm == "jumpbackanchor") {
    return std::make_unique<JumpBackAnchorModel>();
  }
  if (algorithm == "choosek") return std::make_unique<ChooseKModel>();
  if (algorithm == "jumpback") {
    return std::make_unique<RangeHashModel>(&RangeHashModel::JumpBack);
  }
  if (algorithm == "flip") {
    return std::make_unique<RangeHashModel>(&RangeHashModel::Flip);
  }
  if (algorithm == "power") {
    return std::make_unique<RangeHashModel>(&RangeHashModel::Power);
  }
  if (algorithm == "binomial") {
    return std::make_unique<RangeHashModel>(&RangeHashModel::Binomial);
  }
  std::unique_ptr<ReferenceModel> model;
  DispatchHash(params.hash, [&]<typename H>() {
    if (algorithm == "ring") {
      model = std::make_unique<RingModel<H>>(params.vnodes, &RingVnodes);
    } else if (algorithm == "rendezvous") {
      model = std::make_unique<RendezvousModel<H>>();
    } else if (algorithm == "bounded_load") {
      model = std::make_unique<BoundedLoadModel<H>>(params.vnodes,
                                                    params.load_factor);
    } else if (algorithm == "multiprobe") {
      model = std::make_unique<MultiProbeModel<H>>(params.probes);
    }
  });
  return model;
}

}  // namespace testing
}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_TESTING_REFERENCE_MODELS_H_
