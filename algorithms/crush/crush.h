// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: crush/crush.h
// -----------------------------------------------------------------------------
//
// `Crush<H>`: Ceph's CRUSH placement with straw2 buckets (Sage Weil, Scott
// Brandt, Ethan Miller and Carlos Maltzahn, "CRUSH: Controlled, Scalable,
// Decentralized Placement of Replicated Data", SC 2006; straw2 from Ceph
// Hammer, 2015), bit-exact with Ceph 16.2's crush_do_rule as the project's
// CRUSH design notes specify it (crush_map.h has the mapper, crush_hash.h
// the hashes).
//
// Definition. Node i is device osd.i (its CRUSH item id is its NodeId, the
// number Hash32_3 mixes into every draw) with CRUSH weight
// WeightToFixed(NodeSpec::weight) (16.16 fixed point, truncated, as
// crushtool stores `weight 1.000`). The map has the 16.2 optimal tunables
// and straw2 buckets:
//   * no node has a zone: one root bucket (id -1) holding the live OSDs in
//     id order;
//   * some node has a zone (NodeSpec::zone; "" is a zone too): root -> one
//     bucket of type zone per zone (ids -2, -3, ... in order of the zones'
//     first appearance) -> that zone's OSDs in id order. A zone's weight in
//     the root is the sum of its OSDs'; an emptied zone stays, weight 0.
// The CRUSH input is x = the low 32 bits of key_hash.
//   * Lookup(key_hash): the first OSD of crush_do_rule(`take root; choose
//     firstn 0 type osd; emit`, x, result_max 1) with every OSD in: the
//     straw2 winner at rank r = 0 at each level.
//   * LookupReplicas(key_hash, r, false): that rule with result_max r, in
//     its order. CRUSH drops a replica whose choose_total_tries + 1 = 51
//     attempts all collide (e.g. the last of n OSDs when r = n, with
//     probability about (1 - 1/n)^51); the interface asks for exactly r, so
//     the missing ones are appended: the remaining live OSDs by their
//     straw2 draw at rank (number found), ties to the smaller id.
//   * LookupReplicas(key_hash, r, true): `take root; chooseleaf firstn 0
//     type zone; emit` with result_max r: one OSD in each of up to r
//     distinct zones (without zones, the one OSD of Lookup); its first OSD
//     is Lookup's. When the zones run out, the list is filled to r as above
//     (chbench's rule, like the other algorithms' zoned lists: distinct
//     zones first, then other nodes).
//   * RemoveNode removes the OSD's item from its bucket (`ceph osd crush
//     remove`), not a reweight to 0 (`ceph osd out`, which crush_map.h's
//     IsOut models and the CLI's --reweight drives).
//
// Guarantees:
//   * Weights: an OSD's share of a bucket's keys is about its weight over
//     the bucket's (straw2 is the minimum of exponentials over 16-bit
//     draws).
//   * Minimal disruption, as straw2 gives it: a change of one item of one
//     bucket (added, removed, reweighted) moves keys only to or from that
//     item among that bucket's keys at that rank; the other items' draws are
//     unchanged. Hence, without zones, Lookup moves only keys to an added
//     node or from a removed one (crush_test.cc checks it). With
//     zones, the zone's weight in the root changes too: keys move only into
//     (out of) the changed zone, but there to (from) any of its OSDs. For
//     replicas beyond the first it does not hold: firstn keeps the draw
//     order, so a replica moving to a new OSD shifts the later ones (adding
//     osd.10 to flat10 changes 1718 slots, 349 of them not to osd.10: design
//     notes §12).
//   * History-dependent: draws mix the OSD id, and ids are never reused, so
//     a removed node added back (a fresh id) does not get its keys back, and
//     the mapping depends on the ids issued, not only on the live names.
//   * No allocation and no virtual call per Lookup (fixed scratch on the
//     stack; crush_map.h's DoRule is inline).
//
// Complexity (N live OSDs, Z zones):
//   Lookup      O(N) straw2 draws without zones, O(Z + N/Z) with balanced
//               zones; each draw is one Hash32_3, one read of a 512 KiB
//               table of 2^48 - CrushLn(u) (crush_map.h: NegLnTable) and a
//               shift (power-of-two weight) or a division.
//   LookupReplicas  O(r x attempts x draws); the fill O(N log N).
//   AddNode O(1) amortized (O(Z) for a new zone); RemoveNode O(N); Build
//   O(N).
//   Memory      8 bytes per live OSD (item, weight) plus 4 per issued id,
//               plus the NodeTable.
//
// Example:
//   Crush<Xxh64> crush;
//   crush.Build(nodes).IgnoreError();
//   NodeId osd = crush.Lookup(crush.HashKey("rbd_data.1234"));

