// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/envoy/envoy.h
// -----------------------------------------------------------------------------
//
// Envoy's two consistent load balancers, as modelled from its source
// (ring_hash_lb.cc, maglev_lb.cc). No Envoy binary is
// packaged for Debian or npm: these presets are checked against the
// expectations in Envoy's own unit tests (envoy-test-vectors.tsv), not a
// running Envoy.
//
// envoy_ring_hash (ring_hash_lb.cc; options min_ring_size = 1024,
// max_ring_size = 8388608):
//   * Host key: the address string "ip:port" (the node name).
//   * Normalized weights w_i = weight_i / sum (doubles); scale =
//     min(ceil(min_w * min_ring) / min_w, max_ring); walking the hosts in
//     order, target += scale * w_i and while current < target the host gets
//     the point xxh64("key_" + decimal(i), seed 0), i = 0, 1, ...; current
//     += 1. Equal weights give ceil(1024 / N) points per host, so the count
//     changes with N.
//   * Key hash xxh64(key, 0); owner: the first point >= h, else the first
//     point (libketama's search). Equal points: the host listed first
//     (Envoy's std::sort leaves their order unspecified).
// envoy_maglev (maglev_lb.cc; option table_size = 65537, prime):
//   * Hosts sorted by host key; offset = xxh64(key, 0) mod M, skip =
//     xxh64(key, 1) mod (M - 1) + 1 (the `maglev` algorithm's OffsetSkip
//     with xxh64).
//   * Turns: iteration t = 1, 2, ...; each host in order takes a turn iff
//     t * w_i >= target_i (normalized weights), then target_i += max_w and it
//     claims its next free preferred slot, until the table is full.
//   * Owner: table[xxh64(key, 0) mod M].

#ifndef CHBENCH_ALGORITHMS_PRESETS_ENVOY_ENVOY_H_
#define CHBENCH_ALGORITHMS_PRESETS_ENVOY_ENVOY_H_

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/presets/preset.h"

namespace chbench {

class EnvoyRingHashPreset final : public Preset {
 public:
  EnvoyRingHashPreset(uint64_t min_ring_size, uint64_t max_ring_size)
      : Preset("envoy_ring_hash", /*max_weight=*/1u << 20, false),
        min_ring_(min_ring_size),
        max_ring_(max_ring_size) {}

  Capabilities capabilities() const override {
    return {.arbitrary_removal = true, .weights = true};
  }
  uint64_t HashKey(std::string_view key) const override {
    return Xxh64::Hash(key.data(), key.size(), 0);
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
  // Each server's point count (0 for the dead ones), Envoy's loop without
  // the hashing, with server `id`'s weight replaced by `weight` (none when
  // id is out of range).
  std::vector<uint64_t> PointCounts(size_t id, uint64_t weight) const {
    auto weight_of = [&](size_t i) -> uint64_t {
      return i == id ? weight : servers_[i].weight;
    };
    uint64_t total = 0;
    for (size_t i = 0; i < servers_.size(); ++i) {
      total += servers_[i].live ? weight_of(i) : 0;
    }
    const double sum = static_cast<double>(total);
    double min_w = 1.0;
    for (size_t i = 0; i < servers_.size(); ++i) {
      if (servers_[i].live) min_w = std::min(min_w, weight_of(i) * 1.0 / sum);
    }
    const double scale =
        std::min(std::ceil(min_w * static_cast<double>(min_ring_)) / min_w,
                 static_cast<double>(max_ring_));
    std::vector<uint64_t> counts(servers_.size(), 0);
    double current = 0;
    double target = 0;
    for (size_t i = 0; i < servers_.size(); ++i) {
      if (!servers_[i].live) continue;
      target += scale * (weight_of(i) * 1.0 / sum);
      for (; current < target; current += 1) ++counts[i];
    }
    return counts;
  }

  absl::Status Rebuild() override {
    // A host whose share is below 1 / max_ring_size can get no point (the
    // ring is capped); refuse it, naming the weight that gets one.
    const std::vector<uint64_t> counts =
        PointCounts(servers_.size(), /*weight=*/0);
    for (size_t id = 0; id < servers_.size(); ++id) {
      if (!servers_[id].live || counts[id] > 0) continue;
      return NoPointError(
          servers_[id],
          [&](uint64_t w) { return PointCounts(id, w)[id]; },
          "its share of a ring capped at max_ring_size");
    }
    const double sum = static_cast<double>(LiveWeightSum());
    double min_w = 1.0;
    for (const PresetServer& s : servers_) {
      if (s.live) min_w = std::min(min_w, s.weight * 1.0 / sum);
    }
    const double scale =
        std::min(std::ceil(min_w * static_cast<double>(min_ring_)) / min_w,
                 static_cast<double>(max_ring_));
    std::vector<PresetPoint> points;
    double current = 0;
    double target = 0;
    std::string buf;
    uint64_t rank = 0;
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      target += scale * (s.weight * 1.0 / sum);
      buf = s.name + "_";
      const size_t base = buf.size();
      for (uint64_t i = 0; current < target; ++i, current += 1) {
        buf.resize(base + 24);
        char* end = std::to_chars(buf.data() + base, buf.data() + buf.size(), i)
                        .ptr;
        points.push_back({Xxh64::Hash(buf.data(), end - buf.data(), 0),
                          static_cast<NodeId>(id), rank++});
      }
    }
    return ring_.Assign(std::move(points), servers_.size(),
                        SearchRule::kAtLeast);
  }

