// Copyright 2026 The chbench Authors.
//
// The "replicas" experiment kind (replicas.h): replica placement on flat and
// zoned topologies, after a join and after a failure.

#include "experiments/kinds/replicas.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "algorithms/util/random.h"
#include "experiments/kinds/common.h"
#include "workload/node_names.h"

namespace chbench {
namespace kinds {
namespace {

constexpr uint64_t kFailedNodeSalt = 0x6661696c6564ULL;   // "failed"
constexpr uint64_t kFailureSetSalt = 0x6c6f73736573ULL;   // "losses"
// Ids packed into a copyset key: 24 bits each (nodes <= 2^24), 5 per key.
constexpr int kIdBits = 24;
constexpr size_t kMaxPackedMembers = 5;
// The failure sizes of loss_probability_f<f>.
constexpr size_t kMinFailures = 2, kMaxFailures = 5;

// The number of racks of racks_hosts with n nodes: ceil(sqrt(n / 2)), the
// smallest R with 2 R^2 >= n.
size_t Racks(size_t n) {
  size_t r = static_cast<size_t>(std::sqrt(static_cast<double>(n) / 2.0));
  while (2 * r * r < n) ++r;
  while (r > 1 && 2 * (r - 1) * (r - 1) >= n) --r;
  return std::max<size_t>(r, 1);
}

std::string RackHost(size_t i, size_t racks) {
  const size_t host = i / 2;
  return absl::StrCat("r", host % racks, "/h", host);
}

// C(n, k) as a double (exact below 2^53).
double Choose(size_t n, size_t k) {
  if (k > n) return 0;
  double c = 1;
  for (size_t i = 0; i < k; ++i) {
    c = c * static_cast<double>(n - i) / static_cast<double>(i + 1);
  }
  return std::round(c);
}

// Distinct sets pack to distinct keys: r ids of kIdBits fit in 128 bits.
static_assert(kMaxReplicas * kIdBits <= 128);
absl::uint128 Pack(const uint32_t* ids, size_t r) {
  absl::uint128 key = 0;
  for (size_t i = 0; i < r; ++i) key = (key << kIdBits) | ids[i];
  return key;
}

// The index tuples of the r-subsets of {0..f-1}, ascending, flattened.
std::vector<uint8_t> SubsetIndices(size_t f, size_t r) {
  std::vector<uint8_t> out;
  std::vector<uint8_t> idx(r);
  for (size_t i = 0; i < r; ++i) idx[i] = static_cast<uint8_t>(i);
  while (true) {
    out.insert(out.end(), idx.begin(), idx.end());
    size_t i = r;
    while (i > 0 && idx[i - 1] == f - r + i - 1) --i;
    if (i == 0) break;
    ++idx[i - 1];
    for (size_t j = i; j < r; ++j) idx[j] = static_cast<uint8_t>(idx[j - 1] + 1);
  }
  return out;
}

// Each key's preference list of r nodes, flattened (K x r); `buf` reused.
absl::Status PreferenceLists(const ConsistentHash& algo,
                             std::span<const uint64_t> digests, size_t r,
                             bool distinct_zones, std::vector<uint32_t>* out) {
  out->resize(digests.size() * r);
  std::vector<NodeId> buf;
  buf.reserve(r);
  for (size_t k = 0; k < digests.size(); ++k) {
    if (absl::Status s = algo.LookupReplicas(digests[k], r, distinct_zones,
                                             &buf);
        !s.ok()) {
      return s;
    }
    if (buf.size() != r) {
      return absl::InternalError(absl::StrCat(
          std::string(algo.name()), ": LookupReplicas listed ", buf.size(),
          " nodes for r = ", r));
    }
    std::copy(buf.begin(), buf.end(), out->begin() + k * r);
  }
  return absl::OkStatus();
}

// The lists with each list's members sorted (the unordered replica sets).
std::vector<uint32_t> SortedSets(std::vector<uint32_t> lists, size_t r) {
  for (size_t off = 0; off < lists.size(); off += r) {
    std::sort(lists.begin() + off, lists.begin() + off + r);
  }
  return lists;
}

// Replica-set changes between two lists of sorted sets of r members.
struct SetChanges {
  std::array<uint64_t, 3> changed = {0, 0, 0};  // 0, 1, >= 2 members
  uint64_t moved = 0;                            // sum of |new \ old|
  std::vector<uint64_t> received;                // new members per node
};

SetChanges CompareSets(std::span<const uint32_t> before,
                       std::span<const uint32_t> after, size_t r,
                       size_t nodes) {
  SetChanges s;
  s.received.assign(nodes, 0);
  for (size_t off = 0; off < before.size(); off += r) {
    const uint32_t* a = before.data() + off;
    const uint32_t* b = after.data() + off;
    size_t i = 0, j = 0, fresh = 0;
    while (j < r) {
      if (i < r && a[i] < b[j]) {
        ++i;
      } else if (i < r && a[i] == b[j]) {
        ++i;
        ++j;
      } else {
        ++fresh;
        ++s.received[b[j]];
        ++j;
      }
    }
    ++s.changed[std::min<size_t>(fresh, 2)];
    s.moved += fresh;
  }
  return s;
}

// The distinct sets among `sets` (sorted sets of r), flattened, ascending.
std::vector<uint32_t> DistinctSets(std::span<const uint32_t> sets, size_t r) {
  const size_t k = sets.size() / r;
  std::vector<uint32_t> order(k);
  for (size_t i = 0; i < k; ++i) order[i] = static_cast<uint32_t>(i);
  const auto less = [&](uint32_t x, uint32_t y) {
    return std::lexicographical_compare(
        sets.begin() + x * r, sets.begin() + (x + 1) * r,
        sets.begin() + y * r, sets.begin() + (y + 1) * r);
  };
  std::sort(order.begin(), order.end(), less);
  std::vector<uint32_t> out;
  out.reserve(sets.size());
  for (size_t i = 0; i < k; ++i) {
    if (i > 0 && !less(order[i - 1], order[i])) continue;
    out.insert(out.end(), sets.begin() + order[i] * r,
               sets.begin() + (order[i] + 1) * r);
  }
  return out;
}

// For each node, the distinct other nodes sharing a copyset with it.
std::vector<uint32_t> ScatterWidths(std::span<const uint32_t> copysets,
                                    size_t r, size_t nodes) {
  std::vector<uint64_t> pairs;
  pairs.reserve(copysets.size() * (r - 1));
  for (size_t off = 0; off < copysets.size(); off += r) {
    for (size_t i = 0; i < r; ++i) {
      for (size_t j = 0; j < r; ++j) {
        if (i == j) continue;
        pairs.push_back(uint64_t{copysets[off + i]} << 32 | copysets[off + j]);
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::vector<uint32_t> width(nodes, 0);
  for (uint64_t p : pairs) ++width[p >> 32];
  return width;
}

// max / mean and min / mean of `loads` (mean = total / size).
std::pair<double, double> MaxMinOverMean(const std::vector<uint64_t>& loads,
                                         double mean) {
  const auto [lo, hi] = std::minmax_element(loads.begin(), loads.end());
  return {static_cast<double>(*hi) / mean, static_cast<double>(*lo) / mean};
}

// The largest share of `counts` on one entry, and how many are nonzero.
std::pair<std::optional<double>, uint64_t> MaxShare(
    const std::vector<uint64_t>& counts) {
  uint64_t total = 0, top = 0, used = 0;
  for (uint64_t c : counts) {
    total += c;
    top = std::max(top, c);
    used += c > 0;
  }
  if (total == 0) return {std::nullopt, 0};
  return {static_cast<double>(top) / static_cast<double>(total), used};
}

}  // namespace

absl::StatusOr<std::string> TopologyLocation(std::string_view topology,
                                             size_t i, size_t n) {
  if (topology == "flat") return std::string();
  if (topology == "zones3") return absl::StrCat("z", i % 3);
  if (topology == "zones3_uneven") {
    if (10 * i < 5 * n) return std::string("z0");
    if (10 * i < 8 * n) return std::string("z1");
    return std::string("z2");
  }
  if (topology == "racks_hosts") return RackHost(i, Racks(n));
  return absl::InvalidArgumentError(
      absl::StrCat("unknown topology '", std::string(topology),
                   "'; valid: ", JoinViews(kReplicaTopologies)));
}

absl::StatusOr<std::string> JoinedLocation(std::string_view topology,
                                           size_t n) {
  if (topology == "racks_hosts") return RackHost(n, Racks(n));
  return TopologyLocation(topology, n, n + 1);
}

uint32_t FailedNode(size_t n, uint64_t seed) {
  Sfc64 rng(seed ^ kFailedNodeSalt);
  return static_cast<uint32_t>(rng.Below(n));
}

LossProbability FailureLossProbability(std::span<const uint32_t> copysets,
                                       size_t r, size_t n, size_t f,
                                       uint64_t seed, uint64_t max_enumerated,
                                       uint64_t samples) {
  if (f > n) {
    return {std::nullopt,
            absl::StrCat("not applicable: ", f, " failures of ", n, " nodes")};
  }
  if (f < r) return {0.0, "exact: fewer failures than replicas"};
  const size_t sets = copysets.size() / r;
  if (f == r) {
    return {static_cast<double>(sets) / Choose(n, r),
            "exact: copysets_used / C(N, r)"};
  }
  absl::flat_hash_set<absl::uint128> index;
  index.reserve(sets);
  for (size_t off = 0; off < copysets.size(); off += r) {
    index.insert(Pack(copysets.data() + off, r));
  }
  const std::vector<uint8_t> sub = SubsetIndices(f, r);
  std::array<uint32_t, kMaxFailures> failed{};
  std::array<uint32_t, kMaxPackedMembers> members{};
  const auto destroys = [&]() {
    for (size_t s = 0; s < sub.size(); s += r) {
      for (size_t i = 0; i < r; ++i) members[i] = failed[sub[s + i]];
      if (index.contains(Pack(members.data(), r))) return true;
    }
    return false;
  };
  const double total = Choose(n, f);
  uint64_t hits = 0;
  if (total <= static_cast<double>(max_enumerated)) {
    for (size_t i = 0; i < f; ++i) failed[i] = static_cast<uint32_t>(i);
    while (true) {
      hits += destroys();
      size_t i = f;
      while (i > 0 && failed[i - 1] == n - f + i - 1) --i;
      if (i == 0) break;
      ++failed[i - 1];
      for (size_t j = i; j < f; ++j) failed[j] = failed[j - 1] + 1;
    }
    return {static_cast<double>(hits) / total,
            absl::StrCat("exact: all ", static_cast<uint64_t>(total),
                         " failure sets")};
  }
  Sfc64 rng(seed ^ kFailureSetSalt);
  for (uint64_t s = 0; s < samples; ++s) {
    for (size_t i = 0; i < f; ++i) {
      uint32_t x;
      do {
        x = static_cast<uint32_t>(rng.Below(n));
      } while (std::find(failed.begin(), failed.begin() + i, x) !=
               failed.begin() + i);
      failed[i] = x;
    }
    std::sort(failed.begin(), failed.begin() + f);
    hits += destroys();
  }
  return {static_cast<double>(hits) / static_cast<double>(samples),
          absl::StrCat("sampled: ", samples, " failure sets")};
}

absl::StatusOr<std::vector<ResultRow>> RunReplicas(const Cell& c,
                                                   const std::string& run_id) {
  // A production preset runs on its servers' names (host:port), flat: its
  // system's own preference list (presets/: Cassandra SimpleStrategy,
  // range() of npm hashring and uhashring).
  const bool preset = FindPreset(c.algorithm) != nullptr;
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (!preset && (info == nullptr || !info->capabilities.replicas)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "algorithm '", c.algorithm, "' has no replica placement; valid: ",
        ReplicaAlgorithmNames()));
  }
  if (preset && c.topology != "flat") {
    return absl::InvalidArgumentError(absl::StrCat(
        "preset '", c.algorithm, "' with topology '", c.topology,
        "': presets run flat here; valid: flat"));
  }
  const size_t n = c.nodes, r = c.replicas;
  if (r < 1 || r > n || r > static_cast<size_t>(kMaxReplicas) ||
      n >= (size_t{1} << kIdBits)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "replicas ", r, " with nodes ", n, " out of range; valid: 1..",
        std::min<size_t>(n, kMaxReplicas), " replicas, nodes < 2^24"));
  }
  const bool zoned = c.topology != "flat";
  if (!zoned && c.scenario == "zone_blind") {
    return absl::InvalidArgumentError(
        "scenario 'zone_blind' with topology 'flat'; valid: zone_aware");
  }
  const bool distinct = zoned && c.scenario != "zone_blind";
  std::vector<NodeSpec> nodes = preset ? PresetServers(n) : MakeNodes(n, c.seed);
  for (size_t i = 0; i < n; ++i) {
    absl::StatusOr<std::string> z = TopologyLocation(c.topology, i, n);
    if (!z.ok()) return z.status();
    nodes[i].zone = *std::move(z);
  }
  // Failure domains (the whole location) and top-level domains (its first
  // path component), as dense ids.
  std::vector<uint32_t> domain(n), top(n);
  size_t domains = 0, tops = 0;
  {
    absl::flat_hash_map<std::string, uint32_t> ids, top_ids;
    for (size_t i = 0; i < n; ++i) {
      const std::string& z = nodes[i].zone;
      domain[i] = ids.try_emplace(z, ids.size()).first->second;
      top[i] = top_ids.try_emplace(z.substr(0, z.find('/')), top_ids.size())
                   .first->second;
    }
    domains = ids.size();
    tops = top_ids.size();
  }

