// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/preset.h
// -----------------------------------------------------------------------------
//
// A preset is a named, exact re-creation of one production system's
// key-to-server mapping (libmemcached ketama, nginx `hash ... consistent`,
// HAProxy `hash-type consistent`, ...). Every preset is a `ConsistentHash`,
// so it runs wherever an algorithm runs; the registry (presets/registry.h)
// lists them with the system, version and source each reproduces.
//
// Servers. A node's name is the server as the system is configured with it:
// `host:port` for most (libmemcached derives `host-k` point names from it and
// drops port 11211; nginx splits it at the last ':'), a literal peer name for
// groupcache and uhashring. Weights are the systems' integer weights (a
// preset without weights rejects any weight other than 1).
//
// Membership changes. Every system here recomputes its whole continuum or
// table when a server joins or leaves (the point counts of libmemcached,
// twemproxy, hashring and Envoy depend on N), so `AddNode` and `RemoveNode`
// rebuild the lookup structure from the live servers in order of addition:
// an instance after any sequence of changes maps exactly like the system
// configured with its live servers in that order. (Exceptions, stated by
// Capabilities::history_dependent: presets that identify a server by its
// id, which a change keeps and a fresh configuration renumbers: HAProxy's
// puid, and Cassandra's tokens, where with `tokens=even` a joining node
// takes the midpoint of the largest range, as an operator assigns
// `initial_token`.)
//
// Lookup structure. Ring presets generate their system's points and hand
// them, ties already resolved the system's way, to the project's `Ring`
// (ring/ring.h) through `Ring::BuildFromPoints`, so a preset lookup is the
// ring's one-cache-line bucket lookup plus the system's search rule
// (PointRing below). Envoy Maglev uses a Maglev table with the exact
// `FastMod32` reduction; Guava is a loop like jump's.
//
// Replicas. A preset whose system defines a replica preference list
// overrides LookupReplicas with it (Capabilities::replicas): npm hashring's
// and uhashring's range(key, r, unique=true) and Cassandra SimpleStrategy
// walk the ring (WalkReplicas below), Cassandra NetworkTopologyStrategy
// adds its datacenter and rack rule. A server's NodeSpec::zone is its
// location path (algorithms/topology.h), kept in PresetServer::zone.
//
// Complexity: Build/AddNode/RemoveNode O(P log P) for P points (a full
// rebuild); Lookup as the structure it uses (O(1) expected for rings and
// tables, O(log N) for Guava); LookupReplicas O(log P) to find the start,
// then the walk (O(r) points on a ring of many servers, at most one lap).

#ifndef CHBENCH_ALGORITHMS_PRESETS_PRESET_H_
#define CHBENCH_ALGORITHMS_PRESETS_PRESET_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/ring/ring.h"

namespace chbench {

// Options of a preset as given on the command line or in a spec
// ("hash=md5,avalanche=0"): name -> value.
using PresetOptions = std::map<std::string, std::string, std::less<>>;

// Parses "k=v,k=v" (empty = no options). Error on a malformed item.
absl::StatusOr<PresetOptions> ParsePresetOptions(std::string_view text);

// A server of a preset: its spec and the host/port split of its name.
struct PresetServer {
  std::string name;  // as configured, e.g. "10.0.0.1:11211"
  std::string host;  // name before the last ':' when a port follows
  std::string port;  // the digits after the last ':', or ""
  uint32_t weight = 1;
  std::string zone;  // NodeSpec::zone: a location path such as "dc1/r1"
  bool live = true;
};

// The base of every preset: server bookkeeping and full rebuilds.
class Preset : public ConsistentHash {
 public:
  absl::Status Build(std::span<const NodeSpec> nodes) override;
  absl::StatusOr<NodeId> AddNode(const NodeSpec& node) override;
  absl::Status RemoveNode(NodeId id) override;
  size_t size() const override { return live_count_; }
  std::vector<NodeId> LiveNodes() const override;
  const std::string& NodeName(NodeId id) const override {
    return servers_[id].name;
  }
  std::string_view name() const override { return name_; }

  // The live servers in order of addition (what the system is configured
  // with), and their ids.
  const std::vector<PresetServer>& servers() const { return servers_; }

