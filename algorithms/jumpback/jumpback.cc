// Copyright 2026 The chbench Authors.
//
// MakeJumpBack, the catalogue's factory for jumpback (declared in jumpback.h). It
// lives here, not inline in the header, so that the concrete classes for
// every hash policy are instantiated once, in this unit, rather than in
// every unit that includes the header.

#include "algorithms/jumpback/jumpback.h"

#include <memory>

#include "absl/status/statusor.h"
#include "algorithms/make_with_hash.h"

namespace chbench {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeJumpBack(
    const AlgorithmParams& params) {
  return MakeRangeHash<JumpBackPolicy>(params);
}

}  // namespace chbench
