// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/peers.h
// -----------------------------------------------------------------------------
//
// The peers: reference implementations timed beside ours, in the same process
// and round, so that lookup_ns_ratio_to_<peer> says how our structure
// compares with the textbook or production one over the SAME data. One row
// per peer (the registry), one class per peer (one header each), and
// ForEachPeer, which builds the peers that apply to a built instance of a
// concrete type and hands each to a callback.
//
// clang-format off
//   name                 base        scenario   class
//   jump_paper           jump        prehashed  JumpPaper          (jump_paper.h)
//   ring_upper_bound     ring        prehashed  RingUpperBound<H>  (ring_search.h)
//   ring_branchless      ring        prehashed  RingBranchless<H>  (ring_search.h)
//   rendezvous_packed    rendezvous  prehashed  RendezvousPacked<H>
//   maglev_katran        maglev      prehashed  MaglevKatran<H>
//   maglev_small_pages   maglev      prehashed  MaglevSmallPages<H> (tables
//                                               of 2 MiB or more)
//   maglev_katran_build  maglev      build      MaglevKatranBuild<H> (timed
//                                               by the build experiment)
//   libmemcached_ketama  ring        string     LibmemcachedKetama (md5,
//                                               vnodes 100 or 160, N <= 100)
//   anchor_table_crc     anchor      prehashed  AnchorTableCrc (a = N, none
//                                               removed; crc_baselines.h)
//   memento_jump_crc     memento     prehashed  MementoJumpCrc (none removed)
//   ring_interleaved     ring        prehashed_batch  RingInterleaved<H>
//                                               (ring_search.h; timed beside
//                                               the ring's LookupBatch)
// clang-format on
//
// Every peer class is constructed from a BUILT instance of its base's
// concrete type (it copies that instance's structure: points, table, node
// hashes) and has a non-virtual, inlinable `NodeId Lookup(uint64_t
// key_hash) const` (prehashed peers; equal to the base's Lookup for every
// key) or `NodeId Lookup(std::string_view key) const` (string peers; a
// different mapping, timed only). A batched peer (scenario
// "prehashed_batch") also has a non-virtual `void LookupBatch(
// std::span<const uint64_t>, std::span<NodeId>) const` equal to the base's
// LookupBatch; ForEachBatchPeer offers it, ForEachPeer does not.
//
// Example (in templated timing code, A = Ring<Xxh64>, ...):
//   absl::Status s = peers::ForEachPeer(
//       algo, "prehashed", n, vnodes,
//       [&](std::string_view name, const auto& peer) {
//         Time([&](uint64_t k) { return peer.Lookup(k); });
//       });

#ifndef CHBENCH_BENCH_PEERS_PEERS_H_
#define CHBENCH_BENCH_PEERS_PEERS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/jump/jump.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/rendezvous/rendezvous.h"
#include "algorithms/ring/ring.h"
#include "bench/peers/crc_baselines.h"
#include "bench/peers/jump_paper.h"
#include "bench/peers/libmemcached_ketama.h"
#include "bench/peers/maglev_katran.h"
#include "bench/peers/maglev_small_pages.h"
#include "bench/peers/rendezvous_packed.h"
#include "bench/peers/ring_search.h"

