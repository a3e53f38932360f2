// Copyright 2026 The chbench Authors.
//
// BoundedLoad's parameter validation and factory. The factory refuses
// 32-bit hashes (BoundedLoad<H> itself still accepts them).

#include "algorithms/bounded_load/bounded_load.h"

#include <cmath>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/make_with_hash.h"

namespace chbench {
namespace bounded_load_internal {

absl::Status ValidateParams(uint32_t vnodes, double load_factor) {
  if (vnodes < 1 || vnodes > kMaxVnodes) {
    return absl::InvalidArgumentError(
        absl::StrCat("bounded_load: vnodes ", vnodes,
                     " is out of range; valid: 1..", kMaxVnodes));
  }
  if (!std::isfinite(load_factor) || !(load_factor > 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bounded_load: load factor ", load_factor,
                     " must be > 1 and finite (c = 1 + ε, e.g. 1.25)"));
  }
  return absl::OkStatus();
}

}  // namespace bounded_load_internal

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeBoundedLoad(
    const AlgorithmParams& params) {
  if (absl::Status s = bounded_load_internal::ValidateParams(
          params.vnodes, params.load_factor);
      !s.ok()) {
    return s;
  }
  // Placed keys are identified by digest, so with a 32-bit hash distinct
  // keys collide (about m^2 / 2^33 merges: ~116 per 10^6 keys) and share one
  // placement, breaking the capacity bound.
  if (const HashInfo* info = FindHash(params.hash);
      info != nullptr && info->bits < 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bounded_load: hash '", params.hash, "' has ", info->bits,
        "-bit digests; distinct keys with equal digests would be merged into "
        "one placed key; use a 64-bit hash (xxh64, xxh3, murmur3_128, md5, "
        "fnv1a)"));
  }
  return MakeWithHash<BoundedLoad>(params, params.vnodes, params.load_factor);
}

}  // namespace chbench
