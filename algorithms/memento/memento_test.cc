// Copyright 2026 The chbench Authors.
//
// Tests of memento/memento.h: every row of the shared oracle files
// (memento/testdata/, recorded from the C++ port
// slashdotted/cpp-consistent-hashing-algorithms@2e53589: getBucketCRC32c(x, 0)
// and getBucket over the 8 LE bytes of x) through the ConsistentHash instance
// and through MementoHashCore; the shrink rule, LIFO re-add, fresh ids; the
// replacement table against std::map under random churn.

#include "algorithms/memento/memento.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/vector_file.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::chbench::testing::Node;
using ::chbench::testing::Specs;
using ::testing::HasSubstr;

using Row = ::chbench::testing::VectorRow;

// The data lines of an oracle file, grouped by n in file order.
std::map<uint32_t, std::vector<Row>> ReadOracle(const std::string& name) {
  return ::chbench::testing::ReadVectorGroups(
      ::chbench::testing::AlgorithmTestdata("memento", name));
}

std::unique_ptr<Memento<Xxh64>> Make() {
  return std::make_unique<Memento<Xxh64>>();
}

template <MementoPath P>
void ExpectRows(const std::vector<Row>& rows, const Memento<Xxh64>* algo,
                const MementoHashCore& core) {
  size_t bad = 0;
  for (const Row& r : rows) {
    const uint32_t got = core.Bucket<P>(r.input);
    const bool algo_bad = algo != nullptr && algo->Lookup(r.input) != r.bucket;
    if (got != r.bucket || algo_bad) {
      if (++bad <= 5) {
        ADD_FAILURE() << "x=" << r.input << " n=" << r.n << ": got " << got
                      << (algo ? absl::StrCat(" / ", algo->Lookup(r.input))
                               : "")
                      << ", reference " << r.bucket;
      }
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST(MementoOracleTest, Crc32cStable) {
  const auto groups = ReadOracle("memento_crc32c_stable.tsv");
  EXPECT_EQ(groups.size(), 8u);
  for (const auto& [n, rows] : groups) {
    SCOPED_TRACE(absl::StrCat("n=", n));
    auto algo = Make();
    ASSERT_TRUE(algo->Build(Specs(n)).ok());
    ExpectRows<MementoPath::kCrc32c>(rows, algo.get(), MementoHashCore(n));
    for (const Row& r : rows) {
      ASSERT_EQ(MementoBucketCrc32c(r.input, MementoHashCore(n)), r.bucket);
    }
  }
}

TEST(MementoOracleTest, Xxh64Stable) {
  const auto groups = ReadOracle("memento_xxh64_stable.tsv");
  EXPECT_EQ(groups.size(), 8u);
  for (const auto& [n, rows] : groups) {
    SCOPED_TRACE(absl::StrCat("n=", n));
    const MementoHashCore core(n);
    ExpectRows<MementoPath::kXxh64>(rows, nullptr, core);
    for (const Row& r : rows) {
      ASSERT_EQ(MementoBucketXxh64(r.input, core), r.bucket);
    }
  }
}

// MementoEngine(100, 100), removeBucket 17, 3, 99, 50; B stays 100 (99 is
// the last bucket but the table is not empty then); addBucket() returns 50.
TEST(MementoOracleTest, Crc32cRemove) {
  const auto groups = ReadOracle("memento_crc32c_remove.tsv");
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_EQ(groups.begin()->first, 96u);
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(100)).ok());
  MementoHashCore core(100);
  for (uint32_t b : {17u, 3u, 99u, 50u}) {
    ASSERT_TRUE(algo->RemoveNode(b).ok());
    core.Remove(b);
  }
  EXPECT_EQ(core.b_array_size(), 100u);
  EXPECT_EQ(algo->core().b_array_size(), 100u);
  EXPECT_EQ(algo->size(), 96u);
  ExpectRows<MementoPath::kCrc32c>(groups.begin()->second, algo.get(), core);
  EXPECT_EQ(core.Add(), 50u);
  absl::StatusOr<NodeId> id = algo->AddNode(Node("back"));
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id, 100u);
  for (const Row& r : groups.begin()->second) {
    const uint32_t b = core.Bucket(r.input);
    ASSERT_EQ(algo->Lookup(r.input), b == 50 ? 100u : b);
  }
}

TEST(MementoOracleTest, Xxh64Remove) {
  const auto groups = ReadOracle("memento_xxh64_remove.tsv");
  ASSERT_EQ(groups.size(), 1u);
  MementoHashCore core(100);
  for (uint32_t b : {17u, 3u, 99u, 50u}) core.Remove(b);
  ExpectRows<MementoPath::kXxh64>(groups.begin()->second, nullptr, core);
  EXPECT_EQ(core.Add(), 50u);
}

TEST(MementoTest, OneNodeTakesEveryKey) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(1)).ok());
  SplitMix64 rng(5);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(algo->Lookup(rng()), 0u);
}

