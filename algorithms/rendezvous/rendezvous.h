// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: rendezvous/rendezvous.h
// -----------------------------------------------------------------------------
//
// `Rendezvous<H>`: rendezvous or highest-random-weight hashing (David Thaler
// and Chinya Ravishankar, "Using Name-Based Mappings to Increase Hit Rates",
// IEEE/ACM Transactions on Networking 6(1), 1998).
//
// Definition. Each node caches nh = HashString<H>(name, 0). A key's score on
// a node is s = HashPair<H>(key_hash, nh).
//   * All live weights equal (the common case): owner = argmax s, compared as
//     integers (no floating point).
//   * Otherwise, the logarithmic method (Schindelhauer and Schomaker,
//     "Weighted Distributed Hash Tables", SPAA 2005; the form of Ceph's
//     straw2): owner = argmax -w / ln(u), u = ToUnitInterval<H>(s) in (0, 1).
//     Node i then wins with probability exactly w_i / sum(w) for independent
//     uniform u: -ln(u)/w is exponential with rate w.
//   * Ties (equal scores) go to the smaller node id.
//   * LookupReplicas(key, r) returns the r best nodes by the same score (with
//     `distinct_zones`, best-first skipping nodes whose zone is taken; zones
//     compare as strings, "" is one zone). That list is each zone's best
//     node in score order, then (past the zones) the other nodes in score
//     order, so one pass keeping the r best scores and each zone's best
//     builds it (nodes carry a small zone number once their zones differ).
// With equal weights the two rules order nodes identically except where two
// 64-bit scores agree in the top 52 bits that ToUnitInterval keeps (or lie
// within a few units there, through the rounding of the logarithm), so
// switching between them (adding a node of another weight) moves a fraction
// of keys of order N * 2^-52. (32-bit hashes keep all 32 bits.)
//
// Guarantees: arbitrary removal; minimal disruption (a key moves only if its
// owner left or the new node beats it); weights; replicas; near-perfect
// balance with no per-node state beyond three numbers (four with weights).
//
// Lookup structure. Per node the class keeps PairScorer<H>::PrepareNode(nh)
// instead of nh: for xxh64 (the default) that is the node's lane already
// through its XXH64 round, so a score costs one xor, one rotate and three
// multiplications, all in registers; other hashes score through HashPair.
// Unweighted: one pass keeping the best score and its index, without
// branches for the first 32 nodes and with a (predicted) branch after them;
// where 64-bit multiplications vectorize (AVX2 and later), blocks of 32
// scores first, then the block's maximum, then the first index holding it.
// With xxh64 on a CPU with AVX-512F and AVX-512DQ, both loops run eight
// nodes per vector (rendezvous_simd.h): the unweighted one keeps a per-lane
// maximum and reduces it once at the end. The CPU is asked at run time, so
// the portable build uses them too (kernel() says which loops a lookup
// runs; meta.json records it).
// Weighted: nodes are compared by bounds on -w / ln(u) from its series in
// d = 1 - u (ScoreBounds), and logarithms are computed only where two nodes'
// bounds overlap. The first 16 nodes are decided together, without a branch
// per node (HeadBest: a new best is frequent there); after them, one integer
// compare per node against a floor derived from the best score so far and
// the largest weight, and the few nodes above it go through the bounds.
// Measured for weights 1 to 4 at N = 10 to 10^4: 0.01 logarithms per lookup
// (2.0 to 2.7 with the looser d <= -ln(u) <= d / u used before) and 0, 3.0,
// 6.7 and 10.4 nodes above the floor at N = 10, 100, 10^3 and 10^4.
// With the AVX-512 loops and weights in [2^-400, 2^400], one vector pass
// usually decides, and the loop above runs only where it cannot:
//   * N < 128, the ratio pass: the two nodes of smallest d / w (a division
//     per node); the first is the owner when the second's upper bound stays
//     below its lower bound.
//   * 128 <= N < 32768, the candidate pass: with W the weights' sum, node i
//     is a candidate when its raw score reaches a threshold kept per node,
//     i.e. when d / w_i may be below R = 4 / W (about 4 candidates per
//     lookup, one integer compare per node and no data-dependent branch);
//     every other node's upper bound is at most 1 / R, so the candidate of
//     smallest d / w is the owner when that bound and the next candidate's
//     stay below its lower bound (98 % of lookups; none is a candidate in
//     e^-4 = 1.8 %).
// Measured for weights 1 to 4 (AVX-512, Zen 5): 86 to 88 instead of 250 ns
// at N = 100, 247 instead of 580 at 10^3 (0.25 ns per node; 0.21 unweighted),
// 0.18 per node at 10^4. The result is bit-identical to evaluating every
// score.
//
// Complexity (N live nodes):
//   Lookup      O(N) hash evaluations (weighted: plus O(log N) bound
//               checks expected for similar weights, N at worst).
//   AddNode     O(1) amortized.  RemoveNode  O(N).  Build  O(N).
//   Memory      20 bytes per live node (hash, weight, id), 28 with
//               unequal weights and xxh64 (also the candidate threshold),
//               plus 4 and a map of the zone names once the nodes' zones
//               differ, plus the NodeTable.
//
// Example:
//   Rendezvous<Xxh64> hrw;
//   hrw.Build(nodes).IgnoreError();
//   NodeId owner = hrw.Lookup(hrw.HashKey("user:42"));

#ifndef CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_H_
#define CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"
#include "algorithms/node_table_algorithm.h"
#include "algorithms/rendezvous/rendezvous_simd.h"

namespace chbench {

inline constexpr Capabilities kRendezvousCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
    .weights = true,
    .replicas = true,
    .stateful = false,
};

