// Copyright 2026 The chbench Authors.
//
// Tests of the algorithm registry (algorithms/registry.h) and the catalogue
// it comes from (algorithms/catalogue.h): the rows are well-formed and have
// every piece the README's "Adding an algorithm" checklist names, lookups by
// name work and fail with helpful errors, every factory returns an instance
// that agrees with its row, and each row's golden value pins the
// algorithm's mapping (SMHasher's VerificationTest in spirit).
//
// Regenerate the goldens: CHBENCH_REGENERATE_GOLDEN=1
// build/algorithms/algorithms_test --gtest_filter='*GoldenChecksum*' prints
// the rows to paste into algorithms/catalogue.h.

#include "algorithms/registry.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/checksum.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/reference_models.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::HasSubstr;

TEST(RegistryTest, ListsTheAlgorithmsInOrder) {
  std::vector<std::string> names;
  for (const AlgorithmInfo& info : Algorithms()) {
    names.emplace_back(info.name);
  }
  EXPECT_THAT(names, ::testing::ElementsAre(
                         "modulo", "ring", "rendezvous", "jump", "maglev",
                         "bounded_load", "multiprobe", "anchor", "memento",
                         "dx", "jumpback", "flip", "power", "binomial",
                         "choosek", "jumpbackanchor", "crush"));
  EXPECT_EQ(AlgorithmNames(), absl::StrJoin(names, ", "));
}

TEST(RegistryTest, RowsAreWellFormed) {
  std::set<std::string_view> seen;
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    EXPECT_TRUE(seen.insert(info.name).second) << "duplicate name";
    EXPECT_FALSE(info.description.empty());
    EXPECT_FALSE(info.citation.empty());
    EXPECT_NE(info.make, nullptr);
    EXPECT_EQ(FindAlgorithm(info.name), &info);
    // A stateful algorithm cannot promise minimal disruption; an algorithm
    // without arbitrary removal must still be minimal on its allowed change.
    if (info.capabilities.stateful) {
      EXPECT_FALSE(info.capabilities.minimal_disruption);
    }
  }
}

// The source tree: this file is algorithms/registry_test.cc.
std::filesystem::path SourceRoot() {
  return std::filesystem::path(__FILE__).parent_path().parent_path();
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The README's "Adding an algorithm" checklist, item by item: a row missing
// any piece fails here, naming the piece.
TEST(RegistryTest, EveryRowHasWhatTheChecklistNames) {
  const std::filesystem::path root = SourceRoot();
  const std::string readme = ReadFile(root / "README.md");
  ASSERT_FALSE(readme.empty()) << "cannot read " << root / "README.md";
  // The hashes the conformance suite runs every row with.
  const std::string_view suite_hashes[] = {"xxh64", "md5", "murmur3_32",
                                           "crc32"};
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    const std::string name(info.name);
    // 1. The folder: algorithms/<name>/<name>.h, <name>.cc (the factory)
    // and <name>_test.cc.
    const std::filesystem::path dir = root / "algorithms" / name;
    EXPECT_TRUE(std::filesystem::exists(dir / (name + ".h")))
        << "missing algorithms/" << name << "/" << name << ".h";
    EXPECT_TRUE(std::filesystem::exists(dir / (name + ".cc")))
        << "missing algorithms/" << name << "/" << name << ".cc";
    EXPECT_TRUE(std::filesystem::exists(dir / (name + "_test.cc")))
        << "missing algorithms/" << name << "/" << name << "_test.cc";
    // 2. The catalogue row: description, paper, factory, lookup complexity
    // and class, parameters ("hash" first), a golden for every hash of the
    // suite that the algorithm accepts (xxh64 first).
    EXPECT_FALSE(info.description.empty()) << "row: no description";
    EXPECT_FALSE(info.citation.empty()) << "row: no citation";
    EXPECT_NE(info.make, nullptr) << "row: no factory";
    EXPECT_FALSE(info.lookup_complexity.empty()) << "row: no complexity";
    EXPECT_NE(std::find(std::begin(kLookupClasses), std::end(kLookupClasses),
                        info.lookup_class),
              std::end(kLookupClasses))
        << "row: lookup_class '" << info.lookup_class << "'";
    ASSERT_FALSE(info.parameters.empty()) << "row: no parameters";
    EXPECT_EQ(info.parameters[0].name, "hash");
    ASSERT_FALSE(info.goldens.empty()) << "row: no goldens";
    EXPECT_EQ(info.goldens[0].hash, "xxh64");
    for (std::string_view h : suite_hashes) {
      if (info.capabilities.stateful && FindHash(h)->bits < 64) continue;
      EXPECT_TRUE(std::any_of(info.goldens.begin(), info.goldens.end(),
                              [&](const HashGolden& g) { return g.hash == h; }))
          << "row: no golden for hash " << h
          << " (CHBENCH_REGENERATE_GOLDEN=1 prints it)";
    }
    // 3. A reference model where the row claims one.
    AlgorithmParams params;
    params.capacity = info.conformance.capacity;
    EXPECT_EQ(::chbench::testing::MakeReferenceModel(info.name, params) !=
                  nullptr,
              info.conformance.reference_model)
        << "row: conformance.reference_model disagrees with "
           "algorithms/testing/reference_models.h";
    // 4. A line in the README's algorithm table.
    EXPECT_NE(readme.find("| `" + name + "` |"), std::string::npos)
        << "README.md: no row '| `" << name << "` |' in the algorithm table";
  }
}

