// Copyright 2026 The chbench Authors.
//
// MakeRing, the catalogue's factory for ring (declared in ring.h). It
// lives here, not inline in the header, so that the concrete classes for
// every hash policy are instantiated once, in this unit, rather than in
// every unit that includes the header.

#include "algorithms/ring/ring.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/make_with_hash.h"

namespace chbench {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeRing(
    const AlgorithmParams& params) {
  if (params.vnodes < kRingMinVnodes || params.vnodes > kRingMaxVnodes) {
    return absl::InvalidArgumentError(
        absl::StrCat("ring: invalid vnodes ", params.vnodes, "; valid range ",
                     kRingMinVnodes, "..", kRingMaxVnodes));
  }
  return MakeWithHash<Ring>(params, params.vnodes);
}

}  // namespace chbench
