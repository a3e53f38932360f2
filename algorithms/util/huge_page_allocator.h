// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: algorithms/util/huge_page_allocator.h
// -----------------------------------------------------------------------------
//
// HugePageAllocator<T>: std::allocator, except that blocks of 2 MiB or more are 2 MiB-aligned and
// marked MADV_HUGEPAGE (Linux transparent huge pages; a no-op where THP is
// off): bounded_load's placed-key map takes one DRAM access per insert or probe at
// random, as does ring's Lookup into its bucket lines; with 4 KiB pages
// each such access also misses the TLB, and each fresh page of a grown table
// costs a page fault.
//
// Used by ring's bucket lines, bounded_load's placed-key map, and the ring
// peers (bench/peers/ring_search.h), so that a timed comparison is between
// layouts, not page sizes.

#ifndef CHBENCH_ALGORITHMS_UTIL_HUGE_PAGE_ALLOCATOR_H_
#define CHBENCH_ALGORITHMS_UTIL_HUGE_PAGE_ALLOCATOR_H_

#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>

namespace chbench {

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHuge = size_t{2} << 20;
  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHuge) return std::allocator<T>().allocate(n);
    void* p = ::operator new(bytes, std::align_val_t(kHuge));
#if defined(MADV_HUGEPAGE)
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHuge) return std::allocator<T>().deallocate(p, n);
    ::operator delete(p, std::align_val_t(kHuge));
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_UTIL_HUGE_PAGE_ALLOCATOR_H_
