// Copyright 2026 The chbench Authors.
//
// The simulated cluster (cluster.h): determinism, the stampede against its
// exact count, the event rules (remove, stale_view) and the cascade rule on
// constructed cases.

#include "bench/cluster/cluster.h"

#include <cmath>

#include "gtest/gtest.h"

namespace chbench {
namespace {

ClusterConfig Small(std::string_view algorithm, std::string_view event) {
  ClusterConfig c;
  c.algorithm = std::string(algorithm);
  c.event = std::string(event);
  c.nodes = 10;
  c.universe = 2000;
  c.zipf = 0.0;
  c.requests = 200000;
  c.buckets = 20;
  c.clients = 20;
  return c;
}

TEST(ClusterTest, RejectsBadConfigurations) {
  ClusterConfig c = Small("ring", "add");
  c.event = "meteor";
  EXPECT_EQ(SimulateCluster(c).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_NE(SimulateCluster(c).status().message().find("meteor"),
            std::string::npos);
  c = Small("ring", "add");
  c.nodes = 1;
  EXPECT_FALSE(SimulateCluster(c).ok());
  c = Small("ring", "add");
  c.requests = 3;
  EXPECT_FALSE(SimulateCluster(c).ok());
  c = Small("ring", "add");
  c.utilization = 0;
  EXPECT_FALSE(SimulateCluster(c).ok());
  c = Small("nosuch", "add");
  EXPECT_NE(SimulateCluster(c).status().message().find("nosuch"),
            std::string::npos);
  c = Small("ring", "add");
  c.keyset = "words";  // apostrophes are fine, but check the message path
  c.universe = 10;
  EXPECT_TRUE(SimulateCluster(c).ok() ||
              SimulateCluster(c).status().code() ==
                  absl::StatusCode::kInvalidArgument);
}

TEST(ClusterTest, ReproducesBitForBit) {
  ClusterConfig c = Small("maglev", "add");
  c.zipf = 0.99;
  c.cache_items = 100;
  absl::StatusOr<ClusterRun> a = SimulateCluster(c), b = SimulateCluster(c);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok());
  ASSERT_EQ(a->buckets.size(), b->buckets.size());
  for (size_t i = 0; i < a->buckets.size(); ++i) {
    EXPECT_EQ(a->buckets[i].hits, b->buckets[i].hits);
    EXPECT_EQ(a->buckets[i].db_reads, b->buckets[i].db_reads);
    EXPECT_EQ(a->buckets[i].request_max_over_mean,
              b->buckets[i].request_max_over_mean);
  }
  EXPECT_EQ(a->extra_db_reads, b->extra_db_reads);
  c.seed = 1;
  absl::StatusOr<ClusterRun> d = SimulateCluster(c);
  ASSERT_TRUE(d.ok());
  EXPECT_NE(a->buckets[0].hits, d->buckets[0].hits);
}

// A shared control changes nothing: a cascade cell run after cells that
// differ only in the event's parameters (another utilization, the other
// cascade, a join) equals the same cell run with no control to share,
// bucket by bucket, control included.
TEST(ClusterTest, SharedControlEqualsAColdRun) {
  ClusterConfig c = Small("rendezvous", "cascade");
  c.cache_items = 100;
  c.utilization = 0.6;
  ClearClusterControlCache();
  absl::StatusOr<ClusterRun> cold = SimulateCluster(c);
  ASSERT_TRUE(cold.ok()) << cold.status();
  ClearClusterControlCache();
  for (const auto& [event, u] : {std::pair<const char*, double>{"cascade", 0.9},
                                 {"cascade_mean", 0.6}, {"add", 0.6}}) {
    ClusterConfig other = c;
    other.event = event;
    other.utilization = u;
    ASSERT_TRUE(SimulateCluster(other).ok());
  }
  absl::StatusOr<ClusterRun> warm = SimulateCluster(c);
  ASSERT_TRUE(warm.ok());
  ASSERT_EQ(cold->buckets.size(), warm->buckets.size());
  ASSERT_EQ(cold->control.size(), warm->control.size());
  for (size_t i = 0; i < cold->buckets.size(); ++i) {
    EXPECT_EQ(cold->buckets[i].hits, warm->buckets[i].hits) << i;
    EXPECT_EQ(cold->buckets[i].db_reads, warm->buckets[i].db_reads) << i;
    EXPECT_EQ(cold->control[i].hits, warm->control[i].hits) << i;
    EXPECT_EQ(cold->control[i].db_reads, warm->control[i].db_reads) << i;
  }
  EXPECT_EQ(cold->extra_db_reads, warm->extra_db_reads);
  EXPECT_EQ(cold->servers_failed, warm->servers_failed);
  // A different seed is another control.
  ClusterConfig seed = c;
  seed.seed = 7;
  absl::StatusOr<ClusterRun> s7 = SimulateCluster(seed);
  ASSERT_TRUE(s7.ok());
  EXPECT_NE(s7->control[0].hits, cold->control[0].hits);
}

// A timed backend that caches nothing and counts the requests it serves:
// every request is a miss, so its control has no hits, unlike a simulated
// one.
class CountingTimedBackend final : public CacheBackend {
 public:
  int workers() const override { return 1; }
  Result Get(int, uint32_t, uint32_t) override {
    ++gets;
    return Result::kMiss;
  }
  void Set(int, uint32_t, uint32_t) override {}
  absl::Status Kill(uint32_t) override { return absl::OkStatus(); }
  absl::Status Reset() override { return absl::OkStatus(); }
  bool timed() const override { return true; }
  uint64_t gets = 0;
};

// Timed cells share controls too (the real cluster's join and failure), but
// only with timed cells of the same database delay, never with simulated
// ones.
TEST(ClusterTest, TimedControlsAreSharedOnlyAmongTimedCells) {
  ClusterConfig c = Small("ring", "add");
  c.requests = 2000;
  ClearClusterControlCache();
  CountingTimedBackend backend;
  absl::StatusOr<ClusterRun> add = RunCluster(c, backend);
  ASSERT_TRUE(add.ok()) << add.status();
  EXPECT_EQ(backend.gets, 2 * c.requests);  // control and event
  c.event = "remove";
  backend.gets = 0;
  absl::StatusOr<ClusterRun> remove = RunCluster(c, backend);
  ASSERT_TRUE(remove.ok()) << remove.status();
  EXPECT_EQ(backend.gets, c.requests);  // the event only
  ASSERT_EQ(add->control.size(), remove->control.size());
  for (size_t i = 0; i < add->control.size(); ++i) {
    EXPECT_EQ(add->control[i].db_reads, remove->control[i].db_reads) << i;
    EXPECT_EQ(add->control[i].hits, 0u) << i;
  }
  // Another database delay is another control.
  backend.gets = 0;
  ASSERT_TRUE(RunCluster(c, backend, /*db_delay_us=*/1).ok());
  EXPECT_EQ(backend.gets, 2 * c.requests);
  // A simulated cell of the same configuration runs its own control.
  absl::StatusOr<ClusterRun> sim = SimulateCluster(c);
  ASSERT_TRUE(sim.ok());
  uint64_t hits = 0;
  for (const BucketStats& b : sim->control) hits += b.hits;
  EXPECT_GT(hits, 0u);
  ClearClusterControlCache();
}

// Without eviction, after a join every moved key that was requested before
// and is requested again misses once more than in the control: the extra
// reads are close to moved_fraction x hot_set (binomial spread), for an
// algorithm that moves few keys and one that moves almost all.
TEST(ClusterTest, AddCostsMovedFractionOfTheHotSet) {
  for (const char* alg : {"ring", "jump", "modulo", "rendezvous"}) {
    absl::StatusOr<ClusterRun> r = SimulateCluster(Small(alg, "add"));
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->hot_set, 2000u) << alg;  // every key seen on both sides
    const double predicted = r->moved_fraction * r->hot_set;
    const double sd = std::sqrt(r->hot_set * r->moved_fraction *
                                (1 - r->moved_fraction)) +
                      1;
    EXPECT_NEAR(r->extra_db_reads, predicted, 5 * sd) << alg;
    EXPECT_GT(r->extra_db_reads, 0) << alg;
    // The event bucket's hit ratio drops; the run recovers.
    EXPECT_LT(r->buckets[r->event_bucket].hits,
              r->control[r->event_bucket].hits)
        << alg;
    ASSERT_TRUE(r->recovery_buckets.has_value()) << alg;
    EXPECT_LE(*r->recovery_buckets, 2u) << alg;
  }
  absl::StatusOr<ClusterRun> mod = SimulateCluster(Small("modulo", "add"));
  absl::StatusOr<ClusterRun> ring = SimulateCluster(Small("ring", "add"));
  EXPECT_GT(mod->moved_fraction, 0.85);
  EXPECT_LT(ring->moved_fraction, 0.2);
  EXPECT_GT(mod->extra_db_reads, 5 * ring->extra_db_reads);
}

// Requests before the event are identical in the event and control runs.
TEST(ClusterTest, ControlMatchesBeforeTheEvent) {
  absl::StatusOr<ClusterRun> r = SimulateCluster(Small("anchor", "remove"));
  ASSERT_TRUE(r.ok()) << r.status();
  for (uint32_t b = 0; b < r->event_bucket; ++b) {
    EXPECT_EQ(r->buckets[b].hits, r->control[b].hits) << b;
  }
}

// remove: each client sees at most one error before it drops the server.
TEST(ClusterTest, RemoveErrorsOncePerClient) {
  for (const char* alg : {"ring", "jump", "memento"}) {
    absl::StatusOr<ClusterRun> r = SimulateCluster(Small(alg, "remove"));
    ASSERT_TRUE(r.ok()) << r.status();
    uint64_t errors = 0;
    for (const BucketStats& b : r->buckets) errors += b.errors;
    EXPECT_GT(errors, 0u) << alg;
    EXPECT_LE(errors, 20u) << alg;
    EXPECT_EQ(r->buckets.back().live_servers, 9u) << alg;
    EXPECT_NEAR(r->moved_fraction, 0.1, 0.05) << alg;
  }
}

// stale_view: the stale clients' requests for moved keys go to the old
// servers (misrouted), in proportion to the stale fraction; with no stale
// client the event is exactly `add`.
TEST(ClusterTest, StaleViewsMisrouteInProportionToTheStaleFraction) {
  ClusterConfig c = Small("ring", "stale_view");
  c.universe = 200000;  // uniform popularity: requests move like keys
  uint64_t previous = 0;
  for (double f : {0.0, 0.25, 0.5}) {
    c.stale_fraction = f;
    absl::StatusOr<ClusterRun> r = SimulateCluster(c);
    ASSERT_TRUE(r.ok()) << r.status();
    uint64_t misrouted = 0;
    for (const BucketStats& b : r->buckets) misrouted += b.misrouted;
    // Stale requests x moved fraction, within a few percent.
    const double stale_requests = f * r->bucket_requests * c.stale_buckets;
    EXPECT_NEAR(misrouted, stale_requests * r->moved_fraction,
                0.1 * stale_requests * r->moved_fraction + 50)
        << f;
    if (f > 0) {
      EXPECT_GT(misrouted, previous) << f;
    }
    previous = misrouted;
    if (f == 0) {
      ClusterConfig add = c;
      add.event = "add";
      absl::StatusOr<ClusterRun> a = SimulateCluster(add);
      ASSERT_TRUE(a.ok());
      EXPECT_EQ(r->extra_db_reads, a->extra_db_reads);
    }
  }
}

// The cascade rule on constructed cases. Uniform requests, modulo: every
// server serves ~R/(B N) per bucket. At utilization 1 the busiest server of
// the steady state is at capacity; killing one of 4 raises every survivor's
// load by 4/3, so all of them fail. At utilization 0.1 nobody fails.
TEST(ClusterTest, CascadeRuleOnConstructedCases) {
  ClusterConfig c = Small("modulo", "cascade");
  c.nodes = 4;
  c.utilization = 1.0;
  absl::StatusOr<ClusterRun> all = SimulateCluster(c);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->servers_failed, 3u);
  EXPECT_EQ(all->buckets.back().live_servers, 0u);
  c.utilization = 0.1;
  absl::StatusOr<ClusterRun> none = SimulateCluster(c);
  EXPECT_EQ(none->servers_failed, 0u);
  EXPECT_EQ(none->buckets.back().live_servers, 3u);
  // Bounded loads on requests, c = 1.1, N = 10, utilization 0.8: every
  // survivor serves at most 1.1 x 10/9 = 1.22 x the old mean, below the
  // capacity 1.25 x the old busiest server's load: no failure.
  c = Small("bounded_load", "cascade");
  c.params.load_factor = 1.1;
  c.utilization = 0.8;
  c.zipf = 0.99;
  absl::StatusOr<ClusterRun> bl = SimulateCluster(c);
  ASSERT_TRUE(bl.ok()) << bl.status();
  EXPECT_EQ(bl->servers_failed, 0u);
  // The bound is ceil(c x requests / live) per bucket.
  const double mean = static_cast<double>(bl->bucket_requests) / 9;
  for (uint32_t b = bl->event_bucket; b < bl->buckets.size(); ++b) {
    EXPECT_LE(bl->buckets[b].request_max_over_mean,
              std::ceil(1.1 * mean) / mean + 1e-9)
        << b;
  }
  // jump removes only its last node: not applicable, said in the note.
  absl::StatusOr<ClusterRun> jump = SimulateCluster(Small("jump", "cascade"));
  ASSERT_TRUE(jump.ok());
  EXPECT_FALSE(jump->applicable);
  EXPECT_NE(jump->note.find("last node"), std::string::npos);
}

