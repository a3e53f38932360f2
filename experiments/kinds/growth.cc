// Copyright 2026 The chbench Authors.
//
// The "growth" experiment kind: the path a cluster takes when it doubles and
// shrinks back. N nodes are built, nodes N .. 2N-1 join one at a time
// (scenario "grow", AddNode on the same instance), then leave one at a time,
// the most recently added first (scenario "shrink": LIFO, which every
// algorithm that can grow supports), back to N. Every key is mapped after
// every step and compared with the step before. Rows, each with its `step`
// (0: the N nodes built, 1 .. N: the joins, N+1 .. 2N: the leaves; nodes
// after step s: N + s, then 3N - s):
//   moved_over_optimum             keys moved at the step / the step's
//                                  optimum: K/(n+1) when the (n+1)-th node
//                                  joins n, K/n when one of n leaves
//   cumulative_moved_over_optimum  keys moved summed over steps 1 .. s /
//                                  the optima summed over the same steps
//   load_max_over_mean             over the live nodes after the step
//   memory_bytes                   MemoryBytes() after the step
// Step 0 has the last two only. Rows are written at every step for N <= 100;
// above, at every (N/50)-th step and at the phase ends N and 2N (about 50
// steps per phase: the full tier's N = 10^4 would write 2 * 10^4 steps per
// cell). The cumulative sums count every step, written or not, and each
// phase ends with
//   max_moved_over_optimum         the largest moved_over_optimum of the
//                                  phase's steps (grow: 1 .. N, at step N;
//                                  shrink: N+1 .. 2N, at step 2N), its note
//                                  naming the step
// An algorithm that refuses a join (anchor at
// its default capacity a = N, AddNode: FailedPrecondition) gets the step's
// four rows empty with a "not applicable" note and no further step: what it
// must be provisioned with to grow is the point of the comparison.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/registry.h"
#include "experiments/kinds/common.h"
#include "experiments/metrics.h"

namespace chbench {
namespace kinds {

absl::StatusOr<std::vector<ResultRow>> RunGrowth(const Cell& c,
                                                 const std::string& run_id) {
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", c.algorithm, "'"));
  }
  if (info->capabilities.stateful) {
    // The spec check refuses these; a cell built by hand still fails here.
    return absl::InvalidArgumentError(absl::StrCat(
        c.algorithm, ": growth maps keys with Lookup; a stateful algorithm "
                     "would replay its placements at every step"));
  }
  const uint32_t n0 = c.nodes;
  const std::vector<NodeSpec> nodes = MakeNodes(2 * size_t{n0}, c.seed);
  const std::span<const NodeSpec> first(nodes.data(), n0);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, first);
  if (!algo.ok()) return algo.status();
  RowNote note;
  const uint64_t m0 = CappedKeys(c, &note.text);
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  AddOverlapNote(c, d->size(), &note);
  const double keys = static_cast<double>(d->size());

  ResultRow base = BaseRow(c, run_id);
  base.keys = d->size();
  std::vector<ResultRow> rows;
  uint32_t live = n0;
  std::vector<uint32_t> owners = MapKeys(**algo, *d, {});
  // Balance over the live nodes (indices 0 .. live-1: removals are LIFO)
  // and memory, after step `step`.
  const auto state_rows = [&](const ResultRow& at) {
    std::vector<uint64_t> loads(live, 0);
    for (uint32_t o : owners) ++loads[o];
    Add(&rows, at, "load_max_over_mean", ComputeLoadStats(loads).max_over_mean,
        "ratio", note);
    ResultRow mem = at;
    mem.keys.reset();
    Add(&rows, mem, "memory_bytes",
        static_cast<double>((*algo)->MemoryBytes()), "bytes",
        absl::StrCat("after step ", *at.step, " (", live, " nodes)"));
  };
  ResultRow start = base;
  start.scenario = "start";
  start.step = 0;
  state_rows(start);

  const uint32_t stride = n0 <= 100 ? 1 : n0 / 50;
  double moved_sum = 0;
  double optimum_sum = 0;
  double phase_max = 0;
  uint32_t phase_max_step = 0;
  for (uint32_t step = 1; step <= 2 * n0; ++step) {
    const bool grow = step <= n0;
    ResultRow at = base;
    at.scenario = grow ? "grow" : "shrink";
    at.step = step;
    double optimum = 0;
    if (grow) {
      absl::StatusOr<NodeId> id = (*algo)->AddNode(nodes[live]);
      if (absl::IsFailedPrecondition(id.status())) {
        const std::string na =
            absl::StrCat("not applicable: ", id.status().message());
        for (const char* metric :
             {"moved_over_optimum", "cumulative_moved_over_optimum",
              "load_max_over_mean"}) {
          Add(&rows, at, metric, std::nullopt, "ratio", na);
        }
        ResultRow mem = at;
        mem.keys.reset();
        Add(&rows, mem, "memory_bytes", std::nullopt, "bytes", na);
        return rows;
      }
      if (!id.ok()) return id.status();
      if (*id != live) {
        return absl::InternalError(absl::StrCat(
            c.algorithm, ": AddNode gave id ", *id, ", expected ", live));
      }
      optimum = keys / (live + 1);
      ++live;
    } else {
      if (absl::Status s = (*algo)->RemoveNode(live - 1); !s.ok()) return s;
      optimum = keys / live;
      --live;
    }
    std::vector<uint32_t> next = MapKeys(**algo, *d, {});
    uint64_t moved = 0;
    for (size_t k = 0; k < next.size(); ++k) moved += next[k] != owners[k];
    owners = std::move(next);
    moved_sum += static_cast<double>(moved);
    optimum_sum += optimum;
    const double ratio = static_cast<double>(moved) / optimum;
    if (step == 1 || step == n0 + 1 || ratio > phase_max) {
      phase_max = ratio;
      phase_max_step = step;
    }
    const bool phase_end = step == n0 || step == 2 * n0;
    if (phase_end || step % stride == 0) {
      Add(&rows, at, "moved_over_optimum", ratio, "ratio", note);
      Add(&rows, at, "cumulative_moved_over_optimum", moved_sum / optimum_sum,
          "ratio", note);
      state_rows(at);
    }
    if (phase_end) {
      RowNote at_step = note;
      absl::StrAppend(&at_step.text, at_step.text.empty() ? "" : "; ",
                      "at step ", phase_max_step);
      Add(&rows, at, "max_moved_over_optimum", phase_max, "ratio", at_step);
    }
  }
  return rows;
}

}  // namespace kinds
}  // namespace chbench
