// Copyright 2026 The chbench Authors.
//
// A counting allocator: linking alloc_counter.cc replaces the global
// operator new/delete with versions that count live heap bytes per thread.
// It measures the true heap footprint of an algorithm's state (the
// `heap_bytes` metric) and checks every algorithm's self-reported
// MemoryBytes() (algorithms/memory_alloc_test.cc).
//
// Counts are per thread, so cells measured concurrently on other threads do
// not disturb each other; memory allocated on one thread and freed on another
// is attributed to the allocating thread on allocation and to the freeing
// thread on release (avoid that across a measurement).
//
// Example:
//   const int64_t before = ThreadHeapBytes();
//   auto ring = MakeRing(params).value();
//   ring->Build(nodes);
//   const int64_t bytes = ThreadHeapBytes() - before;

#ifndef CHBENCH_ALGORITHMS_UTIL_ALLOC_COUNTER_H_
#define CHBENCH_ALGORITHMS_UTIL_ALLOC_COUNTER_H_

#include <cstdint>

namespace chbench {

// Live heap bytes allocated minus freed by this thread through operator new
// (requested sizes, not allocator overhead).
int64_t ThreadHeapBytes();

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_UTIL_ALLOC_COUNTER_H_