// cascade_mean: every server has the same capacity, mean load / u. Uniform
// requests on modulo: killing one of 4 raises the survivors to 4/3 of the
// mean, under the capacity at u = 0.7 (1.43x), above it at u = 0.8
// (1.25x). Under hot keys (Zipf 0.99) at u = 0.8 the ring's busiest server
// is over capacity already, while bounded loads with c = 1.1 keep every
// survivor at 1.1 x 10/9 = 1.22x the old mean: no failure.
TEST(ClusterTest, CascadeWithEqualCapacities) {
  ClusterConfig c = Small("modulo", "cascade_mean");
  c.nodes = 4;
  c.utilization = 0.7;
  absl::StatusOr<ClusterRun> low = SimulateCluster(c);
  ASSERT_TRUE(low.ok()) << low.status();
  EXPECT_EQ(low->servers_failed, 0u);
  EXPECT_EQ(low->overloaded_before_event, 0u);
  EXPECT_NEAR(low->capacity_per_bucket,
              static_cast<double>(low->bucket_requests) / 4 / 0.7, 1e-6);
  c.utilization = 0.8;
  absl::StatusOr<ClusterRun> high = SimulateCluster(c);
  EXPECT_EQ(high->servers_failed, 3u);
  c = Small("ring", "cascade_mean");
  c.zipf = 0.99;
  c.universe = 100000;
  c.utilization = 0.8;
  absl::StatusOr<ClusterRun> ring = SimulateCluster(c);
  ASSERT_TRUE(ring.ok());
  EXPECT_GE(ring->overloaded_before_event, 1u);
  EXPECT_GE(ring->servers_failed, 1u);
  c.algorithm = "bounded_load";
  c.params.load_factor = 1.1;
  absl::StatusOr<ClusterRun> bl = SimulateCluster(c);
  ASSERT_TRUE(bl.ok());
  EXPECT_EQ(bl->overloaded_before_event, 0u);
  EXPECT_EQ(bl->servers_failed, 0u);
}

