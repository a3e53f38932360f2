// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/kernels.h
// -----------------------------------------------------------------------------
//
// The timed loops, templated on a concrete final algorithm type A (Ring<H>,
// Jump<H>, ...) so that A::Lookup and A::HashKey are called without virtual
// dispatch and inline. Shared by bench/timing.cc (the runner's timing cells)
// and bench/bench_main.cc (the interactive binary).
//
// One benchmark iteration = one lookup (or one hash). The loops contain no
// allocation, lock or bounds-checked access; every result goes through
// benchmark::DoNotOptimize.
//
// Throughput vs latency (after xxHash's tests/bench/benchHash.c): the
// throughput loops visit keys[0], keys[1], ... independently, so an
// out-of-order CPU overlaps consecutive lookups. The latency loops make the
// next index depend on the previous owner, i = i + 1 + (owner & z), with z a
// zero the compiler cannot see through (it passed through DoNotOptimize): the
// keys visited are the same, but each lookup waits for the previous one.

#ifndef CHBENCH_BENCH_KERNELS_H_
#define CHBENCH_BENCH_KERNELS_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "algorithms/consistent_hash.h"
#include "benchmark/benchmark.h"

namespace chbench {
namespace bench_internal {

template <typename A>
void LookupThroughput(benchmark::State& state, const A& algo,
                      std::span<const uint64_t> keys) {
  const uint64_t* const k = keys.data();
  const size_t n = keys.size();
  size_t i = 0;
  for (auto _ : state) {
    NodeId owner = algo.Lookup(k[i]);
    benchmark::DoNotOptimize(owner);
    if (++i == n) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

template <typename A>
void LookupLatency(benchmark::State& state, const A& algo,
                   std::span<const uint64_t> keys) {
  const uint64_t* const k = keys.data();
  const size_t n = keys.size();
  size_t zero = 0;
  benchmark::DoNotOptimize(zero);
  size_t i = 0;
  for (auto _ : state) {
    NodeId owner = algo.Lookup(k[i]);
    benchmark::DoNotOptimize(owner);
    i += 1 + (owner & zero);
    if (i >= n) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

template <typename A>
void StringLookupThroughput(benchmark::State& state, const A& algo,
                            std::span<const std::string> keys) {
  const std::string* const k = keys.data();
  const size_t n = keys.size();
  size_t i = 0;
  for (auto _ : state) {
    NodeId owner = algo.Lookup(algo.HashKey(k[i]));
    benchmark::DoNotOptimize(owner);
    if (++i == n) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

template <typename A>
void StringLookupLatency(benchmark::State& state, const A& algo,
                         std::span<const std::string> keys) {
  const std::string* const k = keys.data();
  const size_t n = keys.size();
  size_t zero = 0;
  benchmark::DoNotOptimize(zero);
  size_t i = 0;
  for (auto _ : state) {
    NodeId owner = algo.Lookup(algo.HashKey(k[i]));
    benchmark::DoNotOptimize(owner);
    i += 1 + (owner & zero);
    if (i >= n) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// The string loop without the lookup: the cost of hashing the key alone.
template <typename A>
void HashOnly(benchmark::State& state, const A& algo,
              std::span<const std::string> keys) {
  const std::string* const k = keys.data();
  const size_t n = keys.size();
  size_t i = 0;
  for (auto _ : state) {
    uint64_t h = algo.HashKey(k[i]);
    benchmark::DoNotOptimize(h);
    if (++i == n) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// Manual-time loop for operations that mutate the instance: per iteration,
// `setup()` returns a fresh std::unique_ptr<A> (untimed), `op(A&)` is timed
// with a steady clock and returns absl::Status; the instance is destroyed
// outside the timed region. Reports the first error through SkipWithError.
// Register with ->UseManualTime().
template <typename A, typename Setup, typename Op>
void MutatingOp(benchmark::State& state, Setup& setup, Op& op) {
  using Clock = std::chrono::steady_clock;
  for (auto _ : state) {
    std::unique_ptr<A> algo = setup();
    if (algo == nullptr) {
      state.SkipWithError("setup failed");
      break;
    }
    const Clock::time_point t0 = Clock::now();
    absl::Status status = op(*algo);
    const Clock::time_point t1 = Clock::now();
    benchmark::DoNotOptimize(status);
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      break;
    }
  }
}

}  // namespace bench_internal
}  // namespace chbench

#endif  // CHBENCH_BENCH_KERNELS_H_
