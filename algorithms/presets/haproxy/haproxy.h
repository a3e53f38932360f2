// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/haproxy/haproxy.h
// -----------------------------------------------------------------------------
//
// HAProxy 2.6.12 (Debian haproxy 2.6.12-1+deb12u4) `hash-type consistent`
// (src/lb_chash.c, src/backend.c; checked by make verify-presets against a
// live HAProxy on 127.0.0.1):
//
//   * Server puid = its id: 1, 2, ... in order of addition (node id + 1),
//     kept while other servers come and go (as runtime enable/disable or
//     explicit `id`s do; renumbering on a config reload is not modelled).
//   * 16 * weight points per server at full_hash(puid * 4096 + j): the
//     server's name and address never enter the ring.
//   * Key hash, options `hash` = sdbm | djb2 | crc32 and `avalanche` = 1 | 0:
//     with no option, plain `hash-type consistent` = sdbm + avalanche; an
//     explicit function gets avalanche only when asked for.
//   * Owner: the CLOSEST point, before or after the key hash; a tie goes to
//     the point before.
// Not modelled: hash-balance-factor (bounded load) and retries.

#ifndef CHBENCH_ALGORITHMS_PRESETS_HAPROXY_HAPROXY_H_
#define CHBENCH_ALGORITHMS_PRESETS_HAPROXY_HAPROXY_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/preset_hashes.h"
#include "algorithms/presets/preset.h"

namespace chbench {

class HaproxyPreset final : public Preset {
 public:
  enum class KeyHash { kSdbm, kDjb2, kCrc32 };

  HaproxyPreset(KeyHash hash, bool avalanche)
      : Preset("haproxy", /*max_weight=*/256, /*needs_port=*/false),
        hash_(hash),
        avalanche_(avalanche) {}

  // History-dependent: the ring is made of puids, so after servers come and
  // go it differs from a fresh configuration of the live servers, which
  // numbers them 1..k again (found by fuzz/ops_fuzzer.cc).
  Capabilities capabilities() const override {
    return {.arbitrary_removal = true,
            .minimal_disruption = true,
            .weights = true,
            .history_dependent = true};
  }
  uint64_t HashKey(std::string_view key) const override {
    uint32_t h;
    switch (hash_) {
      case KeyHash::kDjb2:
        h = static_cast<uint32_t>(Djb2::Hash(key.data(), key.size(), 0));
        break;
      case KeyHash::kCrc32:
        h = static_cast<uint32_t>(Crc32::Hash(key.data(), key.size(), 0));
        break;
      default:
        h = static_cast<uint32_t>(Sdbm::Hash(key.data(), key.size(), 0));
    }
    return avalanche_ ? HaproxyFullHash(h) : h;
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
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      const uint32_t puid = static_cast<uint32_t>(id) + 1;
      for (uint32_t j = 0; j < 16 * s.weight; ++j) {
        points.push_back({HaproxyFullHash(puid * 4096u + j),
                          static_cast<NodeId>(id), (uint64_t{puid} << 32) + j});
      }
    }
    return ring_.Assign(std::move(points), servers_.size(),
                        SearchRule::kClosest);
  }

  KeyHash hash_;
  bool avalanche_;
  PointRing<32> ring_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_HAPROXY_HAPROXY_H_
