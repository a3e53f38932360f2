// Copyright 2026 The chbench Authors.

#include "bench/peers/libmemcached_ketama.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace chbench {
namespace peers {
namespace {

absl::Status Check(memcached_st* memc, memcached_return_t rc,
                   std::string_view what) {
  if (memcached_success(rc)) return absl::OkStatus();
  return absl::InternalError(absl::StrCat("libmemcached_ketama: ", std::string(what),
                                          " failed: ",
                                          memcached_strerror(memc, rc)));
}

}  // namespace

absl::StatusOr<LibmemcachedKetama> LibmemcachedKetama::Make(
    const Ring<Md5>& ring) {
  KetamaMode mode;
  if (ring.vnodes() == 100) {
    mode = KetamaMode::kKetama;
  } else if (ring.vnodes() == 160) {
    mode = KetamaMode::kKetamaWeighted;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "libmemcached_ketama: ring vnodes ", ring.vnodes(),
        " has no libmemcached equivalent; valid: 100 "
        "(MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA) or 160 (KETAMA_WEIGHTED)"));
  }
  std::vector<NodeId> ids = ring.LiveNodes();
  std::vector<std::string> hosts;
  hosts.reserve(ids.size());
  for (NodeId id : ids) {
    if (ring.table().spec(id).weight != 1.0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "libmemcached_ketama: node '", ring.NodeName(id), "' has weight ",
          ring.table().spec(id).weight,
          "; the libmemcached peer adds servers unweighted (weight 1 only)"));
    }
    hosts.push_back(ring.NodeName(id));
  }
  return Create(hosts, std::move(ids), mode, kDefaultPort);
}

absl::StatusOr<LibmemcachedKetama> LibmemcachedKetama::FromHosts(
    std::span<const std::string> hosts, KetamaMode mode, uint16_t port) {
  std::vector<NodeId> ids(hosts.size());
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<NodeId>(i);
  return Create(hosts, std::move(ids), mode, port);
}

absl::StatusOr<LibmemcachedKetama> LibmemcachedKetama::Create(
    std::span<const std::string> hosts, std::vector<NodeId> ids,
    KetamaMode mode, uint16_t port) {
  if (hosts.empty()) {
    return absl::InvalidArgumentError(
        "libmemcached_ketama: no servers; need 1..100");
  }
  if (hosts.size() > kMaxServers) {
    return absl::InvalidArgumentError(absl::StrCat(
        "libmemcached_ketama: ", hosts.size(),
        " servers requested; Debian's libmemcached 1.1.4 aborts its ketama "
        "continuum build above ",
        kMaxServers, " servers (MEMCACHED_CONTINUUM_SIZE = 100 * 100)"));
  }
  std::unique_ptr<memcached_st, Free> memc(memcached_create(nullptr));
  if (memc == nullptr) {
    return absl::ResourceExhaustedError(
        "libmemcached_ketama: memcached_create failed");
  }
  memcached_st* m = memc.get();
  // Order matters (presets.md §1): DISTRIBUTION = CONSISTENT_KETAMA after
  // KETAMA_WEIGHTED would switch the weighted flag off again.
  if (mode == KetamaMode::kKetama) {
    if (absl::Status s = Check(m,
                               memcached_behavior_set(
                                   m, MEMCACHED_BEHAVIOR_DISTRIBUTION,
                                   MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA),
                               "DISTRIBUTION=CONSISTENT_KETAMA");
        !s.ok()) {
      return s;
    }
  } else {
    if (absl::Status s = Check(
            m, memcached_behavior_set(m, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1),
            "KETAMA_WEIGHTED=1");
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = Check(m,
                             memcached_behavior_set(m, MEMCACHED_BEHAVIOR_HASH,
                                                    MEMCACHED_HASH_MD5),
                             "HASH=MD5");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = Check(
          m,
          memcached_behavior_set(m, MEMCACHED_BEHAVIOR_KETAMA_HASH,
                                 MEMCACHED_HASH_MD5),
          "KETAMA_HASH=MD5");
      !s.ok()) {
    return s;
  }
  for (const std::string& host : hosts) {
    // Stores the name and rebuilds the continuum; opens no connection.
    if (absl::Status s =
            Check(m, memcached_server_add(m, host.c_str(), port),
                  absl::StrCat("memcached_server_add('", host, "')"));
        !s.ok()) {
      return s;
    }
  }
  if (memcached_server_count(m) != hosts.size()) {
    return absl::InternalError(absl::StrCat(
        "libmemcached_ketama: ", memcached_server_count(m),
        " servers registered, expected ", hosts.size()));
  }
  return LibmemcachedKetama(std::move(memc), std::move(ids), mode);
}

uint64_t LibmemcachedKetama::Behavior(memcached_behavior_t flag) const {
  return memcached_behavior_get(memc_.get(), flag);
}

}  // namespace peers
}  // namespace chbench
