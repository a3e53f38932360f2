// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/maglev_small_pages.h
// -----------------------------------------------------------------------------
//
// `MaglevSmallPages<H>`: the timed peer that measures what the huge pages of
// `Maglev<H>`'s table buy (algorithms/maglev/maglev.h). Maglev allocates its
// table with HugePageAllocator: from 2 MiB on, 2 MiB-aligned and marked
// MADV_HUGEPAGE, so that a lookup at random into a DRAM-sized table needs
// one TLB entry per 2 MiB instead of one per 4 KiB. This peer copies the
// built table, in the same entry width (16- or 32-bit), into memory mapped
// for it and marked MADV_NOHUGEPAGE before it is touched (4 KiB pages), and
// looks keys up with Maglev's own reduction (the same divisor and method):
// the same instructions over the same bytes in other pages. Its ratio,
// lookup_ns_ratio_to_maglev_small_pages, is Maglev's time over this one's:
// below 1 where huge pages pay. Same owner as Maglev<H>::Lookup for every
// key.
//
// The pages each table actually got are read back, not assumed: the
// kernel may refuse huge pages (THP "never", no free 2 MiB frame), and
// Linux merges adjacent mappings with equal flags, so PlacementNote() gives
// the AnonHugePages of the mapping that holds each table (/proc/self/smaps),
// written in the peer's row note.
//
// Applies to tables of 2 MiB or more (HugePageAllocator's threshold); below
// it both tables sit in 4 KiB pages.
//
// Example:
//   Maglev<Xxh64> maglev(AlgorithmParams{.table_size = 5000011});
//   maglev.Build(nodes).IgnoreError();
//   MaglevSmallPages<Xxh64> peer(maglev);
//   NodeId owner = peer.Lookup(key_hash);  // == maglev.Lookup(key_hash)
//   std::string where = peer.PlacementNote();

#ifndef CHBENCH_BENCH_PEERS_MAGLEV_SMALL_PAGES_H_
#define CHBENCH_BENCH_PEERS_MAGLEV_SMALL_PAGES_H_

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/util/huge_page_allocator.h"

namespace chbench {
namespace peers {

// The AnonHugePages (bytes) and size (bytes) of the mapping of this process
// that contains `p`, from /proc/self/smaps. NotFound when no mapping holds
// it, Unavailable when the file cannot be read (not Linux).
struct MappingPages {
  size_t bytes = 0;
  size_t huge_bytes = 0;
};
absl::StatusOr<MappingPages> MappingPagesOf(const void* p);

// `bytes` of anonymous memory in 4 KiB pages: mapped, marked
// MADV_NOHUGEPAGE before the first touch, unmapped when the last copy of the
// handle goes. data() is null when the mapping failed.
class SmallPageBuffer {
 public:
  SmallPageBuffer() = default;
  explicit SmallPageBuffer(size_t bytes);
  void* data() const { return mem_.get(); }

 private:
  std::shared_ptr<void> mem_;
};

template <typename H>
class MaglevSmallPages {
 public:
  // Precondition: `maglev` has at least one live node.
  explicit MaglevSmallPages(const Maglev<H>& maglev)
      : mod_(maglev.reduction()),
        m_(maglev.table_size()),
        entry_bytes_(maglev.entry_bytes()),
        buffer_(m_ * entry_bytes_),
        source_(maglev.entry_bytes() == 2
                    ? static_cast<const void*>(maglev.NarrowEntries().data())
                    : static_cast<const void*>(maglev.WideTable().data())) {
    if (buffer_.data() == nullptr) {
      // No mapping: fall back to the heap (the note says which pages).
      fallback_ = std::make_shared<std::vector<uint32_t>>(
          (m_ * entry_bytes_ + 3) / 4);
    }
    void* dst = buffer_.data() != nullptr ? buffer_.data() : fallback_->data();
    std::memcpy(dst, source_, m_ * entry_bytes_);
    narrow_ = entry_bytes_ == 2 ? static_cast<const uint16_t*>(dst) : nullptr;
    wide_ = entry_bytes_ == 2 ? nullptr : static_cast<const NodeId*>(dst);
  }

  // As Maglev<H>::Lookup: both table pointers read before the width branch
  // (constant per instance, so predicted).
  NodeId Lookup(uint64_t key_hash) const {
    const uint16_t* const narrow = narrow_;
    const NodeId* const wide = wide_;
    const uint64_t s = mod_(key_hash);
    return narrow != nullptr ? NodeId{narrow[s]} : wide[s];
  }

  uint64_t table_size() const { return m_; }
  const void* copy() const { return narrow_ != nullptr
                                         ? static_cast<const void*>(narrow_)
                                         : static_cast<const void*>(wide_); }

  // "pages: maglev's table (10.0 MiB) in a mapping with 10.0 of 10.0 MiB in
  // huge pages; this copy: 0.0 of 10.0 MiB", or the reason it is unknown.
  // Read when called (khugepaged may collapse pages later).
  std::string PlacementNote() const {
    const auto mib = [](size_t b) {
      return absl::StrFormat("%.1f", static_cast<double>(b) / (1 << 20));
    };
    const auto of = [&](const void* p) -> std::string {
      absl::StatusOr<MappingPages> mp = MappingPagesOf(p);
      if (!mp.ok()) return std::string(mp.status().message());
      return absl::StrCat(mib(mp->huge_bytes), " of ", mib(mp->bytes),
                          " MiB in huge pages");
    };
    return absl::StrCat("pages: maglev's table (", mib(m_ * entry_bytes_),
                        " MiB) in a mapping with ", of(source_),
                        "; this copy: ", of(copy()));
  }

 private:
  maglev_internal::FastMod32 mod_;
  uint64_t m_;
  size_t entry_bytes_;
  SmallPageBuffer buffer_;
  std::shared_ptr<std::vector<uint32_t>> fallback_;
  const void* source_;
  const uint16_t* narrow_ = nullptr;
  const NodeId* wide_ = nullptr;
};

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_MAGLEV_SMALL_PAGES_H_
