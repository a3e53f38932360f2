// Copyright 2026 The chbench Authors.
//
// Tests of jumpbackanchor/jumpbackanchor.h: every line of the reference
// vectors (jumpbackanchor/testdata/jba_*.tsv, recorded from
// dynatrace-oss/hash4j@41d814f, jumpBackAnchorHash(splitMix64_V1()) after
// the addBucket/removeBucket calls each file's name and header give) through
// the ConsistentHash instance, the bare state machine and the independent
// model (testing/reference_models.h); the removal and re-add rules; minimal
// disruption; growth without a capacity.

#include "algorithms/jumpbackanchor/jumpbackanchor.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "algorithms/jumpback/jumpback.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/reference_models.h"
#include "algorithms/testing/vector_file.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::chbench::testing::AlgorithmTestdata;
using ::chbench::testing::JumpBackAnchorModel;
using ::chbench::testing::Node;
using ::chbench::testing::Specs;

struct Row {
  uint64_t key;
  uint32_t bucket;
};

// The `key<TAB>bucket` lines of jumpbackanchor/testdata/<file>.
std::vector<Row> ReadRows(const std::string& file) {
  const std::string path = AlgorithmTestdata("jumpbackanchor", file);
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = absl::StrSplit(line, '\t');
    Row row;
    const bool ok = f.size() == 2 && absl::SimpleAtoi(f[0], &row.key) &&
                    absl::SimpleAtoi(f[1], &row.bucket);
    EXPECT_TRUE(ok) << path << ": bad line '" << line << "'";
    if (ok) rows.push_back(row);
  }
  EXPECT_FALSE(rows.empty()) << path;
  return rows;
}

// One operation of a file's sequence on a new hasher: add() or remove(b).
struct Op {
  bool add;
  uint32_t bucket;  // remove only
};
Op A() { return {true, 0}; }
Op R(uint32_t b) { return {false, b}; }

struct VectorFile {
  std::string file;
  std::vector<Op> ops;
};

std::vector<Op> Adds(uint32_t n) { return std::vector<Op>(n, A()); }

std::vector<VectorFile> VectorFiles() {
  std::vector<VectorFile> files;
  for (uint32_t n : {2u, 10u, 100u, 1000u, 65536u}) {
    files.push_back({absl::StrCat("jba_n", n, ".tsv"), Adds(n)});
  }
  const auto then = [](std::vector<Op> ops, std::vector<Op> more) {
    ops.insert(ops.end(), more.begin(), more.end());
    return ops;
  };
  files.push_back({"jba_n100_rm7.tsv", then(Adds(100), {R(7)})});
  files.push_back({"jba_n100_rm7_13.tsv", then(Adds(100), {R(7), R(13)})});
  files.push_back(
      {"jba_n100_rm7_13_50.tsv", then(Adds(100), {R(7), R(13), R(50)})});
  files.push_back({"jba_n100_rm7_13_50_add.tsv",
                   then(Adds(100), {R(7), R(13), R(50), A()})});
  files.push_back({"jba_n100_rm17_3_99_50.tsv",
                   then(Adds(100), {R(17), R(3), R(99), R(50)})});
  files.push_back({"jba_n100_rm99_98.tsv", then(Adds(100), {R(99), R(98)})});
  std::vector<Op> rmall = Adds(10);
  for (uint32_t b = 0; b < 10; ++b) rmall.push_back(R(b));
  files.push_back({"jba_n10_rmall_add3.tsv", then(rmall, Adds(3))});
  std::vector<Op> rm900 = Adds(1000);
  for (uint32_t j = 0; j < 900; ++j) rm900.push_back(R(j * 337 % 1000));
  files.push_back({"jba_n1000_rm900.tsv", rm900});
  files.push_back({"jba_n1000_rm900_add400.tsv", then(rm900, Adds(400))});
  return files;
}

// Replays `ops` on the instance (AddNode with fresh names, RemoveNode of the
// id holding the bucket), the bare core (payload = bucket) and the model.
struct Replay {
  std::unique_ptr<JumpBackAnchor<Xxh64>> algo =
      std::make_unique<JumpBackAnchor<Xxh64>>();
  JumpBackAnchorCore core;
  JumpBackAnchorModel model;
  std::map<uint32_t, NodeId> id_of;  // working bucket -> id