#ifndef CHBENCH_ALGORITHMS_CRUSH_CRUSH_H_
#define CHBENCH_ALGORITHMS_CRUSH_CRUSH_H_

#include <algorithm>
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
#include "algorithms/crush/crush_hash.h"
#include "algorithms/crush/crush_map.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/node_table.h"
#include "algorithms/node_table_algorithm.h"

namespace chbench {

// minimal_disruption is false: it holds for Lookup without zones only (see
// Guarantees); with zones a change moves keys to or from any OSD of the
// changed zone, which the fuzzer found.
inline constexpr Capabilities kCrushCapabilities = {
    .arbitrary_removal = true,
    .minimal_disruption = false,
    .weights = true,
    .replicas = true,
    .stateful = false,
    .history_dependent = true,
};

namespace crush_internal {

// Ceph's default type ids (design notes §5).
inline constexpr int32_t kTypeOsd = 0;
inline constexpr int32_t kTypeZone = 9;
inline constexpr int32_t kTypeRoot = 11;

// `take root; choose firstn 0 type T; emit` or chooseleaf.
inline crush::Rule MakeRule(bool leaf, int32_t type) {
  crush::Rule rule;
  rule.steps = {
      {crush::StepOp::kTake, -1, 0},
      {leaf ? crush::StepOp::kChooseLeafFirstN : crush::StepOp::kChooseFirstN,
       0, type},
      {crush::StepOp::kEmit, 0, 0}};
  return rule;
}

// The 16.16 weight of `spec`; an error naming the node and the valid range
// when it truncates to 0 or overflows.
absl::Status FixedWeight(const NodeSpec& spec, uint32_t* out);

inline size_t HeapString(const std::string& s) {
  return s.capacity() > 15 ? s.capacity() + 1 : 0;
}

}  // namespace crush_internal

template <typename H>
class Crush final : public NodeTableAlgorithm<H> {
 public:
  Crush()
      : NodeTableAlgorithm<H>("crush", /*weights_supported=*/true),
        osd_rule_(crush_internal::MakeRule(false, crush_internal::kTypeOsd)),
        zone_rule_(crush_internal::MakeRule(true, crush_internal::kTypeZone)) {
    map_.tunables = crush::Tunables::Optimal();
    map_.buckets.resize(1);
    map_.buckets[0].id = -1;
    map_.buckets[0].type = crush_internal::kTypeRoot;
  }

  std::string_view name() const override { return "crush"; }
  Capabilities capabilities() const override { return kCrushCapabilities; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    absl::StatusOr<NodeTable> fresh = table_.Fresh(nodes);
    if (!fresh.ok()) return fresh.status();
    std::vector<uint32_t> fixed(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (absl::Status s = crush_internal::FixedWeight(nodes[i], &fixed[i]);
          !s.ok()) {
        return s;
      }
    }
    const bool zoned =
        std::any_of(nodes.begin(), nodes.end(),
                    [](const NodeSpec& s) { return !s.zone.empty(); });
    std::vector<NodeId> ids(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) ids[i] = static_cast<NodeId>(i);
    crush::CrushMap map;
    std::vector<std::string> zones;
    if (absl::Status s = MakeMap(nodes, ids, fixed, zoned, &map, &zones);
        !s.ok()) {
      return s;
    }
    table_ = *std::move(fresh);
    fixed_ = std::move(fixed);
    map_ = std::move(map);
    zone_names_ = std::move(zones);
    zoned_ = zoned;
    return absl::OkStatus();
  }

  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override {
    if (absl::Status s = table_.Validate(node); !s.ok()) return s;
    uint32_t w = 0;
    if (absl::Status s = crush_internal::FixedWeight(node, &w); !s.ok()) {
      return s;
    }
    const NodeId next = static_cast<NodeId>(table_.issued());
    if (!zoned_ && !node.zone.empty()) {
      // The first zone: the map becomes root -> zones -> OSDs, the nodes so
      // far in zone "".
      std::vector<NodeSpec> specs;
      std::vector<NodeId> ids;
      std::vector<uint32_t> fixed = fixed_;
      for (NodeId id : table_.LiveIds()) {
        specs.push_back(table_.spec(id));
        ids.push_back(id);
      }
      specs.push_back(node);
      ids.push_back(next);
      fixed.push_back(w);
      crush::CrushMap map;
      std::vector<std::string> zones;
      if (absl::Status s = MakeMap(specs, ids, fixed, true, &map, &zones);
          !s.ok()) {
        return s;
      }
      absl::StatusOr<NodeId> id = table_.Add(node);
      if (!id.ok()) return id.status();
      fixed_ = std::move(fixed);
      map_ = std::move(map);
      zone_names_ = std::move(zones);
      zoned_ = true;
      return *id;
    }
    crush::Bucket* target = &map_.buckets[0];
    size_t zone = zone_names_.size();
    if (zoned_) {
      zone = ZoneIndex(node.zone);
      const uint64_t sum =
          uint64_t{zone < zone_names_.size() ? map_.buckets[zone + 1].weight
                                             : 0} +
          w;
      if (sum > UINT32_MAX) return ZoneOverflow(node.zone);
    }
    absl::StatusOr<NodeId> id = table_.Add(node);
    if (!id.ok()) return id.status();
    fixed_.push_back(w);
    map_.max_devices = static_cast<int32_t>(table_.issued());
    if (zoned_) {
      if (zone == zone_names_.size()) {
        zone_names_.push_back(node.zone);
        crush::Bucket b;
        b.id = -2 - static_cast<int32_t>(zone);
        b.type = crush_internal::kTypeZone;
        map_.buckets.push_back(std::move(b));
        map_.buckets[0].items.push_back(-2 - static_cast<int32_t>(zone));
        map_.buckets[0].weights.push_back(0);
      }
      target = &map_.buckets[zone + 1];
    }
    target->items.push_back(static_cast<int32_t>(*id));
    target->weights.push_back(w);
    target->weight += w;
    if (zoned_) map_.buckets[0].weights[zone] = target->weight;
    return *id;
  }

