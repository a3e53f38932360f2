// Copyright 2026 The chbench Authors.
//
// Tests of dx/dx.h: every row of the shared oracle files (dx/testdata/,
// recorded from ChaosD/DxHash@acadb66, DxHash::getNodeID((uint32_t)x))
// through the ConsistentHash instance and through DxHashCore; the add rule
// (key 1228's first inactive slot, growth of a full array) and the slots the
// files' notes give; what growth does to the mapping; the give-up extension
// against the independent model of testing/reference_models.h.

#include "algorithms/dx/dx.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/vector_file.h"
#include "algorithms/testing/reference_models.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::chbench::testing::DxModel;
using ::chbench::testing::LiveNode;
using ::chbench::testing::Node;
using ::chbench::testing::Specs;
using ::testing::HasSubstr;

using Row = ::chbench::testing::VectorRow;

// The data lines of an oracle file, grouped by n in file order.
std::map<uint32_t, std::vector<Row>> ReadOracle(const std::string& name) {
  return ::chbench::testing::ReadVectorGroups(
      ::chbench::testing::AlgorithmTestdata("dx", name));
}

std::unique_ptr<Dx<Xxh64>> Make(uint64_t capacity) {
  return std::make_unique<Dx<Xxh64>>(capacity);
}

void ExpectRows(const std::vector<Row>& rows, const Dx<Xxh64>& algo,
                const DxHashCore& core) {
  size_t bad = 0;
  for (const Row& r : rows) {
    if (algo.Lookup(r.input) != r.bucket || core.Slot(r.input) != r.bucket ||
        core.Lookup(r.input) != r.bucket) {
      if (++bad <= 5) {
        ADD_FAILURE() << "x=" << r.input << " n=" << r.n << ": got "
                      << algo.Lookup(r.input) << " / " << core.Slot(r.input)
                      << ", reference " << r.bucket;
      }
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST(DxOracleTest, Stable) {
  const auto groups = ReadOracle("dx_stable.tsv");
  EXPECT_EQ(groups.size(), 8u);
  for (const auto& [n, rows] : groups) {
    SCOPED_TRACE(absl::StrCat("n=", n));
    auto algo = Make(0);  // DxHash(n)
    ASSERT_TRUE(algo->Build(Specs(n)).ok());
    EXPECT_EQ(algo->core().size(), DxHashCore::PowerOfTwoAtLeast(n));
    ExpectRows(
        rows, *algo,
        DxHashCore(static_cast<uint32_t>(DxHashCore::PowerOfTwoAtLeast(n)), n));
  }
}

// Both removal files: nodes 0..99 active, remove 17, 3, 99, 50; the next add
// activates the slot the file's note gives, under the fresh id 100.
void CheckRemoveFile(const std::string& file, uint64_t capacity, uint32_t size,
                     uint32_t next_slot) {
  SCOPED_TRACE(file);
  const auto groups = ReadOracle(file);
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_EQ(groups.begin()->first, 96u);
  auto algo = Make(capacity);
  ASSERT_TRUE(algo->Build(Specs(100)).ok());
  EXPECT_EQ(algo->core().size(), size);
  DxHashCore core(size, 100);
  for (uint32_t b : {17u, 3u, 99u, 50u}) {
    ASSERT_TRUE(algo->RemoveNode(b).ok());
    core.Remove(b);
  }
  EXPECT_EQ(algo->size(), 96u);
  ExpectRows(groups.begin()->second, *algo, core);
  EXPECT_EQ(core.Add(), next_slot);
  absl::StatusOr<NodeId> id = algo->AddNode(Node("new"));
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id, 100u);
  EXPECT_EQ(algo->slot_of(100), next_slot);
  for (const Row& r : groups.begin()->second) {
    const uint32_t s = core.Slot(r.input);
    ASSERT_EQ(algo->Lookup(r.input), s == next_slot ? 100u : s);
  }
}

TEST(DxOracleTest, Remove) { CheckRemoveFile("dx_remove.tsv", 200, 200, 151); }

TEST(DxOracleTest, RemovePow2) {
  CheckRemoveFile("dx_remove_pow2.tsv", 0, 128, 119);
}

TEST(DxTest, OneNodeTakesEveryKey) {
  for (uint64_t capacity : {0u, 1u, 2u}) {
    auto algo = Make(capacity);
    ASSERT_TRUE(algo->Build(Specs(1)).ok());
    SplitMix64 rng(5);
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(algo->Lookup(rng()), 0u);
  }
}

TEST(DxTest, OnlyTheLow32BitsOfTheDigestMatter) {
  auto algo = Make(0);
  ASSERT_TRUE(algo->Build(Specs(37)).ok());
  SplitMix64 rng(6);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t k = rng();
    ASSERT_EQ(algo->Lookup(k), algo->Lookup(k & 0xFFFFFFFFu));
    ASSERT_EQ(algo->Lookup(k), algo->Lookup(k ^ (rng() << 32)));
  }
}

TEST(DxTest, CapacityErrors) {
  auto algo = Make(10);
  absl::Status s = algo->Build(Specs(11));
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("11 nodes"));
  EXPECT_THAT(s.message(), HasSubstr("capacity 10"));
  ASSERT_TRUE(algo->Build(Specs(10)).ok());
  EXPECT_EQ(algo->core().size(), 10u);

  AlgorithmParams p;
  p.capacity = (uint64_t{1} << 31) + 1;
  auto made = MakeDx(p);
  ASSERT_FALSE(made.ok());
  EXPECT_THAT(made.status().message(), HasSubstr("2147483649"));
  p.capacity = 0;
  p.hash = "nope";
  EXPECT_FALSE(MakeDx(p).ok());
}

