// Copyright 2026 The chbench Authors.
//
// The "cluster" experiment kind: the cache cluster of the seed articles
// (bench/cluster/cluster.h), simulated in process (mode "sim": a
// deterministic cell, run in parallel with the other non-timing cells) or on
// real memcached servers started on 127.0.0.1 for the cell (mode
// "memcached": run alone, after the parallel cells, like the timing kinds).
//
// Rows: per time bucket (column `bucket`) the event run's hit_ratio,
// db_reads, db_reads_per_s, request_max_over_mean, errors, misrouted and
// live_servers, and the control run's control_hit_ratio and
// control_db_reads; the real cluster adds bucket_s and the client latency
// percentiles. Per run (bucket empty): extra_db_reads, the prediction
// moved_fraction x hot_set, recovery, the steady state's request balance
// and hit ratio, and for cascades the servers that failed.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/cluster/cluster.h"
#include "bench/cluster/memcached.h"
#include "experiments/kinds/common.h"

namespace chbench {
namespace kinds {
namespace {

ClusterConfig ConfigOf(const Cell& c) {
  ClusterConfig cfg;
  cfg.algorithm = c.algorithm;
  cfg.params = c.Params();
  cfg.keyset = c.keyset;
  cfg.seed = c.seed;
  cfg.nodes = c.nodes;
  cfg.universe = c.keys;
  cfg.zipf = c.zipf.value_or(0.99);
  cfg.requests = c.requests;
  cfg.buckets = c.buckets;
  cfg.event = c.scenario;
  cfg.cache_items = c.cache_items;
  cfg.clients = c.clients;
  cfg.stale_fraction = c.stale_fraction.value_or(0);
  cfg.stale_buckets = std::max<uint32_t>(1, c.buckets / 10);
  cfg.utilization = c.utilization.value_or(0.8);
  cfg.rate = c.rate;
  return cfg;
}

std::vector<ResultRow> Rows(const Cell& c, const std::string& run_id,
                            const ClusterConfig& cfg, const ClusterRun& run) {
  std::vector<ResultRow> rows;
  const ResultRow base = BaseRow(c, run_id);
  if (!run.applicable) {
    for (const char* m : {"extra_db_reads", "servers_failed"}) {
      Add(&rows, base, m, std::nullopt,
          std::string_view(m) == "servers_failed" ? "servers" : "reads",
          run.note);
    }
    return rows;
  }
  const bool real = c.mode == "memcached";
  const double nominal_s =
      cfg.rate > 0 ? static_cast<double>(run.bucket_requests) / cfg.rate : 0;
  for (size_t b = 0; b < run.buckets.size(); ++b) {
    const BucketStats& e = run.buckets[b];
    const BucketStats& k = run.control[b];
    ResultRow r = base;
    r.bucket = b;
    const double req = static_cast<double>(e.requests);
    Add(&rows, r, "hit_ratio", e.hits / req, "fraction");
    Add(&rows, r, "db_reads", static_cast<double>(e.db_reads), "reads");
    const double secs = real ? e.seconds.value_or(0) : nominal_s;
    Add(&rows, r, "db_reads_per_s",
        secs > 0 ? std::optional<double>(e.db_reads / secs) : std::nullopt,
        "reads/s",
        real ? "" : absl::StrCat("at the timeline's ", cfg.rate,
                                 " requests/s"));
    Add(&rows, r, "request_max_over_mean", e.request_max_over_mean, "ratio");
    Add(&rows, r, "errors", static_cast<double>(e.errors), "requests");
    if (cfg.event == "stale_view") {
      Add(&rows, r, "misrouted", static_cast<double>(e.misrouted),
          "requests");
    }
    Add(&rows, r, "live_servers", e.live_servers, "servers");
    Add(&rows, r, "control_hit_ratio", k.hits / static_cast<double>(k.requests),
        "fraction");
    Add(&rows, r, "control_db_reads", static_cast<double>(k.db_reads),
        "reads");
    if (real) {
      Add(&rows, r, "bucket_s", e.seconds, "s");
      Add(&rows, r, "latency_p50_us", e.latency_p50_us, "us");
      Add(&rows, r, "latency_p99_us", e.latency_p99_us, "us");
    }
  }
  Add(&rows, base, "event_bucket", run.event_bucket, "bucket");
  Add(&rows, base, "bucket_requests", static_cast<double>(run.bucket_requests),
      "requests");
  Add(&rows, base, "steady_hit_ratio", run.steady_hit_ratio, "fraction");
  Add(&rows, base, "post_hit_ratio", run.post_hit_ratio, "fraction");
  Add(&rows, base, "steady_request_max_over_mean",
      run.steady_request_max_over_mean, "ratio");
  if (cfg.event == "none") return rows;
  Add(&rows, base, "extra_db_reads", static_cast<double>(run.extra_db_reads),
      "reads");
  Add(&rows, base, "moved_fraction", run.moved_fraction, "fraction");
  Add(&rows, base, "hot_set", static_cast<double>(run.hot_set), "keys");
  Add(&rows, base, "predicted_extra_db_reads",
      run.moved_fraction * static_cast<double>(run.hot_set), "reads");
  if (run.recovery_buckets) {
    Add(&rows, base, "recovery_requests",
        static_cast<double>(*run.recovery_buckets * run.bucket_requests),
        "requests");
    // Seconds: the simulation's timeline, or the real buckets' wall time.
    std::optional<double> secs;
    if (real) {
      double t = 0;
      for (uint32_t b = run.event_bucket;
           b < run.event_bucket + *run.recovery_buckets; ++b) {
        t += run.buckets[b].seconds.value_or(0);
      }
      secs = t;
    } else if (cfg.rate > 0) {
      secs = static_cast<double>(*run.recovery_buckets) * nominal_s;
    }
    Add(&rows, base, "recovery_s", secs, "s",
        real ? "" : absl::StrCat("at the timeline's ", cfg.rate,
                                 " requests/s"));
  } else {
    const char* why =
        "not recovered to 95 % of the control's hit ratio within the run";
    Add(&rows, base, "recovery_requests", std::nullopt, "requests", why);
    Add(&rows, base, "recovery_s", std::nullopt, "s", why);
  }
  Add(&rows, base, "stampede_requests",
      static_cast<double>(run.stampede_buckets * run.bucket_requests),
      "requests");
  if (cfg.event == "stale_view") {
    uint64_t m = 0;
    for (const BucketStats& e : run.buckets) m += e.misrouted;
    Add(&rows, base, "misrouted_requests", static_cast<double>(m),
        "requests");
  }
  if (cfg.event == "cascade" || cfg.event == "cascade_mean") {
    Add(&rows, base, "servers_failed", run.servers_failed, "servers");
    Add(&rows, base, "overloaded_before_event", run.overloaded_before_event,
        "servers");
    Add(&rows, base, "capacity_per_bucket", run.capacity_per_bucket,
        "requests");
  }
  return rows;
}

}  // namespace

// Real memcached cells need the memcached binary and a server that starts:
// one probe server, started and stopped, when any cell has mode memcached.
absl::Status PreflightCluster(std::span<const Cell* const> cells) {
  const bool real = std::any_of(cells.begin(), cells.end(), [](const Cell* c) {
    return c->mode == "memcached";
  });
  if (!real) return absl::OkStatus();
  absl::StatusOr<std::unique_ptr<MemcachedCluster>> probe =
      MemcachedCluster::Start(1, MemcachedOptions{});
  if (!probe.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the cluster experiment's memcached cells cannot run: ",
                     probe.status().message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ResultRow>> RunClusterSim(
    const Cell& c, const std::string& run_id) {
  const ClusterConfig cfg = ConfigOf(c);
  absl::StatusOr<ClusterRun> run = SimulateCluster(cfg);
  if (!run.ok()) return run.status();
  return Rows(c, run_id, cfg, *run);
}

// Real memcached servers: each cell starts nodes + 1 servers (the joining
// one idles until its event), runs, and stops them by PID (the cluster's
// destructor, also on errors; signals and a killed chbench: memcached.h).
absl::StatusOr<std::vector<std::vector<ResultRow>>> RunClusterMemcached(
    std::span<const Cell* const> group, const std::string& run_id) {
  std::vector<std::vector<ResultRow>> out;
  for (const Cell* c : group) {
    const ClusterConfig cfg = ConfigOf(*c);
    if (absl::Status s = ValidateClusterConfig(cfg); !s.ok()) return s;
    absl::StatusOr<std::vector<std::string>> keys = ClusterKeys(cfg);
    if (!keys.ok()) return keys.status();
    absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
        MemcachedCluster::Start(cfg.nodes + 1, MemcachedOptions{});
    if (!cluster.ok()) return cluster.status();
    absl::StatusOr<std::unique_ptr<MemcachedBackend>> backend =
        MemcachedBackend::Make(cluster->get(), std::move(*keys),
                               static_cast<int>(c->workers));
    if (!backend.ok()) return backend.status();
    absl::StatusOr<ClusterRun> run =
        RunCluster(cfg, **backend, c->db_delay_us);
    if (!run.ok()) return run.status();
    if (absl::Status s = (*cluster)->CheckUnexpectedExits(); !s.ok()) {
      return s;
    }
    out.push_back(Rows(*c, run_id, cfg, *run));
  }
  return out;
}

}  // namespace kinds
}  // namespace chbench