  RowNote note;
  const uint64_t m0 = CappedKeys(c, &note.text);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, nodes);
  if (!algo.ok()) return algo.status();
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  const size_t keys = d->size();
  ResultRow base = BaseRow(c, run_id);
  base.scenario = c.scenario;
  base.keys = keys;
  AddOverlapNote(c, keys, &note);
  std::vector<ResultRow> rows;
  const auto add = [&](std::string_view metric, std::optional<double> value,
                       std::string_view unit, std::string_view text = "") {
    RowNote n2 = note;
    if (!text.empty()) {
      n2.text = note.text.empty() ? std::string(text)
                                  : absl::StrCat(std::string(text), "; ", note.text);
    }
    Add(&rows, base, metric, value, unit, n2);
  };
  const double kd = static_cast<double>(keys);

  std::vector<uint32_t> lists;
  if (absl::Status s = PreferenceLists(**algo, *d, r, distinct, &lists);
      !s.ok()) {
    return s;
  }
  const std::vector<uint32_t> sets = SortedSets(lists, r);

  // Copies per node, every replica and the primaries.
  std::vector<uint64_t> load(n, 0), primary(n, 0);
  for (size_t k = 0; k < keys; ++k) {
    ++primary[lists[k * r]];
    for (size_t i = 0; i < r; ++i) ++load[lists[k * r + i]];
  }
  const auto [rmax, rmin] =
      MaxMinOverMean(load, static_cast<double>(r) * kd / static_cast<double>(n));
  add("replica_load_max_over_mean", rmax, "ratio");
  add("replica_load_min_over_mean", rmin, "ratio");
  const auto [pmax, pmin] = MaxMinOverMean(primary, kd / static_cast<double>(n));
  add("primary_load_max_over_mean", pmax, "ratio");
  add("primary_load_min_over_mean", pmin, "ratio");

