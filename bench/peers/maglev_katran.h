// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/maglev_katran.h
// -----------------------------------------------------------------------------
//
// `MaglevKatran<H>`: the timed peer of `Maglev<H>` (algorithms/maglev/
// maglev.h). A copy of the built instance's lookup table (Maglev<H>::table())
// indexed as Katran, Meta's XDP load balancer, indexes its Maglev ring:
// `hash % RING_SIZE` with the plain % operator (facebookincubator/katran,
// katran/lib/bpf/balancer_kern.c, get_packet_dst). Katran's RING_SIZE is a
// compile-time constant (65537); here M is a run-time value, so % is a
// hardware division, where Maglev<H>::Lookup uses a precomputed fast modulo
// (Lemire, Kaser & Kurz 2019). Same table, same slot: equal to
// Maglev<H>::Lookup for every key. The copy uses Maglev's allocator (huge
// pages for tables of 2 MiB or more).
//
// Example:
//   Maglev<Xxh64> maglev;
//   maglev.Build(nodes).IgnoreError();
//   MaglevKatran<Xxh64> peer(maglev);
//   NodeId owner = peer.Lookup(key_hash);  // == maglev.Lookup(key_hash)

#ifndef CHBENCH_BENCH_PEERS_MAGLEV_KATRAN_H_
#define CHBENCH_BENCH_PEERS_MAGLEV_KATRAN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/consistent_hash.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/util/huge_page_allocator.h"

namespace chbench {
namespace peers {

template <typename H>
class MaglevKatran {
 public:
  explicit MaglevKatran(const Maglev<H>& maglev)
      : table_(maglev.table().begin(), maglev.table().end()),
        m_(table_.size()) {}

  // Precondition: the instance had at least one live node (M > 0).
  NodeId Lookup(uint64_t key_hash) const { return table_[key_hash % m_]; }

  uint64_t table_size() const { return m_; }

 private:
  // The same allocator as Maglev<H>'s table (huge pages from 2 MiB), so the
  // ratio compares the index computation, not page sizes.
  std::vector<NodeId, HugePageAllocator<NodeId>> table_;
  uint64_t m_;
};

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_MAGLEV_KATRAN_H_
