// Copyright 2026 The chbench Authors.
//
// Tests of choosek/choosek.h: every line of the reference vectors
// (choosek/testdata/, recorded from github/rust-gems@a7aecfb,
// crates/consistent-choose-k: ConsistentChooseKHasher::new(h, n).take(k) and
// ConsistentNodeMap::get(h)), through the ConsistentHash instance, the
// ranking function and the independent model (testing/reference_models.h);
// the crate's own unit-test expectations; the replica properties (distinct,
// live, ordered, prefix, minimal change) against the model under churn.

#include "algorithms/choosek/choosek.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/reference_models.h"
#include "algorithms/testing/vector_file.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::chbench::testing::AlgorithmTestdata;
using ::chbench::testing::ModelChooseKRanking;
using ::chbench::testing::ModelChooseKSet;
using ::chbench::testing::Node;
using ::chbench::testing::Specs;
using ::testing::HasSubstr;

// A data line `key<TAB>v1,v2,...`.
struct ListRow {
  uint64_t key;
  std::vector<uint64_t> values;
};

// The data lines of choosek/testdata/<file>; a missing file or a malformed
// line is a test failure.
std::vector<ListRow> ReadListFile(const std::string& file) {
  const std::string path = AlgorithmTestdata("choosek", file);
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::vector<ListRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = absl::StrSplit(line, '\t');
    ListRow row;
    bool ok = f.size() == 2 && absl::SimpleAtoi(f[0], &row.key);
    if (ok) {
      const std::vector<std::string> items = absl::StrSplit(f[1], ',');
      for (const std::string& v : items) {
        uint64_t x;
        ok = ok && absl::SimpleAtoi(v, &x);
        row.values.push_back(x);
      }
    }
    EXPECT_TRUE(ok) << path << ": bad line '" << line << "'";
    if (ok) rows.push_back(row);
  }
  EXPECT_FALSE(rows.empty()) << path;
  return rows;
}

std::unique_ptr<ChooseK<Xxh64>> Make() {
  return std::make_unique<ChooseK<Xxh64>>();
}

// The ranking files: n slots, the first k of each key's ranking.
struct RankingFile {
  uint64_t n;
  size_t k;
};
constexpr RankingFile kRankingFiles[] = {
    {10, 1},   {10, 3},   {10, 5}, {100, 1}, {100, 3},   {100, 5},   {1000, 1},
    {1000, 3}, {1000, 5}, {2, 2},  {10, 10}, {1000, 20}, {65536, 5},
};

TEST(ChooseKOracleTest, RankingPrefixes) {
  size_t lines = 0;
  for (const RankingFile& f : kRankingFiles) {
    const std::string file = absl::StrCat("choosek_n", f.n, "_k", f.k, ".tsv");
    SCOPED_TRACE(file);
    auto algo = Make();
    ASSERT_TRUE(algo->Build(Specs(f.n)).ok());
    std::vector<NodeId> replicas;
    for (const ListRow& row : ReadListFile(file)) {
      ASSERT_EQ(row.values.size(), f.k) << "key " << row.key;
      const std::vector<uint32_t> ranking = ChooseKRanking(row.key, f.n, f.k);
      EXPECT_EQ(std::vector<uint64_t>(ranking.begin(), ranking.end()),
                row.values)
          << "key " << row.key;
      ASSERT_TRUE(algo->LookupReplicas(row.key, f.k, false, &replicas).ok());
      EXPECT_EQ(std::vector<uint64_t>(replicas.begin(), replicas.end()),
                row.values)
          << "key " << row.key;  // after Build(n), id i is slot i
      EXPECT_EQ(algo->Lookup(row.key), row.values[0]) << "key " << row.key;
      EXPECT_EQ(ChooseKFirst(row.key, f.n), row.values[0]);
      // The independent model (the set recursion, not the walk).
      if (f.k <= 5) {
        EXPECT_EQ(ModelChooseKRanking(row.key, f.n, f.k), row.values)
            << "model, key " << row.key;
      }
      ++lines;
    }
  }
  EXPECT_EQ(lines, 13u * 100u);
}

// The node-map files: add() x T, the removals in order, then get(h).
struct NodeMapFile {
  const char* file;
  uint32_t slots;
  std::vector<uint32_t> removals;
};