  // Failure domains spanned, and keys inside one top-level domain.
  if (zoned) {
    const size_t need = std::min(r, domains);
    uint64_t violations = 0;
    std::vector<uint64_t> inside(tops, 0);
    for (size_t k = 0; k < keys; ++k) {
      const uint32_t* l = lists.data() + k * r;
      size_t spanned = 0;
      bool one_top = true;
      for (size_t i = 0; i < r; ++i) {
        bool seen = false;
        for (size_t j = 0; j < i; ++j) seen = seen || domain[l[j]] == domain[l[i]];
        spanned += !seen;
        one_top = one_top && top[l[i]] == top[l[0]];
      }
      violations += spanned < need;
      if (one_top) ++inside[top[l[0]]];
    }
    add("domain_violation_fraction", static_cast<double>(violations) / kd,
        "fraction",
        absl::StrCat("fewer than min(r, ", domains,
                     ") distinct failure domains"));
    add("zone_loss_fraction",
        static_cast<double>(*std::max_element(inside.begin(), inside.end())) /
            kd,
        "fraction",
        absl::StrCat("the largest over the ", tops, " top-level domains"));
  } else {
    add("domain_violation_fraction", std::nullopt, "fraction",
        "not applicable: no failure domains");
    add("zone_loss_fraction", std::nullopt, "fraction",
        "not applicable: no failure domains");
  }

