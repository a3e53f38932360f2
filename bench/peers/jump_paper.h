// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/jump_paper.h
// -----------------------------------------------------------------------------
//
// `JumpPaper`: the timed peer of `Jump<H>` (algorithms/jump/jump.h). Its
// bucket function is Lamping & Veach's published C++ code, transcribed from
// John Lamping and Eric Veach, "A Fast, Minimal Memory, Consistent Hash
// Algorithm", arXiv:1406.2294 (2014), Figure 1, with the implicit
// conversions of the original left implicit:
//
//   int32_t JumpConsistentHash(uint64_t key, int32_t num_buckets) {
//     int64_t b = -1, j = 0;
//     while (j < num_buckets) {
//       b = j;
//       key = key * 2862933555777941757ULL + 1;
//       j = (b + 1) * (double(1LL << 31) / double((key >> 33) + 1));
//     }
//     return b;
//   }
//
// num_buckets is the number of live nodes of the instance it was built from,
// and `Lookup` returns the node id of bucket b (the b-th live node in id
// order: ids 0..N-1 after Build) through the same bucket -> id step as
// Jump<H> (BucketToId: no load while the ids are 0..N-1), so a timing ratio
// compares the loops alone.
//
// Example:
//   Jump<Xxh64> jump;
//   jump.Build(nodes).IgnoreError();
//   JumpPaper peer(jump);
//   NodeId owner = peer.Lookup(key_hash);  // == jump.Lookup(key_hash)

#ifndef CHBENCH_BENCH_PEERS_JUMP_PAPER_H_
#define CHBENCH_BENCH_PEERS_JUMP_PAPER_H_

#include <cstdint>
#include <vector>

#include "algorithms/consistent_hash.h"
#include "algorithms/jump/jump.h"
#include "algorithms/node_table.h"

namespace chbench {
namespace peers {

// arXiv:1406.2294, Figure 1, transcribed (see the file comment).
inline int32_t JumpConsistentHashPaper(uint64_t key, int32_t num_buckets) {
  int64_t b = -1, j = 0;
  while (j < num_buckets) {
    b = j;
    key = key * 2862933555777941757ULL + 1;
    j = (b + 1) * (double(1LL << 31) / double((key >> 33) + 1));
  }
  return b;
}

class JumpPaper {
 public:
  // Copies the live ids (bucket order) of a built instance.
  template <typename H>
  explicit JumpPaper(const Jump<H>& jump)
      : ids_(jump.LiveNodes()),
        table_(IdTableOrNull(ids_)),
        num_buckets_(static_cast<int32_t>(ids_.size())) {}
  // Movable (the vector's buffer moves with it), not copyable.
  JumpPaper(JumpPaper&&) = default;
  JumpPaper(const JumpPaper&) = delete;
  JumpPaper& operator=(const JumpPaper&) = delete;

  // Precondition: at least one live node.
  NodeId Lookup(uint64_t key_hash) const {
    return BucketToId(table_, static_cast<uint32_t>(JumpConsistentHashPaper(
                                  key_hash, num_buckets_)));
  }

  size_t size() const { return ids_.size(); }

 private:
  std::vector<NodeId> ids_;  // bucket b -> node id
  const NodeId* table_;      // ids_.data(), or nullptr while ids_ is 0..N-1
  int32_t num_buckets_;
};

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_JUMP_PAPER_H_
