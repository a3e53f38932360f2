// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/harness.h
// -----------------------------------------------------------------------------
//
// The measurement harness behind every timing number chbench reports: a set
// of kernels that are compared with each other (a "timing group": the
// algorithms and reference peers at one N, key set, hash and scenario) is
// measured in interleaved rounds, and every measurement is checked.
//
// Definition. Given kernels K_1 .. K_k and R rounds:
//   1. Calibration: each kernel gets an iteration count I_j so that one
//      measurement takes about `min_time_s` (doubling probes, untimed use).
//   2. Round r = 0 .. R-1 runs every kernel once, with I_j iterations, in an
//      order shuffled by Sfc64(seed + r): drift and a neighbour's load hit all
//      kernels of the group alike, and a kernel never always runs first.
//      A kernel's value in a round is the median of `slices` back-to-back
//      measurements of I_j / slices iterations each: a disturbance shorter
//      than a slice does not move the round.
//   3. Each measurement returns (seconds, fold). The fold is a combination of
//      every result the kernel computed (owners summed, digests summed), and
//      must equal the kernel's `expected(I_j)`, computed outside the timed
//      region: a kernel whose loop was optimized away, skipped a load, or
//      computed something else fails the run with an internal error.
//   4. Noise gate: a kernel is suspect when the coefficient of variation of
//      its R values exceeds `cv_threshold`, or when it is the throughput side
//      of a (throughput, latency) pair whose median exceeds the latency
//      median by more than `pair_tolerance` (independent lookups cannot be
//      slower than dependent ones). Suspect kernels, together with the
//      kernels they are compared with (`partners`), are measured again (R
//      new rounds, interleaved among themselves) up to `max_remeasure`
//      times; what stays suspect is returned with `noisy` set and the reason.
//   5. Machine-state sentinel (optional, `HarnessOptions::sentinel`; every
//      chbench timing group has one). The VMs chbench runs on pass through
//      slow states lasting from a fraction of a second to half a minute (on
//      the AMD EPYC VM, 22 % of 7.5 minutes), in which allocation, stores
//      and L3 accesses take 1.4-1.6x as long while register arithmetic and
//      L2 hits do not move: a whole group measured in one reads 1.2-1.7x
//      slow although its rounds agree (no CV flag). A fixed workload
//      (MachineSentinel(): malloc, zero-fill and free of 8 KiB) runs as one
//      more kernel in every round, at a shuffled position; over 1,500
//      samples its log time correlated 0.92-0.94 with ring and jump Builds
//      and jump's AddNode. After the rounds, the group's sentinel median is
//      compared with a reference kept across the process's groups (the
//      fastest sentinel median seen, starting from the fastest of 15
//      probes): a group above `slow_threshold` times it is measured again
//      whole (all kernels, new rounds), up to `max_slow_retries` times and
//      while the reference's retry budget lasts (SetRetryBudget), each time
//      after probing the sentinel alone until it reads fast again (at most
//      `max_wait_s` of probes), and
//      the attempt with the fastest sentinel is kept, before the noise gate
//      (4.) looks at it; if even that attempt is slow, every kernel is
//      flagged noisy ("machine slow state"). A noise re-measurement whose
//      sentinel is slow is discarded (the earlier values stay). The kept
//      sentinel median is returned, so that every cell records the machine
//      state it was measured in. The measurements behind these rules, and
//      the sentinel's false alarms and blind spots: bench/METHOD.md.
//
// Clocks: a kernel measures itself (so mutating kernels can exclude their
// setup). Lookup loops use the thread's CPU clock around a whole slice
// (CLOCK_THREAD_CPUTIME_ID: time the thread is descheduled is not counted;
// one read costs ~1 us in a VM, negligible against a slice of milliseconds);
// mutating kernels (build, add, remove) use the steady clock around each
// operation (~25 ns per read); multi-thread kernels use the steady wall
// clock between a start barrier and the last thread's end.
//
// The group's load average (1 min, /proc/loadavg, at the end) and the CPU
// steal fraction over the whole measurement (/proc/stat: steal jiffies over
// all jiffies) are returned with the results.
//
// Complexity: about (k calibrations + R * k) * min_time_s, times up to
// (1 + max_remeasure) for noisy kernels and up to (1 + max_slow_retries)
// for a group measured in a slow state, plus up to max_slow_retries *
// max_wait_s of waiting; the sentinel adds one kernel.
//
// Example:
//   std::vector<Kernel> ks = ...;  // see bench/kernels.h
//   absl::StatusOr<HarnessResult> r =
//       RunInterleaved(ks, {.rounds = 10, .min_time_s = 0.02, .seed = 1});
//   r->kernels[0].ns_per_op  // 10 values, one per round

