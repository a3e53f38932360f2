// Copyright 2026 The chbench Authors.
//
// Tests of the measurement harness with synthetic kernels (their "time" is
// whatever the test says, so the noise gate's decisions are exact), and of
// the fold arithmetic of the real loops. No test asserts a speed.

#include "bench/harness.h"

#include <cmath>
#include <memory>
#include <numeric>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "bench/kernels.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::HasSubstr;

// A kernel whose measured time per iteration follows `ns(call)` and whose
// fold is honest (iterations * 3), recording the order of calls in `log`.
Kernel Synthetic(std::string label, std::function<double(int)> ns,
                 std::vector<std::string>* log) {
  auto calls = std::make_shared<int>(0);
  Kernel k;
  k.label = label;
  k.run = [=](uint64_t it) {
    log->push_back(label);
    const double t = ns((*calls)++) * 1e-9 * static_cast<double>(it);
    return Measurement{t, it * 3};
  };
  k.expected = [](uint64_t it) { return it * 3; };
  k.fixed_iterations = 1000;
  return k;
}

HarnessOptions Options(uint32_t rounds) {
  HarnessOptions o;
  o.rounds = rounds;
  o.min_time_s = 1e-3;
  o.seed = 11;
  o.slices = 1;  // one call per round: the synthetic times are per call
  return o;
}

TEST(HarnessTest, EveryKernelOncePerRoundInShuffledOrders) {
  std::vector<std::string> log;
  std::vector<Kernel> ks;
  for (const char* name : {"a", "b", "c", "d"}) {
    ks.push_back(Synthetic(
        name, [](int) { return 10.0; }, &log));
  }
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, Options(12));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(log.size(), 4u * 12);
  std::set<std::string> orders;
  for (size_t round = 0; round < 12; ++round) {
    std::vector<std::string> order(log.begin() + 4 * round,
                                   log.begin() + 4 * round + 4);
    EXPECT_EQ(std::set<std::string>(order.begin(), order.end()).size(), 4u);
    orders.insert(order[0] + order[1] + order[2] + order[3]);
  }
  EXPECT_GT(orders.size(), 3u) << "rounds are not shuffled";
  for (const KernelResult& k : r->kernels) {
    ASSERT_EQ(k.ns_per_op.size(), 12u);
    for (double v : k.ns_per_op) EXPECT_DOUBLE_EQ(v, 10.0);
    EXPECT_FALSE(k.noisy);
    EXPECT_EQ(k.remeasured, 0);
  }
}

TEST(HarnessTest, ARoundIsTheMedianOfItsSlices) {
  std::vector<std::string> log;
  // Every third call is disturbed (30 ns instead of 10).
  std::vector<Kernel> ks = {Synthetic(
      "k", [](int c) { return c % 3 == 2 ? 30.0 : 10.0; }, &log)};
  HarnessOptions o = Options(4);
  o.slices = 3;
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(log.size(), 12u);
  for (double v : r->kernels[0].ns_per_op) EXPECT_DOUBLE_EQ(v, 10.0);
  EXPECT_FALSE(r->kernels[0].noisy);
  // One slice per round: the disturbed call lands in round 2.
  o.slices = 1;
  o.max_remeasure = 0;
  log.clear();
  ks[0] = Synthetic(
      "k", [](int c) { return c % 3 == 2 ? 30.0 : 10.0; }, &log);
  r = RunInterleaved(ks, o);
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->kernels[0].ns_per_op[2], 30.0);
}

TEST(HarnessTest, AFoldMismatchFailsTheRun) {
  std::vector<std::string> log;
  std::vector<Kernel> ks = {Synthetic(
      "ok", [](int) { return 1.0; }, &log)};
  Kernel lazy = Synthetic(
      "lazy", [](int) { return 1.0; }, &log);
  lazy.run = [](uint64_t it) { return Measurement{1e-6, it * 3 - 1}; };
  ks.push_back(lazy);
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, Options(3));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInternal);
  EXPECT_THAT(r.status().message(), HasSubstr("lazy"));
  EXPECT_THAT(r.status().message(), HasSubstr("skipped or changed"));
}

