// Copyright 2026 The chbench Authors.
//
// The timing kernels of every algorithm with hash policy Fnv1a
// (bench/timing_members.h: one unit per hash so that they compile in
// parallel).

#include "bench/timing_members.h"

namespace chbench {
namespace timing_internal {

template absl::Status AddMemberForHash<Fnv1a>(bool, const TimingGroup&, size_t,
                                             LookupState*);

}  // namespace timing_internal
}  // namespace chbench
