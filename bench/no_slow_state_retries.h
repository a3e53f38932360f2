// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/no_slow_state_retries.h
// -----------------------------------------------------------------------------
//
// For test binaries that run timing groups through the process-wide sentinel
// reference (bench/harness.h): sets its slow-state retry budget to zero
// before any test, so that no group waits for the machine's fast state or is
// measured again whole. Tests check what the timing code computes, never its
// speed; on a loaded machine (ctest runs two tests at once) the waits, up to
// max_slow_retries * max_wait_s per group, stretched one test binary from
// seconds to minutes. A group found slow is flagged noisy at once instead.
// The harness's own tests use references of their own.
//
// Include it in exactly one file of the test binary.

#ifndef CHBENCH_BENCH_NO_SLOW_STATE_RETRIES_H_
#define CHBENCH_BENCH_NO_SLOW_STATE_RETRIES_H_

#include "bench/harness.h"
#include "gtest/gtest.h"

namespace chbench {

class NoSlowStateRetries : public ::testing::Environment {
 public:
  void SetUp() override { ProcessSentinelReference().SetRetryBudget(0); }
};

inline ::testing::Environment* const kNoSlowStateRetries =
    ::testing::AddGlobalTestEnvironment(new NoSlowStateRetries);

}  // namespace chbench

#endif  // CHBENCH_BENCH_NO_SLOW_STATE_RETRIES_H_
