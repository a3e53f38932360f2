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
// both files are written atomically with WriteResult (signals.h). Cell files
// are read by column name: one written by an earlier chbench, without the
// optional columns (result_row.h kOptionalColumns), reads them as empty.
// DataLoss for an unreadable cell file or one whose header is not a chbench
// cell header (written by another version of chbench): rerun with --force.
//
// Example:
//   if (absl::Status s = Assemble(spec, dir); !s.ok()) return s;

#ifndef CHBENCH_EXPERIMENTS_ASSEMBLE_H_
#define CHBENCH_EXPERIMENTS_ASSEMBLE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "experiments/spec.h"

namespace chbench {

absl::Status Assemble(const Spec& spec, const std::string& dir);

// summary.csv of `rows` (data.csv's rows, without the header, in data.csv
// order) written to `dir`: the second half of Assemble.
absl::Status WriteSummary(const std::vector<std::vector<std::string>>& rows,
                          const std::string& dir);

// Rewrites summary.csv of the finished run in `dir` from its data.csv, with
// this build's summary statistics (metrics.h; e.g. after an interval rule
// changed). data.csv and meta.json are not touched. For data.csv written by
// the same build, the result equals the summary.csv Assemble wrote, byte for
// byte. data.csv is read by column name: one written before the optional
// columns (result_row.h kOptionalColumns) reads them as empty; one written
// before the flag columns (noisy, n_eff) takes each group's flags from the
// run's summary.csv, which has them. InvalidArgument when `dir` has no
// readable data.csv or its header names a column chbench does not have or
// lacks a required one; DataLoss for a malformed row or a configuration the
// old summary lacks.
absl::Status Resummarize(const std::string& dir);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_ASSEMBLE_H_
