// Copyright 2026 The chbench Authors.
//
// MakeAnchor, the catalogue's factory for anchor (declared in anchor.h). It
// lives here, not inline in the header, so that the concrete classes for
// every hash policy are instantiated once, in this unit, rather than in
// every unit that includes the header.

#include "algorithms/anchor/anchor.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/make_with_hash.h"

namespace chbench {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeAnchor(
    const AlgorithmParams& params) {
  if (params.capacity > Anchor<Xxh64>::kMaxCapacity) {
    return absl::InvalidArgumentError(absl::StrCat(
        "anchor: capacity ", params.capacity,
        " out of range; valid: 0 (a = the node count of the first Build) or "
        "1..",
        Anchor<Xxh64>::kMaxCapacity));
  }
  return MakeWithHash<Anchor>(params, params.capacity);
}

}  // namespace chbench
