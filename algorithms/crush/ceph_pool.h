// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: crush/ceph_pool.h
// -----------------------------------------------------------------------------
//
// Ceph's object -> placement group -> placement seed steps, bit-exact with
// Ceph 16.2 (src/osd/osd_types.cc: pg_pool_t::hash_key, raw_pg_to_pg,
// raw_pg_to_pps, calc_pg_masks; src/include/rados.h: ceph_stable_mod) as
// the project's CRUSH design notes specify them (§11). The seed is the x of
// crush_do_rule (crush_map.h) for the pool's rule.
//
// Definition, for a pool with id P, pg_num, pgp_num and flag hashpspool:
//   ps   = StrHashRjenkins(object name)       (object_hash rjenkins; no
//                                               namespace, no locator)
//   pg   = StableMod(ps, pg_num, PgMask(pg_num))
//   seed = Hash32_2(StableMod(pg, pgp_num, PgMask(pgp_num)), P)  hashpspool
//        = StableMod(pg, pgp_num, PgMask(pgp_num)) + P           otherwise
// A PG is printed `P.<pg in lowercase hex>` (e.g. 1.29).
//
// Guarantees: the 2 x 50 object rows of testdata/osdmap-*-objects.tsv
// (osdmaptool --test-map-object, every OSD up and in) are reproduced
// (crush_test.cc).
//
// Complexity: O(name length).
//
// Example:
//   const crush::CephPool pool{.id = 1, .pg_num = 100, .pgp_num = 100};
//   uint32_t pg = crush::PgOfObject(pool, "obj-0");   // 0x29
//   uint32_t x = crush::PlacementSeed(pool, pg);

#ifndef CHBENCH_ALGORITHMS_CRUSH_CEPH_POOL_H_
#define CHBENCH_ALGORITHMS_CRUSH_CEPH_POOL_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "algorithms/crush/crush_hash.h"

namespace chbench::crush {

struct CephPool {
  uint32_t id = 0;
  uint32_t pg_num = 1;
  uint32_t pgp_num = 1;
  bool hashpspool = true;  // the default of pools created since Firefly
};

inline uint32_t PgOfObject(const CephPool& pool, std::string_view name) {
  return StableMod(StrHashRjenkins(name), pool.pg_num, PgMask(pool.pg_num));
}

inline uint32_t PlacementSeed(const CephPool& pool, uint32_t pg) {
  const uint32_t s = StableMod(pg, pool.pgp_num, PgMask(pool.pgp_num));
  return pool.hashpspool ? Hash32_2(s, pool.id) : s + pool.id;
}

inline std::string PgName(const CephPool& pool, uint32_t pg) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%u.%x", pool.id, pg);
  return buf;
}

}  // namespace chbench::crush

#endif  // CHBENCH_ALGORITHMS_CRUSH_CEPH_POOL_H_
