// Copyright 2026 The chbench Authors.
//
// MakeJumpBackAnchor, the catalogue's factory for jumpbackanchor (declared in
// jumpbackanchor.h). It lives here, not inline in the header, so that the
// concrete classes for every hash policy are instantiated once, in this
// unit, rather than in every unit that includes the header.

#include "algorithms/jumpbackanchor/jumpbackanchor.h"

#include <memory>

#include "absl/status/statusor.h"
#include "algorithms/make_with_hash.h"

namespace chbench {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeJumpBackAnchor(
    const AlgorithmParams& params) {
  return MakeWithHash<JumpBackAnchor>(params);
}

}  // namespace chbench
