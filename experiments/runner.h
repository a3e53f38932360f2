// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: runner.h
// -----------------------------------------------------------------------------
//
// The experiment runner behind `chbench run`. For each experiment it loads
// experiments/<name>.toml (spec.h), expands the cells of the tier, and
//   1. runs every non-timing cell on a pool of `jobs` threads, writing
//      results/<exp>/<run_id>/cells/<Cell::Name()>.csv (atomically) per cell;
//      a cell whose file exists is skipped unless `force`;
//   2. checks the regression checksums (every registry algorithm's
//      MappingChecksum equals its golden value) and then runs the timing
//      groups (experiments/kinds/kind.h: the cells of one N, key set, hash
//      and scenario) one at a time, alone; each group's cells are measured
//      in the same interleaved rounds (bench/harness.h) and a group is
//      remeasured as a whole unless all its cell files exist;
//   3. assembles data.csv (cells in expansion order), summary.csv (per
//      configuration and metric: n, n_eff, median with its order-statistic
//      95 % interval, min, max, coefficient of variation, mean with its
//      Student-t interval, noisy flag; results/README.md) and meta.json;
//      writes <results>/registry.json (`chbench list --json`).
// A failing cell or group (an error or an exception) is an error line and
// exit status 1; the other cells still run.
//
// Sharded runs (`chbench run --shard I/N`, e.g. a Slurm job array) run the
// units of one shard (ShardOfUnit, shards.h) into the same directories, each
// writing the shard record <dir>/shards/<I>-of-<N>.toml; `chbench merge` (or a
// plain run once every cell exists) checks the records agree and assembles
// as above, with every shard's host, machine and commit in meta.json. Cells
// are deterministic, so a merged run equals an unsharded one in every
// non-timing row.
//
// Faults: SIGINT/SIGTERM finish the cells in progress and stop (exit 130); a
// failed write stops the run (exit 1). Cell files are written atomically
// (write a temporary file, rename), so an interrupted or killed run leaves
// only complete cells and the same command resumes it. A changed spec is a
// new run_id (a new directory), said on stderr; earlier runs stay.
//
// Non-timing cells: repetition r of a block uses seed s = seed + r. The seed
// selects the key set (GenerateKeys(keyset, keys, s)), the random removals
// (Sfc64(s ^ salt)) and salts node names (workload/node_names.h: node i is
// "node-<i>" for s = 0 and "node-<i>-s<s>" otherwise), so every repetition
// also draws a fresh ring / table layout. Timing cells run at one seed; their repetitions are the
// measurement rounds.

#ifndef CHBENCH_EXPERIMENTS_RUNNER_H_
#define CHBENCH_EXPERIMENTS_RUNNER_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/result_row.h"
#include "experiments/spec.h"

namespace chbench {

struct RunOptions {
  std::string tier = "default";
  bool force = false;
  // Sharded run (`--shard I/N`, 1 <= shard <= shards): only the cells of
  // shard I (ShardOfUnit, shards.h) run; each experiment gets the record
  // <dir>/shards/<I>-of-<N>.toml (commit, spec hash, tier, host, machine,
  // cells) and is not assembled. shards == 0: unsharded.
  int shard = 0;
  int shards = 0;
  // `chbench merge`: run nothing; assemble every experiment whose cells all
  // exist, after checking its shard records agree (same N, commit, spec and
  // tier, and the commit of this checkout). Missing cells or disagreeing
  // shards are InvalidArgument naming them.
  bool merge = false;
  std::string results_dir;  // empty: DefaultResultsDir() (paths.h)
  std::string spec_dir;     // empty: DefaultSpecDir() (paths.h)
  int jobs = 0;             // 0: std::thread::hardware_concurrency()
  std::string command_line; // recorded in meta.json
};

// Runs one cell and returns its rows (run_id filled with `run_id`). A timing
// cell is measured as a group of one (no peers of other cells).
absl::StatusOr<std::vector<ResultRow>> RunCell(const Cell& cell,
                                               const std::string& run_id);

// The regression checksums: OK, or an error naming each algorithm whose
// MappingChecksum differs from its registry golden value (a pin generated
// from the code: it catches an unintended change of mapping; correctness
// itself is tested against external vectors and reference models).
absl::Status CheckGoldens();

// Runs `experiments` (names from kExperimentNames, or "all"). Errors:
// InvalidArgument for a bad experiment name, tier or spec, an unwritable
// results directory, or (merge) missing cells or disagreeing shards (exit
// code 2); Cancelled when SIGINT or SIGTERM stopped the run (exit code 130:
// the cells in progress are finished and written, the next run resumes);
// anything else is an internal failure (exit code 1). A failure to write a
// result file (a full disk) stops the run at once: the cells written so far
// stay, and a rerun resumes.
absl::Status RunExperiments(const std::vector<std::string>& experiments,
                            const RunOptions& options);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_RUNNER_H_
