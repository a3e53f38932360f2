// Copyright 2026 The chbench Authors.
//
// Tests of the timing groups: the samples they return (metrics, one value
// per round, configuration), the checksum against an independent computation
// through the ConsistentHash interface, bounded_load's operating point, the
// peers and their ratios, the compile-time dispatch against the registries,
// and error messages. No test asserts a speed.

#include "bench/timing.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "algorithms/checksum.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/registry.h"
#include "algorithms/testing/toy_algorithm.h"
#include "bench/dispatch.h"
#include "bench/kernels.h"
#include "bench/no_slow_state_retries.h"
#include "benchmark/benchmark.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "workload/keyset.h"

namespace chbench {
namespace {

using ::testing::HasSubstr;

TimingGroup Tiny(std::string kind, std::vector<std::string> algorithms,
                 uint32_t nodes, size_t keys, std::string scenario = "") {
  TimingGroup g;
  g.kind = std::move(kind);
  g.nodes = nodes;
  g.keyset = "uniform";
  g.scenario = std::move(scenario);
  g.seed = 7;
  g.num_keys = keys;
  g.rounds = 3;
  g.min_time_s = 0.001;
  g.build_wall_budget_s = 0.05;
  for (std::string& a : algorithms) {
    TimingMember m;
    m.algorithm = std::move(a);
    if (m.algorithm == "bounded_load") m.placed_keys_per_node = 20;
    g.members.push_back(std::move(m));
  }
  return g;
}

const TimingSample* Find(const TimingGroupResult& r, std::string_view algorithm,
                         std::string_view metric,
                         std::string_view scenario = "") {
  for (const TimingSample& s : r.samples) {
    if (s.algorithm == algorithm && s.metric == metric &&
        (scenario.empty() || s.scenario == scenario)) {
      return &s;
    }
  }
  return nullptr;
}

// The checksum the group should report, computed independently through the
// type-erased interface (bounded_load: its placed keys first, then the
// unplaced route, which for a key never placed is Lookup).
uint64_t InterfaceChecksum(const TimingGroup& g, bool strings,
                           bool weighted = false) {
  const TimingMember& m = g.members[0];
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
      MakeAlgorithm(m.algorithm, m.params);
  EXPECT_TRUE(algo.ok()) << algo.status();
  std::vector<NodeSpec> specs(g.nodes);
  for (uint32_t i = 0; i < g.nodes; ++i) {
    specs[i].name = "node-" + std::to_string(i);
    if (weighted) specs[i].weight = 1.0 + i % 4;
  }
  EXPECT_TRUE((*algo)->Build(specs).ok());
  if (m.placed_keys_per_node > 0 && (*algo)->capabilities().stateful) {
    for (uint64_t h :
         GenerateKeyHashes(size_t{m.placed_keys_per_node} * g.nodes,
                           g.seed ^ 0x706c61636564ULL)) {
      (*algo)->Place(h);
    }
  }
  std::vector<uint64_t> hashes;
  if (strings) {
    absl::StatusOr<std::vector<std::string>> keys =
        GenerateKeys(g.keyset, g.num_keys, g.seed);
    EXPECT_TRUE(keys.ok()) << keys.status();
    for (const std::string& k : *keys) hashes.push_back((*algo)->HashKey(k));
  } else {
    hashes = GenerateKeyHashes(g.num_keys, g.seed);
  }
  uint64_t acc = kChecksumInit;
  const size_t n = ChecksumKeyCount(hashes.size(), g.nodes);
  for (size_t i = 0; i < n; ++i) {
    acc = FoldChecksum(acc, (*algo)->Lookup(hashes[i]));
  }
  return acc & ((uint64_t{1} << 52) - 1);
}

// Scenario "weighted": prehashed keys on nodes with weights 1 + (i mod 4),
// so the checksum differs from the equal-weight one and equals the
// interface's on weighted nodes; no peers, no multi-thread rows; algorithms
// without weights are refused with the valid names.
TEST(LookupGroupTest, WeightedScenarioBuildsWeightedNodes) {
  for (const char* algo : {"rendezvous", "ring", "maglev"}) {
    SCOPED_TRACE(algo);
    TimingGroup g = Tiny("lookup", {algo}, 40, 4096, "weighted");
    g.members[0].multithread = true;
    absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
    ASSERT_TRUE(r.ok()) << r.status();
    const TimingSample* sum = Find(*r, algo, "checksum", "weighted");
    ASSERT_NE(sum, nullptr);
    ASSERT_EQ(sum->values.size(), 1u);
    const uint64_t got = static_cast<uint64_t>(sum->values[0]);
    EXPECT_EQ(got, InterfaceChecksum(g, /*strings=*/false, /*weighted=*/true));
    EXPECT_NE(got, InterfaceChecksum(g, /*strings=*/false, /*weighted=*/false));
    EXPECT_NE(Find(*r, algo, "lookup_ns", "weighted"), nullptr);
    EXPECT_NE(Find(*r, algo, "lookup_latency_ns", "weighted"), nullptr);
    for (const TimingSample& s : r->samples) {
      EXPECT_EQ(s.algorithm, algo) << s.metric;  // no peer
      EXPECT_NE(s.metric, "lookups_per_s");
    }
  }
  absl::StatusOr<TimingGroupResult> bad =
      RunTimingGroup(Tiny("lookup", {"jump"}, 10, 4096, "weighted"));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("algorithm 'jump' in a weighted lookup group: it "
                        "does not accept node weights; valid: ring, "
                        "rendezvous, maglev"));
}

// Scenario "replicas": each member times Lookup and LookupReplicas(key, 3)
// in the same rounds (one value per round each), rows say r = 3, the
// checksum is the prehashed one (Lookup's owners); no peers; algorithms
// without replica lists are refused with the valid names.
TEST(LookupGroupTest, ReplicasScenarioTimesBothLookupsInTheSameRounds) {
  for (const char* algo : {"ring", "rendezvous", "choosek", "crush"}) {
    SCOPED_TRACE(algo);
    TimingGroup g = Tiny("lookup", {algo}, 20, 4096, "replicas");
    absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
    ASSERT_TRUE(r.ok()) << r.status();
    const TimingSample* sum = Find(*r, algo, "checksum", "replicas");
    ASSERT_NE(sum, nullptr);
    ASSERT_EQ(sum->values.size(), 1u);
    EXPECT_EQ(static_cast<uint64_t>(sum->values[0]),
              InterfaceChecksum(g, /*strings=*/false));
    for (const char* metric :
         {"lookup_ns", "lookup_latency_ns", "replicas_lookup_ns",
          "replicas_lookup_latency_ns"}) {
      const TimingSample* s = Find(*r, algo, metric, "replicas");
      ASSERT_NE(s, nullptr) << metric;
      EXPECT_EQ(s->values.size(), g.rounds) << metric;
      EXPECT_EQ(s->replicas, absl::StartsWith(metric, "replicas_") ? 3u : 0u)
          << metric;
    }
    for (const TimingSample& s : r->samples) {
      EXPECT_EQ(s.algorithm, algo) << s.metric;  // no peer
    }
  }
  absl::StatusOr<TimingGroupResult> bad =
      RunTimingGroup(Tiny("lookup", {"jump"}, 10, 4096, "replicas"));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("algorithm 'jump' in a replicas lookup group: it has "
                        "no replica lists; valid: ring, rendezvous"));
}

