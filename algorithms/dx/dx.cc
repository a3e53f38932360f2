// Copyright 2026 The chbench Authors.
//
// MakeDx, the catalogue's factory for dx (declared in dx.h). It
// lives here, not inline in the header, so that the concrete classes for
// every hash policy are instantiated once, in this unit, rather than in
// every unit that includes the header.

#include "algorithms/dx/dx.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/make_with_hash.h"

namespace chbench {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeDx(
    const AlgorithmParams& params) {
  if (params.capacity > DxHashCore::kMaxSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "dx: capacity ", params.capacity,
        " out of range; valid: 0 (the smallest power of two >= the node "
        "count) or 1..",
        DxHashCore::kMaxSize));
  }
  return MakeWithHash<Dx>(params, params.capacity);
}

}  // namespace chbench
