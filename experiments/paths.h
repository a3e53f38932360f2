// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/paths.h
// -----------------------------------------------------------------------------
//
// The default places of the experiment specs and the results: the source
// tree this binary was built from (its path is compiled into paths.cc only,
// so that no other unit depends on where the tree lives).
//
// Guarantees: DefaultSpecDir() is <source dir>/experiments; DefaultResultsDir()
// is <source dir>/results while the source tree exists, else the relative
// "results" (a binary copied elsewhere writes beside itself).
//
// Example:
//   const std::string dir = options.results_dir.empty() ? DefaultResultsDir()
//                                                       : options.results_dir;

#ifndef CHBENCH_EXPERIMENTS_PATHS_H_
#define CHBENCH_EXPERIMENTS_PATHS_H_

#include <string>

namespace chbench {

// The source tree's experiments/ folder (the *.toml specs).
std::string DefaultSpecDir();

// <source dir>/results when the source tree exists, else ./results.
std::string DefaultResultsDir();

// The source tree's root (git state for meta.json).
std::string SourceDir();

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_PATHS_H_
