// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: testing/toy_algorithm.h
// -----------------------------------------------------------------------------
//
// A test-only algorithm and a catalogue that holds it beside the real ones:
// `kToyCatalogue` is `kCatalogue` plus one entry, "toy". Tests pass it where
// the production code takes a catalogue or its rows (the conformance suite,
// the timing dispatch, `chbench list --json`'s writer, a spec's
// `algorithm = "all"`) and find the toy there, which shows that a catalogue
// entry alone brings an algorithm into the suite.
//
// The toy is a plain rendezvous hash: node i scores a key by
// SplitMix64's finalizer of (key digest XOR the hash of its name), and the
// highest score wins. It is minimal (only a joining or leaving node's keys
// move), balanced like independent uniform draws, and O(N) per lookup.
//
// Example:
//   constexpr auto rows = CatalogueRows(kToyCatalogue);  // 15 rows

#ifndef CHBENCH_ALGORITHMS_TESTING_TOY_ALGORITHM_H_
#define CHBENCH_ALGORITHMS_TESTING_TOY_ALGORITHM_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "algorithms/catalogue.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/make_with_hash.h"
#include "algorithms/node_table.h"

namespace chbench {
namespace testing {

inline constexpr Capabilities kToyCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = true,
};

template <typename H>
class Toy final : public ConsistentHash {
 public:
  Toy() : table_("toy", /*weights_supported=*/false) {}

  std::string_view name() const override { return "toy"; }
  Capabilities capabilities() const override { return kToyCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    table_ = *std::move(fresh);
    live_.clear();
    live_.reserve(nodes.size());
    for (NodeId id = 0; id < nodes.size(); ++id) {
      live_.push_back({id, HashString<H>(nodes[id].name, 0)});
    }
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    absl::StatusOr<NodeId> id = table_.Add(node);
    if (!id.ok()) return id.status();
    live_.push_back({*id, HashString<H>(node.name, 0)});
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    for (size_t i = 0; i < live_.size(); ++i) {
      if (live_[i].id == id) {
        live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    }
    return absl::OkStatus();
  }

  // The plain loop, as a new algorithm without prefetching would have it.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    LookupEach(*this, key_hashes, out);
  }
  NodeId Lookup(uint64_t key_hash) const override {
    NodeId best = kInvalidNode;
    uint64_t best_score = 0;
    for (const Live& n : live_) {
      const uint64_t score = Finalize(key_hash ^ n.seed);
      if (best == kInvalidNode || score > best_score) {
        best = n.id;
        best_score = score;
      }
    }
    return best;
  }

  uint64_t HashKey(std::string_view key) const override {
    return HashString<H>(key, 0);
  }
  size_t MemoryBytes() const override {
    return sizeof(*this) + table_.MemoryBytes() +
           live_.capacity() * sizeof(Live);
  }
  size_t size() const override { return live_.size(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }
  const std::string& NodeName(NodeId id) const override {
    return table_.name(id);
  }

 private:
  struct Live {
    NodeId id;
    uint64_t seed;  // the hash of the node's name
  };
  // SplitMix64's output function.
  static uint64_t Finalize(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  NodeTable table_;
  std::vector<Live> live_;
};

inline absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeToy(
    const AlgorithmParams& params) {
  return MakeWithHash<Toy>(params);
}

// The toy's goldens: MappingChecksum with each hash of the conformance
// suite (regenerate as for the catalogue's).
inline constexpr HashGolden kToyGoldens[] = {
    {"xxh64", 0x85b9585ddce91c08ULL},
    {"md5", 0xd3c9e4c076c2c26dULL},
    {"murmur3_32", 0x7398496c25a9ecbbULL},
    {"crc32", 0x4c097379fdeb9dabULL},
};

}  // namespace testing

// The production catalogue plus the toy.
inline constexpr auto kToyCatalogue = std::tuple_cat(
    kCatalogue,
    std::make_tuple(Entry<testing::Toy>{{
        .name = "toy",
        .description = "test-only rendezvous hash (algorithms/testing/)",
        .citation = "none: a test fixture",
        .capabilities = testing::kToyCapabilities,
        .make = &testing::MakeToy,
        .goldens = testing::kToyGoldens,
        .lookup_complexity = "O(N)",
        .lookup_class = "linear",
        .parameters = kHashOnlyParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = false},
    }}));

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_TESTING_TOY_ALGORITHM_H_