// Removing the last bucket with nothing recorded shrinks B (Jump's case) and
// records nothing; AddNode then appends it again.
TEST(MementoTest, RemovingTheLastBucketShrinks) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(10)).ok());
  ASSERT_TRUE(algo->RemoveNode(9).ok());
  EXPECT_EQ(algo->core().b_array_size(), 9u);
  EXPECT_EQ(algo->core().removed(), 0u);
  ASSERT_TRUE(algo->RemoveNode(8).ok());
  EXPECT_EQ(algo->core().b_array_size(), 8u);
  ASSERT_TRUE(algo->RemoveNode(2).ok());  // recorded
  EXPECT_EQ(algo->core().removed(), 1u);
  ASSERT_TRUE(algo->RemoveNode(7).ok());  // last, but the table is not empty
  EXPECT_EQ(algo->core().b_array_size(), 8u);
  EXPECT_EQ(algo->core().removed(), 2u);
  // LIFO: 7, 2, then appended 8, 9, 10 ...
  EXPECT_EQ(algo->core().next_add(), 7u);
  EXPECT_EQ(*algo->AddNode(Node("a")), 10u);
  EXPECT_EQ(algo->core().next_add(), 2u);
  EXPECT_EQ(*algo->AddNode(Node("b")), 11u);
  EXPECT_EQ(algo->core().next_add(), 8u);
  EXPECT_EQ(*algo->AddNode(Node("c")), 12u);
  EXPECT_EQ(algo->core().b_array_size(), 9u);
  // Ids by bucket: 0,1,11,3,4,5,6,10,12 and the mapping is Jump over 9
  // buckets again (the table is empty).
  EXPECT_EQ(algo->core().removed(), 0u);
  const std::vector<NodeId> by_bucket = {0, 1, 11, 3, 4, 5, 6, 10, 12};
  SplitMix64 rng(6);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t k = rng();
    ASSERT_EQ(algo->Lookup(k), by_bucket[JumpConsistentHash(Crc32c(k, 0), 9)]);
  }
}

TEST(MementoTest, RemovingEveryNodeAndAddingBack) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(4)).ok());
  for (NodeId id : {1u, 3u, 0u, 2u}) ASSERT_TRUE(algo->RemoveNode(id).ok());
  EXPECT_EQ(algo->size(), 0u);
  EXPECT_EQ(*algo->AddNode(Node("x")), 4u);  // bucket 2, the last removed
  SplitMix64 rng(7);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(algo->Lookup(rng()), 4u);
  EXPECT_EQ(*algo->AddNode(Node("y")), 5u);
  for (int i = 0; i < 1000; ++i) {
    const NodeId o = algo->Lookup(rng());
    ASSERT_TRUE(o == 4u || o == 5u) << o;
  }
}

// Removal of any bucket moves only its keys; re-adding restores every key.
TEST(MementoTest, RemovalIsMinimalAndReAddRestores) {
  auto algo = Make();
  ASSERT_TRUE(algo->Build(Specs(60)).ok());
  SplitMix64 rng(9);
  std::vector<uint64_t> keys(20000);
  for (uint64_t& k : keys) k = rng();
  std::vector<NodeId> initial(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) initial[i] = algo->Lookup(keys[i]);
  Sfc64 pick(10);
  std::vector<std::vector<NodeId>> history;
  std::vector<NodeId> victims;
  for (int step = 0; step < 40; ++step) {
    std::vector<NodeId> before(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) before[i] = algo->Lookup(keys[i]);
    history.push_back(before);
    const std::vector<NodeId> live = algo->LiveNodes();
    const NodeId victim = live[pick.Below(live.size())];
    victims.push_back(victim);
    ASSERT_TRUE(algo->RemoveNode(victim).ok());
    for (size_t i = 0; i < keys.size(); ++i) {
      const NodeId now = algo->Lookup(keys[i]);
      ASSERT_NE(now, victim);
      if (now != before[i]) {
        ASSERT_EQ(before[i], victim);
      }
    }
  }
  // Undo in reverse: after re-adding victim s the mapping is the one from
  // before its removal, with every re-added victim under its fresh id.
  std::map<NodeId, NodeId> renamed;
  for (int step = 39; step >= 0; --step) {
    const NodeId fresh = *algo->AddNode(Node(absl::StrCat("back-", step)));
    renamed[victims[step]] = fresh;
    for (size_t i = 0; i < keys.size(); ++i) {
      auto it = renamed.find(history[step][i]);
      const NodeId want = it == renamed.end() ? history[step][i] : it->second;
      ASSERT_EQ(algo->Lookup(keys[i]), want) << "step " << step;
    }
  }
  EXPECT_EQ(algo->core().removed(), 0u);
  EXPECT_EQ(algo->core().b_array_size(), 60u);
}

// The flat table against std::map under random inserts and erases (the
// backward-shift deletion is the delicate part).
TEST(MementoTableTest, MatchesStdMap) {
  memento_internal::ReplacementTable table;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> ref;
  Sfc64 rng(11);
  for (int step = 0; step < 200000; ++step) {
    const uint32_t b =
        static_cast<uint32_t>(rng.Below(step < 100000 ? 4096 : 64));
    auto it = ref.find(b);
    if (it != ref.end()) {
      if (rng.Below(2) == 0) {
        ASSERT_EQ(table.Erase(b), it->second.second) << "step " << step;
        ref.erase(it);
      }
    } else {
      const uint32_t v = static_cast<uint32_t>(rng.Below(1u << 30));
      table.Insert(b, v, v + 7);
      ref[b] = {v, v + 7};
    }
    ASSERT_EQ(table.size(), ref.size());
    const uint32_t q = static_cast<uint32_t>(rng.Below(4096));
    auto qi = ref.find(q);
    ASSERT_EQ(table.Replacer(q),
              qi == ref.end() ? -1 : int64_t{qi->second.first})
        << "step " << step << " bucket " << q;
  }
  for (const auto& [b, e] : ref) ASSERT_EQ(table.Replacer(b), int64_t{e.first});
}

TEST(MementoTest, UnknownHashIsRejected) {
  AlgorithmParams p;
  p.hash = "nope";
  auto made = MakeMemento(p);
  ASSERT_FALSE(made.ok());
  EXPECT_THAT(made.status().message(), HasSubstr("nope"));
}

}  // namespace
}  // namespace chbench