namespace chbench {
namespace peers {

inline constexpr std::string_view kPrehashed = "prehashed";
inline constexpr std::string_view kString = "string";
// A build peer (timed beside Build in the build experiment, not offered by
// ForEachPeer).
inline constexpr std::string_view kBuild = "build";
// A batched peer: LookupBatch over prehashed keys, timed beside a batched
// member (TimingMember::batch > 1) in the prehashed scenario; offered by
// ForEachBatchPeer, not by ForEachPeer.
inline constexpr std::string_view kPrehashedBatch = "prehashed_batch";

struct PeerInfo {
  std::string_view name;         // the CSV `algorithm` value of its rows
  std::string_view base;         // our algorithm it is timed beside
  std::string_view description;  // one line
  std::string_view source;       // citation / where the code comes from
  // "prehashed", "string", "build" or "prehashed_batch"
  std::string_view scenario;
  uint32_t max_nodes;            // 0 = no limit
};

// Every peer, in the order above.
std::span<const PeerInfo> Peers();
// nullptr when unknown.
const PeerInfo* FindPeer(std::string_view name);
// "jump_paper, ring_upper_bound, ..."
std::string PeerNames();

// The names of the peers ForEachPeer would offer for a cell, without
// building anything: `algorithm` and `hash` are registry names, `table_size`
// Maglev's M (0: its default for `nodes`). Rendezvous peers assume equal
// weights, libmemcached_ketama weight 1, maglev_small_pages a fresh build's
// entry width (ForEachPeer checks the built instance).
std::vector<std::string_view> ApplicablePeers(std::string_view algorithm,
                                              std::string_view hash,
                                              std::string_view scenario,
                                              uint32_t nodes, uint32_t vnodes,
                                              uint64_t table_size = 0);

namespace peers_internal {

template <typename A>
struct Concrete {
  static constexpr bool kRing = false, kRendezvous = false, kJump = false,
                        kMaglev = false;
};
template <typename A>
inline constexpr bool kIsAnchor = false;
template <typename H>
inline constexpr bool kIsAnchor<Anchor<H>> = true;
template <typename A>
inline constexpr bool kIsMemento = false;
template <typename H>
inline constexpr bool kIsMemento<Memento<H>> = true;
template <typename H>
struct Concrete<Ring<H>> {
  static constexpr bool kRing = true, kRendezvous = false, kJump = false,
                        kMaglev = false;
};
template <typename H>
struct Concrete<Rendezvous<H>> {
  static constexpr bool kRing = false, kRendezvous = true, kJump = false,
                        kMaglev = false;
};
template <typename H>
struct Concrete<Jump<H>> {
  static constexpr bool kRing = false, kRendezvous = false, kJump = true,
                        kMaglev = false;
};
template <typename H>
struct Concrete<Maglev<H>> {
  static constexpr bool kRing = false, kRendezvous = false, kJump = false,
                        kMaglev = true;
};

// Ring<Md5> with weight-1 nodes only: the libmemcached peer's domain.
bool AllUnitWeights(const Ring<Md5>& ring);

}  // namespace peers_internal

// Calls f(name, peer) for each peer that applies to the built instance
// `built` of concrete type A (Ring<H>, Rendezvous<H>, Jump<H>, Maglev<H>; any
// other type has no peers) in `scenario` ("prehashed" or "string"), where
// `nodes` and `vnodes` are the cell's (vnodes is read for ring only). `peer`
// is an rvalue: a peer object built from `built`, which the callback may
// move from to keep it beyond the call (the timing groups do). An instance with no live nodes gets no peers. The peers:
//   Jump<H>        prehashed: jump_paper
//   Ring<H>        prehashed: ring_upper_bound, ring_branchless
//   Ring<Md5>      string, vnodes 100 or 160, nodes <= 100, all weights 1:
//                  libmemcached_ketama
//   Rendezvous<H>  prehashed, equal weights: rendezvous_packed
//   Maglev<H>      prehashed: maglev_katran; maglev_small_pages when the
//                  table takes 2 MiB or more
//   Anchor<H>      prehashed, a = N, nothing removed: anchor_table_crc
//   Memento<H>     prehashed, nothing removed: memento_jump_crc
// Returns OK, or the error of a peer that applied but failed to build (the
// libmemcached one); f is not called for that peer.
template <typename A, typename F>
absl::Status ForEachPeer(const A& built, std::string_view scenario,
                         uint32_t nodes, uint32_t vnodes, F&& f) {
  using C = peers_internal::Concrete<A>;
  if (built.size() == 0) return absl::OkStatus();
  const bool prehashed = scenario == kPrehashed;
  if constexpr (C::kJump) {
    if (prehashed) {
      JumpPaper peer(built);
      f(std::string_view("jump_paper"), std::move(peer));
    }
  } else if constexpr (C::kRing) {
    if (prehashed) {
      {
        RingUpperBound peer(built);
        f(std::string_view("ring_upper_bound"), std::move(peer));
      }
      {
        RingBranchless peer(built);
        f(std::string_view("ring_branchless"), std::move(peer));
      }
    }
    if constexpr (std::is_same_v<A, Ring<Md5>>) {
      if (scenario == kString && (vnodes == 100 || vnodes == 160) &&
          built.vnodes() == vnodes && nodes <= LibmemcachedKetama::kMaxServers &&
          built.size() <= LibmemcachedKetama::kMaxServers &&
          peers_internal::AllUnitWeights(built)) {
        absl::StatusOr<LibmemcachedKetama> peer =
            LibmemcachedKetama::Make(built);
        if (!peer.ok()) return peer.status();
        f(std::string_view("libmemcached_ketama"), *std::move(peer));
      }
    }
  } else if constexpr (C::kRendezvous) {
    if (prehashed && built.uniform_weights()) {
      RendezvousPacked peer(built);
      f(std::string_view("rendezvous_packed"), std::move(peer));
    }
  } else if constexpr (C::kMaglev) {
    if (prehashed) {
      MaglevKatran peer(built);
      f(std::string_view("maglev_katran"), std::move(peer));
      if (built.table_size() * built.entry_bytes() >=
          HugePageAllocator<char>::kHuge) {
        MaglevSmallPages small(built);
        f(std::string_view("maglev_small_pages"), std::move(small));
      }
    }
  } else if constexpr (peers_internal::kIsAnchor<A>) {
    // Equal mappings only with a = N and no bucket removed.
    if (prehashed && built.core().working() == built.core().capacity()) {
      AnchorTableCrc peer(built);
      f(std::string_view("anchor_table_crc"), std::move(peer));
    }
  } else if constexpr (peers_internal::kIsMemento<A>) {
    if (prehashed && built.core().removed() == 0) {
      MementoJumpCrc peer(built);
      f(std::string_view("memento_jump_crc"), std::move(peer));
    }
  }
  (void)nodes;
  (void)vnodes;
  return absl::OkStatus();
}

// Calls f(name, peer) for each batched peer of the built instance `built`
// of concrete type A in `scenario`, as ForEachPeer does for the single-key
// peers: a peer with `void LookupBatch(std::span<const uint64_t>,
// std::span<NodeId>) const`, equal to built.LookupBatch for every key,
// timed beside a batched member (TimingMember::batch > 1). The peers:
//   Ring<H>  prehashed: ring_interleaved
// An instance with no live nodes gets none. Returns OK.
//
// Example:
//   ForEachBatchPeer(ring, "prehashed", [&](std::string_view name, auto&& p) {
//     p.LookupBatch(keys, owners);
//   });
template <typename A, typename F>
absl::Status ForEachBatchPeer(const A& built, std::string_view scenario,
                              F&& f) {
  using C = peers_internal::Concrete<A>;
  if (built.size() == 0) return absl::OkStatus();
  if constexpr (C::kRing) {
    if (scenario == kPrehashed) {
      RingInterleaved peer(built);
      f(std::string_view("ring_interleaved"), std::move(peer));
    }
  }
  return absl::OkStatus();
}

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_PEERS_H_
