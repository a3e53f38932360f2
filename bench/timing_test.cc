// Copyright 2026 The chbench Authors.
//
// Tests of the timing harness: the rows it returns (metrics, configuration
// columns, units), the checksum against an independent computation through
// the ConsistentHash interface, the compile-time dispatch against the
// registries, error messages, and the gbench JSON merge. No test asserts a
// speed.

#include "bench/timing.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/checksum.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/registry.h"
#include "bench/dispatch.h"
#include "benchmark/benchmark.h"
#include "workload/keyset.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr double kTinyTime = 0.002;

TimingOptions Tiny() {
  TimingOptions options;
  options.min_time_s = kTinyTime;
  options.build_wall_budget_s = 0.2;
  return options;
}

TimingCell Cell(std::string algorithm, uint32_t nodes, size_t keys,
                std::string scenario = "") {
  TimingCell cell;
  cell.algorithm = std::move(algorithm);
  cell.nodes = nodes;
  cell.keyset = "uniform";
  cell.seed = 7;
  cell.num_keys = keys;
  cell.scenario = std::move(scenario);
  return cell;
}

// (scenario, metric) -> row.
std::map<std::pair<std::string, std::string>, ResultRow> ByMetric(
    const std::vector<ResultRow>& rows) {
  std::map<std::pair<std::string, std::string>, ResultRow> out;
  for (const ResultRow& r : rows) out[{r.scenario, r.metric}] = r;
  return out;
}

// The checksum the harness should report, computed independently through the
// type-erased interface.
uint64_t InterfaceChecksum(const TimingCell& cell, bool strings) {
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
      MakeAlgorithm(cell.algorithm, cell.params);
  EXPECT_TRUE(algo.ok()) << algo.status();
  std::vector<NodeSpec> specs(cell.nodes);
  for (uint32_t i = 0; i < cell.nodes; ++i) {
    specs[i].name = "node-" + std::to_string(i);
  }
  EXPECT_TRUE((*algo)->Build(specs).ok());
  std::vector<uint64_t> hashes;
  if (strings) {
    absl::StatusOr<std::vector<std::string>> keys =
        GenerateKeys(cell.keyset, cell.num_keys, cell.seed);
    EXPECT_TRUE(keys.ok()) << keys.status();
    for (const std::string& k : *keys) hashes.push_back((*algo)->HashKey(k));
  } else {
    hashes = GenerateKeyHashes(cell.num_keys, cell.seed);
  }
  if ((*algo)->capabilities().stateful) {
    for (uint64_t h : hashes) (*algo)->Place(h);
  }
  uint64_t acc = kChecksumInit;
  const size_t n = ChecksumKeyCount(hashes.size(), cell.nodes);
  for (size_t i = 0; i < n; ++i) acc = FoldChecksum(acc, (*algo)->Lookup(hashes[i]));
  return acc & ((uint64_t{1} << 52) - 1);
}

TEST(RunLookupTimingTest, TinyRingCellHasEveryMetricWithPositiveValues) {
  const TimingCell cell = Cell("ring", 10, 4096);
  absl::StatusOr<std::vector<ResultRow>> rows = RunLookupTiming(cell, Tiny());
  ASSERT_TRUE(rows.ok()) << rows.status();
  std::set<std::pair<std::string, std::string>> seen;
  for (const ResultRow& r : *rows) {
    seen.insert({r.scenario, r.metric});
    EXPECT_EQ(r.experiment, "lookup");
    EXPECT_EQ(r.algorithm, "ring");
    EXPECT_EQ(r.hash, "xxh64");
    EXPECT_EQ(r.keyset, "uniform");
    EXPECT_EQ(r.nodes, 10u);
    EXPECT_EQ(r.vnodes, 100u);
    EXPECT_FALSE(r.table_size.has_value());
    EXPECT_FALSE(r.load_factor.has_value());
    EXPECT_EQ(r.keys, 4096u);
    EXPECT_EQ(r.seed, 7u);
    ASSERT_TRUE(r.value.has_value()) << r.metric;
    EXPECT_GT(*r.value, 0) << r.scenario << " " << r.metric;
    EXPECT_EQ(r.unit, r.metric == "checksum" ? "id-fold" : "ns");
  }
  EXPECT_EQ(rows->size(), 7u);
  EXPECT_EQ(seen, (std::set<std::pair<std::string, std::string>>{
                      {"prehashed", "lookup_ns"},
                      {"prehashed", "lookup_latency_ns"},
                      {"prehashed", "checksum"},
                      {"string", "lookup_ns"},
                      {"string", "lookup_latency_ns"},
                      {"string", "hash_ns"},
                      {"string", "checksum"}}));
}

class ChecksumTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ChecksumTest, EqualsChecksumThroughTheInterface) {
  const TimingCell cell = Cell(GetParam(), 13, 3000);
  absl::StatusOr<std::vector<ResultRow>> rows = RunLookupTiming(cell, Tiny());
  ASSERT_TRUE(rows.ok()) << rows.status();
  auto by = ByMetric(*rows);
  ASSERT_EQ(by.count(std::make_pair("prehashed", "checksum")), 1u);
  ASSERT_EQ(by.count(std::make_pair("string", "checksum")), 1u);
  const double prehashed = *by[std::make_pair("prehashed", "checksum")].value;
  const double strings = *by[std::make_pair("string", "checksum")].value;
  EXPECT_EQ(prehashed, static_cast<double>(InterfaceChecksum(cell, false)));
  EXPECT_EQ(strings, static_cast<double>(InterfaceChecksum(cell, true)));
  // The two key forms are different keys: the checksums must differ.
  EXPECT_NE(prehashed, strings);
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

TEST(RunLookupTimingTest, ParameterColumnsFollowTheAlgorithm) {
  absl::StatusOr<std::vector<ResultRow>> maglev =
      RunLookupTiming(Cell("maglev", 10, 1000, "prehashed"), Tiny());
  ASSERT_TRUE(maglev.ok()) << maglev.status();
  for (const ResultRow& r : *maglev) {
    EXPECT_EQ(r.table_size, 1009u);  // smallest prime >= 100 * 10
    EXPECT_FALSE(r.vnodes.has_value());
    EXPECT_EQ(r.scenario, "prehashed");
  }
  TimingCell bl = Cell("bounded_load", 10, 1000, "prehashed");
  bl.params.load_factor = 1.5;
  bl.params.vnodes = 20;
  absl::StatusOr<std::vector<ResultRow>> bounded = RunLookupTiming(bl, Tiny());
  ASSERT_TRUE(bounded.ok()) << bounded.status();
  for (const ResultRow& r : *bounded) {
    EXPECT_EQ(r.load_factor, 1.5);
    EXPECT_EQ(r.vnodes, 20u);
    EXPECT_FALSE(r.table_size.has_value());
  }
}

TEST(RunLookupTimingTest, ChecksumFoldsABoundedPrefixForLargeN) {
  EXPECT_EQ(ChecksumKeyCount(1 << 20, 10), size_t{1} << 20);
  EXPECT_EQ(ChecksumKeyCount(1 << 20, 1000), (size_t{1} << 28) / 1000);
  EXPECT_EQ(ChecksumKeyCount(1 << 20, 100000), 4096u);
  EXPECT_EQ(ChecksumKeyCount(100, 100000), 100u);
}

TEST(RunLookupTimingTest, ErrorsNameTheValidValues) {
  absl::StatusOr<std::vector<ResultRow>> rows =
      RunLookupTiming(Cell("nope", 10, 100), Tiny());
  ASSERT_FALSE(rows.ok());
  EXPECT_THAT(rows.status().message(),
              HasSubstr("nope'; valid algorithms: modulo, ring"));

  TimingCell bad_hash = Cell("ring", 10, 100);
  bad_hash.params.hash = "sha1";
  rows = RunLookupTiming(bad_hash, Tiny());
  ASSERT_FALSE(rows.ok());
  EXPECT_THAT(rows.status().message(), HasSubstr("sha1"));
  EXPECT_THAT(rows.status().message(), HasSubstr("xxh64"));

  rows = RunLookupTiming(Cell("ring", 10, 100, "warm"), Tiny());
  ASSERT_FALSE(rows.ok());
  EXPECT_THAT(rows.status().message(), HasSubstr("'warm'; valid scenarios"));

  TimingCell bad_keyset = Cell("ring", 10, 100, "string");
  bad_keyset.keyset = "emoji";
  rows = RunLookupTiming(bad_keyset, Tiny());
  ASSERT_FALSE(rows.ok());
  EXPECT_THAT(rows.status().message(), HasSubstr("emoji"));

  rows = RunLookupTiming(Cell("ring", 0, 100), Tiny());
  ASSERT_FALSE(rows.ok());
  EXPECT_THAT(rows.status().message(), HasSubstr("nodes must be >= 1"));
  rows = RunLookupTiming(Cell("ring", 10, 0), Tiny());
  ASSERT_FALSE(rows.ok());
  EXPECT_THAT(rows.status().message(), HasSubstr("num_keys must be >= 1"));
}

TEST(RunBuildTimingTest, EveryAlgorithmHasBuildAddRemove) {
  for (const std::string& name : AlgorithmNameList()) {
    SCOPED_TRACE(name);
    absl::StatusOr<std::vector<ResultRow>> rows =
        RunBuildTiming(Cell(name, 20, 0), Tiny());
    ASSERT_TRUE(rows.ok()) << rows.status();
    std::vector<std::string> metrics;
    for (const ResultRow& r : *rows) {
      metrics.push_back(r.metric);
      EXPECT_EQ(r.experiment, "build");
      EXPECT_EQ(r.nodes, 20u);
      EXPECT_EQ(r.unit, "ns");
      EXPECT_FALSE(r.keys.has_value());
      ASSERT_TRUE(r.value.has_value()) << r.metric << ": " << r.note;
      EXPECT_GT(*r.value, 0);
    }
    EXPECT_THAT(metrics, UnorderedElementsAre("build_ns", "add_node_ns",
                                              "remove_node_ns"));
  }
}

TEST(RunBuildTimingTest, RefusedOperationGivesNotApplicableRow) {
  // A fixed maglev table of 11 slots holds at most 11 nodes: no add.
  TimingCell cell = Cell("maglev", 11, 0);
  cell.params.table_size = 11;
  absl::StatusOr<std::vector<ResultRow>> rows = RunBuildTiming(cell, Tiny());
  ASSERT_TRUE(rows.ok()) << rows.status();
  auto by = ByMetric(*rows);
  const ResultRow& add = by[std::make_pair("", "add_node_ns")];
  EXPECT_FALSE(add.value.has_value());
  EXPECT_THAT(add.note, HasSubstr("not applicable: "));
  EXPECT_EQ(add.table_size, 11u);
  EXPECT_TRUE(by[std::make_pair("", "build_ns")].value.has_value());
  EXPECT_TRUE(by[std::make_pair("", "remove_node_ns")].value.has_value());
}

TEST(RunTimingTest, AppendsEveryCellToOneGbenchJson) {
  const std::string path =
      ::testing::TempDir() + "/chbench_timing_test_gbench.json";
  std::remove(path.c_str());
  TimingOptions options = Tiny();
  options.gbench_json_path = path;
  ASSERT_TRUE(RunLookupTiming(Cell("jump", 10, 100, "prehashed"), options).ok());
  ASSERT_TRUE(RunBuildTiming(Cell("modulo", 10, 0), options).ok());
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t p = text.find(needle); p != std::string::npos;
         p = text.find(needle, p + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(count("\"context\""), 1u);
  EXPECT_EQ(count("\"benchmarks\""), 1u);
  EXPECT_EQ(count("\"run_name\": \"jump/xxh64/prehashed/lookup_ns/"), 1u);
  EXPECT_EQ(count("\"run_name\": \"jump/xxh64/prehashed/lookup_latency_ns/"),
            1u);
  EXPECT_EQ(count("\"run_name\": \"build/modulo/xxh64/nodes:10/seed:7/"), 3u);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.substr(text.size() - 6), "  ]\n}\n");
  std::remove(path.c_str());
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
      ASSERT_TRUE(made.ok()) << made.status();
      int calls = 0;
      const ConsistentHash* instance = made->get();
      bool same_type = false;
      absl::Status s =
          DispatchConcrete(algo.name, hash.name, [&]<typename A>() {
            ++calls;
            same_type = typeid(A) == typeid(*instance) &&
                        dynamic_cast<const A*>(instance) != nullptr;
          });
      ASSERT_TRUE(s.ok()) << s;
      EXPECT_EQ(calls, 1);
      EXPECT_TRUE(same_type);
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, Algorithms().size() * HashFunctions().size());
  EXPECT_EQ(Algorithms().size(), kConcreteAlgorithms.size());
  EXPECT_EQ(HashFunctions().size(), kConcreteHashes.size());
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