TEST(LookupGroupTest, EveryMemberHasEveryMetricOncePerRound) {
  TimingGroup g =
      Tiny("lookup", {"ring", "jump", "maglev"}, 10, 4096, "prehashed");
  g.peers = false;
  absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
  ASSERT_TRUE(r.ok()) << r.status();
  for (const char* algo : {"ring", "jump", "maglev"}) {
    for (const char* metric : {"lookup_ns", "lookup_latency_ns"}) {
      SCOPED_TRACE(std::string(algo) + " " + metric);
      const TimingSample* s = Find(*r, algo, metric);
      ASSERT_NE(s, nullptr);
      EXPECT_EQ(s->values.size(), 3u);
      for (double v : s->values) EXPECT_GT(v, 0);
      EXPECT_EQ(s->unit, "ns");
      EXPECT_EQ(s->keys, 4096u);
    }
    ASSERT_NE(Find(*r, algo, "checksum"), nullptr);
  }
  EXPECT_TRUE(Find(*r, "maglev", "lookup_ns")->table_size.has_value());
  EXPECT_FALSE(Find(*r, "ring", "lookup_ns")->table_size.has_value());
  EXPECT_GE(r->load_avg_1m, 0);
}

class ChecksumTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ChecksumTest, EqualsChecksumThroughTheInterface) {
  for (const bool strings : {false, true}) {
    TimingGroup g = Tiny("lookup", {GetParam()}, 13, 3000,
                         strings ? "string" : "prehashed");
    absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
    ASSERT_TRUE(r.ok()) << r.status();
    const TimingSample* s = Find(*r, GetParam(), "checksum");
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->values.size(), 1u);
    EXPECT_EQ(s->values[0], static_cast<double>(InterfaceChecksum(g, strings)))
        << (strings ? "string" : "prehashed");
  }
}