  void Run(const std::vector<Op>& ops) {
    int name = 0;
    for (const Op& op : ops) {
      if (op.add) {
        absl::StatusOr<NodeId> id =
            algo->AddNode(Node(absl::StrCat("n", name++)));
        ASSERT_TRUE(id.ok()) << id.status();
        const uint32_t b = core.Add(core.next_add());
        ASSERT_EQ(algo->bucket_of(*id), b);
        id_of[b] = *id;
        model.Added(*id, Node("unused"));
      } else {
        const NodeId id = id_of.at(op.bucket);
        ASSERT_TRUE(algo->RemoveNode(id).ok());
        core.Remove(op.bucket);
        id_of.erase(op.bucket);
        model.Removed(id);
      }
    }
  }
};

TEST(JumpBackAnchorOracleTest, EveryVectorFile) {
  size_t lines = 0, files = 0;
  for (const VectorFile& f : VectorFiles()) {
    SCOPED_TRACE(f.file);
    Replay replay;
    replay.Run(f.ops);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    size_t bad = 0;
    for (const Row& row : ReadRows(f.file)) {
      const NodeId want = replay.id_of.at(row.bucket);
      const uint32_t core = replay.core.Bucket(row.key);
      const uint32_t model = replay.model.Bucket(row.key);
      const NodeId got = replay.algo->Lookup(row.key);
      if (got != want || core != row.bucket || model != row.bucket ||
          replay.core.Lookup(row.key) != row.bucket) {
        if (++bad <= 5) {
          ADD_FAILURE() << "key " << row.key << ": id " << got << " (want "
                        << want << "), core " << core << ", model " << model
                        << ", reference bucket " << row.bucket;
        }
      }
      ++lines;
    }
    EXPECT_EQ(bad, 0u);
    ++files;
  }
  EXPECT_EQ(files, 14u);
  // 100 lines per file; jba_n1000_rm900.tsv has one more (key 121).
  EXPECT_EQ(lines, 14u * 100u + 1u);
}

// Without removals the lookup is JumpBackHash over a (the files' note), and
// the reference's LIFO order of re-adds: the file's 963, 626, 289, ...
TEST(JumpBackAnchorOracleTest, NoRemovalsIsJumpBackAndReAddsAreLifo) {
  for (uint32_t n : {2u, 10u, 100u, 1000u, 65536u}) {
    const std::vector<Row> rows = ReadRows(absl::StrCat("jba_n", n, ".tsv"));
    for (const Row& row : rows) {
      ASSERT_EQ(JumpBackHashSplitMix64(row.key, n), row.bucket) << n;
    }
  }
  JumpBackAnchorCore core(1000);
  for (uint32_t j = 0; j < 900; ++j) core.Remove(j * 337 % 1000);
  EXPECT_EQ(core.working(), 100u);
  EXPECT_EQ(core.historic_max(), 1000u);
  for (uint32_t j = 900; j-- > 500;) {
    ASSERT_EQ(core.Add(0), j * 337 % 1000) << j;
  }
  EXPECT_EQ(core.working(), 500u);
}

// uniformInt against the model, with bounds where Lemire's rejection step
// (low product word below 2^32 mod v) is common: v = 3 * 2^29 rejects a
// quarter of the draws, which no vector file reaches (their A values are
// small). The stream must also be left at the same value.
TEST(JumpBackAnchorTest, UniformIntEqualsTheModel) {
  SplitMix64 rng(26);
  size_t redraws = 0;
  for (uint32_t v : {1u, 5u, 1000u, 3u << 29, 0x7FFFFFFFu}) {
    for (int i = 0; i < 4000; ++i) {
      const uint64_t x = rng();
      jumpbackanchor_internal::SplitMix64Stream g(x);  // value 0 unread
      uint64_t drawn = 1;
      const uint32_t got = jumpbackanchor_internal::Uniform(g, v);
      ASSERT_EQ(got, JumpBackAnchorModel::UniformInt(x, &drawn, v)) << v;
      ASSERT_LT(got, v);
      ASSERT_EQ(g.Next(), ::chbench::testing::ModelSplitMix64Value(x, drawn));
      redraws += drawn - 2;
    }
  }
  EXPECT_GT(redraws, 500u) << "the rejection step was not exercised";
}

