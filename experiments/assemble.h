// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/assemble.h
// -----------------------------------------------------------------------------
//
// Assemble: one experiment's data.csv and summary.csv from its cell files
// (<dir>/cells/<Cell::Name()>.csv). data.csv is every row of every cell in
// expansion order. summary.csv has one row per configuration and metric
// (every column but run_id, seed, repetition, value, note and the flags, in
// order of first appearance) with n, n_eff, the median with its
// order-statistic 95 % interval, min, max, cv, the mean with its Student-t
// interval and noisy (metrics.h Summarize; results/README.md). noisy is 1
// when a row of the group has noisy = 1; n_eff is 1 when a row has n_eff = 1.
// The note column is never read.
//
// Guarantees: deterministic (the same cell files give the same bytes);
// both files are written atomically with WriteResult (signals.h). DataLoss
// for an unreadable cell file or one with another column count (written by
// another version of chbench): rerun with --force.
//
// Example:
//   if (absl::Status s = Assemble(spec, dir); !s.ok()) return s;

#ifndef CHBENCH_EXPERIMENTS_ASSEMBLE_H_
#define CHBENCH_EXPERIMENTS_ASSEMBLE_H_

#include <string>

#include "absl/status/status.h"
#include "experiments/spec.h"

namespace chbench {

absl::Status Assemble(const Spec& spec, const std::string& dir);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_ASSEMBLE_H_
