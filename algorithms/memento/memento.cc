// Copyright 2026 The chbench Authors.
//
// MakeMemento, the catalogue's factory for memento (declared in memento.h). It
// lives here, not inline in the header, so that the concrete classes for
// every hash policy are instantiated once, in this unit, rather than in
// every unit that includes the header.

#include "algorithms/memento/memento.h"

#include <memory>

#include "absl/status/statusor.h"
#include "algorithms/make_with_hash.h"

namespace chbench {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeMemento(
    const AlgorithmParams& params) {
  return MakeWithHash<Memento>(params);
}

}  // namespace chbench
