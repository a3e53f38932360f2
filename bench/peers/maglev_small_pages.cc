// Copyright 2026 The chbench Authors.

#include "bench/peers/maglev_small_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace chbench {
namespace peers {

absl::StatusOr<MappingPages> MappingPagesOf(const void* p) {
  std::ifstream in("/proc/self/smaps");
  if (!in) return absl::UnavailableError("/proc/self/smaps unreadable");
  const auto addr = reinterpret_cast<uintptr_t>(p);
  bool inside = false;
  MappingPages out;
  std::string line;
  while (std::getline(in, line)) {
    // A mapping's header: "start-end perms offset dev inode [path]", with
    // start and end in hex; its fields follow as "Name: value kB".
    const size_t dash = line.find('-');
    const size_t space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos &&
        dash < space && line.find(':') > space) {
      if (inside) break;
      uint64_t start = 0, end = 0;
      if (absl::SimpleHexAtoi(absl::string_view(line).substr(0, dash),
                              &start) &&
          absl::SimpleHexAtoi(
              absl::string_view(line).substr(dash + 1, space - dash - 1),
              &end) &&
          start <= addr && addr < end) {
        inside = true;
        out.bytes = end - start;
      }
      continue;
    }
    if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      const std::vector<absl::string_view> f =
          absl::StrSplit(line, ' ', absl::SkipEmpty());
      uint64_t kb = 0;
      if (f.size() >= 2 && absl::SimpleAtoi(f[1], &kb)) {
        out.huge_bytes = kb * 1024;
      }
    }
  }
  if (!inside) {
    return absl::NotFoundError(
        absl::StrCat("no mapping holds address ", addr));
  }
  return out;
}

SmallPageBuffer::SmallPageBuffer(size_t bytes) {
  if (bytes == 0) return;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
#if defined(MADV_NOHUGEPAGE)
  madvise(p, bytes, MADV_NOHUGEPAGE);
#endif
  mem_ = std::shared_ptr<void>(p, [bytes](void* q) { munmap(q, bytes); });
}

}  // namespace peers
}  // namespace chbench