std::vector<std::string> AlgorithmNameList() {
  std::vector<std::string> names;
  for (const AlgorithmInfo& info : Algorithms()) {
    names.emplace_back(info.name);
  }
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllAlgorithms, ChecksumTest,
                         ::testing::ValuesIn(AlgorithmNameList()));

// A member with batch B > 1 times its single-key throughput and its
// batched throughput (B keys per LookupBatch call, 4096 keys: full and
// partial batches) in the same rounds, fold-checked against the single-key
// owners, with their per-round ratio; in every algorithm (bounded_load: the
// batched unplaced route), prehashed and string, beside a batch-1 member
// whose kernels are unchanged. A batch past kMaxTimedBatch is refused.
TEST(LookupGroupTest, BatchedMembersTimeBatchedAndSingleThroughput) {
  for (const char* scenario : {"prehashed", "string"}) {
    for (const AlgorithmInfo& info : Algorithms()) {
      SCOPED_TRACE(std::string(info.name) + " " + scenario);
      TimingGroup g =
          Tiny("lookup", {std::string(info.name), std::string(info.name)}, 20,
               4096, scenario);
      g.peers = false;
      g.members[1].batch = 48;
      absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
      ASSERT_TRUE(r.ok()) << r.status();
      size_t batched = 0, ratios = 0, single_of_batched = 0;
      for (const TimingSample& s : r->samples) {
        if (s.member == 0) {
          EXPECT_EQ(s.batch, 0u) << s.metric;
          EXPECT_NE(s.metric, "batch_lookup_ns");
          continue;
        }
        EXPECT_EQ(s.batch, 48u) << s.metric;
        EXPECT_EQ(s.values.size(), g.rounds) << s.metric;
        batched += s.metric == "batch_lookup_ns";
        ratios += s.metric == "batch_lookup_ns_ratio_to_single";
        single_of_batched += s.metric == "lookup_ns";
        EXPECT_NE(s.metric, "lookup_latency_ns");
      }
      EXPECT_EQ(batched, 1u);
      EXPECT_EQ(ratios, 1u);
      EXPECT_EQ(single_of_batched, 1u);
      ASSERT_NE(Find(*r, info.name, "lookup_latency_ns"), nullptr);
    }
  }
  TimingGroup g = Tiny("lookup", {"ring"}, 10, 4096, "prehashed");
  g.members[0].batch = 5000;
  absl::StatusOr<TimingGroupResult> bad = RunTimingGroup(g);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("batch 5000 out of range; valid: 1..1024"));
}

