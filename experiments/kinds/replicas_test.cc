// Copyright 2026 The chbench Authors.

#include "experiments/kinds/replicas.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "workload/keyset.h"
#include "workload/node_names.h"

namespace chbench {
namespace kinds {
namespace {

using ::testing::HasSubstr;

Cell ReplicaCell(std::string algorithm, uint32_t n, uint32_t r,
                 std::string topology, std::string scenario, uint64_t keys,
                 uint64_t seed) {
  Cell c;
  c.experiment = "replicas";
  c.kind = "replicas";
  c.algorithm = std::move(algorithm);
  c.hash = "xxh64";
  c.keyset = "uniform";
  c.nodes = n;
  c.replicas = r;
  c.topology = std::move(topology);
  c.scenario = std::move(scenario);
  c.keys = keys;
  c.seed = seed;
  if (c.algorithm == "ring") c.vnodes = 100;
  return c;
}

std::map<std::string, std::optional<double>> ByMetric(
    const std::vector<ResultRow>& rows) {
  std::map<std::string, std::optional<double>> out;
  for (const ResultRow& row : rows) {
    EXPECT_TRUE(out.emplace(row.metric, row.value).second) << row.metric;
  }
  return out;
}

using Set = std::set<uint32_t>;

// Every key's list of r through the algorithm's own LookupReplicas.
std::vector<std::vector<uint32_t>> Lists(const ConsistentHash& a,
                                         const std::vector<uint64_t>& d,
                                         size_t r, bool distinct) {
  std::vector<std::vector<uint32_t>> out;
  for (uint64_t x : d) {
    std::vector<NodeId> l;
    EXPECT_TRUE(a.LookupReplicas(x, r, distinct, &l).ok());
    out.emplace_back(l.begin(), l.end());
  }
  return out;
}

// The kind's rows for rendezvous on 12 nodes in 3 zones, r = 3, against a
// brute-force model of every metric from the algorithm's lists.
TEST(ReplicasTest, RowsEqualABruteForceModel) {
  constexpr uint32_t kN = 12, kR = 3;
  constexpr uint64_t kKeys = 3000, kSeed = 7;
  const Cell c = ReplicaCell("rendezvous", kN, kR, "zones3", "zone_aware",
                             kKeys, kSeed);
  absl::StatusOr<std::vector<ResultRow>> rows = RunReplicas(c, "test");
  ASSERT_TRUE(rows.ok()) << rows.status();
  const auto got = ByMetric(*rows);

  // The model's cluster: node i in zone "z<i mod 3>".
  std::vector<NodeSpec> nodes(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    nodes[i] = NodeSpec{NodeName(i, kSeed), 1.0, absl::StrCat("z", i % 3)};
  }
  const auto make = [&]() {
    auto a = MakeAlgorithm("rendezvous", AlgorithmParams{});
    EXPECT_TRUE(a.ok());
    EXPECT_TRUE((*a)->Build(nodes).ok());
    return std::move(*a);
  };
  std::unique_ptr<ConsistentHash> algo = make();
  absl::StatusOr<std::vector<std::string>> keys =
      GenerateKeys("uniform", kKeys, kSeed);
  ASSERT_TRUE(keys.ok());
  std::vector<uint64_t> d;
  for (const std::string& k : *keys) d.push_back(algo->HashKey(k));
  const auto lists = Lists(*algo, d, kR, true);

  std::vector<double> load(kN, 0), primary(kN, 0);
  std::set<Set> copysets;
  std::vector<Set> shares(kN);
  uint64_t violations = 0;
  for (const auto& l : lists) {
    ++primary[l[0]];
    Set zones;
    for (uint32_t x : l) {
      ++load[x];
      zones.insert(x % 3);
      for (uint32_t y : l) {
        if (y != x) shares[x].insert(y);
      }
    }
    violations += zones.size() < 3;
    copysets.insert(Set(l.begin(), l.end()));
  }
  const double mean = double{kR} * kKeys / kN;
  EXPECT_DOUBLE_EQ(*got.at("replica_load_max_over_mean"),
                   *std::max_element(load.begin(), load.end()) / mean);
  EXPECT_DOUBLE_EQ(*got.at("replica_load_min_over_mean"),
                   *std::min_element(load.begin(), load.end()) / mean);
  EXPECT_DOUBLE_EQ(
      *got.at("primary_load_max_over_mean"),
      *std::max_element(primary.begin(), primary.end()) / (double{kKeys} / kN));
  EXPECT_DOUBLE_EQ(*got.at("domain_violation_fraction"),
                   double(violations) / kKeys);
  EXPECT_EQ(violations, 0u);
  EXPECT_DOUBLE_EQ(*got.at("copysets_used"), double(copysets.size()));
  double width_sum = 0, width_min = kN;
  for (const Set& s : shares) {
    width_sum += s.size();
    width_min = std::min(width_min, double(s.size()));
  }
  EXPECT_DOUBLE_EQ(*got.at("scatter_width_mean"), width_sum / kN);
  EXPECT_DOUBLE_EQ(*got.at("scatter_width_min"), width_min);
  // zones3 with r = 3 zone-aware: every key spans the three zones, so no
  // key is inside one zone.
  EXPECT_DOUBLE_EQ(*got.at("zone_loss_fraction"), 0.0);

  // Set changes against another instance's lists.
  const auto changes = [&](const std::vector<std::vector<uint32_t>>& after,
                           const std::string& prefix, double optimum) {
    double counts[3] = {0, 0, 0}, moved = 0;
    for (size_t k = 0; k < lists.size(); ++k) {
      const Set a(lists[k].begin(), lists[k].end());
      size_t fresh = 0;
      for (uint32_t x : after[k]) fresh += !a.count(x);
      ++counts[std::min<size_t>(fresh, 2)];
      moved += fresh;
    }
    EXPECT_DOUBLE_EQ(*got.at(prefix + "_sets_changed_0"), counts[0] / kKeys);
    EXPECT_DOUBLE_EQ(*got.at(prefix + "_sets_changed_1"), counts[1] / kKeys);
    EXPECT_DOUBLE_EQ(*got.at(prefix + "_sets_changed_2plus"),
                     counts[2] / kKeys);
    EXPECT_DOUBLE_EQ(*got.at(prefix + "_moved_over_optimum"), moved / optimum);
    EXPECT_GT(counts[0], 0);
  };
  std::unique_ptr<ConsistentHash> joined = make();
  ASSERT_TRUE(
      joined->AddNode(NodeSpec{NodeName(kN, kSeed), 1.0, "z0"}).ok());
  changes(Lists(*joined, d, kR, true), "join", kR * double{kKeys} / (kN + 1));

  const uint32_t victim = FailedNode(kN, kSeed);
  std::unique_ptr<ConsistentHash> failed = make();
  ASSERT_TRUE(failed->RemoveNode(victim).ok());
  const auto after = Lists(*failed, d, kR, true);
  changes(after, "failure", load[victim]);
  std::vector<double> received(kN, 0);
  double created = 0;
  for (size_t k = 0; k < lists.size(); ++k) {
    const Set a(lists[k].begin(), lists[k].end());
    for (uint32_t x : after[k]) {
      if (!a.count(x)) {
        ++received[x];
        ++created;
      }
    }
  }
  EXPECT_DOUBLE_EQ(*got.at("recovery_max_share"),
                   *std::max_element(received.begin(), received.end()) /
                       created);

  // Loss probabilities: f = 2 < r is 0; f = 3 = r and f = 4, 5 over every
  // failure set.
  EXPECT_DOUBLE_EQ(*got.at("loss_probability_f2"), 0.0);
  for (size_t f = 3; f <= 5; ++f) {
    double hit = 0, total = 0;
    for (uint32_t mask = 0; mask < (1u << kN); ++mask) {
      if (static_cast<size_t>(__builtin_popcount(mask)) != f) continue;
      ++total;
      bool lost = false;
      for (const Set& s : copysets) {
        bool all = true;
        for (uint32_t x : s) all = all && (mask >> x & 1);
        lost = lost || all;
      }
      hit += lost;
    }
    EXPECT_NEAR(*got.at(absl::StrCat("loss_probability_f", f)), hit / total,
                1e-12)
        << f;
  }

  // Prefix stability and hinted handoff from the lists for r + 1.
  const auto next = Lists(*algo, d, kR + 1, true);
  std::vector<double> hints(kN, 0);
  double not_prefix = 0, hinted = 0;
  for (size_t k = 0; k < lists.size(); ++k) {
    not_prefix += !std::equal(lists[k].begin(), lists[k].end(),
                              next[k].begin());
    if (std::count(lists[k].begin(), lists[k].end(), victim) == 0) continue;
    for (uint32_t x : next[k]) {
      if (std::count(lists[k].begin(), lists[k].end(), x) == 0) {
        ++hints[x];
        ++hinted;
        break;
      }
    }
  }
  EXPECT_DOUBLE_EQ(*got.at("prefix_violation_fraction"), not_prefix / kKeys);
  EXPECT_DOUBLE_EQ(*got.at("handoff_max_share"),
                   *std::max_element(hints.begin(), hints.end()) / hinted);
  EXPECT_DOUBLE_EQ(
      *got.at("handoff_nodes"),
      double(std::count_if(hints.begin(), hints.end(),
                           [](double h) { return h > 0; })));
}

TEST(ReplicasTest, ZoneAwarePlacementSpansTheZonesAndBlindRingDoesNot) {
  for (const char* a : {"ring", "rendezvous", "choosek", "crush"}) {
    SCOPED_TRACE(a);
    absl::StatusOr<std::vector<ResultRow>> rows = RunReplicas(
        ReplicaCell(a, 12, 3, "zones3", "zone_aware", 2000, 1), "test");
    ASSERT_TRUE(rows.ok()) << rows.status();
    const auto m = ByMetric(*rows);
    EXPECT_EQ(*m.at("domain_violation_fraction"), 0.0);
    EXPECT_EQ(*m.at("prefix_violation_fraction"), 0.0);
  }
  absl::StatusOr<std::vector<ResultRow>> blind = RunReplicas(
      ReplicaCell("ring", 12, 3, "zones3", "zone_blind", 2000, 1), "test");
  ASSERT_TRUE(blind.ok()) << blind.status();
  const auto m = ByMetric(*blind);
  EXPECT_GT(*m.at("domain_violation_fraction"), 0.0);
  EXPECT_GT(*m.at("zone_loss_fraction"), 0.0);
  // Flat: no failure domains.
  absl::StatusOr<std::vector<ResultRow>> flat = RunReplicas(
      ReplicaCell("ring", 12, 3, "flat", "zone_aware", 2000, 1), "test");
  ASSERT_TRUE(flat.ok()) << flat.status();
  for (const ResultRow& row : *flat) {
    if (row.metric == "domain_violation_fraction") {
      EXPECT_FALSE(row.value.has_value());
      EXPECT_EQ(row.note, "not applicable: no failure domains");
    }
  }
}

// The presets with replica lists run flat on their servers' names: their
// systems' lists are prefix-stable; Cassandra SimpleStrategy on even tokens
// (one token per node) uses N consecutive copysets, so P(loss) at f = r is
// exactly N / C(N, r) and a node's copies sit on 2(r - 1) others. A zoned
// topology and a preset without lists are refused.
TEST(ReplicasTest, PresetsRunTheirSystemsListsFlat) {
  for (const char* p :
       {"cassandra", "npm_hashring", "uhashring", "uhashring_ketama"}) {
    SCOPED_TRACE(p);
    absl::StatusOr<std::vector<ResultRow>> rows =
        RunReplicas(ReplicaCell(p, 10, 3, "flat", "zone_aware", 3000, 1),
                    "test");
    ASSERT_TRUE(rows.ok()) << rows.status();
    const auto m = ByMetric(*rows);
    EXPECT_EQ(*m.at("prefix_violation_fraction"), 0.0);
    if (std::string(p) == "cassandra") {
      EXPECT_EQ(*m.at("copysets_used"), 10.0);
      EXPECT_DOUBLE_EQ(*m.at("loss_probability_f3"), 10.0 / 120.0);
      EXPECT_EQ(*m.at("scatter_width_mean"), 4.0);
    }
  }
  absl::StatusOr<std::vector<ResultRow>> zoned = RunReplicas(
      ReplicaCell("cassandra", 10, 3, "zones3", "zone_aware", 1000, 1),
      "test");
  ASSERT_FALSE(zoned.ok());
  EXPECT_THAT(zoned.status().message(),
              HasSubstr("presets run flat here; valid: flat"));
  absl::StatusOr<Spec> spec = ParseSpec(
      "[[sweep]]\nkind = \"replicas\"\nkeys = 100\npreset = \"nginx\"\n"
      "nodes = 10\nreplicas = 3\ntopology = \"flat\"\n",
      "x.toml", "replicas", "default");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(spec.status().message(),
              HasSubstr("key 'preset': value 'nginx' has no replica list; "
                        "valid: "));
  EXPECT_THAT(spec.status().message(), HasSubstr("cassandra"));
}

TEST(ReplicasTest, LossProbabilityExactAndSampledAgree) {
  // Random 2-sets of 30 nodes.
  constexpr size_t kN = 30, kR = 2;
  std::set<std::pair<uint32_t, uint32_t>> sets;
  uint64_t x = 12345;
  while (sets.size() < 60) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint32_t a = (x >> 33) % kN, b = (x >> 13) % kN;
    if (a != b) sets.insert({std::min(a, b), std::max(a, b)});
  }
  std::vector<uint32_t> flat;
  for (const auto& [a, b] : sets) {
    flat.push_back(a);
    flat.push_back(b);
  }
  const LossProbability exact_r =
      FailureLossProbability(flat, kR, kN, 2, /*seed=*/1);
  EXPECT_DOUBLE_EQ(*exact_r.value, 60.0 / (30.0 * 29.0 / 2.0));
  EXPECT_EQ(*FailureLossProbability(flat, kR, kN, 1, 1).value, 0.0);
  EXPECT_FALSE(FailureLossProbability(flat, kR, 3, 4, 1).value.has_value());
  // C(30, 4) = 27405 failure sets: enumerated, and sampled when the
  // enumeration limit is 0. 200000 samples: standard error
  // sqrt(p (1 - p) / 200000) <= 0.0012; tolerance 0.006 (5 of them).
  const LossProbability all = FailureLossProbability(flat, kR, kN, 4, 1);
  const LossProbability sampled =
      FailureLossProbability(flat, kR, kN, 4, 1, /*max_enumerated=*/0);
  EXPECT_THAT(all.note, HasSubstr("exact"));
  EXPECT_EQ(sampled.note, "sampled: 200000 failure sets");
  EXPECT_GT(*all.value, 0.1);
  EXPECT_LT(*all.value, 0.9);
  EXPECT_NEAR(*all.value, *sampled.value, 0.006);
}

TEST(ReplicasTest, TopologiesFollowTheirRules) {
  std::map<std::string, int> uneven;
  for (size_t i = 0; i < 10; ++i) ++uneven[*TopologyLocation("zones3_uneven", i, 10)];
  EXPECT_EQ(uneven["z0"], 5);
  EXPECT_EQ(uneven["z1"], 3);
  EXPECT_EQ(uneven["z2"], 2);
  EXPECT_EQ(*JoinedLocation("zones3_uneven", 10), "z2");
  EXPECT_EQ(*JoinedLocation("zones3", 10), "z1");
  // 100 nodes: 50 hosts over ceil(sqrt(50)) = 8 racks.
  EXPECT_EQ(*TopologyLocation("racks_hosts", 5, 100), "r2/h2");
  EXPECT_EQ(*TopologyLocation("racks_hosts", 17, 100), "r0/h8");
  EXPECT_EQ(*JoinedLocation("racks_hosts", 100), "r2/h50");
  // 8 nodes: 4 hosts over 2 racks.
  EXPECT_EQ(*TopologyLocation("racks_hosts", 7, 8), "r1/h3");
  EXPECT_EQ(*TopologyLocation("flat", 3, 10), "");
  absl::StatusOr<std::string> bad = TopologyLocation("rings", 0, 10);
  EXPECT_THAT(bad.status().message(), HasSubstr("valid: flat, zones3"));
}

TEST(ReplicasTest, SpecErrorsNameTheValidValues) {
  const auto error = [](const std::string& block) {
    absl::StatusOr<Spec> s =
        ParseSpec(absl::StrCat("[[sweep]]\nkind = \"replicas\"\nkeys = 100\n",
                               block),
                  "x.toml", "replicas", "default");
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(std::string(s.status().message()).find('\n'), std::string::npos);
    return std::string(s.status().message());
  };
  const std::string ok =
      "algorithm = \"ring\"\nnodes = 10\nreplicas = 3\n";
  EXPECT_THAT(error(ok + "topology = \"rings\"\n"),
              HasSubstr("key 'topology': unknown value 'rings'; valid: flat, "
                        "zones3, zones3_uneven, racks_hosts"));
  EXPECT_THAT(error("algorithm = \"ring\"\nnodes = 10\nreplicas = 0\n"
                    "topology = \"flat\"\n"),
              HasSubstr("key 'replicas': value 0 out of range; valid: 1..5"));
  EXPECT_THAT(error("algorithm = \"ring\"\nnodes = [10, 4]\nreplicas = 5\n"
                    "topology = \"flat\"\n"),
              HasSubstr("key 'replicas': value 5 out of range with nodes = 4"
                        " (r distinct nodes per key); valid: 1..4"));
  EXPECT_THAT(error("algorithm = [\"ring\", \"jump\"]\nnodes = 10\n"
                    "replicas = 3\ntopology = \"flat\"\n"),
              HasSubstr("key 'algorithm': value 'jump' has no replica "
                        "placement (LookupReplicas); valid: ring, "
                        "rendezvous, choosek, crush"));
  EXPECT_THAT(error(ok + "topology = [\"flat\", \"zones3\"]\n"
                         "scenario = \"zone_blind\"\n"),
              HasSubstr("key 'scenario': value 'zone_blind' with topology "
                        "'flat'"));
  EXPECT_THAT(error(ok + "topology = \"flat\"\nscenario = \"blind\"\n"),
              HasSubstr("valid: zone_aware, zone_blind"));
  EXPECT_THAT(error("algorithm = \"ring\"\nnodes = 10\ntopology = \"flat\"\n"),
              HasSubstr("key 'replicas': missing"));
  // The axes of the replicas kind only.
  absl::StatusOr<Spec> other = ParseSpec(
      "[[sweep]]\nkind = \"balance\"\nalgorithm = \"ring\"\nnodes = 10\n"
      "keys = 100\nreplicas = 3\n",
      "x.toml", "balance", "default");
  ASSERT_FALSE(other.ok());
  EXPECT_THAT(other.status().message(),
              HasSubstr("key 'replicas': not used by kind 'balance'"));
  // A valid block: the cell names carry r and the topology.
  absl::StatusOr<Spec> spec = ParseSpec(
      absl::StrCat("[[sweep]]\nkind = \"replicas\"\nkeys = 100\n", ok,
                   "topology = [\"flat\", \"zones3\"]\nrepetitions = 2\n"),
      "x.toml", "replicas", "default");
  ASSERT_TRUE(spec.ok()) << spec.status();
  ASSERT_EQ(spec->cells.size(), 4u);
  EXPECT_EQ(spec->cells[0].scenario, "zone_aware");
  EXPECT_THAT(spec->cells[0].Name(), HasSubstr("_zone-aware_r3_flat_s0"));
  EXPECT_THAT(spec->cells[3].Name(), HasSubstr("_r3_zones3_s1"));
}

}  // namespace
}  // namespace kinds
}  // namespace chbench
