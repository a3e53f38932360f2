// Copyright 2026 The chbench Authors.
//
// Tests of anchor/anchor.h: every row of the shared oracle files
// (anchor/testdata/, recorded from anchorhash/cpp-anchorhash@3ef98f0,
// AnchorHashQre::ComputeBucket(x, 0)) through the ConsistentHash instance and
// through AnchorHashCore; capacity rules and their errors; LIFO re-add order;
// fresh ids for re-activated buckets.

#include "algorithms/anchor/anchor.h"

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
      ::chbench::testing::AlgorithmTestdata("anchor", name));
}

std::unique_ptr<Anchor<Xxh64>> Make(uint64_t capacity) {
  AlgorithmParams p;
  p.capacity = capacity;
  auto made = MakeAnchor(p);
  EXPECT_TRUE(made.ok()) << made.status();
  return std::unique_ptr<Anchor<Xxh64>>(
      static_cast<Anchor<Xxh64>*>(made->release()));
}

// Checks one n-group: instance built with Build(n specs) (ids = buckets) and
// the bare state machine.
void ExpectRows(const std::vector<Row>& rows, const Anchor<Xxh64>& algo,
                const AnchorHashCore& core) {
  size_t bad = 0;
  for (const Row& r : rows) {
    if (algo.Lookup(r.input) != r.bucket || core.Bucket(r.input) != r.bucket) {
      if (++bad <= 5) {
        ADD_FAILURE() << "x=" << r.input << " n=" << r.n << ": got "
                      << algo.Lookup(r.input) << " / " << core.Bucket(r.input)
                      << ", reference " << r.bucket;
      }
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST(AnchorOracleTest, Stable) {
  const auto groups = ReadOracle("anchor_stable.tsv");
  EXPECT_EQ(groups.size(), 8u);
  for (const auto& [n, rows] : groups) {
    SCOPED_TRACE(absl::StrCat("n=", n));
    auto algo = Make(0);  // a = n
    ASSERT_TRUE(algo->Build(Specs(n)).ok());
    EXPECT_EQ(algo->anchor_size(), n);
    ExpectRows(rows, *algo, AnchorHashCore(n, n));
  }
}

TEST(AnchorOracleTest, Capacity2x) {
  const auto groups = ReadOracle("anchor_capacity2x.tsv");
  EXPECT_EQ(groups.size(), 8u);
  for (const auto& [n, rows] : groups) {
    SCOPED_TRACE(absl::StrCat("n=", n));
    auto algo = Make(2 * uint64_t{n});
    ASSERT_TRUE(algo->Build(Specs(n)).ok());
    ExpectRows(rows, *algo, AnchorHashCore(2 * n, n));
  }
}

TEST(AnchorOracleTest, Remove) {
  const auto groups = ReadOracle("anchor_remove.tsv");
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_EQ(groups.begin()->first, 96u);
  auto algo = Make(200);
  ASSERT_TRUE(algo->Build(Specs(100)).ok());
  AnchorHashCore core(200, 100);
  for (uint32_t b : {17u, 3u, 99u, 50u}) {
    ASSERT_TRUE(algo->RemoveNode(b).ok());
    core.Remove(b);
  }
  EXPECT_EQ(algo->size(), 96u);
  ExpectRows(groups.begin()->second, *algo, core);
  // The file's note: a following UpdateNewBucket() returns 50. Here it gets
  // the fresh id 100.
  EXPECT_EQ(core.Add(), 50u);
  absl::StatusOr<NodeId> id = algo->AddNode(Node("back"));
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id, 100u);
  for (const Row& r : groups.begin()->second) {
    const uint32_t b = core.Bucket(r.input);
    ASSERT_EQ(algo->Lookup(r.input), b == 50 ? 100u : b);
  }
}

TEST(AnchorTest, OneNodeTakesEveryKey) {
  for (uint64_t capacity : {0u, 1u, 7u}) {
    auto algo = Make(capacity);
    ASSERT_TRUE(algo->Build(Specs(1)).ok());
    SplitMix64 rng(5);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(algo->Lookup(rng()), 0u);
  }
}

TEST(AnchorTest, CapacityZeroIsTheFirstBuildAndIsFixed) {
  auto algo = Make(0);
  ASSERT_TRUE(algo->Build(Specs(5)).ok());
  EXPECT_EQ(algo->anchor_size(), 5u);
  absl::StatusOr<NodeId> id = algo->AddNode(Node("extra"));
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(id.status().message(), HasSubstr("a = 5"));
  EXPECT_THAT(id.status().message(), HasSubstr("capacity"));
  EXPECT_EQ(algo->size(), 5u);
  // a stays 5: a larger Build fails naming both numbers, a smaller one leaves
  // room.
  absl::Status s = algo->Build(Specs(6));
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("6 nodes"));
  EXPECT_THAT(s.message(), HasSubstr("a = 5"));
  ASSERT_TRUE(algo->Build(Specs(3)).ok());
  EXPECT_EQ(algo->anchor_size(), 5u);
  EXPECT_EQ(*algo->AddNode(Node("x")), 3u);
  EXPECT_EQ(*algo->AddNode(Node("y")), 4u);
  EXPECT_FALSE(algo->AddNode(Node("z")).ok());
}

TEST(AnchorTest, AddNodeWithoutBuild) {
  auto none = Make(0);
  absl::StatusOr<NodeId> id = none->AddNode(Node("a"));
  ASSERT_FALSE(id.ok());
  EXPECT_THAT(id.status().message(), HasSubstr("capacity"));

  auto four = Make(4);
  for (NodeId want = 0; want < 4; ++want) {
    absl::StatusOr<NodeId> got = four->AddNode(Node(absl::StrCat("n", want)));
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, want);
  }
  absl::StatusOr<NodeId> full = four->AddNode(Node("n4"));
  ASSERT_FALSE(full.ok());
  EXPECT_THAT(full.status().message(), HasSubstr("a = 4"));
  // Four adds from empty equal Build(4) with the same capacity.
  auto built = Make(4);
  ASSERT_TRUE(built->Build(Specs(4, "n")).ok());
  SplitMix64 rng(6);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t k = rng();
    ASSERT_EQ(four->Lookup(k), built->Lookup(k));
  }
}

