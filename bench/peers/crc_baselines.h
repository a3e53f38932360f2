// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/crc_baselines.h
// -----------------------------------------------------------------------------
//
// The timed baselines of AnchorHash and MementoHash with nothing removed:
// the work their papers' fast path reduces to, written as plainly as it can
// be, over the same CRC (algorithms/util/crc32c.h) and the same bucket -> id
// table:
//
//   `AnchorTableCrc`   ids[crc(x, 0) % N]         (uint32 %, a division)
//   `MementoJumpCrc`   ids[JumpConsistentHash(crc(x, 0), N)]
//
// AnchorHash (Mendelson et al., IEEE/ACM ToN 2020, Alg. 3) starts with
// b = crc(x, 0) mod a and returns b when bucket b works; with a = N and no
// removal that is the whole lookup, so `AnchorTableCrc` is "a plain table
// lookup plus one CRC" (anchor's timing floor) and maps every key as
// Anchor<H> does. MementoHash (Coluzzi et al., IEEE/ACM ToN 2024) starts
// with b = JumpHash(crc(x, 0), B) and returns b when b was not removed; with
// nothing removed `MementoJumpCrc` maps as Memento<H> does. A ratio to these
// is the price of each algorithm's removal bookkeeping on its fast path.
//
// Both apply only while their base equals them: anchor with a = N and no
// bucket removed, memento with no bucket removed (ForEachPeer checks).

#ifndef CHBENCH_BENCH_PEERS_CRC_BASELINES_H_
#define CHBENCH_BENCH_PEERS_CRC_BASELINES_H_

#include <cstdint>
#include <vector>

#include "algorithms/anchor/anchor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/jump/jump.h"
#include "algorithms/memento/memento.h"
#include "algorithms/util/crc32c.h"

namespace chbench {
namespace peers {

class AnchorTableCrc {
 public:
  // Precondition (ForEachPeer): a = N live nodes, none removed.
  template <typename H>
  explicit AnchorTableCrc(const Anchor<H>& anchor)
      : ids_(anchor.LiveNodes()), n_(static_cast<uint32_t>(ids_.size())) {}

  NodeId Lookup(uint64_t key_hash) const {
    return ids_[Crc32c(key_hash, 0) % n_];
  }

 private:
  std::vector<NodeId> ids_;  // bucket -> id (ids 0..N-1 after Build)
  uint32_t n_;
};

class MementoJumpCrc {
 public:
  // Precondition (ForEachPeer): no bucket removed.
  template <typename H>
  explicit MementoJumpCrc(const Memento<H>& memento)
      : ids_(memento.LiveNodes()), n_(static_cast<int32_t>(ids_.size())) {}

  NodeId Lookup(uint64_t key_hash) const {
    return ids_[static_cast<uint32_t>(
        JumpConsistentHash(Crc32c(key_hash, 0), n_))];
  }

 private:
  std::vector<NodeId> ids_;
  int32_t n_;
};

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_CRC_BASELINES_H_