// The loops a rendezvous lookup runs (see Rendezvous::kernel()).
enum class RendezvousKernel {
  kScalar,  // one node at a time (vectorized by the compiler where it can)
  kAvx512,  // xxh64 only: eight nodes per AVX-512 vector
};

inline std::string_view RendezvousKernelName(RendezvousKernel k) {
  return k == RendezvousKernel::kAvx512 ? "avx512" : "scalar";
}

namespace rendezvous_internal {

// The score HashPair<H>(key_hash, node_hash), split into a per-node part
// computed once (PrepareNode), a per-key part computed once per lookup
// (PrepareKey) and the per-pair rest (Score):
//   Score(PrepareKey(k), PrepareNode(n)) == HashPair<H>(k, n)  for all k, n.
// The generic form prepares nothing.
template <typename H>
struct PairScorer {
  static uint64_t PrepareNode(uint64_t node_hash) { return node_hash; }
  static uint64_t PrepareKey(uint64_t key_hash) { return key_hash; }
  static uint64_t Score(uint64_t key, uint64_t node) {
    return HashPair<H>(key, node);
  }
};

// XXH64 (seed 0) of the 16 bytes (k, n), written out in registers from the
// xxHash specification (xxhash.h 0.8, XXH64 with len < 32: h = seed +
// PRIME64_5 + len, then one XXH64_round per 8-byte lane, each followed by
// h = rotl(h, 27) * PRIME64_1 + PRIME64_4, then the avalanche). The key's
// lane is folded in once per lookup and the node's lane round
// (rotl(n * PRIME64_2, 31) * PRIME64_1) once per node, leaving per pair one
// xor, one rotate and three multiplications. rendezvous_test.cc checks it
// against HashPair<Xxh64>.
template <>
struct PairScorer<Xxh64> {
  static constexpr uint64_t kP1 = 0x9E3779B185EBCA87ULL;
  static constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4FULL;
  static constexpr uint64_t kP3 = 0x165667B19E3779F9ULL;
  static constexpr uint64_t kP4 = 0x85EBCA77C2B2AE63ULL;
  static constexpr uint64_t kP5 = 0x27D4EB2F165667C5ULL;

  static constexpr uint64_t Round(uint64_t lane) {
    return std::rotl(lane * kP2, 31) * kP1;
  }
  static constexpr uint64_t PrepareNode(uint64_t node_hash) {
    return Round(node_hash);
  }
  static constexpr uint64_t PrepareKey(uint64_t key_hash) {
    const uint64_t h = (kP5 + 16) ^ Round(key_hash);
    return std::rotl(h, 27) * kP1 + kP4;
  }
  ABSL_ATTRIBUTE_ALWAYS_INLINE static constexpr uint64_t Score(uint64_t key,
                                                               uint64_t node) {
    uint64_t h = std::rotl(key ^ node, 27) * kP1 + kP4;
    h ^= h >> 33;
    h *= kP2;
    h ^= h >> 29;
    h *= kP3;
    h ^= h >> 32;
    return h;
  }
};

}  // namespace rendezvous_internal

template <typename H>
class Rendezvous final : public NodeTableAlgorithm<H> {
 public:
  using ShareSource = ConsistentHash::ShareSource;

  Rendezvous() : NodeTableAlgorithm<H>("rendezvous", /*weights_supported=*/true) {}

  // The fastest loops this CPU runs for hash H: kAvx512 for xxh64 on a CPU
  // with AVX-512F and AVX-512DQ, kScalar otherwise. New instances use it.
  static RendezvousKernel BestKernel() {
    if constexpr (kHasAvx512Kernels) {
      if (rendezvous_internal::Avx512KernelsAvailable()) {
        return RendezvousKernel::kAvx512;
      }
    }
    return RendezvousKernel::kScalar;
  }

  RendezvousKernel kernel() const {
    return avx512_ ? RendezvousKernel::kAvx512 : RendezvousKernel::kScalar;
  }

