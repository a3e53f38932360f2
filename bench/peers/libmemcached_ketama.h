// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/peers/libmemcached_ketama.h
// -----------------------------------------------------------------------------
//
// `LibmemcachedKetama`: a timed peer of `Ring<Md5>` in the string scenario:
// Debian's libmemcached (1.1.4, the "libmemcached-awesome" fork; pkg-config
// name libmemcached) choosing a server for a string key with its ketama
// continuum, `memcached_generate_hash(memc, key, len)`. Configuration, as
// pinned by the libmemcached presets and their reference vectors
// (algorithms/presets/libmemcached/, algorithms/presets/testdata/):
//
//   KetamaMode::kKetama (ring vnodes 100)
//     MEMCACHED_BEHAVIOR_DISTRIBUTION = MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA,
//     MEMCACHED_BEHAVIOR_HASH = MEMCACHED_BEHAVIOR_KETAMA_HASH = MD5:
//     100 points per server, point k = le32(md5("host-k")), key hash
//     le32(md5(key)).
//   KetamaMode::kKetamaWeighted (ring vnodes 160)
//     MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED = 1 (distribution
//     CONSISTENT_WEIGHTED, MD5), plus HASH = KETAMA_HASH = MD5: 160 points per
//     server (156 at N in {25, 47, 50, 55, 61, 71, 94, 100}, a float32
//     truncation of the library), 4 points per md5 digest.
//
// Servers are added with memcached_server_add(memc, name, 11211) for the
// ring's live nodes in id order ("node-<i>" in the runner), so the point
// names are "node-<i>-k". The host names are stored, never resolved, and no
// connection is ever opened (only server_add, behavior_set and
// generate_hash are called). Server index i maps back to the i-th live id.
//
// Its mapping is NOT Ring<Md5>'s (other point names, 32-bit points, >= rather
// than > at a point): it is timed beside ours, not compared key by key.
//
// Limits: the Debian build keeps its asserts and its continuum build aborts
// the process above 100 servers (MEMCACHED_CONTINUUM_SIZE = 100 * 100), so
// more than kMaxServers servers is refused with InvalidArgument before the
// library is called. Node weights other than 1 are refused (servers are
// added unweighted).
//
// Example:
//   Ring<Md5> ring(/*vnodes=*/100);
//   ring.Build(nodes).IgnoreError();
//   absl::StatusOr<LibmemcachedKetama> peer = LibmemcachedKetama::Make(ring);
//   NodeId owner = peer->Lookup("user:42");

#ifndef CHBENCH_BENCH_PEERS_LIBMEMCACHED_KETAMA_H_
#define CHBENCH_BENCH_PEERS_LIBMEMCACHED_KETAMA_H_

#include <libmemcached-1.0/memcached.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/ring/ring.h"

namespace chbench {
namespace peers {

enum class KetamaMode {
  kKetama,          // CONSISTENT_KETAMA + HASH=MD5: 100 points per server
  kKetamaWeighted,  // KETAMA_WEIGHTED: 160 points per server
};

class LibmemcachedKetama {
 public:
  // Above this the library's continuum build aborts the process.
  static constexpr size_t kMaxServers = 100;
  static constexpr uint16_t kDefaultPort = 11211;

  // From a built ring: vnodes 100 -> kKetama, 160 -> kKetamaWeighted; any
  // other vnodes, a node weight other than 1, no nodes, or more than
  // kMaxServers nodes is InvalidArgument.
  static absl::StatusOr<LibmemcachedKetama> Make(const Ring<Md5>& ring);

  // Servers `hosts[i]` (port `port`), node ids 0..n-1 in that order. For the
  // reference-vector test and interactive use.
  static absl::StatusOr<LibmemcachedKetama> FromHosts(
      std::span<const std::string> hosts, KetamaMode mode,
      uint16_t port = kDefaultPort);

  LibmemcachedKetama(LibmemcachedKetama&&) = default;
  LibmemcachedKetama& operator=(LibmemcachedKetama&&) = default;

  // The owner of a string key (the library hashes it). Thread-compatible:
  // the library reads the continuum only.
  NodeId Lookup(std::string_view key) const {
    return ids_[memcached_generate_hash(memc_.get(), key.data(), key.size())];
  }

  // The raw server index memcached_generate_hash returns.
  uint32_t ServerIndex(std::string_view key) const {
    return memcached_generate_hash(memc_.get(), key.data(), key.size());
  }

  KetamaMode mode() const { return mode_; }
  size_t size() const { return ids_.size(); }
  // The library's behaviours as set (for the test and meta data).
  uint64_t Behavior(memcached_behavior_t flag) const;

 private:
  struct Free {
    void operator()(memcached_st* m) const { memcached_free(m); }
  };

  LibmemcachedKetama(std::unique_ptr<memcached_st, Free> memc,
                     std::vector<NodeId> ids, KetamaMode mode)
      : memc_(std::move(memc)), ids_(std::move(ids)), mode_(mode) {}

  static absl::StatusOr<LibmemcachedKetama> Create(
      std::span<const std::string> hosts, std::vector<NodeId> ids,
      KetamaMode mode, uint16_t port);

  std::unique_ptr<memcached_st, Free> memc_;
  std::vector<NodeId> ids_;  // server index -> node id
  KetamaMode mode_;
};

}  // namespace peers
}  // namespace chbench

#endif  // CHBENCH_BENCH_PEERS_LIBMEMCACHED_KETAMA_H_
