// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/uhashring/uhashring.h
// -----------------------------------------------------------------------------
//
// uhashring 2.1 (Debian python3-uhashring 2.1-3), `HashRing(nodes)`
// (checked by make verify-presets). Two presets:
//
//   uhashring          the default MetaRing: node X (the literal name, port
//                      included) gets 160 * w points md5("X-i") read as a
//                      128-bit big-endian integer; key hash the same of
//                      str(key); owner = the first point > h (bisect_right),
//                      wrapping.
//   uhashring_ketama   hash_fn='ketama': (40 * N * w) // sum(w) digests per
//                      node in exact integers, 4 points per digest
//                      md5("X-i") at le32(d, 0..3); key le32(md5(key), 0);
//                      the first point > h, wrapping.
//
// Equal points: the ring is a dict, so the node added LAST owns them.
//
// Replicas (both presets): `range(key, size=r, unique=True)` (ring.py
// `range`): from the key's point (bisect_right), the first r distinct nodes
// clockwise, one lap. A repeated point value (ketama mode keeps it twice in
// its key list) resolves to the dict's one owner both times, so the
// de-duplicated ring walks the same nodes.
// The default mode compares the top 64 bits of the 128-bit values (the `md5`
// hash policy); it differs from Python's 128-bit comparison only when a key
// digest and a point share their top 64 bits (probability about P * 2^-64
// per key).

#ifndef CHBENCH_ALGORITHMS_PRESETS_UHASHRING_UHASHRING_H_
#define CHBENCH_ALGORITHMS_PRESETS_UHASHRING_UHASHRING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/preset_hashes.h"
#include "algorithms/presets/ketama.h"
#include "algorithms/presets/preset.h"

namespace chbench {

class UhashringPreset final : public Preset {
 public:
  explicit UhashringPreset(bool ketama)
      : Preset(ketama ? "uhashring_ketama" : "uhashring",
               /*max_weight=*/1u << 16, /*needs_port=*/false),
        ketama_(ketama) {}

  Capabilities capabilities() const override {
    return {.arbitrary_removal = true,
            .minimal_disruption = !ketama_,
            .weights = true,
            .replicas = true};
  }
  uint64_t HashKey(std::string_view key) const override {
    return ketama_ ? Md5Le32::Hash(key.data(), key.size(), 0)
                   : Md5::Hash(key.data(), key.size(), 0);
  }
  NodeId Lookup(uint64_t h) const override {
    return ketama_ ? ring32_.Lookup(h) : ring64_.Lookup(h);
  }
  // The ring's batched lookup (PointRing::LookupBatch).
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    if (ketama_) {
      ring32_.LookupBatch(key_hashes, out);
    } else {
      ring64_.LookupBatch(key_hashes, out);
    }
  }
  absl::Status LookupReplicas(uint64_t h, size_t r, bool distinct_zones,
                              std::vector<NodeId>* out) const override {
    return ketama_ ? WalkReplicas(ring32_, h, r, distinct_zones, out)
                   : WalkReplicas(ring64_, h, r, distinct_zones, out);
  }
  size_t MemoryBytes() const override {
    return ketama_ ? ring32_.MemoryBytes() : ring64_.MemoryBytes();
  }

 private:
  absl::Status Rebuild() override {
    const uint64_t total_weight = LiveWeightSum();
    if (ketama_) {
      if (absl::Status s = CheckEveryServerGetsPoints(
              [&](uint64_t w, uint64_t total) {
                return 40 * live_count_ * w / total;
              },
              "4 x (40 * N * w // sum)");
          !s.ok()) {
        return s;
      }
    }
    std::vector<PresetPoint> points;
    // Later nodes win ties: rank by reverse order of addition.
    uint64_t rank_base = uint64_t{1} << 62;
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      const std::string prefix = s.name + "-";
      const NodeId owner = static_cast<NodeId>(id);
      rank_base -= uint64_t{1} << 32;
      if (ketama_) {
        ketama::AppendMd5x4(prefix, 40 * live_count_ * s.weight / total_weight,
                            owner, rank_base, &points);
      } else {
        std::string buf = prefix;
        for (uint64_t i = 0; i < 160ull * s.weight; ++i) {
          const std::string_view n = ketama::PointName(&buf, prefix.size(), i);
          points.push_back(
              {Md5::Hash(n.data(), n.size(), 0), owner, rank_base + i});
        }
      }
    }
    return ketama_ ? ring32_.Assign(std::move(points), servers_.size(),
                                    SearchRule::kGreater)
                   : ring64_.Assign(std::move(points), servers_.size(),
                                    SearchRule::kGreater);
  }

  bool ketama_;
  PointRing<32> ring32_;
  PointRing<64> ring64_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_UHASHRING_UHASHRING_H_