  // Checks r for LookupReplicas: 1..the number of live servers, and
  // CheckFixedReplicaCount.
  absl::Status CheckReplicaCount(size_t r) const;
  // OK unless the configured system places a fixed number of replicas per
  // key and r is not that number (Cassandra NetworkTopologyStrategy: the sum
  // of the per-datacenter replication factors). `chbench map` calls it on an
  // unbuilt instance to check --replicas before reading keys.
  virtual absl::Status CheckFixedReplicaCount(size_t) const {
    return absl::OkStatus();
  }

 protected:
  // `max_weight` 1 = no weights.
  Preset(std::string_view name, uint32_t max_weight, bool needs_port)
      : name_(name), max_weight_(max_weight), needs_port_(needs_port) {}

  // Recomputes the lookup structure from the live servers.
  virtual absl::Status Rebuild() = 0;
  // Extra checks of a removal (Guava: only the last bucket).
  virtual absl::Status CheckRemovable(NodeId) const {
    return absl::OkStatus();
  }
  // The sum of the live servers' weights.
  uint64_t LiveWeightSum() const {
    uint64_t sum = 0;
    for (const PresetServer& s : servers_) sum += s.live ? s.weight : 0;
    return sum;
  }

  absl::StatusOr<PresetServer> ParseServer(const NodeSpec& spec) const;

  // Rebuild's check of a point formula that can give a light server no
  // point (the ketama family: points in proportion to weight / sum): OK
  // when every live server gets a point; otherwise NoPointError for the
  // first server without one. `points(w, total)` is the count for a server
  // of weight w when the live weights sum to `total`, nondecreasing in w;
  // `formula` describes it for the message, e.g. "floor(w / sum * 40 * N)".
  // O(live servers + log(max_weight)) formula calls.
  template <typename F>
  absl::Status CheckEveryServerGetsPoints(F points,
                                          std::string_view formula) const {
    const uint64_t total = LiveWeightSum();
    for (const PresetServer& s : servers_) {
      if (!s.live || points(s.weight, total) > 0) continue;
      return NoPointError(
          s, [&](uint64_t w) { return points(w, total - s.weight + w); },
          formula);
    }
    return absl::OkStatus();
  }

  // The error for live server `s`, whose weight gives it no point: the real
  // system would send it no keys, and chbench refuses the configuration
  // instead, naming the smallest weight (up to max_weight) that gets it a
  // point with the other servers as they are. `points_at(w)` is its count
  // at weight w (nondecreasing; points_at(s.weight) == 0), found by
  // bisection.
  template <typename F>
  absl::Status NoPointError(const PresetServer& s, F points_at,
                            std::string_view formula) const {
    uint64_t lo = s.weight;
    uint64_t hi = max_weight_;
    std::string least;
    if (points_at(hi) == 0) {
      least = absl::StrCat("none up to the largest weight, ", max_weight_);
    } else {
      while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        (points_at(mid) > 0 ? hi : lo) = mid;
      }
      least = absl::StrCat(hi);
    }
    return absl::InvalidArgumentError(absl::StrCat(
        name_, ": server '", s.name, "' weight ", s.weight, " gets ",
        std::string(formula),
        " = 0 points (weights sum to ", LiveWeightSum(), " over ", live_count_,
        " servers), so it would get no keys; the smallest weight with a point "
        "here is ",
        least));
  }

  // LookupReplicas of a system whose preference list is a walk of its ring:
  // the first r distinct servers met clockwise from the key's point (the one
  // Lookup returns), at most one lap (npm hashring and uhashring
  // range(key, r, unique=true); Cassandra SimpleStrategy). With
  // `distinct_zones` a server whose zone is already listed is skipped too
  // (chbench's generic rule, as the ring algorithm's; no system here has
  // it), so the list can be shorter than r.
  template <typename PointRingT>
  absl::Status WalkReplicas(const PointRingT& ring, uint64_t h, size_t r,
                            bool distinct_zones,
                            std::vector<NodeId>* out) const;

  std::string name_;
  std::vector<PresetServer> servers_;
  size_t live_count_ = 0;

 private:
  uint32_t max_weight_;
  bool needs_port_;
};

