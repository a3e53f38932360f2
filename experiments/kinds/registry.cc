// Copyright 2026 The chbench Authors.
//
// The experiment-kind registry (kind.h): one row per cell kind. The
// non-timing kinds live in experiments/kinds/<kind>.cc; the timing kinds'
// measurements live in bench/timing.cc (lookup, build and hash_speed groups)
// and share one conversion into rows here.

#include <array>

#include "absl/strings/str_cat.h"
#include "experiments/kinds/common.h"
#include "experiments/kinds/kind.h"
#include "experiments/kinds/schema.h"

namespace chbench {
namespace kinds {

absl::StatusOr<std::vector<ResultRow>> RunBalance(const Cell&,
                                                  const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunDisruption(const Cell&,
                                                     const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunMemory(const Cell&,
                                                 const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunWeights(const Cell&,
                                                  const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunWeightChange(const Cell&,
                                                       const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunWeightMix(const Cell&,
                                                    const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunRemoval(const Cell&,
                                                  const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunPresets(const Cell&,
                                                  const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunReplicas(const Cell&,
                                                   const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunGrowth(const Cell&,
                                                 const std::string&);
absl::StatusOr<std::vector<ResultRow>> RunClusterSim(const Cell&,
                                                     const std::string&);
absl::StatusOr<std::vector<std::vector<ResultRow>>> RunClusterMemcached(
    std::span<const Cell* const>, const std::string&);
absl::Status PreflightCluster(std::span<const Cell* const>);

namespace {

// Every timing kind: measure the group (bench/timing.h), then one row per
// round of every sample.
absl::StatusOr<std::vector<std::vector<ResultRow>>> RunTiming(
    std::span<const Cell* const> group, const std::string& run_id) {
  absl::StatusOr<TimingGroupResult> result =
      RunTimingGroup(MakeTimingGroup(group));
  if (!result.ok()) return result.status();
  return TimingRows(group, run_id, *result);
}

}  // namespace
}  // namespace kinds

namespace {

constexpr std::array<KindInfo, 14> kKinds = {{
    {"balance", "keys per node: max/mean, min/mean, rel. stddev, chi-squared",
     &kinds::RunBalance, nullptr},
    {"disruption", "keys moved when nodes join or leave, against the optimum",
     &kinds::RunDisruption, nullptr},
    {"memory", "bytes of state, self-reported and by a counting allocator",
     &kinds::RunMemory, nullptr},
    {"weights", "each node's share of keys against its weight",
     &kinds::RunWeights, nullptr},
    {"weight_change",
     "one server's weight x2, x0.5 or x0.1 and back: keys moved against the "
     "optimum (the change of its share), keys the return restores",
     &kinds::RunWeightChange, nullptr},
    {"weight_mix",
     "servers of mixed generations (60 % weight 1, 30 % 2, 10 % 4): per "
     "layout, the median, 95th percentile and worst share error",
     &kinds::RunWeightMix, nullptr},
    {"removal",
     "nodes failing in random, FIFO or LIFO order: keys moved, balance over "
     "the live nodes, memory",
     &kinds::RunRemoval, nullptr},
    {"presets",
     "production presets beside the algorithms: balance, keys moved when a "
     "server joins or leaves against the optimum, memory",
     &kinds::RunPresets, nullptr},
    {"cluster",
     "a cache cluster under one event (a server joins, dies, stale views, "
     "a cascade of overloads): hit ratio, database reads, request balance "
     "per time bucket; simulated (deterministic) or on real memcached",
     &kinds::RunClusterSim, &kinds::RunClusterMemcached,
     &kinds::PreflightCluster},
    {"replicas",
     "replica placement (preference lists of r distinct nodes) on flat and "
     "zoned topologies: copies per node, failure-domain violations, sets "
     "changed by a join or a failure, scatter width, copysets and the loss "
     "probability of f simultaneous failures, hinted handoff",
     &kinds::RunReplicas, nullptr},
    {"growth",
     "scale-out from N to 2N nodes one at a time and back (LIFO): keys moved "
     "per step and cumulatively against the optimum, balance and memory "
     "after every step",
     &kinds::RunGrowth, nullptr},
    {"lookup",
     "lookup throughput, latency and multi-thread rate, with the peers",
     nullptr, &kinds::RunTiming},
    {"build", "build, add-node and remove-node time", nullptr,
     &kinds::RunTiming},
    {"hash_speed", "ns per key of each hash function", nullptr,
     &kinds::RunTiming},
}};

}  // namespace

std::span<const KindInfo> Kinds() { return kKinds; }

const KindInfo* FindKind(std::string_view name) {
  for (const KindInfo& k : kKinds) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string TimingGroupKey(const Cell& c) {
  // Cells that run alone in a kind that is not timed (real clusters) are
  // not compared within a run: one cell per group.
  const KindSchema* schema = FindKindSchema(c.kind);
  if (schema != nullptr && !schema->timing) return c.Name();
  // A kind without algorithms (hash_speed) compares the hashes instead.
  const bool by_hash = schema != nullptr && !schema->takes_algorithm;
  return absl::StrCat(c.experiment, "|", c.kind, "|", c.nodes, "|",
                      by_hash ? "" : c.hash, "|", c.keyset, "|",
                      c.keys, "|", c.scenario, "|", c.removal, "|", c.seed,
                      "|", c.rounds,
                      "|", c.min_time_s);
}

}  // namespace chbench