// A bounded-load row names the algorithm whose order it caps; the cluster
// simulation routes with that algorithm's replica lists (successors) and
// applies the row's load_factor, so the named row must have replica lists
// and every row that reads load_factor must name one.
TEST(RegistryTest, BoundsLoadsOfNamesARowWithReplicaLists) {
  int bounded = 0;
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    const bool reads_load_factor = info.FindParameter("load_factor") != nullptr;
    EXPECT_EQ(!info.bounds_loads_of.empty(), reads_load_factor);
    if (info.bounds_loads_of.empty()) continue;
    ++bounded;
    EXPECT_NE(info.bounds_loads_of, info.name);
    const AlgorithmInfo* base = FindAlgorithm(info.bounds_loads_of);
    ASSERT_NE(base, nullptr) << "bounds_loads_of '" << info.bounds_loads_of
                             << "' is not a row";
    EXPECT_TRUE(base->capabilities.replicas);
    EXPECT_TRUE(base->bounds_loads_of.empty()) << "a chain of caps";
  }
  EXPECT_GE(bounded, 1);
}

TEST(RegistryTest, UnknownAlgorithmIsAnErrorListingTheValidOnes) {
  EXPECT_EQ(FindAlgorithm("consistent"), nullptr);
  EXPECT_EQ(FindAlgorithm(""), nullptr);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
      MakeAlgorithm("consistent", AlgorithmParams{});
  ASSERT_FALSE(algo.ok());
  EXPECT_EQ(algo.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(algo.status().message(), HasSubstr("'consistent'"));
  EXPECT_THAT(algo.status().message(), HasSubstr(AlgorithmNames()));
}

TEST(RegistryTest, UnknownHashIsAnErrorNamingIt) {
  for (const AlgorithmInfo& info : Algorithms()) {
    AlgorithmParams params;
    params.hash = "sha3";
    absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
        MakeAlgorithm(info.name, params);
    ASSERT_FALSE(algo.ok()) << info.name;
    EXPECT_THAT(algo.status().message(), HasSubstr("sha3")) << info.name;
    EXPECT_THAT(algo.status().message(), HasSubstr("xxh64")) << info.name;
  }
}

TEST(RegistryTest, InstancesAgreeWithTheirRows) {
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
        MakeAlgorithm(info.name, AlgorithmParams{});
    ASSERT_TRUE(algo.ok()) << algo.status();
    EXPECT_EQ((*algo)->name(), info.name);
    const Capabilities c = (*algo)->capabilities();
    EXPECT_EQ(c.arbitrary_removal, info.capabilities.arbitrary_removal);
    EXPECT_EQ(c.minimal_disruption, info.capabilities.minimal_disruption);
    EXPECT_EQ(c.weights, info.capabilities.weights);
    EXPECT_EQ(c.replicas, info.capabilities.replicas);
    EXPECT_EQ(c.stateful, info.capabilities.stateful);
    EXPECT_EQ(c.history_dependent, info.capabilities.history_dependent);
    EXPECT_EQ((*algo)->size(), 0u);
    EXPECT_TRUE((*algo)->LiveNodes().empty());
  }
}