std::vector<NodeMapFile> NodeMapFiles() {
  std::vector<uint32_t> every10;
  for (uint32_t s = 0; s < 1000; s += 10) every10.push_back(s);
  return {
      {"nodemap_n100_rm7.tsv", 100, {7}},
      {"nodemap_n100_rm7_13.tsv", 100, {7, 13}},
      {"nodemap_n100_rm7_13_50.tsv", 100, {7, 13, 50}},
      {"nodemap_n100_rm13_50.tsv", 100, {13, 50}},
      {"nodemap_n100_rm7_50.tsv", 100, {7, 50}},
      {"nodemap_n100_rm17_3_99_50.tsv", 100, {17, 3, 99, 50}},
      {"nodemap_n100_rm98_99.tsv", 100, {98, 99}},
      {"nodemap_n1000_rm_every10.tsv", 1000, every10},
  };
}

// The expected slot of each key through the instance (id = slot after
// Build) and through the replaying model.
TEST(ChooseKOracleTest, NodeMapAfterRemovals) {
  size_t lines = 0;
  for (const NodeMapFile& f : NodeMapFiles()) {
    SCOPED_TRACE(f.file);
    auto algo = Make();
    ASSERT_TRUE(algo->Build(Specs(f.slots)).ok());
    // The model itself, not MakeReferenceModel: that factory instantiates
    // every model for every hash policy in this unit.
    auto model = std::make_unique<::chbench::testing::ChooseKModel>();
    std::vector<::chbench::testing::LiveNode> live;
    for (const NodeSpec& s : Specs(f.slots)) {
      live.push_back({static_cast<NodeId>(live.size()), s});
    }
    model->Rebuild(live);
    for (uint32_t slot : f.removals) {
      ASSERT_TRUE(algo->RemoveNode(slot).ok());
      model->Removed(slot);
    }
    EXPECT_EQ(algo->size(), f.slots - f.removals.size());
    for (const ListRow& row : ReadListFile(f.file)) {
      ASSERT_EQ(row.values.size(), 1u);
      EXPECT_EQ(algo->Lookup(row.key), row.values[0]) << "key " << row.key;
      EXPECT_EQ(model->Lookup(row.key), row.values[0])
          << "model, key " << row.key;
      ++lines;
    }
  }
  EXPECT_EQ(lines, 8u * 100u);
}

// The node map's state after each removal convention of the reference:
// removing the last slot pops it (only it: a deleted slot that becomes last
// stays deleted), removing another marks it.
TEST(ChooseKTest, RemovalConventions) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(100)).ok());
  for (NodeId id : {17u, 3u, 99u, 50u}) ASSERT_TRUE(algo->RemoveNode(id).ok());
  EXPECT_EQ(algo->slot_count(), 99u);
  EXPECT_EQ(algo->deleted_slots(), (std::vector<uint32_t>{3, 17, 50}));
  auto other = Make();
  ASSERT_TRUE(other->Build(Specs(100)).ok());
  for (NodeId id : {98u, 99u}) ASSERT_TRUE(other->RemoveNode(id).ok());
  EXPECT_EQ(other->slot_count(), 99u);
  EXPECT_EQ(other->deleted_slots(), (std::vector<uint32_t>{98}));
}

// "Add one back" after removing 7, 13, 50: chbench reuses the smallest
// deleted slot (7), so the state is that of nodemap_n100_rm13_50 with slot 7
// under the fresh id 100. The other two files are the states the reference
// can reach with its unspecified choice; choosing 13 or 50 is checked on
// the model.
TEST(ChooseKOracleTest, AddOneBackReusesTheSmallestDeletedSlot) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(100)).ok());
  for (NodeId id : {7u, 13u, 50u}) ASSERT_TRUE(algo->RemoveNode(id).ok());
  absl::StatusOr<NodeId> back = algo->AddNode(Node("back"));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, 100u);
  EXPECT_EQ(algo->slot_of(*back), 7u);
  EXPECT_EQ(algo->deleted_slots(), (std::vector<uint32_t>{13, 50}));
  size_t checked = 0;
  for (const ListRow& row : ReadListFile("nodemap_n100_rm13_50.tsv")) {
    const uint64_t slot = row.values[0];
    EXPECT_EQ(algo->Lookup(row.key), slot == 7 ? 100u : slot)
        << "key " << row.key;
    ++checked;
  }
  EXPECT_EQ(checked, 100u);
  // Mapping depends on (T, D) only: removing 50 then 13 (reverse order) and
  // re-adding gives the same mapping.
  auto reverse = Make();
  ASSERT_TRUE(reverse->Build(Specs(100)).ok());
  for (NodeId id : {50u, 13u, 7u}) ASSERT_TRUE(reverse->RemoveNode(id).ok());
  ASSERT_TRUE(reverse->AddNode(Node("back")).ok());
  SplitMix64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t k = rng();
    ASSERT_EQ(reverse->Lookup(k), algo->Lookup(k));
  }
}