TEST(HarnessTest, NoisyKernelIsRemeasuredWithItsPartnersThenFlagged) {
  std::vector<std::string> log;
  std::vector<Kernel> ks;
  // Alternates 10 and 20 ns: cv ~ 35 % on every attempt.
  ks.push_back(Synthetic(
      "jumpy", [](int c) { return c % 2 ? 20.0 : 10.0; }, &log));
  ks.push_back(Synthetic(
      "partner", [](int) { return 5.0; }, &log));
  ks.push_back(Synthetic(
      "bystander", [](int) { return 5.0; }, &log));
  ks[0].partners = {1};
  HarnessOptions o = Options(6);
  o.max_remeasure = 2;
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->kernels[0].noisy);
  EXPECT_THAT(r->kernels[0].noise_reason, HasSubstr("cv"));
  EXPECT_EQ(r->kernels[0].remeasured, 2);
  EXPECT_EQ(r->kernels[1].remeasured, 2);  // measured again with it
  EXPECT_FALSE(r->kernels[1].noisy);
  EXPECT_EQ(r->kernels[2].remeasured, 0);
}

TEST(HarnessTest, NoiseThatGoesAwayIsNotFlagged) {
  std::vector<std::string> log;
  std::vector<Kernel> ks;
  // Noisy for the first 6 calls (the first attempt), then steady.
  ks.push_back(Synthetic(
      "settles", [](int c) { return c < 6 ? (c % 2 ? 30.0 : 10.0) : 10.0; },
      &log));
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, Options(6));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->kernels[0].noisy);
  EXPECT_EQ(r->kernels[0].remeasured, 1);
  for (double v : r->kernels[0].ns_per_op) EXPECT_DOUBLE_EQ(v, 10.0);
}

TEST(HarnessTest, ThroughputSlowerThanLatencyIsFlagged) {
  std::vector<std::string> log;
  std::vector<Kernel> ks;
  ks.push_back(Synthetic(
      "throughput", [](int) { return 12.0; }, &log));
  ks.push_back(Synthetic(
      "latency", [](int) { return 10.0; }, &log));
  ks[0].latency_of = 1;
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, Options(4));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->kernels[0].noisy);
  EXPECT_THAT(r->kernels[0].noise_reason, HasSubstr("throughput"));
  EXPECT_FALSE(r->kernels[1].noisy);
  // Within the tolerance: fine.
  ks[0] = Synthetic(
      "throughput", [](int) { return 10.5; }, &log);
  ks[0].latency_of = 1;
  r = RunInterleaved(ks, Options(4));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->kernels[0].noisy);
}

// A synthetic sentinel whose time per call follows `ns(call)`.
Kernel SyntheticSentinel(std::function<double(int)> ns) {
  std::vector<std::string>* unused = new std::vector<std::string>();
  Kernel k = Synthetic("sentinel", std::move(ns), unused);
  auto log = std::shared_ptr<std::vector<std::string>>(unused);
  k.run = [run = k.run, log](uint64_t it) {
    Measurement m = run(it);
    log->clear();
    return m;
  };
  return k;
}

// The setting of most sentinel tests: one steady 10 ns kernel "k" (its
// calls logged) and a process reference already at 100 ns.
struct SteadyKernelAndReference {
  SteadyKernelAndReference() { ref.Offer(100); }
  std::vector<std::string> log;
  std::vector<Kernel> ks = {Synthetic(
      "k", [](int) { return 10.0; }, &log)};
  SentinelReference ref;
};

TEST(HarnessTest, AGroupInASlowStateIsMeasuredAgainWhole) {
  std::vector<std::string> log;
  // The kernel reads 30 ns while the sentinel is slow (its first 6 calls:
  // the first attempt's rounds), 10 ns after.
  auto calls = std::make_shared<int>(0);
  std::vector<Kernel> ks = {
      Synthetic(
          "k", [calls](int c) { return c < 6 ? 30.0 : 10.0; }, &log),
      Synthetic(
          "other", [](int) { return 5.0; }, &log)};
  SentinelReference ref;
  ref.Offer(100);
  HarnessOptions o = Options(6);
  o.sentinel = SentinelOptions{.kernel = SyntheticSentinel([](int c) {
                                 // Calls 0-5 are the first attempt's rounds
                                 // (fixed iterations: no calibration call);
                                 // calls 1-5 slow make its median 160.
                                 return c >= 1 && c <= 6 ? 160.0 : 100.0;
                               }),
                               .reference = &ref};
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->slow_retries, 1);
  EXPECT_FALSE(r->slow_state);
  ASSERT_TRUE(r->sentinel_ns.has_value());
  EXPECT_DOUBLE_EQ(*r->sentinel_ns, 100.0);
  EXPECT_DOUBLE_EQ(r->sentinel_reference_ns, 100.0);
  for (double v : r->kernels[0].ns_per_op) EXPECT_DOUBLE_EQ(v, 10.0);
  EXPECT_FALSE(r->kernels[0].noisy);
  // Both kernels ran in both attempts.
  EXPECT_EQ(log.size(), 2u * 6 * 2);
}