// Nodes are added and removed by name: RemoveNodeByName(name) is
// RemoveNode(id of name), and an unknown name is an error naming it.
TEST(RegistryTest, NodesAreRemovedByName) {
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    std::vector<NodeSpec> specs(5);
    for (int i = 0; i < 5; ++i) specs[i].name = "cache-" + std::to_string(i);
    auto by_name = MakeAlgorithm(info.name, AlgorithmParams{}).value();
    auto by_id = MakeAlgorithm(info.name, AlgorithmParams{}).value();
    ASSERT_TRUE(by_name->Build(specs).ok());
    ASSERT_TRUE(by_id->Build(specs).ok());
    // jump can remove only the last node; every algorithm can remove that.
    const std::string victim = info.capabilities.arbitrary_removal
                                   ? "cache-2" : "cache-4";
    const NodeId victim_id = info.capabilities.arbitrary_removal ? 2 : 4;
    EXPECT_EQ(by_name->FindNode(victim).value(), victim_id);
    ASSERT_TRUE(by_name->RemoveNodeByName(victim).ok());
    ASSERT_TRUE(by_id->RemoveNode(victim_id).ok());
    EXPECT_EQ(by_name->LiveNodes(), by_id->LiveNodes());
    SplitMix64 rng(7);
    for (int k = 0; k < 2000; ++k) {
      const uint64_t key = rng();
      ASSERT_EQ(by_name->Lookup(key), by_id->Lookup(key));
    }
    const absl::Status again = by_name->RemoveNodeByName(victim);
    EXPECT_EQ(again.code(), absl::StatusCode::kNotFound);
    EXPECT_THAT(std::string(again.message()), HasSubstr("'" + victim + "'"));
    EXPECT_THAT(std::string(again.message()), HasSubstr("'cache-0'"));
    if (!info.capabilities.arbitrary_removal) {
      EXPECT_FALSE(by_name->RemoveNodeByName("cache-1").ok());
    }
  }
}

// ARCHITECTURE.md §4: the capabilities each algorithm's definition implies.
TEST(RegistryTest, CapabilitiesMatchTheDesign) {
  struct Want {
    std::string_view name;
    Capabilities caps;
  };
  const Want wants[] = {
      {"modulo", {true, false, false, false, false}},
      {"ring", {true, true, true, true, false}},
      {"rendezvous", {true, true, true, true, false}},
      {"jump", {false, true, false, false, false}},
      {"maglev", {true, false, true, false, false}},
      {"bounded_load", {true, false, false, false, true}},
      {"multiprobe", {true, true, false, false, false}},
      {"anchor", {true, true, false, false, false}},
      {"memento", {true, true, false, false, false}},
      // dx: growing a full array remaps keys among the old nodes.
      {"dx", {true, false, false, false, false}},
      {"jumpback", {false, true, false, false, false}},
      {"flip", {false, true, false, false, false}},
      {"power", {false, true, false, false, false}},
      {"binomial", {false, true, false, false, false}},
      // choosek: the node map's deleted slots; replicas are its ranking.
      {"choosek", {true, true, false, true, false}},
      {"jumpbackanchor", {true, true, false, false, false}},
      // crush: minimal without zones only (crush/crush.h), so not claimed.
      {"crush", {true, false, true, true, false}},
  };
  for (const Want& w : wants) {
    const AlgorithmInfo* info = FindAlgorithm(w.name);
    ASSERT_NE(info, nullptr) << w.name;
    const Capabilities& c = info->capabilities;
    EXPECT_EQ(c.arbitrary_removal, w.caps.arbitrary_removal) << w.name;
    EXPECT_EQ(c.minimal_disruption, w.caps.minimal_disruption) << w.name;
    EXPECT_EQ(c.replicas, w.caps.replicas) << w.name;
    EXPECT_EQ(c.stateful, w.caps.stateful) << w.name;
    if (w.name != "bounded_load") {  // weights there are a design choice
      EXPECT_EQ(c.weights, w.caps.weights) << w.name;
    }
  }
}

// The lookup class is one of the three, agrees with the complexity text
// (the leading bound: "O(1)..." constant, "O(log ...)" logarithmic, "O(N)"
// linear), and matches what each header's Complexity section says: jump is
// O(ln N) LCG steps, rendezvous O(N) hash evaluations.
TEST(RegistryTest, LookupComplexityAndClass) {
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    EXPECT_THAT(kLookupClasses, ::testing::Contains(info.lookup_class));
    const std::string_view c = info.lookup_complexity;
    ASSERT_FALSE(c.empty());
    std::string_view want;
    if (c.substr(0, 4) == "O(1)") {
      want = "constant";
    } else if (c.substr(0, 6) == "O(log ") {
      want = "logarithmic";
    } else if (c.substr(0, 4) == "O(N)") {
      want = "linear";
    }
    EXPECT_EQ(info.lookup_class, want) << c;
  }
  EXPECT_EQ(FindAlgorithm("jump")->lookup_class, "logarithmic");
  EXPECT_EQ(FindAlgorithm("jump")->lookup_complexity, "O(log N)");
  EXPECT_EQ(FindAlgorithm("rendezvous")->lookup_class, "linear");
  EXPECT_EQ(FindAlgorithm("maglev")->lookup_class, "constant");
  EXPECT_EQ(FindAlgorithm("ring")->lookup_complexity,
            "O(1) expected, O(log P) worst");
}

