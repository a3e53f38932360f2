// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/provenance.h
// -----------------------------------------------------------------------------
//
// Where and how a run was measured: the machine (CPU model, logical CPUs,
// caches, kernel), the source tree's git state, the compiler, flags and
// library versions of this build, and meta.json, which records all of it
// next to each experiment's data.csv (results/README.md, "Provenance").
// The build's flags and library versions come from ThisBuild()
// (experiments/build_facts.h).
//
// Guarantees: nothing here fails; a fact that cannot be read is empty (or
// null in JSON). MetaJson's keys and their order are fixed.
//
// Example:
//   const GitState git = SourceGitState();
//   WriteResult(dir + "/meta.json",
//               MetaJson(spec, command_line, /*timing=*/false,
//                        spec.cells.size(), git, "null"));

#ifndef CHBENCH_EXPERIMENTS_PROVENANCE_H_
#define CHBENCH_EXPERIMENTS_PROVENANCE_H_

#include <cstddef>
#include <string>

#include "experiments/spec.h"

namespace chbench {

// The source tree's commit, and whether a tracked source file differs from
// it (results/, plots/figures*/ and README.md, which runs rewrite, do not
// count). commit is empty outside a git checkout.
struct GitState {
  std::string commit;
  bool dirty = false;
};
GitState SourceGitState();

// /proc/cpuinfo's first "model name", or "".
std::string CpuModel();

// {"cpu_model", "logical_cpus", "caches": [{"level", "type", "size"}],
// "kernel"}; caches from sysfs, else from sysconf (marked "source").
std::string MachineJson();

// The current time, e.g. "2026-12-04T10:00:00Z".
std::string UtcNow();

// gethostname(), or "".
std::string HostName();

// meta.json of one experiment's run: spec, command line, date, git state,
// compiler, flags, build type, CPU dispatch, machine, libraries, seeds,
// the node naming rule, the cell count, `shards_json` (ShardsJson) and, for
// a timing experiment, the noise policy and Google Benchmark's context.
std::string MetaJson(const Spec& spec, const std::string& command_line,
                     bool timing, size_t cells, const GitState& git,
                     const std::string& shards_json);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_PROVENANCE_H_