// Which point owns a key hash h on a sorted circle of points.
enum class SearchRule {
  kAtLeast,  // the first point >= h, wrapping (libketama and most others)
  kGreater,  // the first point > h, wrapping (Python bisect_right)
  kClosest,  // the nearest point before or after h; a tie goes to the point
             // before (HAProxy chash)
};

// One generated point: its position on the circle, its owner, and its place
// in the system's tie order (lower wins among equal positions).
struct PresetPoint {
  uint64_t position;
  NodeId owner;
  uint64_t tie_rank;
};

// A circle of 2^Bits positions with explicit points and a search rule, on
// the project's Ring lookup structure. Equal positions are resolved before
// the ring sees them: the point with the lowest tie_rank is kept (under
// every rule only one point of a run of equal positions can own keys).
template <int Bits>
class PointRing {
 public:
  // A hash policy that only fixes the ring's circle width; the ring never
  // hashes here because its points are given.
  struct Circle {
    static constexpr std::string_view kName = "circle";
    static constexpr int kBits = Bits;
    static constexpr bool kReproducible = true;
    static uint64_t Hash(const void* d, size_t n, uint64_t s) {
      return Xxh64::Hash(d, n, s);
    }
  };

  // `node_count` = ids 0..node_count-1 (removed ones simply have no points).
  // `walk_keeps_equal`: the system's ring keeps every point, equal positions
  // included, and a replica walk visits them all in tie order (npm hashring
  // keeps both points of a collision; uhashring's dict keeps one owner).
  absl::Status Assign(std::vector<PresetPoint> points, size_t node_count,
                      SearchRule rule, bool walk_keeps_equal = false);

  NodeId Lookup(uint64_t h) const {
    constexpr uint64_t kMask =
        Bits == 64 ? ~uint64_t{0} : (uint64_t{1} << Bits) - 1;
    h &= kMask;
    switch (rule_) {
      case SearchRule::kGreater:
        return ring_.Lookup(h);
      case SearchRule::kAtLeast:
        // The first point >= h is the first point > h - 1 (mod 2^Bits);
        // h = 0 wraps to the largest value, whose successor is the first
        // point, as it should be.
        return ring_.Lookup((h - 1) & kMask);
      case SearchRule::kClosest:
        return Closest(h);
    }
    return kInvalidNode;
  }

  // out[i] = Lookup(keys[i]). Under a successor rule (kGreater, kAtLeast)
  // by groups of kLookupGroup keys: each key's ring bucket line is
  // prefetched (Ring::PrefetchLine), then the group is looked up; under
  // kClosest the plain loop (it reads two neighbouring points). Same owners
  // as Lookup; O(1) expected per key.
  void LookupBatch(std::span<const uint64_t> keys,
                   std::span<NodeId> out) const {
    constexpr uint64_t kMask =
        Bits == 64 ? ~uint64_t{0} : (uint64_t{1} << Bits) - 1;
    if (rule_ == SearchRule::kClosest) {
      for (size_t i = 0; i < keys.size(); ++i)
        out[i] = Closest(keys[i] & kMask);
      return;
    }
    // kAtLeast searches for the first point > h - 1 (see Lookup).
    const uint64_t less = rule_ == SearchRule::kAtLeast ? 1 : 0;
    GroupedLookup(
        keys, out,
        [&](uint64_t h) {
          const uint64_t x = ((h & kMask) - less) & kMask;
          ring_.PrefetchLine(x);
          return x;
        },
        [&](uint64_t, uint64_t x) { return ring_.Lookup(x); });
  }

  size_t MemoryBytes() const {
    return ring_.MemoryBytes() + walk_points_.capacity() * sizeof(uint64_t) +
           walk_owners_.capacity() * sizeof(NodeId);
  }
  size_t point_count() const { return ring_.points().size(); }
  const Ring<Circle>& ring() const { return ring_; }