// Removal rules: the last bucket with nothing removed shrinks a; with
// something removed it is pushed; the last working bucket resets.
TEST(JumpBackAnchorTest, RemovalRules) {
  JumpBackAnchorCore core(100);
  core.Remove(99);
  core.Remove(98);
  EXPECT_EQ(core.historic_max(), 98u);
  EXPECT_TRUE(core.removal_stack().empty());
  core.Remove(17);
  core.Remove(97);  // the last bucket, but 17 is removed: pushed
  EXPECT_EQ(core.historic_max(), 98u);
  EXPECT_EQ(core.removal_stack(), (std::vector<uint32_t>{17, 97}));
  EXPECT_EQ(core.next_add(), 97u);
  JumpBackAnchorCore small(3);
  small.Remove(1);
  small.Remove(0);
  small.Remove(2);  // the last working bucket
  EXPECT_EQ(small.historic_max(), 0u);
  EXPECT_TRUE(small.removal_stack().empty());
  EXPECT_EQ(small.Add(0), 0u);
}

// Arbitrary removals move only the removed bucket's keys; re-adding (LIFO)
// restores each earlier mapping exactly, under the fresh ids.
TEST(JumpBackAnchorTest, RemovalIsMinimalAndReAddRestores) {
  auto algo = std::make_unique<JumpBackAnchor<Xxh64>>();
  ASSERT_TRUE(algo->Build(Specs(80)).ok());
  SplitMix64 rng(21);
  std::vector<uint64_t> keys(20000);
  for (uint64_t& k : keys) k = rng();
  Sfc64 pick(22);
  std::vector<std::vector<NodeId>> history;
  std::vector<NodeId> victims;
  for (int step = 0; step < 60; ++step) {
    std::vector<NodeId> before(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) before[i] = algo->Lookup(keys[i]);
    history.push_back(before);
    const std::vector<NodeId> live = algo->LiveNodes();
    const NodeId victim = live[pick.Below(live.size())];
    victims.push_back(victim);
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
  for (int step = 59; step >= 0; --step) {
    absl::StatusOr<NodeId> id = algo->AddNode(Node(absl::StrCat("b", step)));
    ASSERT_TRUE(id.ok()) << id.status();
    for (size_t i = 0; i < keys.size(); ++i) {
      const NodeId want =
          history[step][i] == victims[step] ? *id : history[step][i];
      // Ids re-added in later steps were renamed too; compare by bucket.
      ASSERT_EQ(algo->bucket_of(algo->Lookup(keys[i])), algo->bucket_of(want))
          << "step " << step << " key " << i;
    }
  }
}

// No capacity: AddNode grows a past the first Build, and the mapping is
// JumpBackHash over the larger a.
TEST(JumpBackAnchorTest, AddNodeGrowsWithoutCapacity) {
  auto algo = std::make_unique<JumpBackAnchor<Xxh64>>();
  for (int i = 0; i < 300; ++i) {
    absl::StatusOr<NodeId> id = algo->AddNode(Node(absl::StrCat("g", i)));
    ASSERT_TRUE(id.ok()) << id.status();
    ASSERT_EQ(*id, static_cast<NodeId>(i));
  }
  EXPECT_EQ(algo->core().historic_max(), 300u);
  SplitMix64 rng(23);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t k = rng();
    ASSERT_EQ(algo->Lookup(k), JumpBackHashSplitMix64(k, 300));
  }
}

// The state machine against the independent model on long random
// sequences with deep removal stacks (the conformance suite keeps N small).
TEST(JumpBackAnchorTest, MatchesTheModelUnderDeepChurn) {
  JumpBackAnchorCore core(500);
  JumpBackAnchorModel model;
  std::vector<::chbench::testing::LiveNode> live;
  for (NodeId b = 0; b < 500; ++b) live.push_back({b, Node("m")});
  model.Rebuild(live);
  std::vector<uint32_t> working;
  for (uint32_t b = 0; b < 500; ++b) working.push_back(b);
  Sfc64 rng(24);
  SplitMix64 keys(25);
  for (int step = 0; step < 3000; ++step) {
    if (working.size() > 1 && rng.Below(3) != 0) {
      const size_t i = rng.Below(working.size());
      const uint32_t b = working[i];
      working[i] = working.back();
      working.pop_back();
      core.Remove(b);
      model.Removed(b);  // payload = bucket = id here
    } else {
      const uint32_t b = core.Add(core.next_add());
      model.Added(b, Node("m"));
      working.push_back(b);
    }
    if (step % 50 == 0) {
      for (int i = 0; i < 200; ++i) {
        const uint64_t k = keys();
        ASSERT_EQ(core.Bucket(k), model.Bucket(k)) << "step " << step;
      }
    }
  }
}

}  // namespace
}  // namespace chbench