  // A join: node N at the topology's next location.
  {
    absl::StatusOr<std::unique_ptr<ConsistentHash>> joined = Built(c, nodes);
    if (!joined.ok()) return joined.status();
    absl::StatusOr<std::string> z = JoinedLocation(c.topology, n);
    if (!z.ok()) return z.status();
    absl::StatusOr<NodeId> id =
        (*joined)->AddNode(NodeSpec{
            preset ? PresetServers(n + 1).back().name : NodeName(n, c.seed),
            1.0, *z});
    if (!id.ok()) return id.status();
    if (*id != n) {
      return absl::InternalError(absl::StrCat(
          c.algorithm, ": the joined node got id ", *id, ", not ", n));
    }
    std::vector<uint32_t> after;
    if (absl::Status s = PreferenceLists(**joined, *d, r, distinct, &after);
        !s.ok()) {
      return s;
    }
    const SetChanges ch = CompareSets(sets, SortedSets(std::move(after), r),
                                      r, n + 1);
    add("join_sets_changed_0", static_cast<double>(ch.changed[0]) / kd,
        "fraction");
    add("join_sets_changed_1", static_cast<double>(ch.changed[1]) / kd,
        "fraction");
    add("join_sets_changed_2plus", static_cast<double>(ch.changed[2]) / kd,
        "fraction");
    add("join_moved_over_optimum",
        static_cast<double>(ch.moved) /
            (static_cast<double>(r) * kd / static_cast<double>(n + 1)),
        "ratio", "copies moved / (r K / (N + 1))");
  }