  // Selects the loops Lookup runs (owners do not depend on it): kScalar
  // always; kAvx512 only where BestKernel() is kAvx512, else an error.
  // For tests and for timing the scalar loops on an AVX-512 CPU.
  absl::Status SetKernel(RendezvousKernel k) {
    if (k == RendezvousKernel::kAvx512 &&
        BestKernel() != RendezvousKernel::kAvx512) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rendezvous: kernel avx512 needs hash xxh64 and a CPU with "
          "AVX-512F and AVX-512DQ; valid here: scalar"));
    }
    avx512_ = k == RendezvousKernel::kAvx512;
    return absl::OkStatus();
  }

  std::string_view name() const override { return "rendezvous"; }
  Capabilities capabilities() const override { return kRendezvousCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    std::vector<uint64_t> prepared;
    std::vector<double> weights;
    std::vector<NodeId> ids;
    prepared.reserve(nodes.size());
    weights.reserve(nodes.size());
    ids.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) {
      const NodeSpec& spec = nodes[id];
      ids.push_back(id);
      prepared.push_back(Scorer::PrepareNode(HashString<H>(spec.name, 0)));
      weights.push_back(spec.weight);
    }
    prepared_ = std::move(prepared);
    weights_ = std::move(weights);
    ids_ = std::move(ids);
    UpdateUniform();
    SetZones();
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    absl::StatusOr<NodeId> id = table_.Add(node);
    if (!id.ok()) return id.status();
    prepared_.push_back(Scorer::PrepareNode(HashString<H>(node.name, 0)));
    weights_.push_back(node.weight);
    ids_.push_back(*id);  // ids grow, so ids_ stays ascending
    if (zones_ != nullptr) {
      zones_->zone_of.push_back(zones_->Number(node.zone));
    } else if (node.zone != table_.spec(ids_[0]).zone) {
      SetZones();
    }
    uniform_ = weights_.size() == 1 || (uniform_ && node.weight == weights_[0]);
    max_weight_ = std::max(max_weight_, node.weight);
    ratio_ok_ = ratio_ok_ && RatioWeight(node.weight);
    if constexpr (kHasAvx512Kernels) {
      weight_sum_ += node.weight;
      if (uniform_ || !ratio_ok_) {
        thresholds_.clear();
      } else if (thresholds_.size() + 1 == weights_.size() &&
                 weight_sum_ * candidate_r_ <= 2 * kCandidates) {
        thresholds_.push_back(Threshold(node.weight));
      } else {
        // The first weight that differs, or W doubled since the thresholds
        // were set (more candidates, never a wrong owner): O(N), amortized
        // O(1) per AddNode.
        SetThresholds();
      }
    }
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    const size_t i = static_cast<size_t>(
        std::lower_bound(ids_.begin(), ids_.end(), id) - ids_.begin());
    prepared_.erase(prepared_.begin() + i);
    weights_.erase(weights_.begin() + i);
    ids_.erase(ids_.begin() + i);
    if (zones_ != nullptr) {
      zones_->zone_of.erase(zones_->zone_of.begin() + i);
    }
    UpdateUniform();
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  // out[i] = Lookup(key_hashes[i]): the plain loop (LookupEach), inlined
  // through the final type; each lookup scans every node's prepared
  // weight in order, which the hardware prefetcher already streams.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    LookupEach(*this, key_hashes, out);
  }

  NodeId Lookup(uint64_t key_hash) const override {
    const size_t n = prepared_.size();
    const uint64_t* pn = prepared_.data();
    const uint64_t pk = Scorer::PrepareKey(key_hash);
    size_t best_i = 0;
    if (uniform_) {
#if CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS
      if constexpr (kHasAvx512Kernels) {
        if (avx512_ && n >= kAvx512MinNodes) {
          return ids_[rendezvous_internal::ArgMaxXxh64Avx512(pk, pn, n)];
        }
      }
#endif
      uint64_t best = Scorer::Score(pk, pn[0]);
      size_t i = 1;
      if constexpr (kVectorScores) {
        // Blocks: the scores first (a loop without a carried dependency,
        // which the compiler vectorizes), then the block's maximum, then the
        // first index holding it.
        uint64_t block[kBlock];
        for (; n - i >= kBlock; i += kBlock) {
          for (size_t j = 0; j < kBlock; ++j) {
            block[j] = Scorer::Score(pk, pn[i + j]);
          }
          uint64_t top = 0;
          for (size_t j = 0; j < kBlock; ++j) {
            top = block[j] > top ? block[j] : top;
          }
          if (top > best) {
            size_t j = 0;
            while (block[j] != top) ++j;
            best = top;
            best_i = i + j;
          }
        }
      }
      // One node at a time: the first kSelectNodes without branches (a new
      // maximum is frequent there), then with a branch. Past them the i-th
      // node is the best so far with probability 1/i, so the branch is
      // predicted: one fused uop per node instead of a compare and two
      // selects, and no loop-carried dependency through `best`.
      for (const size_t head = std::min(n, kSelectNodes); i < head; ++i) {
        const uint64_t s = Scorer::Score(pk, pn[i]);
        const bool better = s > best;  // strict: ties keep the smaller id
        best = better ? s : best;
        best_i = better ? i : best_i;
      }
      for (; i < n; ++i) {
        const uint64_t s = Scorer::Score(pk, pn[i]);
        if (s > best) [[unlikely]] {  // strict: ties keep the smaller id
          best = s;
          best_i = i;
        }
      }
    } else {
      // The logarithm is avoided with two bounds. With d = 1 - u (exact:
      // d = (c + 0.5) * 2^-b, c the complement of the score's kept bits,
      // b = 52 for 64-bit hashes and 32 for 32-bit ones), the score
      // -w / ln(u) lies in [ScoreBounds' lo, hi] within [w * u / d, w / d].
      // Challenge keeps the best node with such bounds (margins of 2^-40
      // cover the rounding of log and of the division) and computes
      // logarithms only where the bounds of two nodes overlap,
      // so every decision equals the one made on the computed scores (ties
      // keep the smaller id). The loop itself tests the largest weight
      // first, as one integer compare on the raw score (ChallengeFloor): a
      // node below the floor has w / d < best's lower bound for any weight.
      // The rest (a few per lookup) go through Challenge, out of line so
      // that the loop keeps its registers.
      const double* w = weights_.data();
#if CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS
      if constexpr (kHasAvx512Kernels) {
        if (avx512_ && ratio_ok_ && n >= kRatioMinNodes &&
            n < kCandidateMinNodes) {
          // The ratio pass, for few nodes: one vector pass for the node A of
          // the smallest ratio (c + 0.5) / w (the largest upper bound of
          // the score, 2^b / ratio) and the second smallest ratio r2, a
          // lower bound on every other node's; OwnsByRatio decides from
          // them. Else (mostly at N near 10, where the top two are near)
          // the loop below decides.
          uint64_t runner;
          const size_t a = rendezvous_internal::ArgMax2RatioXxh64Avx512(
              pk, pn, w, n, &runner);
          if (OwnsByRatio(Scorer::Score(pk, pn[a]), w[a],
                          std::bit_cast<double>(~runner))) [[likely]] {
            return ids_[a];
          }
        }
        if (avx512_ && n >= kCandidateMinNodes && n < kCandidateMaxNodes &&
            !thresholds_.empty()) {
          // The candidate pass: node i is a candidate where its score
          // reaches thresholds_[i], i.e. where its ratio d / w may be below
          // R = kCandidates / W (about kCandidates nodes per lookup; every
          // other node's ratio is at least R, so its computed score is at
          // most 1 / R times 1 + 2^-38). Among the candidates, A has the
          // smallest ratio (c + 0.5) / w and r2 is the next (with
          // multiplicity); every node but A has a computed score of at most
          // 2^b / min(r2, R 2^b) times 1 + 2^-38 (the division's rounding
          // and ScoreBounds' margin), so A is the owner where that lies
          // below A's lower bound. Else (no candidate, or the top two near)
          // the loop below decides.
          double r1 = std::numeric_limits<double>::infinity();
          double r2 = r1;
          size_t a = 0;
          rendezvous_internal::ScanCandidatesXxh64Avx512(
              pk, pn, thresholds_.data(), n, [&](size_t i) {
                const double r = Ratio(Scorer::Score(pk, pn[i]), w[i]);
                // Without branches (a new smallest is a coin flip); strict:
                // ties keep the smaller index.
                const bool smaller = r < r1;
                r2 = smaller ? r1 : std::min(r2, r);
                a = smaller ? i : a;
                r1 = smaller ? r : r1;
              });
          if (r1 < std::numeric_limits<double>::infinity() &&
              OwnsByRatio(Scorer::Score(pk, pn[a]), w[a],
                          std::min(r2, candidate_ratio_))) [[likely]] {
            return ids_[a];
          }
        }
      }
#endif
      const double max_w = max_weight_;
      WeightedBest best;
      const size_t head = std::min(n, kWeightedHead);
      HeadBest(pk, pn, w, head, &best);
      uint64_t floor = ChallengeFloor(best.lo, max_w);
#if CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS
      if constexpr (kHasAvx512Kernels) {
        if (avx512_) {
          rendezvous_internal::ScanAtOrAboveXxh64Avx512(
              pk, pn, head, n, &floor, [&](size_t i, uint64_t score) {
                if (Challenge(score, w[i], i, &best)) {
                  floor = ChallengeFloor(best.lo, max_w);
                }
              });
          return ids_[best.i];
        }
      }
#endif
      for (size_t i = head; i < n; ++i) {
        const uint64_t score = Scorer::Score(pk, pn[i]);
        if (score >= floor) [[unlikely]] {
          if (Challenge(score, w[i], i, &best)) {
            floor = ChallengeFloor(best.lo, max_w);
          }
        }
      }
      best_i = best.i;
    }
    return ids_[best_i];
  }

  absl::Status LookupReplicas(uint64_t key_hash, size_t r, bool distinct_zones,
                              std::vector<NodeId>* out) const override {
    out->clear();
    const size_t n = ids_.size();
    if (r == 0 || r > n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rendezvous: replica count r = ", r, " is out of range; valid: 1..",
          n, " (the number of live nodes)"));
    }
    const uint64_t pk = Scorer::PrepareKey(key_hash);
    // Every live node in one zone: the zone rule keeps the score order.
    if (zones_ == nullptr) distinct_zones = false;
