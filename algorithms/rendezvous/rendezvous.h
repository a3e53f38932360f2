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
//     compare as strings, "" is one zone).
// With equal weights the two rules order nodes identically except where two
// scores agree in their top 53 bits, so switching between them (adding a
// node of another weight) moves a fraction of keys of order N * 2^-53.
//
// Guarantees: arbitrary removal; minimal disruption (a key moves only if its
// owner left or the new node beats it); weights; replicas; near-perfect
// balance with no per-node state beyond three numbers.
//
// Complexity (N live nodes):
//   Lookup      O(N) hash evaluations (plus N logarithms when weighted).
//   AddNode     O(1) amortized.  RemoveNode  O(N).  Build  O(N).
//   Memory      20 bytes per live node (hash, weight, id) plus the NodeTable.
//
// Example:
//   Rendezvous<Xxh64> hrw;
//   hrw.Build(nodes).IgnoreError();
//   NodeId owner = hrw.Lookup(hrw.HashKey("user:42"));

#ifndef CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_H_
#define CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/node_table.h"

namespace chbench {

inline constexpr Capabilities kRendezvousCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
    .weights = true,
    .replicas = true,
    .stateful = false,
};

template <typename H>
class Rendezvous final : public ConsistentHash {
 public:
  Rendezvous() : table_("rendezvous", /*weights_supported=*/true) {}

  std::string_view name() const override { return "rendezvous"; }
  Capabilities capabilities() const override { return kRendezvousCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    if (absl::Status s = table_.ValidateBatch(nodes); !s.ok()) return s;
    table_.Clear();
    std::vector<uint64_t> hashes;
    std::vector<double> weights;
    std::vector<NodeId> ids;
    hashes.reserve(nodes.size());
    weights.reserve(nodes.size());
    ids.reserve(nodes.size());
    for (const NodeSpec& spec : nodes) {
      ids.push_back(*table_.Add(spec));
      hashes.push_back(HashString<H>(spec.name, 0));
      weights.push_back(spec.weight);
    }
    hashes_ = std::move(hashes);
    weights_ = std::move(weights);
    ids_ = std::move(ids);
    UpdateUniform();
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    absl::StatusOr<NodeId> id = table_.Add(node);
    if (!id.ok()) return id.status();
    hashes_.push_back(HashString<H>(node.name, 0));
    weights_.push_back(node.weight);
    ids_.push_back(*id);  // ids grow, so ids_ stays ascending
    uniform_ = weights_.size() == 1 || (uniform_ && node.weight == weights_[0]);
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    const size_t i = static_cast<size_t>(
        std::lower_bound(ids_.begin(), ids_.end(), id) - ids_.begin());
    hashes_.erase(hashes_.begin() + i);
    weights_.erase(weights_.begin() + i);
    ids_.erase(ids_.begin() + i);
    UpdateUniform();
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  NodeId Lookup(uint64_t key_hash) const override {
    const size_t n = hashes_.size();
    const uint64_t* nh = hashes_.data();
    size_t best_i = 0;
    if (uniform_) {
      uint64_t best = HashPair<H>(key_hash, nh[0]);
      for (size_t i = 1; i < n; ++i) {
        const uint64_t s = HashPair<H>(key_hash, nh[i]);
        if (s > best) {  // strict: ties keep the smaller id
          best = s;
          best_i = i;
        }
      }
    } else {
      const double* w = weights_.data();
      double best = WeightedScore(HashPair<H>(key_hash, nh[0]), w[0]);
      for (size_t i = 1; i < n; ++i) {
        const double s = WeightedScore(HashPair<H>(key_hash, nh[i]), w[i]);
        if (s > best) {
          best = s;
          best_i = i;
        }
      }
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
    if (uniform_) {
      TopByScore<uint64_t>(
          [&](size_t i) { return HashPair<H>(key_hash, hashes_[i]); }, r,
          distinct_zones, out);
    } else {
      TopByScore<double>(
          [&](size_t i) {
            return WeightedScore(HashPair<H>(key_hash, hashes_[i]),
                                 weights_[i]);
          },
          r, distinct_zones, out);
    }
    return absl::OkStatus();
  }

  uint64_t HashKey(std::string_view key) const override {
    return HashString<H>(key, 0);
  }

  // Heap bytes including the object itself (as allocated by MakeRendezvous).
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() +
           hashes_.capacity() * sizeof(uint64_t) +
           weights_.capacity() * sizeof(double) +
           ids_.capacity() * sizeof(NodeId);
  }
  size_t size() const override { return ids_.size(); }
  std::vector<NodeId> LiveNodes() const override { return ids_; }
  const std::string& NodeName(NodeId id) const override {
    return table_.name(id);
  }

  // True when every live node has the same weight (the integer fast path).
  bool uniform_weights() const { return uniform_; }

  // -w / ln(u), u = ToUnitInterval<H>(score) in (0, 1): positive, increasing
  // in the score and in w.
  static double WeightedScore(uint64_t score, double weight) {
    return -weight / std::log(ToUnitInterval<H>(score));
  }

 private:
  void UpdateUniform() {
    uniform_ = std::all_of(weights_.begin(), weights_.end(),
                           [&](double w) { return w == weights_[0]; });
  }

  // Best-first order: higher score, then smaller id (= smaller index).
  template <typename Score, typename ScoreFn>
  void TopByScore(ScoreFn score_of, size_t r, bool distinct_zones,
                  std::vector<NodeId>* out) const {
    const size_t n = ids_.size();
    std::vector<std::pair<Score, uint32_t>> scored(n);
    for (size_t i = 0; i < n; ++i) {
      scored[i] = {score_of(i), static_cast<uint32_t>(i)};
    }
    const auto better = [](const std::pair<Score, uint32_t>& a,
                           const std::pair<Score, uint32_t>& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    if (!distinct_zones) {
      std::partial_sort(scored.begin(), scored.begin() + r, scored.end(),
                        better);
      for (size_t k = 0; k < r; ++k) out->push_back(ids_[scored[k].second]);
      return;
    }
    std::sort(scored.begin(), scored.end(), better);
    for (const auto& [score, i] : scored) {
      if (out->size() == r) break;
      const std::string& zone = table_.spec(ids_[i]).zone;
      const bool taken = std::any_of(
          out->begin(), out->end(),
          [&](NodeId chosen) { return table_.spec(chosen).zone == zone; });
      if (!taken) out->push_back(ids_[i]);
    }
  }

  NodeTable table_;
  bool uniform_ = true;
  // Live nodes in id order, contiguous for the O(N) loop.
  std::vector<uint64_t> hashes_;  // HashString<H>(name, 0)
  std::vector<double> weights_;
  std::vector<NodeId> ids_;
};

// Factory for the registry: validates `params.hash` (the only parameter that
// applies) and returns an empty instance.
inline absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeRendezvous(
    const AlgorithmParams& params) {
  std::unique_ptr<ConsistentHash> algo;
  const bool known = DispatchHash(params.hash, [&]<typename H>() {
    algo = std::make_unique<Rendezvous<H>>();
  });
  if (!known) return UnknownHashError(params.hash);
  return algo;
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_H_