#ifndef CHBENCH_BENCH_HARNESS_H_
#define CHBENCH_BENCH_HARNESS_H_

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace chbench {

// What one measurement returns: the time the kernel measured for its
// iterations, and the fold of its results.
struct Measurement {
  double seconds = 0;
  uint64_t fold = 0;
};

struct Kernel {
  std::string label;  // for error messages, e.g. "ring/lookup_ns"
  // Runs `iterations` operations; returns their measured time and fold.
  std::function<Measurement(uint64_t iterations)> run;
  // The fold `run(iterations)` must return (computed untimed).
  std::function<uint64_t(uint64_t iterations)> expected;
  // Operations per iteration (e.g. T threads x 1 lookup): ns_per_op is
  // seconds / (iterations * ops_per_iteration).
  double ops_per_iteration = 1;
  // Fixed iteration count (skip calibration), e.g. for expensive builds.
  std::optional<uint64_t> fixed_iterations = std::nullopt;
  // Upper bound on iterations from calibration (e.g. when each iteration
  // needs an untimed rebuild that the measured time does not show).
  uint64_t max_iterations = uint64_t{1} << 40;
  // Indices of kernels compared with this one: re-measured with it.
  std::vector<size_t> partners = {};
  // Index of the latency kernel this throughput kernel must not exceed.
  std::optional<size_t> latency_of = std::nullopt;
};

// The process-wide reference of the machine-state sentinel: the fastest
// group median seen, and the wall time whole-group re-measurements (with
// their waits) may still take in this process (thread-safe).
class SentinelReference {
 public:
  std::optional<double> ns() const;
  // Lowers the reference to `median_ns` if that is faster (ignores <= 0).
  void Offer(double median_ns);
  // Caps the seconds all slow-state re-measurements of the process may take
  // together (nullopt: no cap). A tier with a time budget sets one
  // (experiments/runner.cc), so that an hour of slow states cannot stretch
  // it; a group found slow once the cap is spent is flagged at once.
  void SetRetryBudget(std::optional<double> seconds);
  // Whether a re-measurement may start: no cap, or some of it left.
  bool RetryBudgetLeft() const;
  // Charges one re-measurement's wall time (its wait included).
  void ChargeRetry(double seconds);
  // Seconds charged so far.
  double RetrySpent() const;
  std::optional<double> RetryBudget() const;

 private:
  mutable std::mutex mu_;
  std::optional<double> ns_;
  std::optional<double> retry_budget_s_;
  double retry_spent_s_ = 0;
};

struct SentinelOptions {
  Kernel kernel;                           // e.g. MachineSentinel()
  SentinelReference* reference = nullptr;  // required; outlives the call
  // 27 of the 28 groups of a default-tier lookup, build, hashes and
  // overprovision run (2026-12-04, AMD VM) had medians within 0.98-1.09 of
  // the reference, and one 1.25.
  double slow_threshold = 1.15;
  int max_slow_retries = 2;
  // Before each whole-group re-measurement the sentinel runs alone, one
  // measurement after another, until the median of its last three is within
  // slow_threshold of the reference or the probes have taken this long (their
  // own measured time, in seconds): the slow states last 0.3-30 s, so a
  // re-measurement started at once often lands in the same one.
  double max_wait_s = 10;
};

struct HarnessOptions {
  uint32_t rounds = 10;
  double min_time_s = 0.02;
  uint64_t seed = 0;
  double cv_threshold = 0.05;
  double pair_tolerance = 0.10;
  // Once: in the reference runs most cells still suspect after one new
  // measurement were DRAM-bound cells that stayed suspect after a second,
  // which cost the default tier about a fifth of its timing budget.
  int max_remeasure = 1;
  // Each round's value is the median of this many back-to-back slices of
  // the measurement (1 = one measurement per round).
  uint32_t slices = 3;
  // The machine-state sentinel (file comment, 5.); none when unset.
  std::optional<SentinelOptions> sentinel = std::nullopt;
};

struct KernelResult {
  std::vector<double> ns_per_op;  // one per round (the last attempt's)
  uint64_t iterations = 0;        // per measurement
  int remeasured = 0;             // extra attempts made
  bool noisy = false;
  std::string noise_reason;       // e.g. "cv 7.3 % > 5 %"
};

struct HarnessResult {
  std::vector<KernelResult> kernels;  // same order as the input
  double load_avg_1m = 0;
  std::optional<double> steal_fraction;  // nullopt where /proc/stat is absent
  // With a sentinel: its median over the kept rounds (ns per operation), the
  // reference it was compared with, the whole-group re-measurements made,
  // whether the kept attempt was still in a slow state, and whether a
  // re-measurement was skipped because the process's budget was spent.
  std::optional<double> sentinel_ns;
  double sentinel_reference_ns = 0;
  int slow_retries = 0;
  bool slow_state = false;
  // Seconds the sentinel probed alone, waiting for the fast state, before
  // the re-measurements.
  double slow_wait_s = 0;
  bool retry_budget_spent = false;
};

// Measures `kernels` as described in the file comment. Errors: rounds == 0,
// min_time_s <= 0, a kernel without run/expected, a fold mismatch (Internal,
// naming the kernel, the expected and the returned fold).
absl::StatusOr<HarnessResult> RunInterleaved(std::span<Kernel> kernels,
                                             const HarnessOptions& options);

// The sentinel workload: per iteration, malloc of 8-8.5 KiB, zero-fill, one
// store and two loads, free (the fold is the sum of the iteration indices).
// Thread CPU time.
Kernel MachineSentinel();
// The reference shared by every timing group of this process.
SentinelReference& ProcessSentinelReference();

// Thread CPU time in seconds (CLOCK_THREAD_CPUTIME_ID).
double ThreadCpuSeconds();
// Summed jiffies of /proc/stat's "cpu" line: {steal, total}; nullopt if
// unreadable.
std::optional<std::pair<uint64_t, uint64_t>> ReadStealJiffies();
// /proc/loadavg's first field (0 if unreadable).
double ReadLoadAvg1m();

// Median and coefficient of variation (sample sd / mean) of `v`; used by the
// noise gate, exposed for tests.
double Median(std::vector<double> v);
double CoefficientOfVariation(std::span<const double> v);

}  // namespace chbench

#endif  // CHBENCH_BENCH_HARNESS_H_