TEST(HarnessTest, AGroupThatStaysSlowIsFlaggedNoisy) {
  SteadyKernelAndReference t;
  HarnessOptions o = Options(4);
  o.sentinel = SentinelOptions{
      .kernel = SyntheticSentinel([](int c) { return c < 9 ? 150.0 : 140.0; }),
      .reference = &t.ref,
      .max_slow_retries = 2};
  absl::StatusOr<HarnessResult> r = RunInterleaved(t.ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->slow_retries, 2);
  EXPECT_TRUE(r->slow_state);
  EXPECT_DOUBLE_EQ(*r->sentinel_ns, 140.0);  // the fastest attempt kept
  EXPECT_TRUE(r->kernels[0].noisy);
  EXPECT_THAT(r->kernels[0].noise_reason, HasSubstr("machine slow state"));
  EXPECT_THAT(r->kernels[0].noise_reason, HasSubstr("1.40x"));
  // Before each re-measurement the sentinel probed alone for max_wait_s (10 s
  // of its own measured time, 140-150 us per probe here) and gave up.
  EXPECT_GE(r->slow_wait_s, 20.0);
  EXPECT_LT(r->slow_wait_s, 20.001);
  EXPECT_THAT(r->kernels[0].noise_reason,
              HasSubstr("(20.0 s of waiting for the fast state)"));
  // The reference never rises.
  EXPECT_DOUBLE_EQ(*t.ref.ns(), 100.0);
}