// Popping the last slot maps like marking it deleted (the reference's two
// conventions agree), checked on the model, which knows both states.
TEST(ChooseKTest, PopEqualsMarkingTheLastSlotDeleted) {
  SplitMix64 rng(4);
  for (int i = 0; i < 300; ++i) {
    const uint64_t key = rng();
    // T = 99, D = {98} against T = 100, D = {98, 99}: the first ranking slot
    // over 100 outside {98, 99} equals the first over 99 outside {98}.
    const std::vector<uint32_t> r100 = ChooseKRanking(key, 100, 100);
    const std::vector<uint32_t> r99 = ChooseKRanking(key, 99, 99);
    const auto first_live = [](const std::vector<uint32_t>& r) {
      for (uint32_t s : r) {
        if (s != 98 && s != 99) return s;
      }
      return ~uint32_t{0};
    };
    ASSERT_EQ(first_live(r100), first_live(r99)) << key;
    // More: the ranking over 100 without 99 is the ranking over 99.
    std::vector<uint32_t> without = r100;
    without.erase(std::find(without.begin(), without.end(), 99u));
    ASSERT_EQ(without, r99) << key;
  }
}

// The crate's own unit-test expectations (github/rust-gems@a7aecfb,
// crates/consistent-choose-k): src/consistent_hash.rs test_uniform_1 counts
// prev(13) of the plain ConsistentHasher (the key hasher itself as the
// builder, no index) over keys 0..99999; src/choose_k.rs test_uniform_k
// counts the members of new_with_k(hasher(i + 32783), 8, 2) for i < 32.
TEST(ChooseKReferenceTest, CrateHistograms) {
  std::vector<int> prev13(13, 0);
  for (uint64_t key = 0; key < 100000; ++key) {
    ++prev13[choosek_internal::Prev(choosek_internal::KeyHasher(key), 13)];
  }
  EXPECT_EQ(prev13, (std::vector<int>{7577, 7541, 7538, 7822, 7763, 7687, 7718,
                                      7723, 7846, 7723, 7688, 7716, 7658}));
  std::vector<int> pairs(8, 0);
  for (uint64_t i = 0; i < 32; ++i) {
    for (uint32_t s : ChooseKRanking(i + 32783, 8, 2)) ++pairs[s];
  }
  EXPECT_EQ(pairs, (std::vector<int>{10, 12, 6, 6, 6, 5, 9, 10}));
}

// The streaming SipHash-1-3 (cloned states) equals the model's one-shot
// hash over the same words, including the draw words, for many prefixes.
TEST(ChooseKTest, StreamingSipHashEqualsOneShot) {
  SplitMix64 rng(5);
  for (int i = 0; i < 200; ++i) {
    std::vector<uint64_t> words;
    choosek_internal::Sip13 s;
    for (int w = 0; w < 6; ++w) {
      const uint64_t x = w < 3 ? rng() : choosek_internal::kDrawWord;
      words.push_back(x);
      s.Write(x);
      ASSERT_EQ(s.Finish(), ::chbench::testing::ModelSipWords(words));
    }
  }
}

// The incremental ranking (the reference's grow_k) equals the set
// recursion's successive differences, and every prefix sorted is S(k, n),
// for all k <= n <= 30; the ranking is a permutation.
TEST(ChooseKTest, RankingEqualsTheSetDefinition) {
  SplitMix64 rng(6);
  for (int i = 0; i < 30; ++i) {
    const uint64_t key = rng();
    const uint64_t n = 1 + i;
    const std::vector<uint32_t> ranking = ChooseKRanking(key, n, n);
    ASSERT_EQ(ranking.size(), n);
    const std::vector<uint64_t> model = ModelChooseKRanking(key, n, n);
    ASSERT_EQ(std::vector<uint64_t>(ranking.begin(), ranking.end()), model)
        << "key " << key << " n " << n;
    std::set<uint64_t> prefix;
    for (uint64_t k = 1; k <= n; ++k) {
      prefix.insert(ranking[k - 1]);
      ASSERT_EQ(prefix, ModelChooseKSet(key, n, k))
          << key << " " << n << " " << k;
    }
    EXPECT_EQ(prefix.size(), n);
    EXPECT_EQ(*prefix.rbegin(), n - 1);
  }
}