// MappingChecksum (prehashed digests) folded with the owners of 1000 string
// keys through HashKey: the hash parameter may only show in the latter
// (modulo and jump use the digest alone).
uint64_t Fingerprint(ConsistentHash& algo) {
  uint64_t acc = MappingChecksum(algo).value();
  for (int i = 0; i < 1000; ++i) {
    acc = FoldChecksum(acc, algo.Lookup(algo.HashKey("key-" +
                                                     std::to_string(i))));
  }
  return acc;
}

// `parameters` lists exactly the AlgorithmParams fields the factory reads:
// changing a listed field (to another valid value) changes the mapping of
// digests or of string keys, and changing an unlisted one changes neither.
TEST(RegistryTest, ParametersAreTheOnesTheFactoryReads) {
  struct Field {
    std::string_view name;
    void (*set)(AlgorithmParams*);
  };
  const Field fields[] = {
      {"hash", [](AlgorithmParams* p) { p->hash = "md5"; }},
      {"vnodes", [](AlgorithmParams* p) { p->vnodes = 7; }},
      {"table_size", [](AlgorithmParams* p) { p->table_size = 65537; }},
      {"load_factor", [](AlgorithmParams* p) { p->load_factor = 3.0; }},
      {"capacity", [](AlgorithmParams* p) { p->capacity = 64; }},
      {"probes", [](AlgorithmParams* p) { p->probes = 5; }},
  };
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    std::vector<std::string_view> listed;
    for (const ParamInfo& p : info.parameters) listed.push_back(p.name);
    ASSERT_FALSE(listed.empty());
    EXPECT_EQ(listed[0], "hash");
    for (std::string_view p : listed) {
      EXPECT_TRUE(p == "hash" || p == "vnodes" || p == "table_size" ||
                  p == "load_factor" || p == "capacity" || p == "probes")
          << p;
    }
    auto base = MakeAlgorithm(info.name, AlgorithmParams{});
    ASSERT_TRUE(base.ok()) << base.status();
    const uint64_t base_sum = Fingerprint(**base);
    for (const Field& f : fields) {
      SCOPED_TRACE(f.name);
      AlgorithmParams params;
      f.set(&params);
      auto changed = MakeAlgorithm(info.name, params);
      ASSERT_TRUE(changed.ok()) << changed.status();
      const uint64_t sum = Fingerprint(**changed);
      const bool is_listed =
          std::find(listed.begin(), listed.end(), f.name) != listed.end();
      EXPECT_EQ(sum != base_sum, is_listed);
    }
  }
}

// Each row's golden value is MappingChecksum with default parameters (hash
// xxh64): a silent change of any algorithm's mapping fails here.
TEST(RegistryTest, GoldenChecksums) {
  const bool regenerate = ::chbench::testing::RegenerateGolden();
  for (const AlgorithmInfo& info : Algorithms()) {
    absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
        MakeAlgorithm(info.name, AlgorithmParams{});
    ASSERT_TRUE(algo.ok()) << algo.status();
    absl::StatusOr<uint64_t> sum = MappingChecksum(**algo);
    ASSERT_TRUE(sum.ok()) << info.name << ": " << sum.status();
    if (regenerate) {
      std::printf("%s 0x%016llx\n", std::string(info.name).c_str(),
                  static_cast<unsigned long long>(*sum));
      continue;
    }
    EXPECT_EQ(*sum, info.golden()) << absl::StrFormat(
        "%s: mapping checksum 0x%016x != golden 0x%016x; if the change is "
        "intended, regenerate with CHBENCH_REGENERATE_GOLDEN=1",
        info.name, *sum, info.golden());
  }
}

// The checksum is a function of the mapping: stable across instances.
TEST(RegistryTest, ChecksumIsReproducible) {
  for (const AlgorithmInfo& info : Algorithms()) {
    auto a = MakeAlgorithm(info.name, AlgorithmParams{});
    auto b = MakeAlgorithm(info.name, AlgorithmParams{});
    ASSERT_TRUE(a.ok() && b.ok());
    absl::StatusOr<uint64_t> sa = MappingChecksum(**a);
    absl::StatusOr<uint64_t> sb = MappingChecksum(**b);
    ASSERT_TRUE(sa.ok() && sb.ok());
    EXPECT_EQ(*sa, *sb) << info.name;
    EXPECT_NE(*sa, kChecksumInit) << info.name;
  }
}

}  // namespace
}  // namespace chbench
