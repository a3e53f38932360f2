// Copyright 2026 The chbench Authors.
//
// The cluster model on real memcached servers (memcached.h) against the
// simulation (cluster.h): a small cluster, seconds of requests. After a
// join the hit ratio drops by about the moved fraction's share of the hot
// set and recovers; the real and simulated runs of the same configuration
// agree on hit ratio and extra database reads within the stated
// tolerances; every server process is gone afterwards.

#include <signal.h>

#include <cerrno>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/cluster/cluster.h"
#include "bench/cluster/memcached.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

ClusterConfig SmallReal(std::string_view algorithm) {
  ClusterConfig c;
  c.algorithm = std::string(algorithm);
  c.event = "add";
  c.nodes = 3;
  c.universe = 5000;
  c.zipf = 0.99;
  c.requests = 16000;
  c.buckets = 16;
  c.clients = 8;
  c.rate = 0;  // unpaced: the test measures counts, not time
  c.keyset = "url";
  return c;
}

bool Gone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

// Tolerances (also stated in the report): steady and post-event hit ratios
// within 0.02 absolute; extra database reads within 25 % of the simulated
// value plus 40 reads (two client threads race: two concurrent misses of one
// key both read the database).
TEST(RealClusterTest, AddOnMemcachedAgreesWithTheSimulation) {
  for (const char* alg : {"ring", "modulo"}) {
    const ClusterConfig cfg = SmallReal(alg);
    std::vector<pid_t> pids;
    absl::StatusOr<ClusterRun> real;
    {
      absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
          MemcachedCluster::Start(cfg.nodes + 1, MemcachedOptions{});
      ASSERT_TRUE(cluster.ok()) << cluster.status();
      for (uint32_t i = 0; i < (*cluster)->size(); ++i) {
        pids.push_back((*cluster)->pid(i));
        EXPECT_FALSE(Gone(pids.back()));
      }
      absl::StatusOr<std::vector<std::string>> keys = ClusterKeys(cfg);
      ASSERT_TRUE(keys.ok());
      absl::StatusOr<std::unique_ptr<MemcachedBackend>> backend =
          MemcachedBackend::Make(cluster->get(), *keys, /*workers=*/2);
      ASSERT_TRUE(backend.ok()) << backend.status();
      real = RunCluster(cfg, **backend);
      ASSERT_TRUE(real.ok()) << real.status();
    }
    for (pid_t p : pids) EXPECT_TRUE(Gone(p)) << "pid " << p << " still there";
    absl::StatusOr<ClusterRun> sim = SimulateCluster(cfg);
    ASSERT_TRUE(sim.ok()) << sim.status();
    SCOPED_TRACE(alg);
    EXPECT_EQ(real->moved_fraction, sim->moved_fraction);
    EXPECT_EQ(real->hot_set, sim->hot_set);
    EXPECT_NEAR(real->steady_hit_ratio, sim->steady_hit_ratio, 0.02);
    EXPECT_NEAR(real->post_hit_ratio, sim->post_hit_ratio, 0.02);
    EXPECT_NEAR(real->extra_db_reads, sim->extra_db_reads,
                0.25 * sim->extra_db_reads + 40);
    // The drop: the event bucket's hit ratio is below the control's by
    // about the stampede (extra reads / bucket requests), and the run
    // recovers.
    const uint32_t ev = real->event_bucket;
    EXPECT_LT(real->buckets[ev].hits, real->control[ev].hits);
    EXPECT_NEAR(real->extra_db_reads,
                real->moved_fraction * real->hot_set,
                0.3 * real->moved_fraction * real->hot_set + 40);
    ASSERT_TRUE(real->recovery_buckets.has_value());
    // Every bucket served every request and no server errored.
    for (const BucketStats& b : real->buckets) {
      EXPECT_EQ(b.requests, cfg.requests / cfg.buckets);
      EXPECT_EQ(b.errors, 0u);
      ASSERT_TRUE(b.latency_p50_us.has_value());
      EXPECT_GT(*b.latency_p50_us, 0);
    }
  }
}

// A killed server: clients see errors (at most one each before they drop it)
// and the server's process is gone at once.
TEST(RealClusterTest, RemoveKillsTheServerAndClientsDropIt) {
  ClusterConfig cfg = SmallReal("jump");
  cfg.event = "remove";
  absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
      MemcachedCluster::Start(cfg.nodes + 1, MemcachedOptions{});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  const pid_t victim = (*cluster)->pid(cfg.nodes - 1);
  absl::StatusOr<std::unique_ptr<MemcachedBackend>> backend =
      MemcachedBackend::Make(cluster->get(), *ClusterKeys(cfg), 2);
  ASSERT_TRUE(backend.ok()) << backend.status();
  absl::StatusOr<ClusterRun> run = RunCluster(cfg, **backend);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(Gone(victim));
  uint64_t errors = 0;
  for (const BucketStats& b : run->buckets) errors += b.errors;
  EXPECT_GT(errors, 0u);
  // Two workers may both hit the dead server for one client before it
  // switches: at most clients x workers errors.
  EXPECT_LE(errors, 2u * cfg.clients);
  EXPECT_EQ(run->buckets.back().live_servers, cfg.nodes - 1);
}

// A server that dies under the run (here: killed from outside before it)
// is reported, naming its port; the requests it failed are errors.
TEST(RealClusterTest, UnexpectedDeathIsAnError) {
  const ClusterConfig cfg = SmallReal("ring");
  absl::StatusOr<std::unique_ptr<MemcachedCluster>> cluster =
      MemcachedCluster::Start(cfg.nodes + 1, MemcachedOptions{});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  EXPECT_TRUE((*cluster)->CheckUnexpectedExits().ok());
  const pid_t victim = (*cluster)->pid(0);
  ASSERT_EQ(kill(victim, SIGKILL), 0);
  absl::StatusOr<std::unique_ptr<MemcachedBackend>> backend =
      MemcachedBackend::Make(cluster->get(), *ClusterKeys(cfg), 1);
  if (backend.ok()) {
    // The control run meets the dead server; the reset before the event
    // run refuses to go on.
    absl::StatusOr<ClusterRun> run = RunCluster(cfg, **backend);
    EXPECT_EQ(run.status().code(), absl::StatusCode::kInternal);
  }
  const absl::Status s = (*cluster)->CheckUnexpectedExits();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(s.message().find(absl::StrCat(":", (*cluster)->port(0))),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find("killed"), std::string::npos) << s;
}

}  // namespace
}  // namespace chbench