// A slow stretch that outlasts the first attempt by 15 sentinel calls.
HarnessResult RunThroughALongSlowStretch(double max_wait_s) {
  SteadyKernelAndReference t;
  HarnessOptions o = Options(6);
  o.sentinel = SentinelOptions{.kernel = SyntheticSentinel([](int c) {
                                 return c >= 1 && c <= 20 ? 160.0 : 100.0;
                               }),
                               .reference = &t.ref,
                               .max_slow_retries = 2,
                               .max_wait_s = max_wait_s};
  absl::StatusOr<HarnessResult> r = RunInterleaved(t.ks, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : HarnessResult{};
}

TEST(HarnessTest, TheReMeasurementWaitsForTheFastState) {
  // First attempt: sentinel calls 0-5 (median 160). Probes: calls 6-20 slow,
  // 21 and 22 fast; the median of 20-22 is 100, so the wait ends there, and
  // the re-measurement (calls 23-28) is fast.
  const HarnessResult waited = RunThroughALongSlowStretch(10);
  EXPECT_EQ(waited.slow_retries, 1);
  EXPECT_FALSE(waited.slow_state);
  EXPECT_DOUBLE_EQ(waited.sentinel_ns.value_or(0), 100.0);
  EXPECT_NEAR(waited.slow_wait_s, 15 * 160e-6 + 2 * 100e-6, 1e-12);
  ASSERT_EQ(waited.kernels.size(), 1u);
  EXPECT_FALSE(waited.kernels[0].noisy);
  // Without waiting, both re-measurements (calls 6-11 and 12-17) land in the
  // same slow stretch and the group is flagged.
  const HarnessResult at_once = RunThroughALongSlowStretch(0);
  EXPECT_EQ(at_once.slow_retries, 2);
  EXPECT_TRUE(at_once.slow_state);
  EXPECT_DOUBLE_EQ(at_once.slow_wait_s, 0);
  ASSERT_EQ(at_once.kernels.size(), 1u);
  EXPECT_TRUE(at_once.kernels[0].noisy);
}

TEST(HarnessTest, ASpentRetryBudgetFlagsASlowGroupWithoutReMeasuring) {
  SteadyKernelAndReference t;
  t.ref.SetRetryBudget(0);  // nothing left
  EXPECT_FALSE(t.ref.RetryBudgetLeft());
  HarnessOptions o = Options(4);
  o.sentinel =
      SentinelOptions{.kernel = SyntheticSentinel([](int) { return 150.0; }),
                      .reference = &t.ref};
  absl::StatusOr<HarnessResult> r = RunInterleaved(t.ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->slow_retries, 0);
  EXPECT_TRUE(r->retry_budget_spent);
  EXPECT_TRUE(r->slow_state);
  EXPECT_EQ(t.log.size(), 4u);  // the first attempt only
  EXPECT_THAT(r->kernels[0].noise_reason,
              HasSubstr("the run's re-measurement budget (0 s) was spent"));
  // A budget with room: the group is measured again and the time charged.
  t.log.clear();
  t.ref.SetRetryBudget(3600);
  r = RunInterleaved(t.ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->slow_retries, 2);
  EXPECT_FALSE(r->retry_budget_spent);
  EXPECT_GT(t.ref.RetrySpent(), 0);
  EXPECT_TRUE(t.ref.RetryBudgetLeft());
  // No cap: always room.
  t.ref.SetRetryBudget(std::nullopt);
  t.ref.ChargeRetry(1e9);
  EXPECT_TRUE(t.ref.RetryBudgetLeft());
}

TEST(HarnessTest, TheFirstGroupProbesTheSentinelAndLowersTheReference) {
  std::vector<std::string> log;
  std::vector<Kernel> ks = {Synthetic(
      "k", [](int) { return 10.0; }, &log)};
  SentinelReference ref;
  HarnessOptions o = Options(3);
  // 15 probes (calls 0-14, one of them at 90 ns; fixed iterations: no
  // calibration call), then 100 ns rounds: within 1.25x of 90, no
  // re-measurement.
  o.sentinel = SentinelOptions{
      .kernel = SyntheticSentinel([](int c) { return c == 7 ? 90.0 : 100.0; }),
      .reference = &ref};
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_DOUBLE_EQ(r->sentinel_reference_ns, 90.0);
  EXPECT_EQ(r->slow_retries, 0);
  EXPECT_DOUBLE_EQ(*ref.ns(), 90.0);
  ref.Offer(80);
  EXPECT_DOUBLE_EQ(*ref.ns(), 80.0);
  ref.Offer(0);  // ignored
  EXPECT_DOUBLE_EQ(*ref.ns(), 80.0);
}

TEST(HarnessTest, ASlowNoiseRemeasurementIsDiscarded) {
  std::vector<std::string> log;
  // Calls 0-3: first attempt, cv high; calls 4-7: the re-measurement,
  // steady at 50 but taken in a slow state: the first values stay.
  std::vector<Kernel> ks = {Synthetic(
      "k", [](int c) { return c < 4 ? (c % 2 ? 20.0 : 10.0) : 50.0; }, &log)};
  SentinelReference ref;
  ref.Offer(100);
  HarnessOptions o = Options(4);
  o.sentinel = SentinelOptions{
      .kernel = SyntheticSentinel([](int c) { return c <= 4 ? 100.0 : 200.0; }),
      .reference = &ref,
      .max_slow_retries = 0};
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->kernels[0].remeasured, 1);
  EXPECT_TRUE(r->kernels[0].noisy);
  EXPECT_DOUBLE_EQ(r->kernels[0].ns_per_op[0], 10.0);
  EXPECT_DOUBLE_EQ(r->kernels[0].ns_per_op[1], 20.0);
  EXPECT_FALSE(r->slow_state);
}

TEST(HarnessTest, MachineSentinelFoldsItsIterations) {
  const Kernel k = MachineSentinel();
  for (uint64_t it : {0, 1, 7, 1000}) {
    const Measurement m = k.run(it);
    EXPECT_EQ(m.fold, k.expected(it)) << it;
    EXPECT_GE(m.seconds, 0);
  }
  EXPECT_EQ(k.expected(4), 6u);  // 0 + 1 + 2 + 3
}

TEST(HarnessTest, BadSentinelOptionsAreErrors) {
  std::vector<std::string> log;
  std::vector<Kernel> ks = {Synthetic(
      "k", [](int) { return 10.0; }, &log)};
  HarnessOptions o = Options(3);
  o.sentinel = SentinelOptions{.kernel = MachineSentinel()};  // no reference
  EXPECT_EQ(RunInterleaved(ks, o).status().code(),
            absl::StatusCode::kInvalidArgument);
  SentinelReference ref;
  o.sentinel = SentinelOptions{
      .kernel = MachineSentinel(), .reference = &ref, .slow_threshold = 0.5};
  EXPECT_THAT(RunInterleaved(ks, o).status().message(),
              HasSubstr("slow_threshold"));
  o.sentinel = SentinelOptions{
      .kernel = MachineSentinel(), .reference = &ref, .max_wait_s = -1};
  EXPECT_THAT(RunInterleaved(ks, o).status().message(),
              HasSubstr("max_wait_s >= 0, got 1.15, 2 and -1"));
}

