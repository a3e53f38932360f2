// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/rendezvous_packed.h
// -----------------------------------------------------------------------------
//
// `RendezvousPacked<H>`: the timed peer of `Rendezvous<H>`
// (algorithms/rendezvous/rendezvous.h). Plain highest-random-weight hashing
// (Thaler & Ravishankar, IEEE/ACM ToN 1998) as most libraries write it: one
// packed array of node hashes HashString<H>(name, 0) for the live nodes in id
// order, and a loop keeping the argmax of HashPair<H>(key_hash, node_hash),
// compared as integers with strict > (ties keep the smaller id). Unweighted
// only: it ignores weights, so it equals Rendezvous<H>::Lookup exactly when
// all live weights are equal (Rendezvous<H>::uniform_weights()), which is
// when ForEachPeer (bench/peers/peers.h) offers it.
//
// Example:
//   Rendezvous<Xxh64> hrw;
//   hrw.Build(nodes).IgnoreError();
//   RendezvousPacked<Xxh64> peer(hrw);
//   NodeId owner = peer.Lookup(key_hash);  // == hrw.Lookup(key_hash)

#ifndef CHBENCH_BENCH_PEERS_RENDEZVOUS_PACKED_H_
#define CHBENCH_BENCH_PEERS_RENDEZVOUS_PACKED_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/rendezvous/rendezvous.h"

namespace chbench {
namespace peers {

template <typename H>
class RendezvousPacked {
 public:
  // Hashes the names of the live nodes of a built instance (weights are
  // ignored; see the file comment).
  explicit RendezvousPacked(const Rendezvous<H>& hrw) : ids_(hrw.LiveNodes()) {
    hashes_.reserve(ids_.size());
    for (NodeId id : ids_) {
      hashes_.push_back(HashString<H>(hrw.NodeName(id), 0));
    }
  }

  // Precondition: at least one live node.
  NodeId Lookup(uint64_t key_hash) const {
    const size_t n = hashes_.size();
    uint64_t best = HashPair<H>(key_hash, hashes_[0]);
    size_t best_i = 0;
    for (size_t i = 1; i < n; ++i) {
      const uint64_t s = HashPair<H>(key_hash, hashes_[i]);
      if (s > best) {
        best = s;
        best_i = i;
      }
    }
    return ids_[best_i];
  }

  size_t size() const { return ids_.size(); }

 private:
  std::vector<NodeId> ids_;       // live ids, ascending
  std::vector<uint64_t> hashes_;  // parallel: HashString<H>(name, 0)
};

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_RENDEZVOUS_PACKED_H_
