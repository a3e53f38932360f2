// Copyright 2026 The chbench Authors.
//
// `chbench run <experiment|all> [--tier T] [--force] [--results-dir DIR]
//  [--jobs N] [--shard I/N]`: runs experiment sweeps (experiments/runner.h).
// `chbench merge <experiment|all> [--tier T] [--results-dir DIR]`: assembles
// the results of sharded runs once every shard is done.
// `chbench summarize RUN_DIR...`: rewrites finished runs' summary.csv from
// their data.csv.

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "experiments/assemble.h"
#include "experiments/cli/commands.h"
#include "experiments/paths.h"
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
  std::string shard;
};

// The largest N of --shard I/N (far more machines than any sweep has units).
constexpr int kMaxShards = 100000;

// Parses "I/N" (1 <= I <= N <= kMaxShards) into *shard, *shards; an error
// message naming the bad value otherwise.
bool ParseShard(const std::string& text, int* shard, int* shards,
                std::string* error) {
  const std::vector<std::string> parts = absl::StrSplit(text, '/');
  int i = 0, n = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &i) ||
      !absl::SimpleAtoi(parts[1], &n)) {
    *error = "--shard '" + text +
             "' is not I/N; expected the shard number and the shard count, "
             "e.g. --shard 2/3";
    return false;
  }
  if (n < 1 || n > kMaxShards) {
    *error = "--shard '" + text + "': the shard count " + std::to_string(n) +
             " is out of range; valid: 1.." + std::to_string(kMaxShards);
    return false;
  }
  if (i < 1 || i > n) {
    *error = "--shard '" + text + "': the shard number " + std::to_string(i) +
             " is out of range; valid: 1.." + std::to_string(n);
    return false;
  }
  *shard = i;
  *shards = n;
  return true;
}

bool ValidTier(const std::string& command, const std::string& tier,
               int* exit_code) {
  if (tier == "smoke" || tier == "default" || tier == "full") return true;
  std::cerr << "chbench " << command << ": unknown tier '" << tier
            << "'; valid tiers: smoke, default, full\n";
  *exit_code = 2;
  return false;
}

// Exit status of a RunExperiments status.
int ExitCode(const absl::Status& s) {
  if (s.ok()) return 0;
  if (absl::IsInvalidArgument(s)) return 2;
  if (absl::IsCancelled(s)) return 130;  // 128 + SIGINT, as shells report it
  return 1;
}

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
                  "Experiment to run: all, " + JoinViews(kExperimentNames))
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
  run->add_option("--shard", flags->shard,
                  "I/N: run only shard I of N (1 <= I <= N) and record it in "
                  "<run>/shards/; `chbench merge` assembles once all N are "
                  "done (a Slurm job array: experiments/slurm/)");
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
      "after the correctness gate. Ctrl-C finishes the cells in progress "
      "and stops (a rerun resumes). Exit status: 0 ok, 2 bad input, 1 "
      "failure, 130 interrupted.");
  run->callback([flags, exit_code] {
    if (!ValidTier("run", flags->tier, exit_code)) return;
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
    if (!flags->shard.empty()) {
      std::string error;
      if (!ParseShard(flags->shard, &o.shard, &o.shards, &error)) {
        std::cerr << "chbench run: " << error << "\n";
        *exit_code = 2;
        return;
      }
    }
    const absl::Status s = RunExperiments({flags->experiment}, o);
    *exit_code = ExitCode(s);
    if (!s.ok()) std::cerr << "chbench run: " << s.message() << "\n";
  });
}

void AddMergeCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* merge = app.add_subcommand(
      "merge",
      "Assemble data.csv, summary.csv and meta.json of sharded runs "
      "(`run --shard I/N`) once every shard is done");
  merge
      ->add_option("experiment", flags->experiment,
                   "Experiment to merge: all, " + JoinViews(kExperimentNames))
      ->required();
  merge->add_option("--tier", flags->tier,
                    "smoke | default | full (default: default)");
  merge->add_option(
      "--results-dir", flags->results_dir,
      "Output root the shards wrote to (default: " + DefaultResultsDir() + ")");
  merge->add_option("--spec-dir", flags->spec_dir,
                    "Directory of <experiment>.toml specs (default: " +
                        DefaultSpecDir() + ")");
  merge->footer(
      "Runs nothing. Refuses (exit 2) when a cell is missing (naming the "
      "shards with no record) or when the shards disagree: different "
      "--shard splits, commits, specs or tiers, or a commit other than this "
      "checkout's. meta.json lists every shard's host, machine, commit and "
      "date; when timing groups ran on more than one machine it says so "
      "(timing_mixed_machines), since absolute times of different groups "
      "are then not comparable (ratios within a group are: a group never "
      "spans shards).");
  merge->callback([flags, exit_code] {
    if (!ValidTier("merge", flags->tier, exit_code)) return;
    RunOptions o;
    o.tier = flags->tier;
    o.results_dir = flags->results_dir;
    o.spec_dir = flags->spec_dir;
    o.merge = true;
    o.command_line = SelfCommandLine();
    const absl::Status s = RunExperiments({flags->experiment}, o);
    *exit_code = ExitCode(s);
    if (!s.ok()) std::cerr << "chbench merge: " << s.message() << "\n";
  });
}

void AddSummarizeCommand(CLI::App& app, int* exit_code) {
  auto dirs = std::make_shared<std::vector<std::string>>();
  CLI::App* summarize = app.add_subcommand(
      "summarize",
      "Rewrite summary.csv of finished runs from their data.csv with this "
      "build's summary statistics");
  summarize
      ->add_option("run_dir", *dirs,
                   "Run directories <results>/<experiment>/<run_id>/")
      ->required();
  summarize->footer(
      "Measures nothing; data.csv and meta.json stay as they are (meta.json "
      "still describes the run that measured data.csv). On a run written by "
      "the same build the new summary.csv equals the old one byte for byte. "
      "Stops at the first directory that is not a finished run (exit 2).");
  summarize->callback([dirs, exit_code] {
    for (const std::string& dir : *dirs) {
      const absl::Status s = Resummarize(dir);
      if (!s.ok()) {
        *exit_code = ExitCode(s);
        std::cerr << "chbench summarize: " << s.message() << "\n";
        return;
      }
      std::cout << "chbench summarize: wrote " << dir << "/summary.csv\n";
    }
  });
}

}  // namespace chbench
