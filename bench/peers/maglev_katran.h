// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/maglev_katran.h
// -----------------------------------------------------------------------------
//
// `MaglevKatran<H>`: the timed peer of `Maglev<H>` (algorithms/maglev/
// maglev.h). The built instance's lookup table in 32-bit entries, indexed as
// Katran, Meta's XDP load balancer, indexes its Maglev ring (a BPF array of
// __u32): `hash % RING_SIZE` with the plain % operator
// (facebookincubator/katran, katran/lib/bpf/balancer_kern.c,
// get_packet_dst). Katran's RING_SIZE is a compile-time constant (65537);
// here M is a run-time value, so % is a hardware division. Maglev<H>::Lookup
// instead uses a Barrett reduction for tables up to 8 MiB or more (the
// division beyond), and 16-bit entries while node ids fit. Same slot and
// owner: equal to Maglev<H>::Lookup for every key.
//
// Which memory it reads: when the instance's entries are 32-bit (node ids
// from 65535 on), the instance's own table, so that the ratio compares the
// two lookups' instructions and nothing else: two copies of a DRAM-sized
// table are not equally fast (their pages sit in different places). With a
// copy, Maglev took 1.10 [1.07-1.18] of the peer's time at M = 10^7
// (N = 10^5; full-tier lookup run at 1d29e70), and 1.01 [0.99-1.02] when
// both read Maglev's table, with the same code. The instance must then
// outlive the peer (the lookup harness keeps both). Otherwise a 32-bit
// copy (Maglev<H>::TableCopy()) with Maglev's allocator (huge pages for
// tables of 2 MiB or more), and the ratio includes Maglev's 16-bit layout.
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
      : shared_(maglev.WideTable().empty() ? nullptr
                                           : maglev.WideTable().data()),
        m_(maglev.table_size()) {
    if (shared_ == nullptr) {
      const std::vector<NodeId> t = maglev.TableCopy();
      own_.assign(t.begin(), t.end());
    }
  }

  // Precondition: the instance had at least one live node (M > 0) and, if
  // shares_table(), is alive and unchanged.
  NodeId Lookup(uint64_t key_hash) const {
    // Both fields are read whatever the branch, so a loop keeps t in a
    // register.
    const NodeId* const t = shared_ != nullptr ? shared_ : own_.data();
    return t[key_hash % m_];
  }

  uint64_t table_size() const { return m_; }
  // Whether Lookup reads the instance's own table (its entries are 32-bit).
  bool shares_table() const { return shared_ != nullptr; }

 private:
  const NodeId* shared_;  // the instance's table, or null
  // The same allocator as Maglev<H>'s table (huge pages from 2 MiB).
  std::vector<NodeId, HugePageAllocator<NodeId>> own_;
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