TEST(HarnessTest, CalibrationAimsAtMinTime) {
  std::vector<std::string> log;
  std::vector<Kernel> ks = {Synthetic(
      "k", [](int) { return 100.0; }, &log)};
  ks[0].fixed_iterations.reset();
  HarnessOptions o = Options(2);
  o.min_time_s = 0.01;  // 10 ms at 100 ns = 100000 iterations
  absl::StatusOr<HarnessResult> r = RunInterleaved(ks, o);
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(static_cast<double>(r->kernels[0].iterations), 1e5, 1e3);
  ks[0].max_iterations = 7;
  r = RunInterleaved(ks, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kernels[0].iterations, 7u);
}

TEST(HarnessTest, BadOptionsAreErrors) {
  std::vector<std::string> log;
  std::vector<Kernel> ks = {Synthetic(
      "k", [](int) { return 1.0; }, &log)};
  HarnessOptions o = Options(0);
  EXPECT_EQ(RunInterleaved(ks, o).status().code(),
            absl::StatusCode::kInvalidArgument);
  o = Options(2);
  o.min_time_s = 0;
  EXPECT_EQ(RunInterleaved(ks, o).status().code(),
            absl::StatusCode::kInvalidArgument);
  ks[0].partners = {5};
  EXPECT_THAT(RunInterleaved(ks, Options(2)).status().message(),
              HasSubstr("partner"));
}

TEST(HarnessTest, StatisticsHelpers) {
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(Median({4, 1, 2, 3}), 2.5);
  const std::vector<double> v = {9, 10, 11};
  EXPECT_NEAR(CoefficientOfVariation(v), 0.1, 1e-12);
  EXPECT_EQ(CoefficientOfVariation(std::vector<double>{5}), 0);
}

TEST(KernelFoldTest, LoopsFoldExactlyWhatCyclicFoldPredicts) {
  std::vector<uint64_t> keys(1000);
  std::iota(keys.begin(), keys.end(), 1);
  auto op = [](uint64_t k) -> uint64_t { return (k * 7) % 13; };
  auto batch_op = [&op](std::span<const uint64_t> k, std::span<NodeId> o) {
    for (size_t i = 0; i < k.size(); ++i) o[i] = static_cast<NodeId>(op(k[i]));
  };
  std::vector<uint64_t> owners(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) owners[i] = op(keys[i]);
  const std::vector<uint64_t> prefix =
      bench_internal::PrefixSums<uint64_t>(owners);
  for (uint64_t it : {1ull, 999ull, 1000ull, 2501ull}) {
    SCOPED_TRACE(it);
    uint64_t want = 0;
    for (uint64_t i = 0; i < it; ++i) want += owners[i % keys.size()];
    EXPECT_EQ(bench_internal::CyclicFold(prefix, it), want);
    EXPECT_EQ(bench_internal::ThroughputLoop<uint64_t>(
                  op, std::span<const uint64_t>(keys), it)
                  .fold,
              want);
    EXPECT_EQ(bench_internal::LatencyLoop<uint64_t>(
                  op, std::span<const uint64_t>(keys), it)
                  .fold,
              want);
    for (unsigned t : {1u, 2u, 3u}) {
      EXPECT_EQ(bench_internal::MultiThreadLoop<uint64_t>(
                    op, std::span<const uint64_t>(keys), it, t)
                    .fold,
                bench_internal::MultiThreadFold(prefix, it, t));
      // The batched threads fold the same owners, whatever the batch (1,
      // one that does not divide the keys, and one past them).
      for (size_t batch : {size_t{1}, size_t{7}, size_t{1024}}) {
        EXPECT_EQ(bench_internal::BatchMultiThreadLoop<uint64_t>(
                      batch_op, std::span<const uint64_t>(keys), batch, it,
                      t)
                      .fold,
                  bench_internal::MultiThreadFold(prefix, it, t))
            << "batch " << batch << ", " << t << " threads";
      }
    }
  }
}

TEST(ProcTest, StealAndLoadAreReadable) {
  const auto steal = ReadStealJiffies();
  ASSERT_TRUE(steal.has_value());
  EXPECT_LE(steal->first, steal->second);
  EXPECT_GT(steal->second, 0u);
  EXPECT_GE(ReadLoadAvg1m(), 0);
}

}  // namespace
}  // namespace chbench