  // The points a replica walk visits, ascending, and their owners: the
  // ring's, or with `walk_keeps_equal` every point given to Assign (kept
  // apart only when some positions were equal).
  std::span<const uint64_t> walk_points() const {
    return walk_points_.empty() ? ring_.points()
                                : std::span<const uint64_t>(walk_points_);
  }
  std::span<const NodeId> walk_owners() const {
    return walk_owners_.empty() ? ring_.owners()
                                : std::span<const NodeId>(walk_owners_);
  }
  // The index in walk_points() of the point that owns h under the rule
  // (kAtLeast: the first point >= h; kGreater: the first point > h;
  // wrapping to 0). Its owner is Lookup(h). Not for kClosest.
  size_t WalkStart(uint64_t h) const {
    constexpr uint64_t kMask =
        Bits == 64 ? ~uint64_t{0} : (uint64_t{1} << Bits) - 1;
    h &= kMask;
    const std::span<const uint64_t> pts = walk_points();
    const auto it = rule_ == SearchRule::kGreater
                        ? std::upper_bound(pts.begin(), pts.end(), h)
                        : std::lower_bound(pts.begin(), pts.end(), h);
    return it == pts.end() ? 0 : static_cast<size_t>(it - pts.begin());
  }

 private:
  NodeId Closest(uint64_t h) const {
    constexpr uint64_t kMask =
        Bits == 64 ? ~uint64_t{0} : (uint64_t{1} << Bits) - 1;
    const std::span<const uint64_t> pts = ring_.points();
    const std::span<const NodeId> own = ring_.owners();
    const uint32_t n = static_cast<uint32_t>(pts.size());
    uint32_t next = ring_.SuccessorPosition((h - 1) & kMask);
    if (next == n) next = 0;
    const uint32_t prev = next == 0 ? n - 1 : next - 1;
    const uint64_t dprev = (h - pts[prev]) & kMask;
    const uint64_t dnext = (pts[next] - h) & kMask;
    return dprev <= dnext ? own[prev] : own[next];
  }

  Ring<Circle> ring_{1};
  SearchRule rule_ = SearchRule::kAtLeast;
  std::vector<uint64_t> walk_points_;  // empty: the ring's points
  std::vector<NodeId> walk_owners_;
};

template <int Bits>
absl::Status PointRing<Bits>::Assign(std::vector<PresetPoint> points,
                                     size_t node_count, SearchRule rule,
                                     bool walk_keeps_equal) {
  rule_ = rule;
  walk_points_.clear();
  walk_owners_.clear();
  std::sort(points.begin(), points.end(),
            [](const PresetPoint& a, const PresetPoint& b) {
              return a.position != b.position ? a.position < b.position
                                              : a.tie_rank < b.tie_rank;
            });
  std::vector<std::vector<uint64_t>> per_node(node_count);
  bool dropped = false;
  for (size_t i = 0; i < points.size(); ++i) {
    if (i > 0 && points[i].position == points[i - 1].position) {
      dropped = true;
      continue;
    }
    per_node[points[i].owner].push_back(points[i].position);
  }
  if (walk_keeps_equal && dropped) {
    walk_points_.reserve(points.size());
    walk_owners_.reserve(points.size());
    for (const PresetPoint& p : points) {
      walk_points_.push_back(p.position);
      walk_owners_.push_back(p.owner);
    }
  }
  std::vector<NodeSpec> specs(node_count);
  for (size_t i = 0; i < node_count; ++i) specs[i].name = absl::StrCat("#", i);
  return ring_.BuildFromPoints(specs, per_node);
}

template <typename PointRingT>
absl::Status Preset::WalkReplicas(const PointRingT& ring, uint64_t h, size_t r,
                                  bool distinct_zones,
                                  std::vector<NodeId>* out) const {
  out->clear();
  if (absl::Status s = CheckReplicaCount(r); !s.ok()) return s;
  const std::span<const NodeId> owners = ring.walk_owners();
  const size_t n = owners.size();
  size_t pos = ring.WalkStart(h);
  for (size_t step = 0; step < n && out->size() < r; ++step) {
    const NodeId owner = owners[pos];
    if (++pos == n) pos = 0;
    if (std::find(out->begin(), out->end(), owner) != out->end()) continue;
    if (distinct_zones && std::any_of(out->begin(), out->end(), [&](NodeId id) {
          return servers_[id].zone == servers_[owner].zone;
        })) {
      continue;
    }
    out->push_back(owner);
  }
  return absl::OkStatus();
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_PRESET_H_