TEST(AnchorTest, CapacityOutOfRangeIsRejected) {
  AlgorithmParams p;
  p.capacity = (uint64_t{1} << 31) + 1;
  auto made = MakeAnchor(p);
  ASSERT_FALSE(made.ok());
  EXPECT_THAT(made.status().message(), HasSubstr("2147483649"));
  EXPECT_THAT(made.status().message(), HasSubstr("2147483648"));
  p.capacity = uint64_t{1} << 31;
  EXPECT_TRUE(MakeAnchor(p).ok());  // valid; nothing allocated before Build
  p.capacity = 0;
  p.hash = "nope";
  EXPECT_FALSE(MakeAnchor(p).ok());
}

// Removed buckets come back in LIFO order, after the initial removals are
// used up in ascending order; each comes back under a fresh id and takes
// exactly its old keys back.
TEST(AnchorTest, ReAddOrderIsLifo) {
  auto algo = Make(8);
  ASSERT_TRUE(algo->Build(Specs(5)).ok());
  EXPECT_EQ(algo->core().stack_top(), 5u);
  SplitMix64 rng(8);
  std::vector<uint64_t> keys(5000);
  for (uint64_t& k : keys) k = rng();
  std::vector<NodeId> before(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) before[i] = algo->Lookup(keys[i]);

  ASSERT_TRUE(algo->RemoveNode(1).ok());
  ASSERT_TRUE(algo->RemoveNode(3).ok());
  EXPECT_EQ(algo->core().stack_top(), 3u);
  EXPECT_EQ(*algo->AddNode(Node("a")), 5u);  // bucket 3
  EXPECT_EQ(algo->core().stack_top(), 1u);
  EXPECT_EQ(*algo->AddNode(Node("b")), 6u);  // bucket 1
  EXPECT_EQ(algo->core().stack_top(), 5u);
  for (size_t i = 0; i < keys.size(); ++i) {
    NodeId want = before[i] == 3 ? 5 : before[i] == 1 ? 6 : before[i];
    ASSERT_EQ(algo->Lookup(keys[i]), want) << i;
  }
  EXPECT_EQ(*algo->AddNode(Node("c")), 7u);  // bucket 5 (initial removal)
  EXPECT_EQ(algo->core().stack_top(), 6u);
  EXPECT_EQ(algo->LiveNodes(), (std::vector<NodeId>{0, 2, 4, 5, 6, 7}));
  // A removed id stays invalid.
  absl::Status s = algo->RemoveNode(3);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
}

// Removing any bucket moves only its keys, also with a > w.
TEST(AnchorTest, RemovalIsMinimal) {
  auto algo = Make(64);
  ASSERT_TRUE(algo->Build(Specs(40)).ok());
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
    size_t moved = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      const NodeId now = algo->Lookup(keys[i]);
      ASSERT_NE(now, victim);
      if (now != before[i]) {
        ASSERT_EQ(before[i], victim) << "a key of another node moved";
        ++moved;
      }
    }
    EXPECT_GT(moved, 0u);
  }
}

TEST(AnchorTest, MemoryGrowsWithTheAnchor) {
  auto small = Make(1000);
  auto large = Make(101000);
  ASSERT_TRUE(small->Build(Specs(10)).ok());
  ASSERT_TRUE(large->Build(Specs(10)).ok());
  const double per_slot =
      static_cast<double>(large->MemoryBytes() - small->MemoryBytes()) /
      100000.0;
  // 16 bytes per slot plus 4 per initially removed bucket on the stack.
  EXPECT_NEAR(per_slot, 20.0, 0.5);
}

}  // namespace
}  // namespace chbench