#if CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS
    if constexpr (kHasAvx512Kernels) {
      if (uniform_ && avx512_ && !distinct_zones && r <= kInlineTop &&
          n <= kScoreBufferNodes) {
        // Lookup's vector scores into a buffer, then r passes of a vector
        // arg-max: no data-dependent branch but the pass's exit. A taken
        // node's score becomes 0 (below any other but a score of 0 itself,
        // probability 2^-64 per node, which the slow pass below handles:
        // then every node left scores 0 and the first untaken one is next).
        uint64_t scores[kScoreBufferNodes];
        rendezvous_internal::ScoresXxh64Avx512(pk, prepared_.data(), n,
                                               scores);
        for (size_t k = 0; k < r; ++k) {
          size_t i = rendezvous_internal::FirstArgMaxAvx512(scores, n);
          if (scores[i] == 0) [[unlikely]] {
            for (i = 0; std::find(out->begin(), out->end(), ids_[i]) !=
                        out->end();
                 ++i) {
            }
          }
          out->push_back(ids_[i]);
          scores[i] = 0;
        }
        return absl::OkStatus();
      }
      if (uniform_ && avx512_ && !distinct_zones && r <= kInlineTop &&
          n >= kAvx512MinNodes) {
        // More nodes than the buffer holds: the scan visits only the nodes
        // at or above the r-th best score so far (floor), in index order.
        Top<uint64_t> top;
        size_t m = 0;
        uint64_t floor = 0;
        rendezvous_internal::ScanAtOrAboveXxh64Avx512(
            pk, prepared_.data(), 0, n, &floor,
            [&](size_t i, uint64_t score) {
              OfferTop(&top, r, &m, score, static_cast<uint32_t>(i));
              if (m == r) floor = top[r - 1].first;
            });
        for (size_t k = 0; k < r; ++k) out->push_back(ids_[top[k].second]);
        return absl::OkStatus();
      }
    }