// Deep walks leave the inline buffer (64 elements): still the definition.
TEST(ChooseKTest, DeepRankingLeavesTheInlineBuffer) {
  SplitMix64 rng(7);
  for (int i = 0; i < 3; ++i) {
    const uint64_t key = rng();
    const std::vector<uint32_t> ranking = ChooseKRanking(key, 300, 200);
    ASSERT_EQ(ranking.size(), 200u);
    EXPECT_EQ(std::set<uint32_t>(ranking.begin(), ranking.end()).size(), 200u);
    const std::vector<uint64_t> model = ModelChooseKRanking(key, 300, 70);
    EXPECT_EQ(std::vector<uint64_t>(ranking.begin(), ranking.begin() + 70),
              model);
  }
  // A node map with 95 % of 2000 slots deleted walks far past 64 slots for
  // some keys; every lookup is still the first live slot of the ranking.
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(2000)).ok());
  for (NodeId id = 0; id < 2000; ++id) {
    if (id % 20 != 7) {
      ASSERT_TRUE(algo->RemoveNode(id).ok());
    }
  }
  size_t deep = 0;
  for (int i = 0; i < 300; ++i) {
    const uint64_t key = rng();
    choosek_internal::RankingWalk walk(key, 2000);
    uint32_t first_live = walk.Next();
    while (first_live % 20 != 7) first_live = walk.Next();
    if (walk.count() > choosek_internal::RankingWalk::kInline) ++deep;
    ASSERT_EQ(algo->Lookup(key), first_live) << key;
  }
  EXPECT_GT(deep, 0u) << "no lookup went past the inline buffer";
}

// The model's replicas: the first r live slots of the ranking over T, as
// ids.
std::vector<NodeId> ModelReplicas(uint64_t key, uint64_t slots,
                                  const std::map<uint64_t, NodeId>& owner,
                                  size_t r) {
  std::vector<NodeId> out;
  for (uint64_t s : ModelChooseKRanking(key, slots, slots)) {
    if (out.size() == r) break;
    auto it = owner.find(s);
    if (it != owner.end()) out.push_back(it->second);
  }
  return out;
}

// Under random adds and removals: every replica list is distinct live ids,
// starts with Lookup, is a prefix of every longer list, equals the
// independent model's, and changes minimally: an add inserts at most the
// new node (the rest keep their order), a removal drops the removed node and
// appends the next one.
TEST(ChooseKReplicaTest, PropertiesUnderChurnAgainstTheModel) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(12)).ok());
  std::map<uint64_t, NodeId> owner;  // slot -> id, as the model sees it
  for (NodeId id = 0; id < 12; ++id) owner[id] = id;
  SplitMix64 keys_rng(8);
  std::vector<uint64_t> keys(20);
  for (uint64_t& k : keys) k = keys_rng();
  Sfc64 rng(9);
  int next_name = 0;
  const auto all_lists = [&] {
    std::vector<std::vector<NodeId>> lists;
    for (uint64_t key : keys) {
      std::vector<NodeId> out;
      EXPECT_TRUE(algo->LookupReplicas(key, algo->size(), false, &out).ok());
      lists.push_back(out);
    }
    return lists;
  };
  std::vector<std::vector<NodeId>> before = all_lists();
  for (int step = 0; step < 40; ++step) {
    const std::vector<NodeId> live = algo->LiveNodes();
    const bool add = live.size() <= 2 || (live.size() < 14 && rng.Below(2));
    NodeId changed;
    if (add) {
      absl::StatusOr<NodeId> id =
          algo->AddNode(Node(absl::StrCat("x", next_name++)));
      ASSERT_TRUE(id.ok()) << id.status();
      changed = *id;
      owner[algo->slot_of(*id)] = *id;
    } else {
      changed = live[rng.Below(live.size())];
      owner.erase(algo->slot_of(changed));
      ASSERT_TRUE(algo->RemoveNode(changed).ok());
    }
    const std::vector<std::vector<NodeId>> after = all_lists();
    const std::vector<NodeId> now = algo->LiveNodes();
    const std::set<NodeId> live_set(now.begin(), now.end());
    for (size_t i = 0; i < keys.size(); ++i) {
      const std::vector<NodeId>& full = after[i];
      ASSERT_EQ(full.size(), now.size());
      ASSERT_EQ(std::set<NodeId>(full.begin(), full.end()), live_set)
          << "distinct and live";
      ASSERT_EQ(full[0], algo->Lookup(keys[i])) << "ordered";
      ASSERT_EQ(full,
                ModelReplicas(keys[i], algo->slot_count(), owner, full.size()))
          << "step " << step << " key " << i << ": differs from the model";
      for (size_t r = 1; r <= full.size(); ++r) {
        std::vector<NodeId> out;
        ASSERT_TRUE(algo->LookupReplicas(keys[i], r, false, &out).ok());
        ASSERT_EQ(out, std::vector<NodeId>(full.begin(), full.begin() + r))
            << "prefix, r = " << r;
      }
      // Minimal change: the list without the changed node is the list before
      // without it, in the same order.
      std::vector<NodeId> a = after[i], b = before[i];
      a.erase(std::remove(a.begin(), a.end(), changed), a.end());
      b.erase(std::remove(b.begin(), b.end(), changed), b.end());
      ASSERT_EQ(a, b) << "step " << step << " key " << i
                      << ": nodes other than the changed one reordered";
    }
    before = after;
  }
}