// A batched ring member with peers: the batched peer (ring_interleaved)
// times LookupBatch over the same keys, B per call, in the same rounds
// (fold-checked against the ring's owners), with
// batch_lookup_ns_ratio_to_ring_interleaved on the ring's row; the
// single-key peers stay with the batch-1 member, and a string group has
// no batched peer.
TEST(LookupGroupTest, BatchedRingIsTimedBesideItsBatchedPeer) {
  TimingGroup g = Tiny("lookup", {"ring", "ring"}, 20, 4096, "prehashed");
  g.members[1].batch = 16;
  absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
  ASSERT_TRUE(r.ok()) << r.status();
  size_t peer = 0, ratio = 0, single_peers_of_batched = 0;
  for (const TimingSample& s : r->samples) {
    if (s.algorithm == "ring_interleaved") {
      ++peer;
      EXPECT_EQ(s.member, 1u);
      EXPECT_EQ(s.peer_of, "ring");
      EXPECT_EQ(s.metric, "batch_lookup_ns");
      EXPECT_EQ(s.batch, 16u);
      EXPECT_EQ(s.values.size(), g.rounds);
    }
    if (s.metric == "batch_lookup_ns_ratio_to_ring_interleaved") {
      ++ratio;
      EXPECT_EQ(s.member, 1u);
      EXPECT_EQ(s.algorithm, "ring");
      EXPECT_EQ(s.unit, "ratio");
      ASSERT_EQ(s.values.size(), g.rounds);
      for (double v : s.values) EXPECT_GT(v, 0);
    }
    if (s.member == 1 && !s.peer_of.empty() &&
        s.algorithm != "ring_interleaved") {
      ++single_peers_of_batched;
    }
  }
  EXPECT_EQ(peer, 1u);
  EXPECT_EQ(ratio, 1u);
  EXPECT_EQ(single_peers_of_batched, 0u);
  ASSERT_NE(Find(*r, "ring_upper_bound", "lookup_ns"), nullptr);
  EXPECT_EQ(Find(*r, "ring_upper_bound", "lookup_ns")->member, 0u);

  TimingGroup s = Tiny("lookup", {"ring"}, 20, 4096, "string");
  s.members[0].batch = 16;
  absl::StatusOr<TimingGroupResult> rs = RunTimingGroup(s);
  ASSERT_TRUE(rs.ok()) << rs.status();
  EXPECT_EQ(Find(*rs, "ring_interleaved", "batch_lookup_ns"), nullptr);
}

TEST(LookupGroupTest, StringScenarioAlsoTimesTheHashAlone) {
  absl::StatusOr<TimingGroupResult> r =
      RunTimingGroup(Tiny("lookup", {"modulo"}, 10, 2000, "string"));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_NE(Find(*r, "modulo", "hash_ns"), nullptr);
  EXPECT_EQ(Find(*r, "modulo", "hash_ns")->values.size(), 3u);
  EXPECT_EQ(Find(*r, "modulo", "lookup_ns")->scenario, "string");
  EXPECT_EQ(Find(*r, "modulo", "hash_ns")->keys, 2000u);
}

// hash_ns times a cache-resident slice of a large cell's keys and says so
// in its `keys`; the lookup itself still cycles over all of them.
TEST(LookupGroupTest, HashAloneTimesTheFirstKeysOfALargeCell) {
  const uint64_t n = bench_internal::kHashTimedKeys + 1000;
  absl::StatusOr<TimingGroupResult> r =
      RunTimingGroup(Tiny("lookup", {"modulo"}, 10, n, "string"));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_NE(Find(*r, "modulo", "hash_ns"), nullptr);
  EXPECT_EQ(Find(*r, "modulo", "hash_ns")->keys,
            bench_internal::kHashTimedKeys);
  EXPECT_EQ(Find(*r, "modulo", "lookup_ns")->keys, n);
}

