// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/groupcache/groupcache.h
// -----------------------------------------------------------------------------
//
// groupcache consistenthash (Debian golang-github-golang-groupcache-dev
// 0.0~git20200121.8c9f03a-2, consistenthash/consistenthash.go; checked by
// make verify-presets):
//
//   * Option `replicas` (default 50, HTTPPool's defaultReplicas).
//   * Peer X (any string, e.g. "http://10.0.0.1:8000") gets the points
//     crc32(decimal(i) ++ X), i = 0..replicas-1: the index is a PREFIX.
//   * Key hash crc32(key); owner = the first point >= h, wrapping.
//   * Equal points: the peer added last owns them (a Go map overwritten).
// groupcache has no weights and no removal; here a removal rebuilds the map
// from the remaining peers, as a fresh `New` + `Add` would.

#ifndef CHBENCH_ALGORITHMS_PRESETS_GROUPCACHE_GROUPCACHE_H_
#define CHBENCH_ALGORITHMS_PRESETS_GROUPCACHE_GROUPCACHE_H_

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/hash/hash_function.h"
#include "algorithms/presets/preset.h"

namespace chbench {

class GroupcachePreset final : public Preset {
 public:
  explicit GroupcachePreset(uint32_t replicas)
      : Preset("groupcache", /*max_weight=*/1, /*needs_port=*/false),
        replicas_(replicas) {}

  Capabilities capabilities() const override {
    return {.arbitrary_removal = true, .minimal_disruption = true};
  }
  uint64_t HashKey(std::string_view key) const override {
    return Crc32::Hash(key.data(), key.size(), 0);
  }
  NodeId Lookup(uint64_t h) const override { return ring_.Lookup(h); }
  // The ring's batched lookup (PointRing::LookupBatch): same owners as
  // Lookup, the group's ring lines prefetched.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    ring_.LookupBatch(key_hashes, out);
  }
  size_t MemoryBytes() const override { return ring_.MemoryBytes(); }

 private:
  absl::Status Rebuild() override {
    std::vector<PresetPoint> points;
    uint64_t rank_base = uint64_t{1} << 62;
    char digits[16];
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      rank_base -= uint64_t{1} << 32;
      for (uint32_t i = 0; i < replicas_; ++i) {
        char* end = std::to_chars(digits, digits + sizeof(digits), i).ptr;
        const uint64_t prefix = Crc32::Hash(digits, end - digits, 0);
        points.push_back({Crc32::Hash(s.name.data(), s.name.size(), prefix),
                          static_cast<NodeId>(id), rank_base + i});
      }
    }
    return ring_.Assign(std::move(points), servers_.size(),
                        SearchRule::kAtLeast);
  }

  uint32_t replicas_;
  PointRing<32> ring_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_GROUPCACHE_GROUPCACHE_H_