  uint64_t min_ring_;
  uint64_t max_ring_;
  PointRing<64> ring_;
};

class EnvoyMaglevPreset final : public Preset {
 public:
  explicit EnvoyMaglevPreset(uint64_t table_size)
      : Preset("envoy_maglev", /*max_weight=*/1u << 20, false),
        m_(table_size),
        mod_(static_cast<uint32_t>(table_size)) {}

  Capabilities capabilities() const override {
    return {.arbitrary_removal = true, .weights = true};
  }
  uint64_t HashKey(std::string_view key) const override {
    return Xxh64::Hash(key.data(), key.size(), 0);
  }
  NodeId Lookup(uint64_t h) const override { return table_[mod_(h)]; }
  // out[i] = Lookup(key_hashes[i]), by groups of kLookupGroup keys: every
  // key's slot is computed and its table entry prefetched, then read. Same
  // owners as Lookup; O(1) per key.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    const NodeId* const table = table_.data();
    GroupedLookup(
        key_hashes, out,
        [&](uint64_t h) {
          const uint64_t s = mod_(h);
          __builtin_prefetch(table + s);
          return s;
        },
        [&](uint64_t, uint64_t s) { return table[s]; });
  }
  size_t MemoryBytes() const override {
    return table_.capacity() * sizeof(NodeId);
  }

 private:
  absl::Status Rebuild() override {
    struct Host {
      NodeId id;
      double weight;
      uint64_t offset, skip, next = 0;
      double target = 0;
    };
    std::vector<Host> hosts;
    const double sum = static_cast<double>(LiveWeightSum());
    for (size_t id = 0; id < servers_.size(); ++id) {
      const PresetServer& s = servers_[id];
      if (!s.live) continue;
      const auto [offset, skip] = Maglev<Xxh64>::OffsetSkip(s.name, m_);
      hosts.push_back({static_cast<NodeId>(id), s.weight * 1.0 / sum, offset,
                       skip});
    }
    if (hosts.size() > m_) {
      return absl::InvalidArgumentError(
          absl::StrCat("envoy_maglev: ", hosts.size(),
                       " hosts do not fit a table of ", m_, " entries"));
    }
    std::sort(hosts.begin(), hosts.end(), [&](const Host& a, const Host& b) {
      return servers_[a.id].name < servers_[b.id].name;
    });
    double max_w = 0;
    for (const Host& h : hosts) max_w = std::max(max_w, h.weight);
    table_.assign(m_, kInvalidNode);
    if (hosts.empty()) return absl::OkStatus();
    uint64_t filled = 0;
    for (uint64_t t = 1; filled < m_; ++t) {
      for (Host& h : hosts) {
        if (static_cast<double>(t) * h.weight < h.target) continue;
        h.target += max_w;
        uint64_t c = (h.offset + h.skip * h.next) % m_;
        while (table_[c] != kInvalidNode) {
          ++h.next;
          c = (h.offset + h.skip * h.next) % m_;
        }
        table_[c] = h.id;
        ++h.next;
        if (++filled == m_) break;
      }
    }
    return absl::OkStatus();
  }

  uint64_t m_;
  maglev_internal::FastMod32 mod_;
  std::vector<NodeId> table_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_ENVOY_ENVOY_H_
