// Copyright 2026 The chbench Authors.
//
// The timing kernels of the production presets (algorithms/presets/): each
// preset's final class, whatever the member's hash (a preset fixes its own).

#include "bench/timing_members.h"

namespace chbench {
namespace timing_internal {

absl::Status AddPresetMember(bool build, const TimingGroup& g, size_t index,
                             LookupState* st) {
  absl::Status inner = absl::OkStatus();
  auto add = [&]<typename A>() {
    inner = build ? AddBuildMember<A>(g, index, st)
                  : AddLookupMember<A>(g, index, st);
  };
  if (!dispatch_internal::DispatchPreset(g.members[index].algorithm, add)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown preset '", g.members[index].algorithm, "'"));
  }
  return inner;
}

}  // namespace timing_internal
}  // namespace chbench