  absl::Status RemoveNode(NodeId id) override {
    if (absl::Status s = table_.Remove(id); !s.ok()) return s;
    size_t zone = 0;
    crush::Bucket* b = &map_.buckets[0];
    if (zoned_) {
      zone = ZoneIndex(table_.spec(id).zone);
      b = &map_.buckets[zone + 1];
    }
    const auto it =
        std::find(b->items.begin(), b->items.end(), static_cast<int32_t>(id));
    const size_t i = static_cast<size_t>(it - b->items.begin());
    b->weight -= b->weights[i];
    b->items.erase(it);
    b->weights.erase(b->weights.begin() + i);
    if (zoned_) map_.buckets[0].weights[zone] = b->weight;
    return absl::OkStatus();
  }

  // Precondition: size() > 0.
  // out[i] = Lookup(key_hashes[i]): the plain loop (LookupEach), inlined
  // through the final type; straw2 computes a hash and a log per item of the
  // bucket: arithmetic over a small map.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    LookupEach(*this, key_hashes, out);
  }

  NodeId Lookup(uint64_t key_hash) const override {
    int32_t result[1];
    int32_t work[3];
    crush::DoRule(map_, osd_rule_, static_cast<uint32_t>(key_hash), result, 1,
                  nullptr, 0, work);
    return static_cast<NodeId>(result[0]);
  }

