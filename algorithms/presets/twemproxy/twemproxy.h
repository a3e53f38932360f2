// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/twemproxy/twemproxy.h
// -----------------------------------------------------------------------------
//
// twemproxy / nutcracker 0.5.0 (Debian nutcracker 0.5.0+dfsg-2),
// `distribution: ketama` (src/hashkit/nc_ketama.c; checked by
// make verify-presets).
//
//   * Server name: "host" when the port is 11211, else "host:port" (a server
//     line's explicit name is not modelled: name servers by host:port).
//   * Points: per server 4 * floor(float32(w/W * 160 / 4 * N) + 1e-10), four
//     per digest md5(name-k) at le32(d, 0..3): with md5 keys this is
//     libmemcached_weighted bit for bit.
//   * Key hash, option `hash`: fnv1a_64 (the default: twemproxy's 32-bit
//     variant with signed chars, fnv1a_64_twemproxy) or md5 (le32(md5)).
//   * Lookup: the first point >= the key hash, wrapping; equal points keep
//     insertion order (glibc's stable merge sort), so the earlier server wins.
//
// Example:
//   TwemproxyPreset p(TwemproxyPreset::KeyHash::kFnv1a64);

#ifndef CHBENCH_ALGORITHMS_PRESETS_TWEMPROXY_TWEMPROXY_H_
#define CHBENCH_ALGORITHMS_PRESETS_TWEMPROXY_TWEMPROXY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/hash/preset_hashes.h"
#include "algorithms/presets/ketama.h"
#include "algorithms/presets/preset.h"

namespace chbench {

class TwemproxyPreset final : public Preset {
 public:
  enum class KeyHash { kFnv1a64, kMd5 };

  explicit TwemproxyPreset(KeyHash hash)
      : Preset("twemproxy", /*max_weight=*/1u << 20, /*needs_port=*/true),
        hash_(hash) {}

  Capabilities capabilities() const override {
    return {.arbitrary_removal = true, .weights = true};
  }
  uint64_t HashKey(std::string_view key) const override {
    return hash_ == KeyHash::kMd5
               ? Md5Le32::Hash(key.data(), key.size(), 0)
               : Fnv1a64Twemproxy::Hash(key.data(), key.size(), 0);
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
    const uint64_t total_weight = LiveWeightSum();
    const ketama::Float32DigestCount count{live_count_};
    if (absl::Status s = CheckEveryServerGetsPoints(count, count.kFormula);
        !s.ok()) {
      return s;
    }
    std::vector<PresetPoint> points;
    uint64_t index = 0;
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      std::string prefix = s.port == "11211" ? s.host : s.name;
      prefix += '-';
      ketama::AppendMd5x4(
          prefix, ketama::Float32Digests(s.weight, total_weight, live_count_),
          static_cast<NodeId>(id), index++ << 32, &points);
    }
    return ring_.Assign(std::move(points), servers_.size(),
                        SearchRule::kAtLeast);
  }

  KeyHash hash_;
  PointRing<32> ring_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_TWEMPROXY_TWEMPROXY_H_
