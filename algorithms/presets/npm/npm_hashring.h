// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/npm/npm_hashring.h
// -----------------------------------------------------------------------------
//
// npm `hashring` 3.2.0 with its defaults, and the npm `memcached` 2.2.2
// client, which builds a hashring with `default port` 11211 (checked
// by make verify-presets):
//
//   npm_hashring   points named "host:port-i" (the server string), i <
//                  floor(w / W * 40 * N) in IEEE doubles (40 at equal
//                  weights except 39 at N in {7,14,28,49,56,98}), 4 points
//                  per digest md5(name) at le32(d, 0..3).
//   npm_memcached  the same, but a server on port 11211 is named "host-i".
//
// Key hash le32(md5(key), 0); lookup: the first point >= h, wrapping (the
// libketama binary search); equal points keep insertion order (V8's stable
// sort), so the earlier server wins. The library's LRU result cache changes
// no answer.
//
// Replicas (npm_hashring only; the memcached client's `redundancy` option
// calls HashRing.createRange, which hashring 3.2.0 index.js no longer has):
// `range(key, r, unique=true)` (hashring 3.2.0 index.js `range`): from
// the key's point, the first r distinct servers clockwise, one lap; every
// point is visited, equal points included in their tie order (npm hashring
// keeps both points of a collision).

#ifndef CHBENCH_ALGORITHMS_PRESETS_NPM_NPM_HASHRING_H_
#define CHBENCH_ALGORITHMS_PRESETS_NPM_NPM_HASHRING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/hash/preset_hashes.h"
#include "algorithms/presets/ketama.h"
#include "algorithms/presets/preset.h"

namespace chbench {

class NpmHashringPreset final : public Preset {
 public:
  // `memcached_client`: the memcached 2.2.2 client's configuration.
  explicit NpmHashringPreset(bool memcached_client)
      : Preset(memcached_client ? "npm_memcached" : "npm_hashring",
               /*max_weight=*/1u << 20, /*needs_port=*/false),
        memcached_client_(memcached_client) {}

  Capabilities capabilities() const override {
    return {.arbitrary_removal = true,
            .weights = true,
            .replicas = !memcached_client_};
  }
  uint64_t HashKey(std::string_view key) const override {
    return Md5Le32::Hash(key.data(), key.size(), 0);
  }
  NodeId Lookup(uint64_t h) const override { return ring_.Lookup(h); }
  // The ring's batched lookup (PointRing::LookupBatch): same owners as
  // Lookup, the group's ring lines prefetched.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    ring_.LookupBatch(key_hashes, out);
  }
  absl::Status LookupReplicas(uint64_t h, size_t r, bool distinct_zones,
                              std::vector<NodeId>* out) const override {
    if (memcached_client_) {
      return ConsistentHash::LookupReplicas(h, r, distinct_zones, out);
    }
    return WalkReplicas(ring_, h, r, distinct_zones, out);
  }
  size_t MemoryBytes() const override { return ring_.MemoryBytes(); }

 private:
  absl::Status Rebuild() override {
    const uint64_t total_weight = LiveWeightSum();
    const ketama::DoubleDigestCount count{live_count_};
    if (absl::Status s = CheckEveryServerGetsPoints(count, count.kFormula);
        !s.ok()) {
      return s;
    }
    std::vector<PresetPoint> points;
    uint64_t index = 0;
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      std::string prefix =
          memcached_client_ && s.port == "11211" ? s.host : s.name;
      prefix += '-';
      ketama::AppendMd5x4(
          prefix, ketama::DoubleDigests(s.weight, total_weight, live_count_),
          static_cast<NodeId>(id), index++ << 32, &points);
    }
    return ring_.Assign(std::move(points), servers_.size(),
                        SearchRule::kAtLeast, /*walk_keeps_equal=*/true);
  }

  bool memcached_client_;
  PointRing<32> ring_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_NPM_NPM_HASHRING_H_
