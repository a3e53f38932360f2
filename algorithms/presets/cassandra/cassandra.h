// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/cassandra/cassandra.h
// -----------------------------------------------------------------------------
//
// Apache Cassandra's Murmur3Partitioner with explicit tokens: the primary
// replica of a partition key (from Cassandra's source; verified through
// npm cassandra-driver 4.10.0, whose tokenizer and ring
// are ports of Cassandra's):
//
//   * Key token: h1 of MurmurHash3_x64_128, seed 0, over the key's UTF-8
//     bytes (a single text column), with Cassandra's sign-extended tail bytes
//     (`murmur3_cassandra`), as a signed int64; the server maps -2^63 to
//     2^63 - 1 (Murmur3Partitioner.normalize).
//   * Ownership: the node with the first ring token >= the key token in
//     signed order, wrapping to the smallest.
//   * Tokens, option `tokens` (random or allocator-chosen tokens are not
//     reproducible, so a preset takes a deterministic rule):
//       even           (default) Build gives node i of N the single token
//                      i * floor(2^64 / N) - 2^63 (the classic initial_token
//                      list); a node added later takes the midpoint of the
//                      largest range, as an operator would assign it; tokens
//                      never move (history dependent).
//       splitmix64:T   node with id i owns T tokens signed64(splitmix64(1000
//                      * (i + 1) + j)), j = 0..T-1: a fixed stand-in for
//                      random allocation (num_tokens = T).
//       list:A/B/...   explicit initial_token lists: node with id i owns the
//                      i-th '/'-separated group, tokens separated by '|'
//                      (e.g. list:-9223372036854775808/0); a node added
//                      beyond the list is refused.
//   `HashKey` returns the token's bits xor 2^63, so that unsigned order is
//   the signed token order.
//
// Replicas (LookupReplicas, option `strategy`), the Cassandra 4.x server's
// rules (locator/SimpleStrategy.java, NetworkTopologyStrategy.java
// calculateNaturalReplicas), walking the token ring once clockwise from the
// key's token (the first token >= it):
//   simple  (default) SimpleStrategy with RF = r: the first r distinct hosts.
//   nts     NetworkTopologyStrategy, option rf=DC:N/DC:N/... (e.g.
//           rf=dc1:3/dc2:2), r = the sum of the N. A server's location
//           (NodeSpec::zone, from a topology file) is dc/rack. Per DC with
//           N > 0 and hosts: it takes min(N, hosts) hosts; a host of a rack
//           not yet used in its DC is taken, a host of a used rack only
//           while fewer than N - racks(DC) such repeats were taken; one
//           list in acceptance order, DCs interleaved as the walk meets
//           them, never a host twice. A DC with fewer hosts than N gives
//           fewer replicas. A location "dc" alone is rack ""; levels below
//           the rack are ignored.
// The server's source was read, not run (no Cassandra server is packaged);
// SimpleStrategy and NTS with racks >= N per DC equal the driver's lists.
// npm cassandra-driver 4.10.0 (lib/metadata/schema-parser.js
// getTokenToReplicaNetworkMapper) defers a rack repeat until every rack of
// the DC is used and shares one skipped list across DCs: with one repeat
// per DC its list is the server's set in another order, with more it can
// list a host twice (Debian python3-cassandra 3.25.0 metadata.py has the
// first defect too; the differences are tested in replicas_test.cc).

#ifndef CHBENCH_ALGORITHMS_PRESETS_CASSANDRA_CASSANDRA_H_
#define CHBENCH_ALGORITHMS_PRESETS_CASSANDRA_CASSANDRA_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/hash/preset_hashes.h"
#include "algorithms/presets/preset.h"
#include "algorithms/topology.h"

