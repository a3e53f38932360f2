// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/maglev_katran.h
// -----------------------------------------------------------------------------
//
// `MaglevKatran<H>`: the timed peer of `Maglev<H>` (algorithms/maglev/
// maglev.h). A copy of the built instance's lookup table
// (Maglev<H>::TableCopy()) in 32-bit entries, indexed as Katran, Meta's XDP
// load balancer, indexes its Maglev ring (a BPF array of __u32):
// `hash % RING_SIZE` with the plain % operator (facebookincubator/katran,
// katran/lib/bpf/balancer_kern.c, get_packet_dst). Katran's RING_SIZE is a
// compile-time constant (65537); here M is a run-time value, so % is a
// hardware division. Maglev<H>::Lookup instead uses a Barrett reduction
// while its table fits about the L2 cache (the division beyond), and 16-bit
// entries while node ids fit. Same slot and owner: equal to
// Maglev<H>::Lookup for every key. The copy uses Maglev's allocator (huge
// pages for tables of 2 MiB or more).
//
// Example:
//   Maglev<Xxh64> maglev;
//   maglev.Build(nodes).IgnoreError();
//   MaglevKatran<Xxh64> peer(maglev);
//   NodeId owner = peer.Lookup(key_hash);  // == maglev.Lookup(key_hash)
//
// `MaglevKatranBuild<H>`: the timed build peer of `Maglev<H>::Build`: the
// table fill of Katran's MaglevHash::generateHashRing (facebookincubator/
// katran, katran/lib/MaglevHash.cpp; the Maglev paper's Pseudocode 1): a
// result vector of M ints (-1 = empty), one `next` counter per node, and
// each turn probes (offset + next * skip) % M with the % operator until a
// free slot. Weights 1 only. Katran derives (offset, skip) from a 64-bit
// endpoint hash with MurmurHash3; here they are Maglev<H>::OffsetSkip of
// the node names, so the table equals Maglev<H>'s for equal weights (the
// timing fold compares them). No node table, no validation: the ratio
// shows what Maglev<H>::Build spends beyond the fill.
//
//   std::vector<int> t = MaglevKatranBuild<Xxh64>::Table(nodes, 65537);
//   // t[h % 65537] == maglev.Lookup(h) for a Maglev<Xxh64> with M = 65537

#ifndef CHBENCH_BENCH_PEERS_MAGLEV_KATRAN_H_
#define CHBENCH_BENCH_PEERS_MAGLEV_KATRAN_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
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
      : table_(Copy(maglev)), m_(table_.size()) {}

  // Precondition: the instance had at least one live node (M > 0).
  NodeId Lookup(uint64_t key_hash) const { return table_[key_hash % m_]; }

  uint64_t table_size() const { return m_; }

 private:
  static std::vector<NodeId, HugePageAllocator<NodeId>> Copy(
      const Maglev<H>& maglev) {
    const std::vector<NodeId> t = maglev.TableCopy();
    return {t.begin(), t.end()};
  }
  // The same allocator as Maglev<H>'s table (huge pages from 2 MiB), so the
  // ratio compares the index computation, not page sizes.
  std::vector<NodeId, HugePageAllocator<NodeId>> table_;
  uint64_t m_;
};

template <typename H>
class MaglevKatranBuild {
 public:
  // The table of `nodes` (node i labelled i) for a prime M >= nodes.size()
  // >= 1.
  static std::vector<int> Table(std::span<const NodeSpec> nodes, uint64_t M) {
    const size_t n = nodes.size();
    std::vector<uint64_t> permutation(2 * n);  // offset, skip per node
    for (size_t i = 0; i < n; ++i) {
      const auto [offset, skip] = Maglev<H>::OffsetSkip(nodes[i].name, M);
      permutation[2 * i] = offset;
      permutation[2 * i + 1] = skip;
    }
    std::vector<int> result(M, -1);
    std::vector<uint64_t> next(n, 0);
    uint64_t runs = 0;
    for (;;) {
      for (size_t i = 0; i < n; ++i) {
        const uint64_t offset = permutation[2 * i];
        const uint64_t skip = permutation[2 * i + 1];
        uint64_t cur = (offset + next[i] * skip) % M;
        while (result[cur] >= 0) {
          ++next[i];
          cur = (offset + next[i] * skip) % M;
        }
        result[cur] = static_cast<int>(i);
        ++next[i];
        if (++runs == M) return result;
      }
    }
  }
};

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_MAGLEV_KATRAN_H_
