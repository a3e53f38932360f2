// Copyright 2026 The chbench Authors.
//
// The "memory" experiment kind: bytes of state, self-reported and seen by a counting allocator.

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "algorithms/registry.h"
#include "algorithms/util/alloc_counter.h"
#include "algorithms/util/random.h"
#include "experiments/kinds/common.h"
#include "experiments/csv.h"
#include "experiments/metrics.h"
#include "workload/keyset.h"

namespace chbench {
namespace kinds {

absl::StatusOr<std::vector<ResultRow>> RunMemory(const Cell& c,
                                                 const std::string& run_id) {
  const std::vector<NodeSpec> nodes = MakeNodes(c.nodes, c.seed);
  const int64_t before = ThreadHeapBytes();
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, nodes);
  if (!algo.ok()) return algo.status();
  const int64_t heap_built = ThreadHeapBytes() - before;
  const double self_built = static_cast<double>((*algo)->MemoryBytes());
  // A stateful algorithm's state grows with the keys it placed: measure it
  // at its operating point (placed_keys_per_node keys per node).
  const uint64_t m = uint64_t{c.placed_keys_per_node} * c.nodes;
  if (m > 0) {
    const std::vector<uint64_t> keys = GenerateKeyHashes(m, c.seed ^ kPlacedSalt);
    std::vector<NodeId> out(keys.size());
    (*algo)->PlaceBatch(keys, out);
  }
  const int64_t heap = ThreadHeapBytes() - before;
  const double self = static_cast<double>((*algo)->MemoryBytes());
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  base.keys.reset();
  if (m > 0) base.placed_keys = m;
  const std::string what =
      m > 0 ? absl::StrCat("after Build and placing ", m, " keys (",
                           c.placed_keys_per_node, " per node)")
            : std::string("after Build");
  Add(&rows, base, "memory_bytes", self, "bytes", m > 0 ? what : "");
  Add(&rows, base, "heap_bytes", static_cast<double>(heap), "bytes",
      absl::StrCat("counting allocator around creation + Build",
                   m > 0 ? " + placing the keys" : "",
                   " (includes the object)"));
  Add(&rows, base, "memory_bytes_per_node", self / c.nodes, "bytes",
      m > 0 ? what : "");
  if (m > 0) {
    Add(&rows, base, "memory_bytes_per_key", (self - self_built) / m, "bytes",
        absl::StrCat("(memory_bytes with the keys placed - without) / ", m,
                     " placed keys; heap per key ",
                     FormatNumber(static_cast<double>(heap - heap_built) / m)));
  }
  return rows;
}

}  // namespace kinds
}  // namespace chbench
