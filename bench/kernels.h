// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/kernels.h
// -----------------------------------------------------------------------------
//
// The timed loops. Each is templated on a callable that the compiler inlines
// (a lambda around a concrete final type's Lookup/HashKey, or a peer's), so a
// loop has no virtual call, allocation, lock or bounds check.
//
// Every loop folds every result into an accumulator (a wrapping sum of the
// owners or digests) that leaves the loop through benchmark::DoNotOptimize
// once, after the loop, and is returned. The harness (bench/harness.h)
// compares it with the fold of the same operations computed untimed
// (CyclicFold), so a loop whose lookups were skipped or changed fails its run.
// (Passing each owner to DoNotOptimize is not enough: with GCC the "+m,r"
// constraint lets the compiler name the table element itself as the memory
// operand, and the final table load is never executed.)
//
// Throughput vs latency (after xxHash's tests/bench/benchHash.c): the
// throughput loops visit keys[0], keys[1], ... independently, so an
// out-of-order CPU overlaps consecutive lookups. The latency loops make the
// next index depend on the previous owner, i = i + 1 + (owner & z), with z a
// zero the compiler cannot see through: the keys visited are the same (so is
// the fold), but each lookup waits for the previous one.
//
// Iteration i of every loop uses key (offset + i) mod n.

#ifndef CHBENCH_BENCH_KERNELS_H_
#define CHBENCH_BENCH_KERNELS_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/attributes.h"
#include "algorithms/consistent_hash.h"
#include "bench/harness.h"
#include "benchmark/benchmark.h"

namespace chbench {
namespace bench_internal {

// F(x) = sum of values[(j) mod n] for j < x, wrapping mod 2^64, from the
// prefix sums `prefix` (size n + 1): what a loop of x iterations from offset
// 0 folds. The fold from offset o over x iterations is F(o + x) - F(o).
inline uint64_t CyclicFold(std::span<const uint64_t> prefix, uint64_t x) {
  const uint64_t n = prefix.size() - 1;
  return (x / n) * prefix[n] + prefix[x % n];
}

// Prefix sums of `values` (size n + 1, wrapping).
template <typename T>
std::vector<uint64_t> PrefixSums(std::span<const T> values) {
  std::vector<uint64_t> prefix(values.size() + 1, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    prefix[i + 1] = prefix[i] + static_cast<uint64_t>(values[i]);
  }
  return prefix;
}

// Independent operations: fold += op(keys[i]).
template <typename Key, typename Op>
Measurement ThroughputLoop(const Op& op, std::span<const Key> keys,
                           uint64_t iterations, size_t offset = 0) {
  const Key* const k = keys.data();
  const size_t n = keys.size();
  size_t i = offset % n;
  uint64_t fold = 0;
  const double t0 = ThreadCpuSeconds();
  for (uint64_t it = 0; it < iterations; ++it) {
    fold += op(k[i]);
    if (++i == n) i = 0;
  }
  const double t1 = ThreadCpuSeconds();
  benchmark::DoNotOptimize(fold);
  return {t1 - t0, fold};
}

// The keys hash_ns times in a string lookup cell: the first this many of the
// cell's keys (all when it has fewer). About 4 MB of key strings with their
// string objects: they stay in the last-level cache, so hash_ns times the
// hash and not the DRAM bandwidth that streaming 2^20 keys (about 64 MB)
// shares with the rest of the machine.
inline constexpr size_t kHashTimedKeys = 65536;

// The largest batch BatchThroughputLoop takes (its owner buffer is on the
// stack).
inline constexpr size_t kMaxTimedBatch = 1024;

// The batched loop of BatchThroughputLoop and BatchMultiThreadLoop:
// op(keys[i, i + b), out) over `iterations` keys from index `start`
// (wrapping), b = `batch` less where the key array wraps or the iterations
// end; returns the sum of every owner written. Untimed.
template <typename Key, typename BatchOp>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t BatchFold(
    const BatchOp& op, std::span<const Key> keys, size_t batch,
    uint64_t iterations, size_t start) {
  NodeId out[kMaxTimedBatch];
  const Key* const k = keys.data();
  const size_t n = keys.size();
  size_t i = start;
  uint64_t fold = 0;
  uint64_t left = iterations;
  while (left > 0) {
    const size_t m = static_cast<size_t>(
        std::min<uint64_t>(std::min<uint64_t>(batch, n - i), left));
    op(std::span<const Key>(k + i, m), std::span<NodeId>(out, m));
    for (size_t j = 0; j < m; ++j) fold += out[j];
    left -= m;
    i += m;
    if (i == n) i = 0;
  }
  return fold;
}

// Batched independent operations: op(keys[i, i + b), out) writes the owners
// of b consecutive keys (b = `batch`, less where the key array wraps or the
// iterations end), fold += every owner. `iterations` counts keys, so the fold
// is ThroughputLoop's from offset 0 and the time per iteration is per key.
// Precondition: 1 <= batch <= kMaxTimedBatch.
template <typename Key, typename BatchOp>
Measurement BatchThroughputLoop(const BatchOp& op, std::span<const Key> keys,
                                size_t batch, uint64_t iterations) {
  const double t0 = ThreadCpuSeconds();
  const uint64_t fold = BatchFold<Key>(op, keys, batch, iterations, 0);
  const double t1 = ThreadCpuSeconds();
  benchmark::DoNotOptimize(fold);
  return {t1 - t0, fold};
}

// Dependent chain: the next index waits for the previous owner.
template <typename Key, typename Op>
Measurement LatencyLoop(const Op& op, std::span<const Key> keys,
                        uint64_t iterations) {
  const Key* const k = keys.data();
  const size_t n = keys.size();
  // A zero the compiler cannot see through: read from a volatile.
  volatile size_t opaque_zero = 0;
  const size_t zero = opaque_zero;
  size_t i = 0;
  uint64_t fold = 0;
  const double t0 = ThreadCpuSeconds();
  for (uint64_t it = 0; it < iterations; ++it) {
    const uint64_t owner = op(k[i]);
    fold += owner;
    i += 1 + (owner & zero);
    if (i >= n) i = 0;
  }
  const double t1 = ThreadCpuSeconds();
  benchmark::DoNotOptimize(fold);
  return {t1 - t0, fold};
}

// T threads run body(t) -> fold at once. The time is the wall time from the
// earliest thread's start to the latest thread's end, each read by the
// thread itself after a start barrier (so the time the launching thread
// needs to be scheduled again is not counted); fold = sum of the threads'
// folds.
template <typename Body>
Measurement TimedThreads(unsigned threads, const Body& body) {
  using Clock = std::chrono::steady_clock;
  std::vector<uint64_t> folds(threads, 0);
  std::vector<Clock::time_point> starts(threads), ends(threads);
  std::atomic<unsigned> ready{0};
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      // Barrier: every thread exists before any starts; yield while waiting
      // so that a waiting thread never holds a core another one needs.
      ready.fetch_add(1);
      while (ready.load(std::memory_order_acquire) < threads) {
        std::this_thread::yield();
      }
      starts[t] = Clock::now();
      const uint64_t fold = body(t);
      ends[t] = Clock::now();
      folds[t] = fold;
    });
  }
  for (std::thread& th : pool) th.join();
  const Clock::time_point t0 = *std::min_element(starts.begin(), starts.end());
  const Clock::time_point t1 = *std::max_element(ends.begin(), ends.end());
  uint64_t fold = 0;
  for (uint64_t f : folds) fold += f;
  return {std::chrono::duration<double>(t1 - t0).count(), fold};
}

