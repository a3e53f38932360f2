// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/run_plan.h
// -----------------------------------------------------------------------------
//
// The plan of one `chbench run` or `chbench merge`: the specs it names,
// parsed and validated before anything runs (LoadSpecs), and their expansion
// into the work of this invocation (Expand): non-timing cells, and timing
// groups (the cells of one TimingGroupKey, measured together). A cell whose
// file exists is skipped unless forced; a timing group is measured again as
// a whole unless every one of its cell files exists. A sharded run keeps the
// units of its shard (ShardOfUnit, shards.h).
//
// Guarantees: the expansion order is the specs' (cells, then each group at
// its first cell), so the same specs give the same plan; the plan's jobs
// point into plan.specs, which must not change afterwards.
//
// Example:
//   Plan plan;
//   plan.results = "results";
//   absl::StatusOr<std::vector<Spec>> specs =
//       LoadSpecs({"all"}, DefaultSpecDir(), "smoke");
//   if (!specs.ok()) return specs.status();
//   plan.specs = std::move(*specs);
//   if (absl::Status s = Expand(Selection{}, &plan); !s.ok()) return s;

#ifndef CHBENCH_EXPERIMENTS_RUN_PLAN_H_
#define CHBENCH_EXPERIMENTS_RUN_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/spec.h"

namespace chbench {

struct Job {
  const Spec* spec;
  const Cell* cell;
  std::string path;  // results/<exp>/<run_id>/cells/<cell>.csv
};

// A timing group: its cells are measured together, interleaved, and every
// cell's file is written when the group ends.
struct TimingJob {
  const Spec* spec;
  std::vector<const Cell*> cells;
  std::vector<std::string> paths;
};

// What one invocation does, from the expansion on.
struct Plan {
  std::string results;           // the results root
  std::vector<Spec> specs;       // in the order named
  std::vector<std::string> dirs;  // results/<exp>/<run_id>, per spec
  std::vector<Job> work;          // non-timing cells to run
  std::vector<TimingJob> timing;  // timing groups to run
  // Per spec: how many cells and timing groups this shard runs.
  std::vector<std::pair<int64_t, int64_t>> shard_units;
  size_t skipped = 0;              // cells already done
  std::vector<std::string> notes;  // said before the run starts
};

// Which units this invocation takes (the run options that matter here).
struct Selection {
  bool merge = false;  // run nothing; report what is missing
  bool force = false;  // also the units whose files exist
  int shard = 0;       // 1 .. shards; shards == 0: unsharded
  int shards = 0;
};

// The experiment names ("all" expanded) and their parsed, validated specs
// from <spec_dir>/<name>.toml at `tier`. InvalidArgument for an unknown
// name or a bad spec.
absl::StatusOr<std::vector<Spec>> LoadSpecs(
    const std::vector<std::string>& experiments, const std::string& spec_dir,
    const std::string& tier);

// Fills plan->dirs, work, timing, shard_units, skipped and notes (earlier
// runs of a changed spec) from plan->specs. A merge runs nothing: it is
// InvalidArgument naming the cells (and shard records) that are missing.
absl::Status Expand(const Selection& selection, Plan* plan);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_RUN_PLAN_H_