  absl::Status LookupReplicas(uint64_t key_hash, size_t r, bool distinct_zones,
                              std::vector<NodeId>* out) const override {
    out->clear();
    const size_t n = table_.live_count();
    if (r == 0 || r > n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "crush: replica count r = ", r, " is out of range; valid: 1..", n,
          " (the number of live nodes)"));
    }
    const uint32_t x = static_cast<uint32_t>(key_hash);
    const crush::Rule& rule = distinct_zones && zoned_ ? zone_rule_ : osd_rule_;
    const int result_max = distinct_zones && !zoned_ ? 1 : static_cast<int>(r);
    constexpr int kStack = 16;
    int32_t stack[4 * kStack];
    std::vector<int32_t> heap;
    int32_t* buf = stack;
    if (result_max > kStack) {
      heap.resize(4 * static_cast<size_t>(result_max));
      buf = heap.data();
    }
    const int got = crush::DoRule(map_, rule, x, buf, result_max, nullptr, 0,
                                  buf + result_max);
    for (int i = 0; i < got; ++i) {
      if (buf[i] != crush::kItemNone)
        out->push_back(static_cast<NodeId>(buf[i]));
    }
    if (out->size() < r) Fill(x, r, out);
    return absl::OkStatus();
  }

  size_t MemoryBytes() const override {
    size_t bytes = sizeof(*this) + table_.MemoryBytes() +
                   fixed_.capacity() * sizeof(uint32_t) +
                   map_.buckets.capacity() * sizeof(crush::Bucket) +
                   zone_names_.capacity() * sizeof(std::string) +
                   (osd_rule_.steps.capacity() + zone_rule_.steps.capacity()) *
                       sizeof(crush::Step);
    for (const crush::Bucket& b : map_.buckets) {
      bytes += b.items.capacity() * sizeof(int32_t) +
               b.weights.capacity() * sizeof(uint32_t) +
               crush_internal::HeapString(b.name);
    }
    for (const std::string& z : zone_names_) {
      bytes += crush_internal::HeapString(z);
    }
    return bytes;
  }
  size_t size() const override { return table_.live_count(); }
  std::vector<NodeId> LiveNodes() const override { return table_.LiveIds(); }

  // The CRUSH map Lookup runs on (for tests and the CLI).
  const crush::CrushMap& map() const { return map_; }

 private:
  size_t ZoneIndex(const std::string& zone) const {
    return static_cast<size_t>(
        std::find(zone_names_.begin(), zone_names_.end(), zone) -
        zone_names_.begin());
  }

  static absl::Status ZoneOverflow(const std::string& zone) {
    return absl::InvalidArgumentError(absl::StrCat(
        "crush: the weights of zone '", zone,
        "' would sum to more than 65535.99998, the largest bucket weight in "
        "16.16 fixed point"));
  }

  // The map of the nodes specs[i] (id ids[i], 16.16 weight fixed[ids[i]]).
  static absl::Status MakeMap(std::span<const NodeSpec> specs,
                              std::span<const NodeId> ids,
                              std::span<const uint32_t> fixed, bool zoned,
                              crush::CrushMap* map,
                              std::vector<std::string>* zones) {
    map->tunables = crush::Tunables::Optimal();
    map->max_devices = ids.empty() ? static_cast<int32_t>(fixed.size())
                                   : static_cast<int32_t>(std::max<size_t>(
                                         fixed.size(), ids.back() + 1));
    map->buckets.assign(1, crush::Bucket{});
    crush::Bucket& root = map->buckets[0];
    root.id = -1;
    root.type = crush_internal::kTypeRoot;
    if (!zoned) {
      root.items.reserve(specs.size());
      root.weights.reserve(specs.size());
      for (size_t i = 0; i < specs.size(); ++i) {
        root.items.push_back(static_cast<int32_t>(ids[i]));
        root.weights.push_back(fixed[ids[i]]);
        root.weight += fixed[ids[i]];  // unused: the root has no parent
      }
      return absl::OkStatus();
    }
    std::vector<uint64_t> sums;
    std::vector<size_t> zone_of(specs.size());
    for (size_t i = 0; i < specs.size(); ++i) {
      const size_t z = static_cast<size_t>(
          std::find(zones->begin(), zones->end(), specs[i].zone) -
          zones->begin());
      if (z == zones->size()) {
        zones->push_back(specs[i].zone);
        sums.push_back(0);
      }
      zone_of[i] = z;
      sums[z] += fixed[ids[i]];
      if (sums[z] > UINT32_MAX) return ZoneOverflow(specs[i].zone);
    }
    map->buckets.resize(zones->size() + 1);
    for (size_t z = 0; z < zones->size(); ++z) {
      crush::Bucket& b = map->buckets[z + 1];
      b.id = -2 - static_cast<int32_t>(z);
      b.type = crush_internal::kTypeZone;
      b.weight = static_cast<uint32_t>(sums[z]);
      map->buckets[0].items.push_back(b.id);
      map->buckets[0].weights.push_back(b.weight);
    }
    for (size_t i = 0; i < specs.size(); ++i) {
      crush::Bucket& b = map->buckets[zone_of[i] + 1];
      b.items.push_back(static_cast<int32_t>(ids[i]));
      b.weights.push_back(fixed[ids[i]]);
    }
    return absl::OkStatus();
  }

  // Appends the live OSDs not in *out, by their straw2 draw at rank
  // out->size() (smaller quotient = larger draw; ties to the smaller id),
  // until there are r.
  void Fill(uint32_t x, size_t r, std::vector<NodeId>* out) const {
    const uint32_t rank = static_cast<uint32_t>(out->size());
    std::vector<std::pair<uint64_t, NodeId>> rest;
    for (NodeId id : table_.LiveIds()) {
      if (std::find(out->begin(), out->end(), id) != out->end()) continue;
      rest.emplace_back(crush::Straw2Quotient(
                            crush::Hash32_3(x, id, rank) & 0xFFFF, fixed_[id]),
                        id);
    }
    std::sort(rest.begin(), rest.end());
    for (size_t i = 0; out->size() < r && i < rest.size(); ++i) {
      out->push_back(rest[i].second);
    }
  }

  using NodeTableAlgorithm<H>::table_;
  crush::CrushMap map_;
  crush::Rule osd_rule_;
  crush::Rule zone_rule_;
  std::vector<uint32_t> fixed_;          // 16.16 weight by id (issued ids)
  std::vector<std::string> zone_names_;  // zone z: bucket id -2 - z
  bool zoned_ = false;
};

// Factory for the registry: validates `params.hash` (the only parameter it
// reads) and returns an empty instance.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeCrush(
    const AlgorithmParams& params);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_CRUSH_CRUSH_H_