#endif
    if (uniform_) {
      TopByScore<uint64_t>(
          [&](size_t i) { return Scorer::Score(pk, prepared_[i]); }, r,
          distinct_zones, out);
    } else {
      TopByScore<double>(
          [&](size_t i) {
            return WeightedScore(Scorer::Score(pk, prepared_[i]), weights_[i]);
          },
          r, distinct_zones, out);
    }
    return absl::OkStatus();
  }


  // Heap bytes including the object itself (as allocated by MakeRendezvous).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() +
           prepared_.capacity() * sizeof(uint64_t) +
           weights_.capacity() * sizeof(double) +
           ids_.capacity() * sizeof(NodeId) +
           thresholds_.capacity() * sizeof(uint64_t) +
           (zones_ == nullptr ? 0 : zones_->MemoryBytes());
  }
  size_t size() const override { return ids_.size(); }
  std::vector<NodeId> LiveNodes() const override { return ids_; }

  // True when every live node has the same weight (the integer fast path).
  bool uniform_weights() const { return uniform_; }

  // -w / ln(u), u = ToUnitInterval<H>(score) in (0, 1): positive, increasing
  // in the score and in w.
  static double WeightedScore(uint64_t score, double weight) {
    return -weight / std::log(ToUnitInterval<H>(score));
  }

  // Bounds lo <= WeightedScore(score, w) <= hi from the series
  // -ln(u) = d + d^2/2 + d^3/3 + ..., d = 1 - u: keeping three terms gives
  // a lower bound p, and bounding the rest by d^4/4 * (1 + d + d^2 + ...)
  // = d^4 / (4u) an upper one, so w / (p + d^4 / (4u)) <= -w / ln(u) <=
  // w / p. Their ratio, 1 + d^4 / (4 u p) < 1 + d^3 / (4u), is 1.05 at u = 0.5
  // and 1.0003 at u = 0.9, so two nodes' bounds rarely overlap and logarithms
  // are rarely needed. Widened by 2^-40 (the computed score is within a few
  // ulps of the real one, and the bounds' own rounding is smaller). False,
  // with no bounds, where they would overflow or underflow.
  static bool ScoreBounds(uint64_t score, double w, double* lo, double* hi) {
    const double u = ToUnitInterval<H>(score);
    // Exact: u and 1 - u are multiples of 2^-53 (2^-33 for 32-bit hashes)
    // in (0, 1).
    const double d = 1.0 - u;
    const double d2 = d * d;
    const double p = d + d2 * (0.5 + d * (1.0 / 3.0));
    const double up = w / p;
    if (!(up < 0x1p1000) || !(w * u > 0x1p-900)) return false;
    *hi = up * (1.0 + 0x1p-40);
    // w / (p + d^4 / (4u)) = w u / (u p + d^4 / 4).
    *lo = (w * u / (u * p + 0.25 * (d2 * d2))) * (1.0 - 0x1p-40);
    return true;
  }

  // Whether node A, of raw score `score` and weight w, is the owner when
  // every other node's ratio (c + 0.5) / w, as Ratio or RatioKey computes
  // it, is at least r2: then A's computed score exceeds every other's.
  // A's real score is at least w u / (u p + d^4 / 4) (ScoreBounds' lower
  // bound); every other's at most w' / d' = 2^b / ratio' <= 2^b / r2 times
  // 1 + 2^-52 (the ratio's rounding); each computed score lies within
  // 2^-51 of its real one. The test, w u r2 > 2^b (u p + d^4 / 4)
  // (1 + 2^-36), has multiplications only (no division on the lookup's
  // path) whose few roundings (< 2^-48 in all) the factor 1 + 2^-36 covers
  // with the rest. False where A's ratio is r2's (a tie) or near it.
  // Precondition (the ratio and candidate passes): w and every other
  // weight satisfy RatioWeight and r2 is a ratio or their lower bound
  // candidate_ratio_ (no overflow or underflow: each product lies within
  // [2^-900, 2^900]).
  ABSL_ATTRIBUTE_ALWAYS_INLINE static bool OwnsByRatio(uint64_t score, double w,
                                                       double r2) {
    const double u = ToUnitInterval<H>(score);
    const double d = 1.0 - u;  // exact, as in ScoreBounds
    const double d2 = d * d;
    const double p = d + d2 * (0.5 + d * (1.0 / 3.0));
    return kInvScale * (1.0 + 0x1p-36) * (u * p + 0.25 * (d2 * d2)) <
           w * u * r2;
  }

  // The ratio of a node with the given score and weight w, (c + 0.5) / w =
  // 2^b d / w with d = 1 - u = (c + 0.5) 2^-b (c the complement of the
  // score's kept bits), as a double.  The upper bound of the score, w / d,
  // is 2^b / ratio. Error: c + 0.5 is exact and the one rounded division
  // puts the computed ratio within a factor 1 +- 2^-53 of (c + 0.5) / w.
  ABSL_ATTRIBUTE_ALWAYS_INLINE static double Ratio(uint64_t score, double w) {
    const uint64_t c = H::kBits == 64 ? ~score >> 12 : ~score & 0xFFFFFFFFu;
    return (static_cast<double>(c) + 0.5) / w;
  }
  // Ratio mapped to an integer key that is larger for a smaller ratio (a
  // positive double's bits order as the double; the complement reverses
  // them): the ratio pass's key.
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint64_t RatioKey(uint64_t score,
                                                        double w) {
    return ~std::bit_cast<uint64_t>(Ratio(score, w));
  }

 private:
  // The best node of a weighted lookup so far, with bounds on its computed
  // score WeightedScore(score, w): lo <= it <= hi (equal once exact).
  struct WeightedBest {
    double lo = 0;
    double hi = 0;
    uint64_t score = 0;
    double w = 0;
    size_t i = 0;
    bool exact = false;

    void Set(uint64_t s, double weight, size_t index) {
      score = s;
      w = weight;
      i = index;
      exact = !ScoreBounds(s, weight, &lo, &hi);
      if (exact) lo = hi = WeightedScore(s, weight);
    }
    void MakeExact() {
      if (!exact) lo = hi = WeightedScore(score, w);
      exact = true;
    }
  };

  // The smallest raw score that can still beat a best score of at least
  // `best_lo` when its node has weight max_w: every score below it has
  // w / (1 - u) < best_lo for every live weight w. 0 (every node
  // challenged) where that cannot be computed safely. The threshold is
  // rounded up with a 2^-40 margin.
  static uint64_t ChallengeFloor(double best_lo, double max_w) {
    if (!(best_lo > 0x1p-900) || !(best_lo < 0x1p1000)) return 0;
    // c >= c_min  =>  d > c * 2^-b >= max_w / best_lo.
    constexpr double kScale = H::kBits == 64 ? 0x1p-52 : 0x1p-32;
    constexpr double kCMax = H::kBits == 64 ? 0x1p52 : 0x1p32;
    const double t = max_w / (best_lo * kScale) * (1.0 + 0x1p-40);
    if (!(t < kCMax - 2)) return 0;
    const uint64_t c_min = static_cast<uint64_t>(t) + 1;
    if constexpr (H::kBits == 64) {
      // score < 2^64 - c_min * 2^12  <=>  (~score >> 12) >= c_min.
      return 0 - (c_min << 12);
    } else {
      // score < 2^32 - c_min  =>  (~score & 0xFFFFFFFF) >= c_min (a score
      // of 2^32 or more, which 32-bit policies do not return, would only be
      // challenged).
      return (uint64_t{1} << 32) - c_min;
    }
  }
  // The best of nodes [0, head), head <= kWeightedHead, into *best. A new
  // best is frequent among the first nodes, so instead of a branch per
  // node: every node's bounds, the largest lower bound L, and the nodes whose
  // upper bound reaches L. Usually that is one node, the winner; otherwise
  // those nodes (the only ones that can win) go through Challenge in index
  // order.
  static void HeadBest(uint64_t pk, const uint64_t* pn, const double* w,
                       size_t head, WeightedBest* best) {
    uint64_t scores[kWeightedHead];
    double lo[kWeightedHead];
    double hi[kWeightedHead];
    double max_lo = 0;
    for (size_t i = 0; i < head; ++i) {
      scores[i] = Scorer::Score(pk, pn[i]);
      if (!ScoreBounds(scores[i], w[i], &lo[i], &hi[i])) [[unlikely]] {
        lo[i] = 0;  // no bounds: a candidate, decided exactly
        hi[i] = std::numeric_limits<double>::infinity();
      }
      max_lo = std::max(max_lo, lo[i]);
    }
    size_t reach = 0;
    for (size_t i = 0; i < head; ++i) reach += hi[i] >= max_lo;
    if (reach == 1) [[likely]] {
      size_t j = 0;
      while (lo[j] != max_lo) ++j;
      *best = WeightedBest{.lo = lo[j],
                           .hi = hi[j],
                           .score = scores[j],
                           .w = w[j],
                           .i = j,
                           .exact = false};
      return;
    }
    size_t i = 0;
    while (hi[i] < max_lo) ++i;
    best->Set(scores[i], w[i], i);
    for (++i; i < head; ++i) {
      if (hi[i] >= max_lo) Challenge(scores[i], w[i], i, best);
    }
  }

  // Node i (after every node of *best) against *best: decided by the
  // bounds where they separate, else on both computed scores (strict >:
  // ties keep the smaller index). Returns true when node i became the best.
  ABSL_ATTRIBUTE_NOINLINE static bool Challenge(uint64_t score, double w,
                                                size_t i, WeightedBest* best) {
    double lo;
    double hi;
    if (ScoreBounds(score, w, &lo, &hi)) {
      if (hi < best->lo) return false;
      if (lo > best->hi) {
        *best = WeightedBest{
            .lo = lo, .hi = hi, .score = score, .w = w, .i = i, .exact = false};
        return true;
      }
    }
    best->MakeExact();
    const double s = WeightedScore(score, w);
    if (s > best->lo) {
      *best = WeightedBest{
          .lo = s, .hi = s, .score = score, .w = w, .i = i, .exact = true};
      return true;
    }
    return false;
  }

  // Weights whose ratios and bounds stay far from overflow and underflow
  // (the ratio path's precondition).
  static bool RatioWeight(double w) { return w >= 0x1p-400 && w <= 0x1p400; }

  // The live nodes' zone numbers, parallel to ids_, and the number of every
  // zone name seen since SetZones (numbers are not reused; a zone without
  // live nodes keeps its number).
  struct ZoneNumbers {
    std::vector<uint32_t> zone_of;
    absl::flat_hash_map<std::string, uint32_t> numbers;

    uint32_t Number(const std::string& zone) {
      return numbers.try_emplace(zone, static_cast<uint32_t>(numbers.size()))
          .first->second;
    }
    size_t MemoryBytes() const {
      size_t bytes = sizeof(*this) + zone_of.capacity() * sizeof(uint32_t) +
                     numbers.capacity() *
                         (sizeof(std::pair<const std::string, uint32_t>) + 1);
      for (const auto& [zone, number] : numbers) {
        bytes += zone.capacity() > 15 ? zone.capacity() + 1 : 0;
      }
      return bytes;
    }
  };

  // Numbers the live nodes' zones when they differ; none (null) when every
  // live node has the same zone.
  void SetZones() {
    zones_.reset();
    if (ids_.empty()) return;
    const std::string& first = table_.spec(ids_[0]).zone;
    if (std::all_of(ids_.begin(), ids_.end(),
                    [&](NodeId id) { return table_.spec(id).zone == first; })) {
      return;
    }
    auto zones = std::make_unique<ZoneNumbers>();
    zones->zone_of.reserve(ids_.size());
    for (NodeId id : ids_) {
      zones->zone_of.push_back(zones->Number(table_.spec(id).zone));
    }
    zones_ = std::move(zones);
  }

  void UpdateUniform() {
    uniform_ = std::all_of(weights_.begin(), weights_.end(),
                           [&](double w) { return w == weights_[0]; });
    ratio_ok_ = std::all_of(weights_.begin(), weights_.end(), RatioWeight);
    max_weight_ = weights_.empty()
                      ? 0
                      : *std::max_element(weights_.begin(), weights_.end());
    SetThresholds();
  }

  // The candidate pass's state for the live weights (empty thresholds where
  // the pass does not apply: equal weights, a weight outside RatioWeight, or
  // a hash other than xxh64). With W the sum of the weights and
  // R = kCandidates / W, node i's threshold is the smallest score whose
  // ratio (c + 0.5) / w_i may fall below R 2^b.
  void SetThresholds() {
    thresholds_.clear();
    if constexpr (!kHasAvx512Kernels) return;
    weight_sum_ = 0;
    for (double w : weights_) weight_sum_ += w;
    if (uniform_ || !ratio_ok_) return;
    candidate_r_ = kCandidates / weight_sum_;
    // A lower bound on every non-candidate's (c + 0.5) / w: R 2^b less
    // Threshold's rounding.
    candidate_ratio_ = candidate_r_ * kInvScale * (1.0 - 0x1p-50);
    thresholds_.reserve(weights_.size());
    for (double w : weights_) thresholds_.push_back(Threshold(w));
  }

  // The smallest score that is a candidate for weight w: with
  // t = fl(R w 2^52) >= R w 2^52 (1 - 2^-52) and c_min = floor(t) + 1 > t,
  // a score below 0 - c_min 2^12 has c = ~score >> 12 >= c_min, so
  // (c + 0.5) / w > R 2^52 (1 - 2^-52). 0 (always a candidate) where R w is
  // near 1 or above.
  uint64_t Threshold(double w) const {
    const double t = candidate_r_ * w * kInvScale;
    if (!(t < kInvScale - 2)) return 0;
    return 0 - ((static_cast<uint64_t>(t) + 1) << 12);
  }

  // Replica lists up to this long are selected in one pass on the stack
  // (LookupReplicas, TopByScore); longer ones sort all scores.
  static constexpr size_t kInlineTop = 16;
  // Up to this many nodes, the AVX-512 replica list scores every node into
  // a stack buffer (8 KiB) and selects by passes of a vector arg-max.
  static constexpr size_t kScoreBufferNodes = 1024;
  // The r best (score, index) pairs so far, best first (replica lists up to
  // kInlineTop long).
  template <typename Score>
  using Top = std::array<std::pair<Score, uint32_t>, kInlineTop>;
  // Offers node `i` with score `sc` to the m best of `top` (m < r: it is
  // placed; else it enters only if it beats the r-th, expected r ln(n / r)
  // times, so the branch is predicted). Offers come in ascending index
  // order, so a later node with an equal score never beats an earlier one:
  // the order of `better` (higher score, then smaller index).
  template <typename Score>
  static void OfferTop(Top<Score>* top, size_t r, size_t* m, Score sc,
                       uint32_t i) {
    if (*m == r && !(sc > (*top)[r - 1].first)) return;
    size_t k = *m < r ? (*m)++ : r - 1;
    for (; k > 0 && sc > (*top)[k - 1].first; --k) (*top)[k] = (*top)[k - 1];
    (*top)[k] = {sc, i};
  }

  // visit(i, score_of(i)) for i = 0 .. n - 1, in order: the scores a block
  // at a time first (a loop without branches or carried dependencies, as
  // Lookup's), then the visits.
  template <typename Score, typename ScoreFn, typename Visit>
  static void ForEachScore(const ScoreFn& score_of, size_t n,
                           const Visit& visit) {
    Score block[kBlock];
    for (size_t base = 0; base < n; base += kBlock) {
      const size_t len = std::min(kBlock, n - base);
      for (size_t j = 0; j < len; ++j) block[j] = score_of(base + j);
      for (size_t j = 0; j < len; ++j) {
        visit(static_cast<uint32_t>(base + j), block[j]);
      }
    }
  }

  // Best-first order: higher score, then smaller id (= smaller index).
  template <typename Score, typename ScoreFn>
  void TopByScore(ScoreFn score_of, size_t r, bool distinct_zones,
                  std::vector<NodeId>* out) const {
    const size_t n = ids_.size();
    const auto better = [](const std::pair<Score, uint32_t>& a,
                           const std::pair<Score, uint32_t>& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    if (!distinct_zones && r <= kInlineTop) {
      // The r best so far, best first, on the stack: each score is offered
      // to the list (OfferTop). No allocation.
      Top<Score> top;
      size_t m = 0;
      ForEachScore<Score>(score_of, n, [&](uint32_t i, Score sc) {
        OfferTop(&top, r, &m, sc, i);
      });
      for (size_t k = 0; k < r; ++k) out->push_back(ids_[top[k].second]);
      return;
    }
    if (r <= kInlineTop) {
      // Distinct zones (zones_ set): the list is each zone's best node in
      // score order, then, when the zones run out, the other nodes in score
      // order. The k-th best of those others has at most Z + k - 1 better
      // nodes (Z zone bests), so it is among the r best overall: one pass
      // keeps the r best (OfferTop) and each zone's best, no sort of all N.
      constexpr uint32_t kNone = ~uint32_t{0};
      const uint32_t* zone_of = zones_->zone_of.data();
      absl::InlinedVector<std::pair<Score, uint32_t>, 64> zone_best(
          zones_->numbers.size(), {Score{}, kNone});
      Top<Score> top;
      size_t m = 0;
      ForEachScore<Score>(score_of, n, [&](uint32_t i, Score sc) {
        OfferTop(&top, r, &m, sc, i);
        std::pair<Score, uint32_t>& b = zone_best[zone_of[i]];
        if (b.second == kNone || sc > b.first) b = {sc, i};
      });
      absl::InlinedVector<std::pair<Score, uint32_t>, kInlineTop> bests;
      for (const auto& b : zone_best) {
        if (b.second != kNone) bests.push_back(b);
      }
      std::sort(bests.begin(), bests.end(), better);
      for (size_t k = 0; k < bests.size() && out->size() < r; ++k) {
        out->push_back(ids_[bests[k].second]);
      }
      for (size_t k = 0; k < r && out->size() < r; ++k) {
        const uint32_t i = top[k].second;
        if (zone_best[zone_of[i]].second != i) out->push_back(ids_[i]);
      }
      return;
    }
    std::vector<std::pair<Score, uint32_t>> scored(n);
    for (size_t i = 0; i < n; ++i) {
      scored[i] = {score_of(i), static_cast<uint32_t>(i)};
    }
    if (!distinct_zones) {
      std::partial_sort(scored.begin(), scored.begin() + r, scored.end(),
                        better);
      for (size_t k = 0; k < r; ++k) out->push_back(ids_[scored[k].second]);
      return;
    }
    // Distinct zones first, in score order; when the zones run out, the
    // nodes passed over, in score order (the ring's rule, by score).
    std::sort(scored.begin(), scored.end(), better);
    std::vector<NodeId> skipped;
    for (const auto& [score, i] : scored) {
      if (out->size() == r) break;
      const std::string& zone = table_.spec(ids_[i]).zone;
      const bool taken = std::any_of(
          out->begin(), out->end(),
          [&](NodeId chosen) { return table_.spec(chosen).zone == zone; });
      if (taken) {
        skipped.push_back(ids_[i]);
      } else {
        out->push_back(ids_[i]);
      }
    }
    for (size_t k = 0; k < skipped.size() && out->size() < r; ++k) {
      out->push_back(skipped[k]);
    }
  }

  using Scorer = rendezvous_internal::PairScorer<H>;
  static constexpr bool kHasAvx512Kernels =
      std::is_same_v<H, Xxh64> && CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS;
  // Scores per block in the unweighted loop. Blocks pay only where 64-bit
  // multiplications vectorize (AVX2 and later); elsewhere the single loop is
  // faster.
#if defined(__AVX2__)
  static constexpr bool kVectorScores = true;
#else
  static constexpr bool kVectorScores = false;
#endif
  static constexpr size_t kBlock = 32;
  // Nodes selected without branches before the branchy loop (see Lookup).
  static constexpr size_t kSelectNodes = 32;
  // Nodes decided together (HeadBest) before the weighted loop's floor.
  static constexpr size_t kWeightedHead = 16;
  // Node counts where the AVX-512 loops pay: below kAvx512MinNodes the
  // scalar unweighted loop is faster (the vector loop's fixed cost: 22.7
  // against 19.1 ns at N = 10, 22.6 against 28.0 at 16). Weighted lookups
  // take the ratio pass from kRatioMinNodes (ratio pass against the floor
  // loop: 57 against 63 ns at N = 10, 57 against 56 at 8) to
  // kCandidateMinNodes, the candidate pass from there (ratio pass against
  // candidate pass: 93 against 98 ns at N = 100, 128 against 115 at 200) to
  // kCandidateMaxNodes, and the floor loop above (0.19 ns per node for both
  // at N = 3 * 10^4; floor loop against candidate pass: 0.18 against 0.22 at
  // 10^5, where the thresholds no longer fit the L2 cache beside the node
  // hashes). Measured on Zen 5, weights 1 to 4, in one process with the
  // variants interleaved.
  static constexpr size_t kAvx512MinNodes = 12;
  static constexpr size_t kRatioMinNodes = 10;
  static constexpr size_t kCandidateMinNodes = 128;
  static constexpr size_t kCandidateMaxNodes = 32768;
  // Candidates per lookup expected in the candidate pass (R = kCandidates /
  // W): with fewer, more lookups find none and take the loop (e^-4 = 1.8 %
  // here); with more, each costs a score and a division. 3, 4, 6 and 8
  // measured 267, 254, 271 and 286 ns at N = 10^3.
  static constexpr double kCandidates = 4;
  // 2^b: d = (c + 0.5) / 2^b (see RatioKey).
  static constexpr double kInvScale = H::kBits == 64 ? 0x1p52 : 0x1p32;

  using NodeTableAlgorithm<H>::table_;
  bool avx512_ = BestKernel() == RendezvousKernel::kAvx512;
  bool uniform_ = true;
  bool ratio_ok_ = true;   // every weight satisfies RatioWeight
  double max_weight_ = 0;  // the largest live weight (the loop's floor)
  // Live nodes in id order, contiguous for the O(N) loop.
  std::vector<uint64_t> prepared_;  // PrepareNode(HashString<H>(name, 0))
  std::vector<double> weights_;
  std::vector<NodeId> ids_;
  // The candidate pass (SetThresholds): per node, the smallest candidate
  // score; R = kCandidates / W for W the weights' sum when they were set;
  // candidate_ratio_ = R 2^b (1 - 2^-50); weight_sum_ = the current W.
  std::vector<uint64_t> thresholds_;
  double candidate_r_ = 0;
  double candidate_ratio_ = 0;
  double weight_sum_ = 0;
  // Null while every live node has the same zone.
  std::unique_ptr<ZoneNumbers> zones_;
};

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeRendezvous(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_H_
