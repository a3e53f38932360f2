// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/libmemcached/libmemcached.h
// -----------------------------------------------------------------------------
//
// libmemcached 1.1.4 (Debian libmemcached-dev / libmemcached11 1.1.4-1),
// `memcached_generate_hash()` under its consistent distributions
// (src/libmemcached/hosts.cc update_continuum; checked by
// make verify-presets). Three presets:
//
//   libmemcached_ketama    HASH=MD5 + DISTRIBUTION=CONSISTENT_KETAMA: key
//                          hash le32(md5(key), 0); 100 points per server,
//                          point k = le32(md5(name_k), 0).
//   libmemcached_weighted  BEHAVIOR_KETAMA_WEIGHTED (= PHP memcached's
//                          LIBKETAMA_COMPATIBLE = twemproxy md5): key hash
//                          le32(md5); per server 4 * floor(float32(w/W * 160
//                          / 4 * N) + 1e-10) points, 4 per digest
//                          md5(name_k) at le32(d, 0..3). Equal weights give
//                          160 points, 156 at N in {25,47,50,55,61,71,94,100}.
//   libmemcached_default   BEHAVIOR_KETAMA alone: key and points both use
//                          libhashkit's one-at-a-time (signed chars), 100
//                          points per server; 1.1.4 does not switch to MD5.
//
// Point names: name_k = "host-k" when the port is 11211, else "host:port-k".
// Any server weight > 1 silently switches the unweighted modes to the
// weighted point formula, as libmemcached does when such a server is added.
// Lookup: the first point >= the key hash, wrapping; equal points go to the
// server added first. The Debian build aborts above 100 servers
// (N * 100 > MEMCACHED_CONTINUUM_SIZE); the preset accepts more and says so
// in its description.
//
// Example:
//   LibmemcachedPreset p(LibmemcachedPreset::Mode::kKetama);
//   p.Build(specs).IgnoreError();   // specs named "10.0.0.1:11211", ...
//   NodeId s = p.Lookup(p.HashKey("user:42"));

#ifndef CHBENCH_ALGORITHMS_PRESETS_LIBMEMCACHED_LIBMEMCACHED_H_
#define CHBENCH_ALGORITHMS_PRESETS_LIBMEMCACHED_LIBMEMCACHED_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/hash/preset_hashes.h"
#include "algorithms/presets/ketama.h"
#include "algorithms/presets/preset.h"

namespace chbench {

class LibmemcachedPreset final : public Preset {
 public:
  enum class Mode { kKetama, kWeighted, kDefault };

  explicit LibmemcachedPreset(Mode mode)
      : Preset(mode == Mode::kKetama     ? "libmemcached_ketama"
               : mode == Mode::kWeighted ? "libmemcached_weighted"
                                         : "libmemcached_default",
               /*max_weight=*/1u << 20, /*needs_port=*/true),
        mode_(mode) {}

  // Minimal disruption holds while the point formula is the unweighted
  // one: 100 points per server whatever N is. A live server of weight > 1
  // switches the unweighted modes to the weighted formula, whose point
  // counts depend on N and the total weight (found by fuzz/ops_fuzzer.cc:
  // adding a server moved keys between two others), so the claim is made
  // for the current servers only.
  Capabilities capabilities() const override {
    return {.arbitrary_removal = true,
            .minimal_disruption = !WeightedFormula(),
            .weights = true};
  }

  uint64_t HashKey(std::string_view key) const override {
    return mode_ == Mode::kDefault
               ? OaatLibhashkit::Hash(key.data(), key.size(), 0)
               : Md5Le32::Hash(key.data(), key.size(), 0);
  }
  NodeId Lookup(uint64_t h) const override { return ring_.Lookup(h); }
  // The ring's batched lookup (PointRing::LookupBatch): same owners as
  // Lookup, the group's ring lines prefetched.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    ring_.LookupBatch(key_hashes, out);
  }
  size_t MemoryBytes() const override { return ring_.MemoryBytes(); }
  size_t point_count() const { return ring_.point_count(); }

 private:
  // The weighted point formula: libmemcached_weighted, or any live server
  // of weight > 1.
  bool WeightedFormula() const {
    bool weighted = mode_ == Mode::kWeighted;
    for (const PresetServer& s : servers_) weighted |= s.live && s.weight > 1;
    return weighted;
  }

  absl::Status Rebuild() override {
    const uint64_t total_weight = LiveWeightSum();
    const bool weighted = WeightedFormula();
    if (weighted) {
      const ketama::Float32DigestCount count{live_count_};
      if (absl::Status s = CheckEveryServerGetsPoints(count, count.kFormula);
          !s.ok()) {
        return s;
      }
    }
    std::vector<PresetPoint> points;
    std::string prefix;
    uint64_t index = 0;  // the server's place among the live ones
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      prefix = s.port == "11211" ? s.host : s.name;
      prefix += '-';
      const uint64_t rank = index++ << 32;
      const NodeId owner = static_cast<NodeId>(id);
      if (weighted) {
        ketama::AppendMd5x4(
            prefix, ketama::Float32Digests(s.weight, total_weight, live_count_),
            owner, rank, &points);
      } else {
        std::string buf = prefix;
        for (uint64_t k = 0; k < 100; ++k) {
          const std::string_view n = ketama::PointName(&buf, prefix.size(), k);
          const uint64_t p =
              mode_ == Mode::kDefault
                  ? OaatLibhashkit::Hash(n.data(), n.size(), 0)
                  : Md5Le32::Hash(n.data(), n.size(), 0);
          points.push_back({p, owner, rank + k});
        }
      }
    }
    return ring_.Assign(std::move(points), servers_.size(),
                        SearchRule::kAtLeast);
  }

  Mode mode_;
  PointRing<32> ring_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_LIBMEMCACHED_LIBMEMCACHED_H_