// AddNode without growth: the first inactive slot on key 1228's sequence,
// not the last removed slot; keys move only to the new node.
TEST(DxTest, AddTakesKey1228sSlotAndIsMinimalWithoutGrowth) {
  auto algo = Make(0);
  ASSERT_TRUE(algo->Build(Specs(40)).ok());  // 64 slots
  ASSERT_TRUE(algo->RemoveNode(7).ok());
  DxModel model(0);
  std::vector<LiveNode> live;
  for (NodeId id = 0; id < 40; ++id) live.push_back({id, Specs(40)[id]});
  model.Rebuild(live);
  model.Removed(7);
  const uint32_t want = model.Probe(DxHashCore::kAddKey, false);

  SplitMix64 rng(7);
  std::vector<uint64_t> keys(20000);
  for (uint64_t& k : keys) k = rng();
  std::vector<NodeId> before(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) before[i] = algo->Lookup(keys[i]);
  absl::StatusOr<NodeId> id = algo->AddNode(Node("new"));
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, 40u);
  EXPECT_EQ(algo->slot_of(40), want);
  EXPECT_EQ(algo->core().size(), 64u);
  size_t to_new = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const NodeId now = algo->Lookup(keys[i]);
    if (now != before[i]) {
      ASSERT_EQ(now, 40u) << "a key moved to an old node";
      ++to_new;
    }
  }
  EXPECT_GT(to_new, 0u);
}

// AddNode into a full array doubles it: the new node is one of the new
// slots, and keys also move between OLD nodes (why dx does not claim
// minimal_disruption).
TEST(DxTest, GrowthRemapsKeysAmongOldNodes) {
  auto algo = Make(0);
  ASSERT_TRUE(algo->Build(Specs(32)).ok());  // 32 slots, full
  EXPECT_TRUE(algo->core().full());
  SplitMix64 rng(8);
  std::vector<uint64_t> keys(20000);
  for (uint64_t& k : keys) k = rng();
  std::vector<NodeId> before(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) before[i] = algo->Lookup(keys[i]);
  absl::StatusOr<NodeId> id = algo->AddNode(Node("new"));
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(algo->core().size(), 64u);
  EXPECT_GE(algo->slot_of(*id), 32u);
  size_t among_old = 0, to_new = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const NodeId now = algo->Lookup(keys[i]);
    if (now == *id) ++to_new;
    if (now != before[i] && now != *id) ++among_old;
  }
  // A key keeps its old first probe only if bs mod 64 == bs mod 32 (half
  // the keys); the rest re-walk and mostly land on another old node.
  EXPECT_GT(among_old, keys.size() / 4);
  EXPECT_GT(to_new, 0u);
}

