// Copyright 2026 The chbench Authors.
//
// The string-key lookup kernels of the hash-axis algorithms with hash
// policies Crc32, Fnv1a and AbslHash (bench/timing_members.h). Several
// policies per unit: each unit pays about 8 s of fixed cost (the precompiled
// header and the kernels' shared instantiations), more than one policy's own
// kernels.

#include "bench/timing_members.h"

namespace chbench {
namespace timing_internal {

template absl::Status AddMemberForHash<Crc32>(bool, const TimingGroup&, size_t,
                                              LookupState*);
template absl::Status AddMemberForHash<Fnv1a>(bool, const TimingGroup&, size_t,
                                              LookupState*);
template absl::Status AddMemberForHash<AbslHash>(bool, const TimingGroup&,
                                                 size_t, LookupState*);

}  // namespace timing_internal
}  // namespace chbench
