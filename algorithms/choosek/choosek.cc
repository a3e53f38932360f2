// Copyright 2026 The chbench Authors.
//
// MakeChooseK, the catalogue's factory for choosek (declared in choosek.h).
// It lives here, not inline in the header, so that the concrete classes for
// every hash policy are instantiated once, in this unit, rather than in
// every unit that includes the header.

#include "algorithms/choosek/choosek.h"

#include <memory>

#include "absl/status/statusor.h"
#include "algorithms/make_with_hash.h"

namespace chbench {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeChooseK(
    const AlgorithmParams& params) {
  return MakeWithHash<ChooseK>(params);
}

}  // namespace chbench
