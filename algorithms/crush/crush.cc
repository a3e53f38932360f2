// Copyright 2026 The chbench Authors.
//
// MakeCrush, the catalogue's factory for crush (declared in crush.h), and the
// weight conversion its class uses. It lives here, not inline in the header,
// so that the concrete classes for every hash policy are instantiated once,
// in this unit, rather than in every unit that includes the header.

#include "algorithms/crush/crush.h"

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/crush/crush_map.h"
#include "algorithms/make_with_hash.h"

namespace chbench {
namespace crush_internal {

absl::Status FixedWeight(const NodeSpec& spec, uint32_t* out) {
  if (!crush::WeightToFixed(spec.weight, out) || *out == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "crush: weight ", spec.weight, " of node '", spec.name,
        "' is not a CRUSH weight (16.16 fixed point, truncated as crushtool "
        "does); valid: 0.0000153 (1/65536) .. 65535.99998"));
  }
  return absl::OkStatus();
}

}  // namespace crush_internal

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeCrush(
    const AlgorithmParams& params) {
  return MakeWithHash<Crush>(params);
}

}  // namespace chbench
