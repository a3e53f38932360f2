// Copyright 2026 The chbench Authors.
//
// MakeMultiProbe, the catalogue's factory for multiprobe (declared in multiprobe.h). It
// lives here, not inline in the header, so that the concrete classes for
// every hash policy are instantiated once, in this unit, rather than in
// every unit that includes the header.

#include "algorithms/multiprobe/multiprobe.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/make_with_hash.h"

namespace chbench {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeMultiProbe(
    const AlgorithmParams& params) {
  if (params.probes < kMultiProbeMinProbes ||
      params.probes > kMultiProbeMaxProbes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "multiprobe: invalid probes ", params.probes, "; valid range ",
        kMultiProbeMinProbes, "..", kMultiProbeMaxProbes));
  }
  return MakeWithHash<MultiProbe>(params, params.probes);
}

}  // namespace chbench