TEST(LookupGroupTest, BoundedLoadRoutesFreshKeysAndProbesPlacedOnes) {
  absl::StatusOr<TimingGroupResult> r =
      RunTimingGroup(Tiny("lookup", {"bounded_load"}, 10, 2000, "prehashed"));
  ASSERT_TRUE(r.ok()) << r.status();
  const TimingSample* fresh =
      Find(*r, "bounded_load", "lookup_ns", "prehashed");
  const TimingSample* placed = Find(*r, "bounded_load", "lookup_ns", "placed");
  ASSERT_NE(fresh, nullptr);
  ASSERT_NE(placed, nullptr);
  EXPECT_EQ(fresh->placed_keys, 200u);  // 20 per node x 10 nodes
  EXPECT_EQ(placed->keys, 200u);
  EXPECT_THAT(fresh->note, HasSubstr("200 keys placed"));
}

TEST(LookupGroupTest, MultithreadGivesLookupsPerSecondPerThreadCount) {
  TimingGroup g = Tiny("lookup", {"jump"}, 100, 4096, "prehashed");
  g.members[0].multithread = true;
  g.peers = false;
  absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
  ASSERT_TRUE(r.ok()) << r.status();
  std::set<uint32_t> threads;
  for (const TimingSample& s : r->samples) {
    if (s.metric != "lookups_per_s") continue;
    threads.insert(s.threads);
    EXPECT_EQ(s.unit, "1/s");
    for (double v : s.values) EXPECT_GT(v, 0);
  }
  EXPECT_EQ(threads.size(), std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(*threads.begin(), 1u);
}

TEST(LookupGroupTest, BatchedMultithreadGivesBatchedLookupsPerSecond) {
  TimingGroup g = Tiny("lookup", {"maglev"}, 100, 4096, "prehashed");
  g.members[0].multithread = true;
  g.members[0].batch = 16;
  g.peers = false;
  absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
  ASSERT_TRUE(r.ok()) << r.status();
  std::set<uint32_t> threads;
  for (const TimingSample& s : r->samples) {
    EXPECT_NE(s.metric, "lookups_per_s");  // the batch-1 cell's
    if (s.metric != "batch_lookups_per_s") continue;
    threads.insert(s.threads);
    EXPECT_EQ(s.unit, "1/s");
    EXPECT_EQ(s.batch, 16u);
    for (double v : s.values) EXPECT_GT(v, 0);
  }
  EXPECT_EQ(threads.size(), std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(*threads.begin(), 1u);
}

TEST(LookupGroupTest, LinearLookupsCycleOverABoundedPrefix) {
  absl::StatusOr<TimingGroupResult> r =
      RunTimingGroup(Tiny("lookup", {"rendezvous"}, 20000, 8192, "prehashed"));
  ASSERT_TRUE(r.ok()) << r.status();
  // max(4096, 2^26 / 20000) = 4096 of the 8192 keys.
  EXPECT_EQ(Find(*r, "rendezvous", "lookup_ns")->keys, 4096u);
}

TEST(LookupGroupTest, ErrorsNameTheBadValue) {
  absl::StatusOr<TimingGroupResult> r =
      RunTimingGroup(Tiny("lookup", {"chord"}, 10, 100, "prehashed"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("'chord'"));
  r = RunTimingGroup(Tiny("lookup", {"ring"}, 10, 100, "sideways"));
  EXPECT_THAT(r.status().message(), HasSubstr("'sideways'"));
  r = RunTimingGroup(Tiny("lookup", {"ring"}, 0, 100, "prehashed"));
  EXPECT_THAT(r.status().message(), HasSubstr("nodes"));
  r = RunTimingGroup(Tiny("lookup", {"ring"}, 10, 0, "prehashed"));
  EXPECT_THAT(r.status().message(), HasSubstr("num_keys"));
  // A registered hash whose lookup kernels are not compiled.
  TimingGroup sip = Tiny("lookup", {"ring"}, 10, 100, "string");
  sip.members[0].params.hash = "siphash";
  r = RunTimingGroup(sip);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(),
              HasSubstr("hash 'siphash' in a lookup group: lookups are timed "
                        "with md5, xxh64, xxh3, murmur3_128, murmur3_32, "
                        "crc32, fnv1a, absl_hash only"));
  TimingGroup bad = Tiny("lookup", {"ring"}, 10, 100, "string");
  bad.keyset = "klingon";
  r = RunTimingGroup(bad);
  EXPECT_THAT(r.status().message(), HasSubstr("klingon"));
}

TEST(BuildGroupTest, EveryAlgorithmHasBuildAddRemove) {
  absl::StatusOr<TimingGroupResult> r =
      RunTimingGroup(Tiny("build", AlgorithmNameList(), 10, 0));
  ASSERT_TRUE(r.ok()) << r.status();
  for (const std::string& algo : AlgorithmNameList()) {
    for (const char* metric : {"build_ns", "add_node_ns", "remove_node_ns"}) {
      SCOPED_TRACE(algo + " " + metric);
      const TimingSample* s = Find(*r, algo, metric);
      ASSERT_NE(s, nullptr);
      if (algo == "anchor" && std::string(metric) == "add_node_ns") {
        // a = N by default: no spare bucket, the add is refused and said so.
        EXPECT_TRUE(s->values.empty());
        EXPECT_THAT(s->note, HasSubstr("not applicable: anchor"));
        EXPECT_THAT(s->note, HasSubstr("capacity"));
        continue;
      }
      ASSERT_EQ(s->values.size(), 3u) << s->note;
      for (double v : s->values) EXPECT_GT(v, 0);
    }
  }
  const TimingSample* bl = Find(*r, "bounded_load", "add_node_ns");
  EXPECT_EQ(bl->placed_keys, 200u);
  EXPECT_THAT(bl->note, HasSubstr("replays"));
  // Maglev's build is timed beside Katran's table fill, with its ratio.
  const TimingSample* katran = Find(*r, "maglev_katran_build", "build_ns");
  ASSERT_NE(katran, nullptr);
  EXPECT_EQ(katran->peer_of, "maglev");
  EXPECT_EQ(katran->values.size(), 3u);
  const TimingSample* ratio =
      Find(*r, "maglev", "build_ns_ratio_to_maglev_katran_build");
  ASSERT_NE(ratio, nullptr);
  ASSERT_EQ(ratio->values.size(), 3u);
  for (double v : ratio->values) EXPECT_GT(v, 0);
  // Placing fresh keys is timed for the stateful algorithm only, per key.
  const TimingSample* place = Find(*r, "bounded_load", "place_ns");
  ASSERT_NE(place, nullptr);
  EXPECT_EQ(place->placed_keys, 200u);
  EXPECT_THAT(place->note, HasSubstr("ns per key"));
  ASSERT_EQ(place->values.size(), 3u);
  for (double v : place->values) EXPECT_GT(v, 0);
  for (const std::string& algo : AlgorithmNameList()) {
    if (algo != "bounded_load") {
      EXPECT_EQ(Find(*r, algo, "place_ns"), nullptr) << algo;
    }
  }
  // With spare capacity anchor's add is timed.
  TimingGroup spare = Tiny("build", {"anchor"}, 10, 0);
  spare.members[0].params.capacity = 20;
  absl::StatusOr<TimingGroupResult> a = RunTimingGroup(spare);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(Find(*a, "anchor", "add_node_ns")->values.size(), 3u);
}

TEST(HashGroupTest, EveryHashIsTimed) {
  TimingGroup g = Tiny("hash_speed", {}, 0, 1000);
  g.hashes = {"xxh64", "md5", "crc32"};
  absl::StatusOr<TimingGroupResult> r = RunTimingGroup(g);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->samples.size(), 3u);
  for (const TimingSample& s : r->samples) {
    EXPECT_EQ(s.metric, "hash_ns");
    EXPECT_EQ(s.values.size(), 3u);
  }
  g.hashes = {"sha1024"};
  EXPECT_THAT(RunTimingGroup(g).status().message(), HasSubstr("'sha1024'"));
}

TEST(BenchmarkContextJsonTest, DescribesTheMachine) {
  const std::string json = BenchmarkContextJson();
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
  EXPECT_THAT(json, HasSubstr(absl::StrCat(
                        "\"num_cpus\": ", benchmark::CPUInfo::Get().num_cpus)));
  for (const char* key : {"\"mhz_per_cpu\"", "\"cpu_scaling_enabled\"",
                          "\"caches\"", "\"load_avg\"", "\"host_name\""}) {
    EXPECT_THAT(json, HasSubstr(key));
  }
}

TEST(DispatchConcreteTest, EveryRegistryAlgorithmAndHashGivesTheFactoryType) {
  size_t pairs = 0;
  for (const AlgorithmInfo& algo : Algorithms()) {
    for (const HashInfo& hash : HashFunctions()) {
      SCOPED_TRACE(std::string(algo.name) + " x " + std::string(hash.name));
      AlgorithmParams params;
      params.hash = std::string(hash.name);
      absl::StatusOr<std::unique_ptr<ConsistentHash>> made = algo.make(params);
      if (algo.name == "bounded_load" && hash.bits == 32) {
        // Refused: distinct keys with equal digests would merge.
        EXPECT_FALSE(made.ok());
        ++pairs;
        continue;
      }
      ASSERT_TRUE(made.ok()) << made.status();
      int calls = 0;
      const ConsistentHash* instance = made->get();
      bool same_type = false;
      bool defines_replicas = false;
      absl::Status s =
          DispatchConcrete(algo.name, hash.name, [&]<typename A>() {
            ++calls;
            same_type = typeid(A) == typeid(*instance) &&
                        dynamic_cast<const A*>(instance) != nullptr;
            defines_replicas = kDefinesReplicas<A>;
          });
      ASSERT_TRUE(s.ok()) << s;
      EXPECT_EQ(calls, 1);
      EXPECT_TRUE(same_type);
      // The timing kernels compile replica lists only where the type defines
      // them; the spec admits the replicas scenario by the capability.
      EXPECT_EQ(defines_replicas, algo.capabilities.replicas);
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, Algorithms().size() * HashFunctions().size());
  EXPECT_EQ(HashFunctions().size(), kConcreteHashes.size());
}

// A catalogue entry alone reaches the timing dispatch: with the test-only
// catalogue (algorithms/testing/toy_algorithm.h), "toy" dispatches to the
// toy's class for every hash, and its factory makes that very type; the
// production catalogue does not know it.
TEST(DispatchConcreteTest, ACatalogueEntryAloneIsDispatched) {
  for (const HashInfo& h : HashFunctions()) {
    SCOPED_TRACE(h.name);
    absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
        CatalogueRows(kToyCatalogue)
            .back()
            .make(AlgorithmParams{.hash = std::string(h.name)});
    ASSERT_TRUE(made.ok()) << made.status();
    const ConsistentHash* instance = made->get();
    int calls = 0;
    bool same_type = false;
    absl::Status s =
        DispatchConcrete<kToyCatalogue>("toy", h.name, [&]<typename A>() {
          ++calls;
          same_type = typeid(A) == typeid(*instance) &&
                      dynamic_cast<const A*>(instance) != nullptr;
        });
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(calls, 1);
    EXPECT_TRUE(same_type);
  }
  absl::Status s = DispatchConcrete("toy", "xxh64", []<typename A>() {});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("unknown algorithm 'toy'"));
}

TEST(DispatchConcreteTest, UnknownNamesListTheValidOnes) {
  int calls = 0;
  auto count = [&]<typename A>() { ++calls; };
  absl::Status s = DispatchConcrete("chord", "xxh64", count);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("'chord'"));
  for (const AlgorithmInfo& a : Algorithms()) {
    EXPECT_THAT(s.message(), HasSubstr(std::string(a.name)));
  }
  s = DispatchConcrete("ring", "sha256", count);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("'sha256'"));
  for (const HashInfo& h : HashFunctions()) {
    EXPECT_THAT(s.message(), HasSubstr(std::string(h.name)));
  }
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace chbench