namespace chbench {

// The first output of SplitMix64 with state x (Steele et al., 2014).
inline uint64_t SplitMix64First(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The replication strategy of a Cassandra keyspace.
struct CassandraReplication {
  bool nts = false;  // NetworkTopologyStrategy; false: SimpleStrategy
  // NTS: datacenter -> replication factor, in option order.
  std::vector<std::pair<std::string, uint32_t>> rf;
  std::string rf_text;  // the rf option as given, for messages
};

class CassandraPreset final : public Preset {
 public:
  static constexpr uint64_t kBias = uint64_t{1} << 63;

  // tokens_per_node 0 = `even`.
  explicit CassandraPreset(uint32_t tokens_per_node)
      : Preset("cassandra", /*max_weight=*/1, /*needs_port=*/false),
        per_node_(tokens_per_node) {}
  // Explicit tokens: node i owns explicit[i].
  explicit CassandraPreset(std::vector<std::vector<int64_t>> explicit_tokens)
      : Preset("cassandra", /*max_weight=*/1, /*needs_port=*/false),
        per_node_(0),
        explicit_(std::move(explicit_tokens)) {}

  // History-dependent under every token rule: `even` keeps tokens where
  // they were, and splitmix64 and list give node id i its tokens, so after
  // nodes come and go the ring differs from a fresh Build of the live nodes,
  // which numbers them 0..k-1 again (found by fuzz/ops_fuzzer.cc).
  Capabilities capabilities() const override {
    return {.arbitrary_removal = true,
            .minimal_disruption = true,
            .replicas = true,
            .history_dependent = true};
  }
  // Before the first Build.
  void set_replication(CassandraReplication replication) {
    replication_ = std::move(replication);
  }
  const CassandraReplication& replication() const { return replication_; }

  absl::Status CheckFixedReplicaCount(size_t r) const override {
    if (!replication_.nts || r == RfSum()) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        "cassandra: strategy=nts places the sum of rf=", replication_.rf_text,
        " = ", RfSum(), " replicas per key, not ", r, "; valid: ", RfSum()));
  }
  absl::Status LookupReplicas(uint64_t h, size_t r, bool distinct_zones,
                              std::vector<NodeId>* out) const override {
    if (!replication_.nts) {
      return WalkReplicas(ring_, h, r, distinct_zones, out);
    }
    out->clear();
    if (distinct_zones) {
      return absl::InvalidArgumentError(
          "cassandra: strategy=nts places replicas by datacenter and rack "
          "itself; distinct zones do not apply");
    }
    if (absl::Status s = CheckReplicaCount(r); !s.ok()) return s;
    NetworkTopologyWalk(h, out);
    return absl::OkStatus();
  }
  // The signed token, bits xor 2^63.
  uint64_t HashKey(std::string_view key) const override {
    uint64_t t = Murmur3Cassandra::Hash(key.data(), key.size(), 0);
    if (t == kBias) t = kBias - 1;  // normalize: -2^63 -> 2^63 - 1
    return t ^ kBias;
  }
  NodeId Lookup(uint64_t h) const override { return ring_.Lookup(h); }
  // The ring's batched lookup (PointRing::LookupBatch): same owners as
  // Lookup, the group's ring lines prefetched.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    ring_.LookupBatch(key_hashes, out);
  }
  size_t MemoryBytes() const override {
    return ring_.MemoryBytes() + tokens_.capacity() * sizeof(tokens_[0]) +
           dcs_.capacity() * sizeof(Datacenter) +
           (dc_of_.capacity() + rack_of_.capacity()) * sizeof(uint32_t);
  }
  // Signed tokens of node `id`.
  const std::vector<int64_t>& tokens(NodeId id) const { return tokens_[id]; }

  absl::Status Build(std::span<const NodeSpec> nodes) override {
    std::vector<std::vector<int64_t>> saved = std::move(tokens_);
    tokens_.clear();
    absl::Status s = Preset::Build(nodes);
    if (!s.ok()) tokens_ = std::move(saved);
    return s;
  }

 private:
  absl::Status AssignTokens() {
    if (tokens_.size() > servers_.size()) tokens_.resize(servers_.size());
    const size_t first_new = tokens_.size();
    if (!explicit_.empty()) {
      if (servers_.size() > explicit_.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cassandra: server '", servers_[explicit_.size()].name,
            "' has no token in tokens=list (", explicit_.size(),
            " token groups for ", servers_.size(), " servers)"));
      }
      for (size_t id = first_new; id < servers_.size(); ++id) {
        tokens_.push_back(explicit_[id]);
      }
      return absl::OkStatus();
    }
    if (per_node_ > 0) {
      for (size_t id = first_new; id < servers_.size(); ++id) {
        std::vector<int64_t> t(per_node_);
        for (uint32_t j = 0; j < per_node_; ++j) {
          t[j] = static_cast<int64_t>(SplitMix64First(1000 * (id + 1) + j));
        }
        tokens_.push_back(std::move(t));
      }
      return absl::OkStatus();
    }
    if (first_new == 0) {  // a fresh Build: the even initial_token list
      const uint64_t n = servers_.size();
      for (uint64_t i = 0; i < n; ++i) {
        tokens_.push_back({static_cast<int64_t>(i * FloorTwo64Div(n) - kBias)});
      }
      return absl::OkStatus();
    }
    for (size_t id = first_new; id < servers_.size(); ++id) {
      // The midpoint of the largest range between live tokens.
      std::vector<uint64_t> sorted;
      for (size_t k = 0; k < tokens_.size(); ++k) {
        if (!servers_[k].live) continue;
        for (int64_t t : tokens_[k]) sorted.push_back(uint64_t(t) ^ kBias);
      }
      std::sort(sorted.begin(), sorted.end());
      uint64_t best_start = 0;
      uint64_t best_len = 0;
      for (size_t k = 0; k < sorted.size(); ++k) {
        const uint64_t a = sorted[k];
        const uint64_t b = sorted[(k + 1) % sorted.size()];
        const uint64_t len = b - a;  // wraps for the last range
        if (len > best_len || (sorted.size() == 1)) {
          best_len = sorted.size() == 1 ? ~uint64_t{0} : len;
          best_start = a;
        }
      }
      const uint64_t mid = best_start + best_len / 2 + (best_len & 1);
      tokens_.push_back({static_cast<int64_t>(mid ^ kBias)});
    }
    return absl::OkStatus();
  }

  // floor(2^64 / n) for n >= 1 (2^64 - 1 stands for 2^64 when n = 1).
  static uint64_t FloorTwo64Div(uint64_t n) {
    if (n == 1) return ~uint64_t{0};
    const uint64_t q = ~uint64_t{0} / n;
    // 2^64 = (2^64 - 1) + 1: one more when n divides 2^64.
    return (~uint64_t{0} % n == n - 1) ? q + 1 : q;
  }

  uint32_t RfSum() const {
    uint32_t sum = 0;
    for (const auto& [dc, n] : replication_.rf) sum += n;
    return sum;
  }

  // Server i's datacenter (index into dcs_, or kNoDc when its DC is not
  // replicated) and (dc, rack) index, from the live servers' locations.
  static constexpr uint32_t kNoDc = ~uint32_t{0};
  struct Datacenter {
    uint32_t rf = 0;
    uint32_t hosts = 0;
    uint32_t racks = 0;
  };
  absl::Status AssignLocations() {
    dcs_.assign(replication_.rf.size(), Datacenter{});
    dc_of_.assign(servers_.size(), kNoDc);
    rack_of_.assign(servers_.size(), 0);
    if (!replication_.nts) return absl::OkStatus();
    for (size_t d = 0; d < replication_.rf.size(); ++d) {
      dcs_[d].rf = replication_.rf[d].second;
    }
    std::vector<std::pair<uint32_t, std::string>> racks;  // (dc, rack) seen
    for (size_t id = 0; id < servers_.size(); ++id) {
      if (!servers_[id].live) continue;
      const std::vector<std::string_view> path =
          SplitLocation(servers_[id].zone);
      if (path.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cassandra: strategy=nts needs every server's location dc/rack; "
            "server '",
            servers_[id].name,
            "' has none (give the servers with a topology file)"));
      }
      uint32_t d = kNoDc;
      for (size_t k = 0; k < replication_.rf.size(); ++k) {
        if (replication_.rf[k].first == path[0]) d = static_cast<uint32_t>(k);
      }
      if (d == kNoDc) continue;  // a datacenter the keyspace does not use
      dc_of_[id] = d;
      ++dcs_[d].hosts;
      const std::string rack(path.size() > 1 ? path[1] : std::string_view());
      const auto it =
          std::find(racks.begin(), racks.end(), std::make_pair(d, rack));
      rack_of_[id] = static_cast<uint32_t>(it - racks.begin());
      if (it == racks.end()) {
        racks.emplace_back(d, rack);
        ++dcs_[d].racks;
      }
    }
    rack_count_ = racks.size();
    return absl::OkStatus();
  }

  // calculateNaturalReplicas of the Cassandra 4.x server (see the header).
  void NetworkTopologyWalk(uint64_t h, std::vector<NodeId>* out) const {
    const std::span<const NodeId> owners = ring_.walk_owners();
    const size_t n = owners.size();
    std::vector<uint32_t> left(dcs_.size());
    std::vector<int64_t> repeats(dcs_.size());
    size_t to_fill = 0;
    for (size_t d = 0; d < dcs_.size(); ++d) {
      if (dcs_[d].rf == 0 || dcs_[d].hosts == 0) continue;
      left[d] = std::min(dcs_[d].rf, dcs_[d].hosts);
      repeats[d] = int64_t{dcs_[d].rf} - dcs_[d].racks;
      ++to_fill;
    }
    std::vector<bool> rack_seen(rack_count_, false);
    size_t pos = ring_.WalkStart(h);
    for (size_t step = 0; step < n && to_fill > 0; ++step) {
      const NodeId host = owners[pos];
      if (++pos == n) pos = 0;
      const uint32_t d = dc_of_[host];
      if (d == kNoDc || left[d] == 0) continue;
      if (std::find(out->begin(), out->end(), host) != out->end()) continue;
      if (rack_seen[rack_of_[host]]) {
        if (repeats[d] <= 0) continue;  // keep room for the unused racks
        --repeats[d];
      } else {
        rack_seen[rack_of_[host]] = true;
      }
      out->push_back(host);
      if (--left[d] == 0) --to_fill;
    }
  }

  absl::Status Rebuild() override {
    if (absl::Status s = AssignTokens(); !s.ok()) return s;
    if (absl::Status s = AssignLocations(); !s.ok()) return s;
    std::vector<PresetPoint> points;
    for (size_t id = 0; id < servers_.size(); ++id) {
      if (!servers_[id].live) continue;
      for (size_t j = 0; j < tokens_[id].size(); ++j) {
        points.push_back({uint64_t(tokens_[id][j]) ^ kBias,
                          static_cast<NodeId>(id), (uint64_t(id) << 32) + j});
      }
    }
    return ring_.Assign(std::move(points), servers_.size(),
                        SearchRule::kAtLeast);
  }

  uint32_t per_node_;
  std::vector<std::vector<int64_t>> explicit_;
  std::vector<std::vector<int64_t>> tokens_;
  PointRing<64> ring_;
  CassandraReplication replication_;
  // strategy=nts: per datacenter of rf, per server (by id), rack count.
  std::vector<Datacenter> dcs_;
  std::vector<uint32_t> dc_of_;
  std::vector<uint32_t> rack_of_;
  size_t rack_count_ = 0;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_CASSANDRA_CASSANDRA_H_