TEST(ChooseKReplicaTest, DistinctZonesAndErrors) {
  auto algo = Make();
  std::vector<NodeSpec> specs = Specs(12);
  for (size_t i = 0; i < specs.size(); ++i) {
    specs[i].zone = absl::StrCat("z", i % 4);
  }
  ASSERT_TRUE(algo->Build(specs).ok());
  ASSERT_TRUE(algo->RemoveNode(5).ok());
  SplitMix64 rng(10);
  std::vector<NodeId> out, full;
  for (int i = 0; i < 500; ++i) {
    const uint64_t key = rng();
    ASSERT_TRUE(algo->LookupReplicas(key, 11, false, &full).ok());
    ASSERT_TRUE(algo->LookupReplicas(key, 6, true, &out).ok());
    // Four zones, six replicas: the first node of each zone in the plain
    // ranking, then the nodes passed over, in ranking order.
    std::vector<NodeId> want, passed;
    std::set<std::string> zones;
    for (NodeId id : full) {
      (zones.insert(specs[id].zone).second ? want : passed).push_back(id);
    }
    want.insert(want.end(), passed.begin(), passed.end());
    want.resize(6);
    ASSERT_EQ(out, want);
  }
  EXPECT_THAT(algo->LookupReplicas(1, 0, false, &out).message(),
              HasSubstr("1..11"));
  EXPECT_THAT(algo->LookupReplicas(1, 12, false, &out).message(),
              HasSubstr("r = 12"));
}

// AddNode reuses the smallest deleted slot first, then appends; ids are
// fresh; re-adding undoes a deletion exactly (the keys come back under the
// new id).
TEST(ChooseKTest, AddReusesSmallestDeletedSlotAndRestoresKeys) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(30)).ok());
  SplitMix64 rng(11);
  std::vector<uint64_t> keys(5000);
  for (uint64_t& k : keys) k = rng();
  std::vector<NodeId> initial(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) initial[i] = algo->Lookup(keys[i]);
  for (NodeId id : {20u, 4u, 11u}) ASSERT_TRUE(algo->RemoveNode(id).ok());
  EXPECT_EQ(algo->slot_of(*algo->AddNode(Node("a"))), 4u);   // id 30
  EXPECT_EQ(algo->slot_of(*algo->AddNode(Node("b"))), 11u);  // id 31
  EXPECT_EQ(algo->slot_of(*algo->AddNode(Node("c"))), 20u);  // id 32
  EXPECT_EQ(algo->slot_of(*algo->AddNode(Node("d"))), 30u);  // id 33
  const std::map<NodeId, NodeId> renamed = {{4, 30}, {11, 31}, {20, 32}};
  for (size_t i = 0; i < keys.size(); ++i) {
    const NodeId now = algo->Lookup(keys[i]);
    if (now == 33) continue;  // the appended slot takes its share
    auto it = renamed.find(initial[i]);
    ASSERT_EQ(now, it == renamed.end() ? initial[i] : it->second) << i;
  }
  EXPECT_EQ(algo->RemoveNode(4).code(), absl::StatusCode::kNotFound);
}

TEST(ChooseKTest, OneNodeTakesEveryKeyAndEmptyRefillsFromSlotZero) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(3)).ok());
  for (NodeId id : {0u, 2u, 1u}) ASSERT_TRUE(algo->RemoveNode(id).ok());
  EXPECT_EQ(algo->size(), 0u);
  // T = 1 with slot 0 deleted is left (slots 2, then 1, popped as last).
  EXPECT_EQ(algo->slot_count(), 1u);
  absl::StatusOr<NodeId> id = algo->AddNode(Node("x"));
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(algo->slot_of(*id), 0u);
  SplitMix64 rng(12);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(algo->Lookup(rng()), *id);
}

}  // namespace
}  // namespace chbench
