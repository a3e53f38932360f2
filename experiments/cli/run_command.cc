// Copyright 2026 The chbench Authors.
//
// `chbench run <experiment|all> [--tier T] [--force] [--results-dir DIR]
//  [--jobs N]`: runs experiment sweeps (experiments/runner.h).

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_join.h"
#include "experiments/cli/commands.h"
#include "experiments/runner.h"
#include "experiments/spec.h"

namespace chbench {
namespace {

struct RunFlags {
  std::string experiment;
  std::string tier = "default";
  bool force = false;
  std::string results_dir;
  std::string spec_dir;
  int jobs = 0;
};

std::string SelfCommandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && s.back() == '\0') s.pop_back();
  for (char& c : s) {
    if (c == '\0') c = ' ';
  }
  return s;
}

}  // namespace

void AddRunCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* run = app.add_subcommand(
      "run", "Run experiment sweeps and write results/<experiment>/<run_id>/");
  run->add_option("experiment", flags->experiment,
                  "Experiment to run: all, " +
                      JoinViews(kExperimentNames))
      ->required();
  run->add_option("--tier", flags->tier,
                  "smoke | default | full (default: default)");
  run->add_flag("--force", flags->force,
                "Recompute cells that are already done");
  run->add_option("--results-dir", flags->results_dir,
                  "Output root (default: " + DefaultResultsDir() +
                      ", i.e. results/ in the source tree, or ./results "
                      "when the source tree is absent)");
  run->add_option("--spec-dir", flags->spec_dir,
                  "Directory of <experiment>.toml specs (default: " +
                      DefaultSpecDir() + ")");
  run->add_option("--jobs", flags->jobs,
                  "Threads for non-timing cells (default: all cores)");
  run->footer(
      "Tiers:\n"
      "  smoke    tiny sizes and 2 repetitions, for CI (all experiments in "
      "about a minute)\n"
      "  default  what `make experiments` runs (minutes): N up to 10^4, "
      "2^20 keys, 5-50 repetitions\n"
      "  full     publication sizes (adds N = 10^5, more repetitions; hours)\n"
      "Each cell is written to results/<exp>/<run_id>/cells/ as it finishes; "
      "a rerun skips finished cells (run_id = <tier>-<spec hash>), --force "
      "recomputes. Non-timing cells run in parallel, timing cells alone "
      "after the correctness gate. Exit status: 0 ok, 2 bad input, 1 "
      "failure.");
  run->callback([flags, exit_code] {
    if (flags->tier != "smoke" && flags->tier != "default" &&
        flags->tier != "full") {
      std::cerr << "chbench run: unknown tier '" << flags->tier
                << "'; valid tiers: smoke, default, full\n";
      *exit_code = 2;
      return;
    }
    if (flags->jobs < 0) {
      std::cerr << "chbench run: --jobs " << flags->jobs
                << " out of range; must be >= 1 (0 = all cores)\n";
      *exit_code = 2;
      return;
    }
    RunOptions o;
    o.tier = flags->tier;
    o.force = flags->force;
    o.results_dir = flags->results_dir;
    o.spec_dir = flags->spec_dir;
    o.jobs = flags->jobs;
    o.command_line = SelfCommandLine();
    const absl::Status s = RunExperiments({flags->experiment}, o);
    if (s.ok()) {
      *exit_code = 0;
      return;
    }
    std::cerr << "chbench run: " << s.message() << "\n";
    *exit_code = absl::IsInvalidArgument(s) ? 2 : 1;
  });
}

}  // namespace chbench
