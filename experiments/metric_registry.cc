// Copyright 2026 The chbench Authors.

#include "experiments/metric_registry.h"

#include <array>
#include <string_view>

namespace chbench {
namespace {

constexpr std::string_view kPeerPlaceholder = "<peer>";

constexpr std::array<MetricInfo, 101> kMetrics = {{
    // Timing (vary run to run).
    {"lookup_ns", "ns", "lower", true,
     "time per lookup, independent lookups over a key array (throughput); "
     "scenario prehashed (64-bit digests) or string (HashKey + Lookup)"},
    {"lookup_latency_ns", "ns", "lower", true,
     "time per lookup in a dependent chain (the next key depends on the "
     "previous owner)"},
    {"replicas_lookup_ns", "ns", "lower", true,
     "time per LookupReplicas(key, r) (column replicas), independent lookups "
     "(lookup, scenario replicas; lookup_ns of the same rows' member and "
     "rounds is the single lookup)"},
    {"replicas_lookup_latency_ns", "ns", "lower", true,
     "time per LookupReplicas(key, r) in a dependent chain"},
    {"batch_lookup_ns", "ns", "lower", true,
     "time per key of LookupBatch over `batch` keys per call (independent "
     "lookups, batched throughput; strings: a group hashed, then looked "
     "up); lookup_ns of the same row's member and rounds is the single-key "
     "throughput"},
    {"batch_lookup_ns_ratio_to_single", "ratio", "lower", true,
     "batch_lookup_ns / lookup_ns of the same member in the same round; < 1 "
     "means batching is faster"},
    {"hash_ns", "ns", "lower", true,
     "time per HashKey (lookup, scenario string) or per HashString<H> "
     "(hashes experiment)"},
    {"lookups_per_s", "1/s", "higher", true,
     "lookups per second of T threads (column threads) sharing one instance"},
    {"batch_lookups_per_s", "1/s", "higher", true,
     "lookups per second of T threads (column threads) sharing one "
     "instance, each calling LookupBatch over `batch` keys at a time "
     "(batched cells with multithread; lookups_per_s of the batch-1 cell "
     "in the same timing group is the single-key rate)"},
    {"lookup_ns_ratio_to_<peer>", "ratio", "lower", true,
     "our lookup_ns / the peer's lookup_ns in the same round, on our row; "
     "< 1 means ours is faster"},
    {"lookup_latency_ns_ratio_to_<peer>", "ratio", "lower", true,
     "our lookup_latency_ns / the peer's in the same round, on our row; < 1 "
     "means ours is faster"},
    {"batch_lookup_ns_ratio_to_<peer>", "ratio", "lower", true,
     "our batch_lookup_ns / the batched peer's in the same round (the same "
     "keys, B per LookupBatch call), on our row; < 1 means ours is faster"},
    {"build_ns_ratio_to_<peer>", "ratio", "lower", true,
     "our build_ns / the build peer's build_ns in the same round, on our "
     "row; < 1 means ours is faster"},
    {"build_ns", "ns", "lower", true,
     "Build(N nodes) on an empty instance (bounded_load: with placed_keys "
     "placed)"},
    {"add_node_ns", "ns", "lower", true, "AddNode on an instance of N nodes"},
    {"remove_node_ns", "ns", "lower", true,
     "RemoveNode on an instance of N nodes (jump: the last node)"},
    {"place_ns", "ns", "lower", true,
     "stateful algorithms (bounded_load): PlaceBatch of placed_keys fresh "
     "keys on a built instance with none placed, per key"},
    {"load_avg_1m", "load", "none", true,
     "1-minute load average (/proc/loadavg) during the cell's measurement: "
     "context for noisy timings"},
    {"cpu_steal_fraction", "fraction", "none", true,
     "steal jiffies / all jiffies over the cell's measurement (/proc/stat): "
     "context for noisy timings"},
    {"sentinel_ns", "ns", "none", true,
     "machine-state sentinel (malloc, zero-fill and free of 8 KiB, "
     "bench/harness.h) timed in the cell's timing-group rounds, median: "
     "above 1.15x the process's fastest, the group was re-measured after "
     "waiting for the fast state, and flagged noisy if it stayed there"},
    // Reproducible (byte-identical across runs and machines).
    {"checksum", "id-fold", "none", false,
     "fold of the owners of the lookup keys, & (2^52 - 1): identical on every "
     "run for a reproducible hash"},
    {"memory_bytes", "bytes", "lower", false,
     "the algorithm's self-reported MemoryBytes() after Build"},
    {"heap_bytes", "bytes", "lower", false,
     "live heap bytes the counting allocator sees across creation + Build"},
    {"memory_bytes_per_node", "bytes", "lower", false, "memory_bytes / N"},
    {"memory_bytes_per_key", "bytes", "lower", false,
     "bounded_load: state bytes per placed key"},
    {"moved_fraction", "fraction", "lower", false,
     "keys whose owner changed / keys"},
    {"moved_optimal_fraction", "fraction", "none", false,
     "the minimum moved fraction: 1/(N+1) on add, r/N on removing r nodes; "
     "weight_change: the change of the server's share"},
    {"moved_excess_fraction", "fraction", "lower", false,
     "keys that moved although they did not have to / keys (0 is minimal)"},
    {"moved_over_optimum", "ratio", "none", false,
     "presets, growth (per step): moved_fraction / its optimum (1/(N+1) on "
     "add, 1/N on remove); below 1 when the joining or leaving server owns "
     "less than its share"},
    {"cumulative_moved_over_optimum", "ratio", "lower", false,
     "growth: keys moved summed over the steps so far / the optima summed "
     "over the same steps (K/(n+1) per join to n nodes, K/n per leave from "
     "n); 1 is minimal"},
    {"max_moved_over_optimum", "ratio", "lower", false,
     "growth: the largest per-step moved_over_optimum of a phase (joins "
     "1 .. N at step N, leaves at step 2N), every step counted; the note "
     "names the step"},
    {"moved_excess_over_optimum", "ratio", "lower", false,
     "presets: moved_excess_fraction / the optimum; 0 = minimal disruption"},
    {"step_moved_excess", "keys", "lower", false,
     "removal, incremental: keys that moved at a single removal although they "
     "were not on the node removed at that step, summed over the steps (0: "
     "monotone at every step)"},
    {"receivers", "nodes", "higher", false,
     "nodes that received the removed node's keys (single removals)"},
    {"load_max", "keys", "lower", false,
     "keys on the busiest node (disruption: after the change)"},
    {"load_min", "keys", "higher", false, "keys on the least loaded node"},
    {"load_max_over_mean", "ratio", "lower", false,
     "max load / mean load (1 is ideal)"},
    {"load_min_over_mean", "ratio", "higher", false,
     "min load / mean load (1 is ideal)"},
    {"exact_max_over_mean", "ratio", "lower", false,
     "largest share of the digest space / the mean share (no keys): from "
     "the state (ring arcs, Maglev slots, modulo residues) or, for jump-like "
     "and table algorithms, by construction (note column)"},
    {"exact_min_over_mean", "ratio", "higher", false,
     "smallest share of the digest space / the mean share (no keys)"},
    {"load_rel_stddev", "ratio", "lower", false,
     "population standard deviation of the loads / mean"},
    {"load_chi2_pvalue", "probability", "none", false,
     "P(chi2_{N-1} >= observed statistic): a tiny value says the loads are "
     "not multinomial-uniform"},
    {"share", "fraction", "none", false,
     "weights: a node's keys / all keys (analytic row: w_i / sum w)"},
    // Cluster (bench/cluster/cluster.h). Per time bucket (column bucket):
    {"hit_ratio", "fraction", "higher", false,
     "cluster: GETs that hit / requests (per bucket of the event run)"},
    {"db_reads", "reads", "lower", false,
     "cluster: database reads (misses and errors) in the bucket"},
    {"db_reads_per_s", "reads/s", "lower", false,
     "cluster: database reads per second: the simulation at its timeline "
     "rate, the real cluster over the bucket's wall time (varies run to run)"},
    {"request_max_over_mean", "ratio", "lower", false,
     "cluster: requests of the busiest live server / the mean over live "
     "servers, in the bucket (request load, not keys)"},
    {"errors", "requests", "lower", false,
     "cluster: requests to a dead server (read from the database instead)"},
    {"misrouted", "requests", "lower", false,
     "cluster, stale_view: requests a stale client sent to a server that no "
     "longer owns the key"},
    {"live_servers", "servers", "none", false,
     "cluster: servers alive in the bucket"},
    {"control_hit_ratio", "fraction", "higher", false,
     "cluster: hit ratio of the control run (same requests, no event)"},
    {"control_db_reads", "reads", "lower", false,
     "cluster: database reads of the control run in the bucket"},
    {"bucket_s", "s", "none", true,
     "cluster, memcached: wall time of the bucket"},
    {"latency_p50_us", "us", "lower", true,
     "cluster, memcached: median client latency of a request (GET, and on a "
     "miss the database read and the SET)"},
    {"latency_p99_us", "us", "lower", true,
     "cluster, memcached: 99th percentile client latency"},
    // Per run:
    {"event_bucket", "bucket", "none", false,
     "cluster: the bucket the event happens at"},
    {"bucket_requests", "requests", "none", false,
     "cluster: requests per bucket"},
    {"steady_hit_ratio", "fraction", "higher", false,
     "cluster: hit ratio of the steady state (second half of the buckets "
     "before the event)"},
    {"post_hit_ratio", "fraction", "higher", false,
     "cluster: hit ratio from the event to the end"},
    {"steady_request_max_over_mean", "ratio", "lower", false,
     "cluster: requests per server max/mean over the steady state"},
    {"extra_db_reads", "reads", "lower", false,
     "cluster: database reads from the event on, minus the control run's: "
     "the stampede's size"},
    {"hot_set", "keys", "none", false,
     "cluster: distinct keys requested both before and after the event"},
    {"predicted_extra_db_reads", "reads", "lower", false,
     "cluster: moved_fraction x hot_set, the keys-moved prediction of the "
     "stampede"},
    {"recovery_requests", "requests", "lower", false,
     "cluster: requests from the event until every later bucket's hit ratio "
     "is at least 95 % of the control's (0: never below)"},
    {"recovery_s", "s", "lower", false,
     "cluster: recovery_requests in seconds: at the simulation's timeline "
     "rate, or the real buckets' wall time (varies run to run)"},
    {"stampede_requests", "requests", "lower", false,
     "cluster: requests from the event until 90 % of the extra database "
     "reads have happened (how long the stampede lasts)"},
    {"misrouted_requests", "requests", "lower", false,
     "cluster, stale_view: misrouted requests over the run"},
    {"servers_failed", "servers", "lower", false,
     "cluster, cascade: servers declared failed by overload after the first "
     "kill"},
    {"overloaded_before_event", "servers", "none", false,
     "cluster, cascade: servers whose steady-state mean load per bucket was "
     "already above the capacity (cascade_mean: the busiest servers under "
     "hot keys)"},
    {"capacity_per_bucket", "requests", "none", false,
     "cluster, cascade: requests a server may serve per bucket (cascade: the "
     "steady state's busiest server / utilization; cascade_mean: the mean "
     "server / utilization)"},
    // Replica placement (replicas experiment, experiments/kinds/replicas.h):
    // preference lists of r distinct nodes for K keys on N nodes.
    {"replica_load_max_over_mean", "ratio", "lower", false,
     "replicas: copies on the busiest node (every replica counted) / the "
     "mean r K / N"},
    {"replica_load_min_over_mean", "ratio", "higher", false,
     "replicas: copies on the least loaded node / r K / N"},
    {"primary_load_max_over_mean", "ratio", "lower", false,
     "replicas: first list elements on the busiest node / K / N"},
    {"primary_load_min_over_mean", "ratio", "higher", false,
     "replicas: first list elements on the least loaded node / K / N"},
    {"domain_violation_fraction", "fraction", "lower", false,
     "replicas: keys whose r replicas span fewer distinct failure domains "
     "(whole locations) than min(r, domains) / K"},
    {"zone_loss_fraction", "fraction", "lower", false,
     "replicas: the largest fraction of keys with every replica in one "
     "top-level domain (zone, rack): what a whole zone's failure loses"},
    {"join_sets_changed_0", "fraction", "higher", false,
     "replicas: keys whose replica set is unchanged by a join / K"},
    {"join_sets_changed_1", "fraction", "none", false,
     "replicas: keys whose replica set changes one member on a join / K"},
    {"join_sets_changed_2plus", "fraction", "lower", false,
     "replicas: keys whose replica set changes two or more members on a "
     "join / K"},
    {"weight_change_moved_over_optimum", "ratio", "none", false,
     "weight_change: keys moved when one server's weight changes / the "
     "change of its share (the fewest any placement moves); 1 is minimal, "
     "below 1 the server's share follows its weight only in part"},
    {"weight_change_back_moved_over_optimum", "ratio", "none", false,
     "weight_change: keys moved when the weight is set back / the same "
     "optimum"},
    {"weight_change_restored_fraction", "fraction", "higher", false,
     "weight_change: keys whose owner after the change and the return is "
     "their first owner / K (1: the return undoes the change)"},
    {"weight_share_error_median", "fraction", "lower", false,
     "weight_mix: over one layout's servers, the median of |share / (w / "
     "sum w) - 1|"},
    {"weight_share_error_p95", "fraction", "lower", false,
     "weight_mix: the same, 95th percentile (nearest rank)"},
    {"weight_share_error_max", "fraction", "lower", false,
     "weight_mix: the same, the worst server"},
    {"join_moved_over_optimum", "ratio", "lower", false,
     "replicas: copies moved by a join (sum of |new set \\ old set|) / "
     "r K / (N + 1)"},
    {"failure_sets_changed_0", "fraction", "none", false,
     "replicas: keys whose replica set is unchanged by one node's failure "
     "/ K"},
    {"failure_sets_changed_1", "fraction", "none", false,
     "replicas: keys whose replica set changes one member on a failure / K"},
    {"failure_sets_changed_2plus", "fraction", "lower", false,
     "replicas: keys whose replica set changes two or more members on a "
     "failure / K"},
    {"failure_moved_over_optimum", "ratio", "lower", false,
     "replicas: copies moved by a failure / the copies the failed node held"},
    {"recovery_max_share", "fraction", "lower", false,
     "replicas: of the copies re-created after a failure, the largest share "
     "on one node"},
    {"scatter_width_mean", "nodes", "higher", false,
     "replicas: distinct other nodes sharing a replica set with a node "
     "(recovery parallelism), mean over the nodes"},
    {"scatter_width_min", "nodes", "higher", false,
     "replicas: scatter width of the node with the fewest"},
    {"copysets_used", "sets", "none", false,
     "replicas: distinct unordered replica sets among the K keys"},
    {"loss_probability_f2", "probability", "lower", false,
     "replicas: P(2 random nodes failing at once hold every copy of some "
     "key)"},
    {"loss_probability_f3", "probability", "lower", false,
     "replicas: the same for 3 failed nodes"},
    {"loss_probability_f4", "probability", "lower", false,
     "replicas: the same for 4 failed nodes"},
    {"loss_probability_f5", "probability", "lower", false,
     "replicas: the same for 5 failed nodes"},
    {"prefix_violation_fraction", "fraction", "lower", false,
     "replicas: keys whose list for r is not the first r of the list for "
     "r + 1 / K"},
    {"handoff_nodes", "nodes", "higher", false,
     "replicas: distinct nodes taking the hinted writes of a node that is "
     "down (the first node of the r + 1 list not in the r list)"},
    {"handoff_max_share", "fraction", "lower", false,
     "replicas: the largest share of those hints on one node"},
}};

bool IsNameTail(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::span<const MetricInfo> Metrics() { return kMetrics; }

bool IsMetricPattern(const MetricInfo& info) {
  return info.name.size() > kPeerPlaceholder.size() &&
         info.name.substr(info.name.size() - kPeerPlaceholder.size()) ==
             kPeerPlaceholder;
}

const MetricInfo* FindMetric(std::string_view metric) {
  for (const MetricInfo& info : kMetrics) {
    if (info.name == metric) return &info;
  }
  for (const MetricInfo& info : kMetrics) {
    if (!IsMetricPattern(info)) continue;
    const std::string_view prefix =
        info.name.substr(0, info.name.size() - kPeerPlaceholder.size());
    if (metric.size() > prefix.size() &&
        metric.substr(0, prefix.size()) == prefix &&
        IsNameTail(metric.substr(prefix.size()))) {
      return &info;
    }
  }
  return nullptr;
}

MetricRange RangeOfMetric(std::string_view metric) {
  const MetricInfo* info = FindMetric(metric);
  if (info == nullptr || info->unit == "id-fold" ||
      info->name == "extra_db_reads") {
    return {};
  }
  if (info->unit == "fraction" || info->unit == "probability" ||
      info->name.ends_with("min_over_mean")) {
    return {0, 1};
  }
  // max/mean of a load (keys, or exact shares) is at least 1; a request
  // max/mean is 0 in a bucket without requests.
  if (info->name.ends_with("max_over_mean") &&
      (info->name.starts_with("load_") || info->name.starts_with("exact_") ||
       info->name.starts_with("replica_load_") ||
       info->name.starts_with("primary_load_"))) {
    return {1, MetricRange().upper};
  }
  return {0, MetricRange().upper};
}

}  // namespace chbench