// T threads share `op` (read-only), each runs `iterations` independent
// operations from offset t * n / T (TimedThreads: wall time, summed folds).
template <typename Key, typename Op>
Measurement MultiThreadLoop(const Op& op, std::span<const Key> keys,
                            uint64_t iterations, unsigned threads) {
  return TimedThreads(threads, [&](unsigned t) {
    const Key* const k = keys.data();
    const size_t n = keys.size();
    size_t i = (t * (n / threads)) % n;
    uint64_t fold = 0;
    for (uint64_t it = 0; it < iterations; ++it) {
      fold += op(k[i]);
      if (++i == n) i = 0;
    }
    benchmark::DoNotOptimize(fold);
    return fold;
  });
}

// MultiThreadLoop's batched form: each of T threads runs `iterations` keys
// from offset t * n / T through `op`, B = `batch` keys per call
// (BatchThroughputLoop's loop: op(keys[i, i + b), out), then fold += every
// owner), so the fold is MultiThreadLoop's and MultiThreadFold gives it.
// Precondition: 1 <= batch <= kMaxTimedBatch.
template <typename Key, typename BatchOp>
Measurement BatchMultiThreadLoop(const BatchOp& op, std::span<const Key> keys,
                                 size_t batch, uint64_t iterations,
                                 unsigned threads) {
  return TimedThreads(threads, [&](unsigned t) {
    const uint64_t fold =
        BatchFold<Key>(op, keys, batch, iterations,
                       (t * (keys.size() / threads)) % keys.size());
    benchmark::DoNotOptimize(fold);
    return fold;
  });
}

// The fold MultiThreadLoop (and BatchMultiThreadLoop) returns, from prefix
// sums of op over the keys.
inline uint64_t MultiThreadFold(std::span<const uint64_t> prefix,
                                uint64_t iterations, unsigned threads) {
  const uint64_t n = prefix.size() - 1;
  uint64_t fold = 0;
  for (unsigned t = 0; t < threads; ++t) {
    const uint64_t o = (t * (n / threads)) % n;
    fold += CyclicFold(prefix, o + iterations) - CyclicFold(prefix, o);
  }
  return fold;
}

}  // namespace bench_internal
}  // namespace chbench

#endif  // CHBENCH_BENCH_KERNELS_H_
