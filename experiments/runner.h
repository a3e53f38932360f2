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
//   2. checks the correctness gate (every registry algorithm's
//      MappingChecksum equals its golden value) and then runs the timing
//      cells (lookup, build, hash_speed) one at a time;
//   3. assembles data.csv (cells in expansion order), summary.csv (median,
//      mean and Student-t 95 % interval over repetitions), meta.json and,
//      for timing experiments, gbench.json.
//
// Repetition r of a block uses seed s = seed + r. The seed selects the key
// set (GenerateKeys(keyset, keys, s)), the random removals (Sfc64(s ^ salt))
// and salts node names: node i is "node-<i>" for s = 0 and "node-<i>-s<s>"
// otherwise, so every repetition also draws a fresh ring / table layout.

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
  std::string results_dir;  // empty: DefaultResultsDir()
  std::string spec_dir;     // empty: <source dir>/experiments
  int jobs = 0;             // 0: std::thread::hardware_concurrency()
  std::string command_line; // recorded in meta.json
};

// <CHBENCH_SOURCE_DIR>/results when the source tree exists, else ./results.
std::string DefaultResultsDir();
std::string DefaultSpecDir();

// Node i's name under seed s (see file comment).
std::string NodeName(size_t i, uint64_t seed);

// Runs one cell and returns its rows (run_id filled with `run_id`).
absl::StatusOr<std::vector<ResultRow>> RunCell(const Cell& cell,
                                               const std::string& run_id,
                                               const std::string& gbench_path);

// The correctness gate: OK, or an error naming each algorithm whose
// MappingChecksum differs from its registry golden value.
absl::Status CheckGoldens();

// Runs `experiments` (names from kExperimentNames, or "all"). Errors:
// InvalidArgument for a bad experiment name, tier or spec (exit code 2);
// anything else is an internal failure (exit code 1).
absl::Status RunExperiments(const std::vector<std::string>& experiments,
                            const RunOptions& options);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_RUNNER_H_
