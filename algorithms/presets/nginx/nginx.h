// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/nginx/nginx.h
// -----------------------------------------------------------------------------
//
// nginx 1.22.1 (Debian nginx-light 1.22.1-9+deb12u11) `hash $key consistent`
// (src/http/modules/ngx_http_upstream_hash_module.c, init_chash; checked by
// make verify-presets against a live nginx on 127.0.0.1):
//
//   * The server text as written is split into host and port at a final
//     ":digits" (otherwise port = ""); base = CRC-32 of host ++ 0x00 ++ port.
//   * 160 * weight points per server, chained: p_j = CRC-32 of
//     host ++ 0x00 ++ port ++ le32(p_{j-1}), p_{-1} = 0 ("compatible with
//     Cache::Memcached::Fast").
//   * Points sorted; equal points collapsed, the first kept (the server
//     configured first).
//   * Key hash crc32(key); owner = the first point >= h, wrapping.
// Not modelled: nginx's fallback when a chosen peer is down or full (the next
// point, 20 tries, then round robin), and several peers sharing one name.

#ifndef CHBENCH_ALGORITHMS_PRESETS_NGINX_NGINX_H_
#define CHBENCH_ALGORITHMS_PRESETS_NGINX_NGINX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/hash/hash_function.h"
#include "algorithms/presets/preset.h"

namespace chbench {

class NginxPreset final : public Preset {
 public:
  NginxPreset() : Preset("nginx", /*max_weight=*/1u << 16, false) {}

  Capabilities capabilities() const override {
    return {.arbitrary_removal = true,
            .minimal_disruption = true,
            .weights = true};
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
    uint64_t index = 0;
    std::string base;
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      base = s.host;
      base.push_back('\0');
      base += s.port;
      const uint64_t seed = Crc32::Hash(base.data(), base.size(), 0);
      uint32_t prev = 0;
      const uint64_t rank = index++ << 32;
      for (uint64_t j = 0; j < 160ull * s.weight; ++j) {
        const unsigned char b[4] = {
            static_cast<unsigned char>(prev),
            static_cast<unsigned char>(prev >> 8),
            static_cast<unsigned char>(prev >> 16),
            static_cast<unsigned char>(prev >> 24)};
        prev = static_cast<uint32_t>(Crc32::Hash(b, 4, seed));
        points.push_back({prev, static_cast<NodeId>(id), rank + j});
      }
    }
    return ring_.Assign(std::move(points), servers_.size(),
                        SearchRule::kAtLeast);
  }

  PointRing<32> ring_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_NGINX_NGINX_H_
