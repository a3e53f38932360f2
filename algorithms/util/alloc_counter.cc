// Copyright 2026 The chbench Authors.
//
// Replacement global operator new/delete that count live bytes per thread.
// The size of each block is stored in a 16-byte header in front of it, so that
// unsized delete can subtract it; alignment of the returned pointer stays 16.

#include "algorithms/util/alloc_counter.h"

#include <cstdlib>
#include <new>

namespace chbench {
namespace {

thread_local int64_t tls_live_bytes = 0;
constexpr size_t kHeader = 16;  // keeps max_align_t alignment

void* CountedAlloc(size_t size) {
  void* raw = std::malloc(size + kHeader);
  if (raw == nullptr) throw std::bad_alloc();
  *static_cast<size_t*>(raw) = size;
  tls_live_bytes += static_cast<int64_t>(size);
  return static_cast<char*>(raw) + kHeader;
}

void CountedFree(void* p) noexcept {
  if (p == nullptr) return;
  void* raw = static_cast<char*>(p) - kHeader;
  tls_live_bytes -= static_cast<int64_t>(*static_cast<size_t*>(raw));
  std::free(raw);
}

void* CountedAlignedAlloc(size_t size, std::align_val_t al) {
  const size_t align = static_cast<size_t>(al);
  const size_t header = align > kHeader ? align : kHeader;
  void* raw = std::aligned_alloc(align, ((size + header + align - 1) / align) * align);
  if (raw == nullptr) throw std::bad_alloc();
  char* user = static_cast<char*>(raw) + header;
  reinterpret_cast<size_t*>(user)[-1] = size;
  reinterpret_cast<size_t*>(user)[-2] = header;
  tls_live_bytes += static_cast<int64_t>(size);
  return user;
}

void CountedAlignedFree(void* p) noexcept {
  if (p == nullptr) return;
  char* user = static_cast<char*>(p);
  tls_live_bytes -= static_cast<int64_t>(reinterpret_cast<size_t*>(user)[-1]);
  std::free(user - reinterpret_cast<size_t*>(user)[-2]);
}

}  // namespace

int64_t ThreadHeapBytes() { return tls_live_bytes; }

}  // namespace chbench

void* operator new(size_t size) { return chbench::CountedAlloc(size); }
void* operator new[](size_t size) { return chbench::CountedAlloc(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return chbench::CountedAlloc(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  try {
    return chbench::CountedAlloc(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { chbench::CountedFree(p); }
void operator delete[](void* p) noexcept { chbench::CountedFree(p); }
void operator delete(void* p, size_t) noexcept { chbench::CountedFree(p); }
void operator delete[](void* p, size_t) noexcept { chbench::CountedFree(p); }
void* operator new(size_t size, std::align_val_t al) {
  return chbench::CountedAlignedAlloc(size, al);
}
void* operator new[](size_t size, std::align_val_t al) {
  return chbench::CountedAlignedAlloc(size, al);
}
void operator delete(void* p, std::align_val_t) noexcept {
  chbench::CountedAlignedFree(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  chbench::CountedAlignedFree(p);
}
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  chbench::CountedAlignedFree(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  chbench::CountedAlignedFree(p);
}