// Keys balanced is not requests balanced: at Zipf 0.99 the busiest server
// serves far more than the mean even where keys are balanced, and bounded
// loads cap it.
TEST(ClusterTest, HotKeysUnbalanceRequests) {
  ClusterConfig c = Small("maglev", "none");
  c.universe = 100000;
  c.zipf = 0.0;
  absl::StatusOr<ClusterRun> uni = SimulateCluster(c);
  c.zipf = 1.2;
  absl::StatusOr<ClusterRun> hot = SimulateCluster(c);
  ASSERT_TRUE(uni.ok() && hot.ok());
  EXPECT_LT(uni->buckets[5].request_max_over_mean, 1.1);
  EXPECT_GT(hot->buckets[5].request_max_over_mean, 1.5);
  c.algorithm = "bounded_load";
  c.params.load_factor = 1.25;
  absl::StatusOr<ClusterRun> bl = SimulateCluster(c);
  ASSERT_TRUE(bl.ok());
  const double mean = static_cast<double>(bl->bucket_requests) / 10;
  EXPECT_LE(bl->buckets[5].request_max_over_mean,
            std::ceil(1.25 * mean) / mean + 1e-9);
}

// The cap is exact where doubles are not: 1.1 x 10^5 / 1000 and
// 1.1 x 4 x 10^4 / 10 are 110.00000000000001 and 4400.000000000001 in
// doubles, whose ceilings (111, 4401) would let a server take one request
// above c times the mean.
TEST(ClusterTest, RequestCapIsTheExactCeiling) {
  EXPECT_EQ(RequestCap(1.1, 100000, 1000), 110u);
  EXPECT_EQ(RequestCap(1.1, 40000, 10), 4400u);
  EXPECT_EQ(RequestCap(1.25, 1001, 10), 126u);  // 125.125
  EXPECT_EQ(RequestCap(1.05, 100, 7), 15u);
  EXPECT_EQ(RequestCap(1.5, 0, 3), 0u);
  EXPECT_EQ(RequestCap(1.1, 100, 0), 0u);
}

// Under hot keys every server of a bounded-load run stays within
// ceil(c x the mean): N = 100, 100 requests per server and bucket, c = 1.1,
// at most 110 requests (the hottest key alone would give its server ~9x).
TEST(ClusterTest, BoundedLoadNeverExceedsItsCap) {
  ClusterConfig c = Small("bounded_load", "none");
  c.nodes = 100;
  c.universe = 10000;
  c.zipf = 0.99;
  c.requests = 100000;
  c.buckets = 10;
  c.params.load_factor = 1.1;
  absl::StatusOr<ClusterRun> run = SimulateCluster(c);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->bucket_requests, 10000u);
  for (const BucketStats& b : run->buckets) {
    EXPECT_LE(b.request_max_over_mean, 1.1 + 1e-12);
  }
}

}  // namespace
}  // namespace chbench