  // A failure: node FailedNode(N, seed) removed.
  const uint32_t victim = FailedNode(n, c.seed);
  const std::string victim_note = absl::StrCat("node ", victim, " fails");
  if (r <= n - 1) {
    absl::StatusOr<std::unique_ptr<ConsistentHash>> failed = Built(c, nodes);
    if (!failed.ok()) return failed.status();
    if (absl::Status s = (*failed)->RemoveNode(victim); !s.ok()) return s;
    std::vector<uint32_t> after;
    if (absl::Status s = PreferenceLists(**failed, *d, r, distinct, &after);
        !s.ok()) {
      return s;
    }
    const SetChanges ch =
        CompareSets(sets, SortedSets(std::move(after), r), r, n);
    add("failure_sets_changed_0", static_cast<double>(ch.changed[0]) / kd,
        "fraction", victim_note);
    add("failure_sets_changed_1", static_cast<double>(ch.changed[1]) / kd,
        "fraction", victim_note);
    add("failure_sets_changed_2plus", static_cast<double>(ch.changed[2]) / kd,
        "fraction", victim_note);
    if (load[victim] > 0) {
      add("failure_moved_over_optimum",
          static_cast<double>(ch.moved) / static_cast<double>(load[victim]),
          "ratio",
          absl::StrCat(victim_note, "; copies moved / the ", load[victim],
                       " copies it held"));
    } else {
      add("failure_moved_over_optimum", std::nullopt, "ratio",
          absl::StrCat("not applicable: node ", victim, " held no copy"));
    }
    const auto [share, used] = MaxShare(ch.received);
    add("recovery_max_share", share, "fraction",
        share ? absl::StrCat(victim_note, "; ", ch.moved,
                             " copies re-created on ", used, " nodes")
              : std::string("not applicable: no copy re-created"));
  } else {
    const std::string na =
        absl::StrCat("not applicable: r = ", r, " > N - 1 live nodes");
    for (std::string_view m :
         {"failure_sets_changed_0", "failure_sets_changed_1",
          "failure_sets_changed_2plus"}) {
      add(m, std::nullopt, "fraction", na);
    }
    add("failure_moved_over_optimum", std::nullopt, "ratio", na);
    add("recovery_max_share", std::nullopt, "fraction", na);
  }