// Removing any node moves only its keys.
TEST(DxTest, RemovalIsMinimal) {
  auto algo = Make(0);
  ASSERT_TRUE(algo->Build(Specs(50)).ok());
  SplitMix64 rng(9);
  std::vector<uint64_t> keys(20000);
  for (uint64_t& k : keys) k = rng();
  Sfc64 pick(10);
  for (int step = 0; step < 30; ++step) {
    std::vector<NodeId> before(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) before[i] = algo->Lookup(keys[i]);
    const std::vector<NodeId> live = algo->LiveNodes();
    const NodeId victim = live[pick.Below(live.size())];
    ASSERT_TRUE(algo->RemoveNode(victim).ok());
    for (size_t i = 0; i < keys.size(); ++i) {
      const NodeId now = algo->Lookup(keys[i]);
      ASSERT_NE(now, victim);
      if (now != before[i]) {
        ASSERT_EQ(before[i], victim);
      }
    }
  }
}

// Few active slots in a large array: some keys reach the reference's give-up
// point (4 * size probes) and take the linear scan; all agree with the
// independent model and land on live nodes.
TEST(DxTest, GiveUpPointContinuesWithTheScan) {
  auto algo = Make(64);
  ASSERT_TRUE(algo->Build(Specs(3)).ok());
  DxModel model(64);
  const std::vector<NodeSpec> specs = Specs(3);
  std::vector<LiveNode> live;
  for (NodeId id = 0; id < 3; ++id) live.push_back({id, specs[id]});
  model.Rebuild(live);
  ASSERT_TRUE(algo->RemoveNode(1).ok());
  model.Removed(1);
  // 2 of 64 active: a key gives up with probability about
  // (1 - 2/64)^255 = e^-8; among 6 * 10^4 keys, about 20.
  SplitMix64 rng(10);
  size_t gave_up = 0;
  for (int i = 0; i < 60000; ++i) {
    const uint64_t k = rng();
    const NodeId got = algo->Lookup(k);
    ASSERT_TRUE(got == 0 || got == 2) << got;
    ASSERT_EQ(got, model.Lookup(k)) << "key " << k;
    // Count give-ups with a plain walk of the reference's loop.
    const uint32_t key = static_cast<uint32_t>(k);
    const uint32_t s = key * 421757u + 1u;
    uint32_t bs = Crc32c(key, s);
    uint32_t idx = bs % 64;
    uint32_t probes = 1;
    while (!algo->core().active(idx)) {
      bs = Crc32c(bs, s);
      idx = bs % 64;
      if (++probes >= 4 * 64) {
        ++gave_up;
        break;
      }
    }
  }
  EXPECT_GT(gave_up, 5u) << "the scan path was not exercised";
}

// Adds from an empty instance follow the reference from DxHash(0) (one slot)
// or DxHash(capacity, 0), growing whenever full.
TEST(DxTest, AddsFromEmptyFollowTheModel) {
  for (uint64_t capacity : {0u, 5u}) {
    auto algo = Make(capacity);
    DxModel model(capacity);
    for (NodeId id = 0; id < 40; ++id) {
      absl::StatusOr<NodeId> got = algo->AddNode(Node(absl::StrCat("n", id)));
      ASSERT_TRUE(got.ok()) << got.status();
      ASSERT_EQ(*got, id);
      model.Added(id, Node(absl::StrCat("n", id)));
    }
    EXPECT_EQ(algo->core().size(), 64u);
    SplitMix64 rng(11);
    for (int i = 0; i < 5000; ++i) {
      const uint64_t k = rng();
      ASSERT_EQ(algo->Lookup(k), model.Lookup(k));
    }
  }
}

}  // namespace
}  // namespace chbench
