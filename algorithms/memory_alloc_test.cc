// Copyright 2026 The chbench Authors.
//
// Checks every registry algorithm's self-reported MemoryBytes() against the
// heap bytes a counting allocator sees (algorithms/util/alloc_counter.h; this
// binary links the replacement operator new). The contract
// (consistent_hash.h): within 10 % of the live heap bytes allocated by
// MakeAlgorithm + Build (the object itself included: it is heap-allocated by
// the factory), also after churn and, for a stateful algorithm, after
// placing 10^5 keys.
//
// Each check prints one line "memory <algorithm> <case> heap=<h>
// reported=<r> ratio=<r/h>" so that a failure report can quote the numbers.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/registry.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/util/alloc_counter.h"
#include "algorithms/util/random.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::chbench::testing::Specs;

constexpr double kTolerance = 0.10;

struct MemoryCase {
  std::string algorithm;
  size_t nodes;
  uint32_t vnodes;
};

std::vector<MemoryCase> AllCases() {
  std::vector<MemoryCase> cases;
  for (const AlgorithmInfo& info : Algorithms()) {
    for (size_t n : {size_t{10}, size_t{1000}}) {
      for (uint32_t v : {uint32_t{10}, uint32_t{100}}) {
        cases.push_back({std::string(info.name), n, v});
      }
    }
  }
  return cases;
}

void PrintTo(const MemoryCase& c, std::ostream* os) {
  *os << c.algorithm << " N=" << c.nodes << " vnodes=" << c.vnodes;
}

class MemoryTest : public ::testing::TestWithParam<MemoryCase> {
 protected:
  AlgorithmParams Params() const {
    AlgorithmParams params;
    params.vnodes = GetParam().vnodes;
    return params;
  }

  // Compares and prints one measurement.
  static void Check(const ConsistentHash& algo, int64_t heap,
                    std::string_view what) {
    const double reported = static_cast<double>(algo.MemoryBytes());
    std::printf("memory %s %s heap=%lld reported=%.0f ratio=%.3f\n",
                std::string(algo.name()).c_str(), std::string(what).c_str(),
                static_cast<long long>(heap), reported,
                heap > 0 ? reported / static_cast<double>(heap) : 0.0);
    EXPECT_NEAR(reported, static_cast<double>(heap),
                kTolerance * static_cast<double>(heap))
        << algo.name() << " " << what << ": MemoryBytes() " << reported
        << " vs heap " << heap << " ("
        << (reported - static_cast<double>(heap)) * 100.0 /
               static_cast<double>(heap)
        << " %)";
  }
};

TEST_P(MemoryTest, MemoryBytesMatchesTheHeapAfterBuild) {
  const MemoryCase& c = GetParam();
  const std::vector<NodeSpec> specs = Specs(c.nodes);  // outside the count
  const int64_t before = ThreadHeapBytes();
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      MakeAlgorithm(c.algorithm, Params());
  ASSERT_TRUE(made.ok()) << made.status();
  std::unique_ptr<ConsistentHash> algo = *std::move(made);
  ASSERT_TRUE(algo->Build(specs).ok());
  const int64_t heap = ThreadHeapBytes() - before;
  Check(*algo, heap,
        absl::StrCat("build N=", c.nodes, " vnodes=", c.vnodes));
}

TEST_P(MemoryTest, MemoryBytesMatchesTheHeapAfterChurn) {
  const MemoryCase& c = GetParam();
  const std::vector<NodeSpec> specs = Specs(c.nodes);
  const std::vector<NodeSpec> extra = Specs(c.nodes / 10 + 1, "extra-");
  AlgorithmParams params = Params();
  // maglev: room for the added nodes in a table fixed at Build.
  params.table_size = c.nodes < 100 ? 1009 : 100003;
  // anchor: room for the added nodes in an anchor fixed at Build (dx: the
  // initial array size).
  params.capacity = 2 * c.nodes;
  const int64_t before = ThreadHeapBytes();
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      MakeAlgorithm(c.algorithm, params);
  ASSERT_TRUE(made.ok()) << made.status();
  std::unique_ptr<ConsistentHash> algo = *std::move(made);
  ASSERT_TRUE(algo->Build(specs).ok());
  for (const NodeSpec& s : extra) ASSERT_TRUE(algo->AddNode(s).ok());
  // Remove the last few (allowed for every algorithm).
  for (size_t i = 0; i < extra.size() / 2 + 1; ++i) {
    ASSERT_TRUE(algo->RemoveNode(algo->LiveNodes().back()).ok());
  }
  const int64_t heap = ThreadHeapBytes() - before;
  Check(*algo, heap,
        absl::StrCat("churn N=", c.nodes, " vnodes=", c.vnodes));
}

TEST_P(MemoryTest, MemoryBytesMatchesTheHeapAfterPlacing) {
  const MemoryCase& c = GetParam();
  const std::vector<NodeSpec> specs = Specs(c.nodes);
  const int64_t before = ThreadHeapBytes();
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      MakeAlgorithm(c.algorithm, Params());
  ASSERT_TRUE(made.ok()) << made.status();
  std::unique_ptr<ConsistentHash> algo = *std::move(made);
  if (!algo->capabilities().stateful) GTEST_SKIP() << "stateless";
  ASSERT_TRUE(algo->Build(specs).ok());
  SplitMix64 rng(7);
  for (int i = 0; i < 100000; ++i) algo->Place(rng());
  const int64_t heap = ThreadHeapBytes() - before;
  Check(*algo, heap,
        absl::StrCat("placed=1e5 N=", c.nodes, " vnodes=", c.vnodes));
}

INSTANTIATE_TEST_SUITE_P(
    AllAlgorithms, MemoryTest, ::testing::ValuesIn(AllCases()),
    [](const ::testing::TestParamInfo<MemoryCase>& info) {
      return absl::StrCat(info.param.algorithm, "_N", info.param.nodes, "_v",
                          info.param.vnodes);
    });

}  // namespace
}  // namespace chbench