  // Copysets, scatter width and the loss probabilities.
  const std::vector<uint32_t> copysets = DistinctSets(sets, r);
  const size_t used = copysets.size() / r;
  if (r >= 2) {
    const std::vector<uint32_t> width = ScatterWidths(copysets, r, n);
    double sum = 0;
    for (uint32_t w : width) sum += w;
    add("scatter_width_mean", sum / static_cast<double>(n), "nodes");
    add("scatter_width_min",
        static_cast<double>(*std::min_element(width.begin(), width.end())),
        "nodes");
  } else {
    add("scatter_width_mean", std::nullopt, "nodes",
        "not applicable: one replica per key");
    add("scatter_width_min", std::nullopt, "nodes",
        "not applicable: one replica per key");
  }
  add("copysets_used", static_cast<double>(used), "sets");
  for (size_t f = kMinFailures; f <= kMaxFailures; ++f) {
    const LossProbability p = FailureLossProbability(copysets, r, n, f, c.seed);
    add(absl::StrCat("loss_probability_f", f), p.value, "probability", p.note);
  }

  // The list for r + 1: prefix stability and hinted handoff.
  if (r + 1 <= n) {
    std::vector<uint32_t> next;
    if (absl::Status s = PreferenceLists(**algo, *d, r + 1, distinct, &next);
        !s.ok()) {
      return s;
    }
    uint64_t not_prefix = 0;
    std::vector<uint64_t> hints(n, 0);
    for (size_t k = 0; k < keys; ++k) {
      const uint32_t* l = lists.data() + k * r;
      const uint32_t* x = next.data() + k * (r + 1);
      not_prefix += !std::equal(l, l + r, x);
      if (std::find(l, l + r, victim) == l + r) continue;
      for (size_t i = 0; i < r + 1; ++i) {
        if (std::find(l, l + r, x[i]) == l + r) {
          ++hints[x[i]];
          break;
        }
      }
    }
    add("prefix_violation_fraction", static_cast<double>(not_prefix) / kd,
        "fraction");
    const auto [share, used_nodes] = MaxShare(hints);
    const std::string hint_note =
        share ? absl::StrCat(victim_note, " for a while; ", load[victim],
                             " hinted writes")
              : absl::StrCat("not applicable: node ", victim,
                             " is in no list");
    add("handoff_nodes",
        share ? std::optional<double>(static_cast<double>(used_nodes))
              : std::nullopt,
        "nodes", hint_note);
    add("handoff_max_share", share, "fraction", hint_note);
  } else {
    const std::string na =
        absl::StrCat("not applicable: r + 1 = ", r + 1, " > N");
    add("prefix_violation_fraction", std::nullopt, "fraction", na);
    add("handoff_nodes", std::nullopt, "nodes", na);
    add("handoff_max_share", std::nullopt, "fraction", na);
  }
  return rows;
}

}  // namespace kinds
}  // namespace chbench
