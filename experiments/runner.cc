// Copyright 2026 The chbench Authors.

#include "experiments/runner.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/checksum.h"
#include "algorithms/registry.h"
#include "bench/harness.h"
#include "experiments/assemble.h"
#include "experiments/csv.h"
#include "experiments/kinds/kind.h"
#include "experiments/paths.h"
#include "experiments/progress.h"
#include "experiments/provenance.h"
#include "experiments/registry_json.h"
#include "experiments/run_plan.h"
#include "experiments/shards.h"
#include "experiments/signals.h"

namespace chbench {

namespace fs = std::filesystem;

absl::StatusOr<std::vector<ResultRow>> RunCell(const Cell& cell,
                                               const std::string& run_id) {
  const KindInfo* kind = FindKind(cell.kind);
  if (kind == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown cell kind '", cell.kind, "'"));
  }
  if (!cell.timing()) return kind->run_cell(cell, run_id);
  const Cell* const group[] = {&cell};
  absl::StatusOr<std::vector<std::vector<ResultRow>>> rows =
      kind->run_group(std::span<const Cell* const>(group, 1), run_id);
  if (!rows.ok()) return rows.status();
  return std::move(rows->front());
}

absl::Status CheckGoldens() {
  std::vector<std::string> bad;
  for (const AlgorithmInfo& info : Algorithms()) {
    absl::StatusOr<std::unique_ptr<ConsistentHash>> a =
        info.make(AlgorithmParams{});
    if (!a.ok()) {
      bad.push_back(
          absl::StrCat(std::string(info.name), ": ", a.status().message()));
      continue;
    }
    absl::StatusOr<uint64_t> sum = MappingChecksum(**a);
    if (!sum.ok()) {
      bad.push_back(
          absl::StrCat(std::string(info.name), ": ", sum.status().message()));
    } else if (*sum != info.golden()) {
      bad.push_back(absl::StrFormat(
          "%s: MappingChecksum 0x%016x != registry golden 0x%016x", info.name,
          *sum, info.golden()));
    }
  }
  if (bad.empty()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "regression checksum check failed (no timing was run): ",
      absl::StrJoin(bad, "; "),
      ". An algorithm's mapping changed: fix it, or regenerate the goldens "
      "(CHBENCH_REGENERATE_GOLDEN=1) if the change is intended."));
}

namespace {

std::string Rows(const std::vector<ResultRow>& rows) {
  std::string text = CsvHeader();
  for (const ResultRow& r : rows) text += FormatRow(r);
  return text;
}

// A failure of one cell or group as an error line; exceptions included, so
// that nothing escapes a worker thread (a bad cell is an error, never an
// abort).
template <typename F>
absl::Status Guarded(const std::string& what, F&& f) {
  absl::Status s;
  try {
    s = f();
  } catch (const std::exception& e) {
    s = absl::InternalError(absl::StrCat("exception: ", e.what()));
  } catch (...) {
    s = absl::InternalError("unknown exception");
  }
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(what, ": ", s.message()));
}

absl::Status RunJob(const Job& j) {
  return Guarded(absl::StrCat(j.spec->experiment, "/", j.cell->Name()),
                 [&]() -> absl::Status {
                   absl::StatusOr<std::vector<ResultRow>> rows =
                       RunCell(*j.cell, j.spec->run_id);
                   if (!rows.ok()) return rows.status();
                   return WriteResult(j.path, Rows(*rows));
                 });
}


absl::Status RunTimingJob(const TimingJob& j) {
  const Cell& first = *j.cells.front();
  return Guarded(
      absl::StrCat(j.spec->experiment, "/", first.Name(), " (timing group of ",
                   j.cells.size(), ")"),
      [&]() -> absl::Status {
        const KindInfo* kind = FindKind(first.kind);
        if (kind == nullptr || kind->run_group == nullptr) {
          return absl::InternalError(
              absl::StrCat("not a timing kind: '", first.kind, "'"));
        }
        absl::StatusOr<std::vector<std::vector<ResultRow>>> rows =
            kind->run_group(j.cells, j.spec->run_id);
        if (!rows.ok()) return rows.status();
        for (size_t i = 0; i < j.cells.size(); ++i) {
          if (absl::Status s = WriteResult(j.paths[i], Rows((*rows)[i]));
              !s.ok()) {
            return s;
          }
        }
        return absl::OkStatus();
      });
}

// Phase 2: what must hold before anything runs. Every kind's preflight
// (KindInfo::preflight) checks its environment once for the cells it is
// about to run, so a missing package is a one-line error (exit 2), not one
// failed cell per configuration. The cell directories must be writable.
absl::Status Preflight(const RunOptions& o, const Plan& plan) {
  for (const KindInfo& kind : Kinds()) {
    if (kind.preflight == nullptr) continue;
    std::vector<const Cell*> cells;
    for (const Job& j : plan.work) {
      if (j.cell->kind == kind.name) cells.push_back(j.cell);
    }
    for (const TimingJob& j : plan.timing) {
      for (const Cell* c : j.cells) {
        if (c->kind == kind.name) cells.push_back(c);
      }
    }
    if (cells.empty()) continue;
    if (absl::Status s = kind.preflight(cells); !s.ok()) return s;
  }
  if (o.merge) return absl::OkStatus();
  for (const std::string& dir : plan.dirs) {
    for (const char* sub : {"/cells", "/shards"}) {
      if (o.shards == 0 && std::string_view(sub) == "/shards") continue;
      std::error_code ec;
      fs::create_directories(dir + sub, ec);
      if (ec) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cannot write results: cannot create ", dir, sub, ": ",
            ec.message(), " (--results-dir ", plan.results, ")"));
      }
    }
  }
  return absl::OkStatus();
}

// What the phases that run cells report.
struct Outcome {
  std::mutex mu;
  std::vector<std::string> errors;
  std::atomic<size_t> written{0};  // cell files
  void Add(const absl::Status& s, size_t cells) {
    if (s.ok()) {
      written += cells;
      return;
    }
    std::lock_guard<std::mutex> lock(mu);
    errors.push_back(std::string(s.message()));
  }
};

// Phase 3: the non-timing cells on a pool of `jobs` threads.
void RunPool(const Plan& plan, int jobs, Progress* progress, Outcome* out) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (;;) {
      if (Stopping()) return;
      const size_t i = next.fetch_add(1);
      if (i >= plan.work.size()) return;
      const Job& j = plan.work[i];
      const absl::Status s = RunJob(j);
      out->Add(s, 1);
      progress->Done(absl::StrCat(j.spec->experiment, "/", j.cell->Name(),
                                  s.ok() ? "" : " FAILED"),
                     /*timing=*/false);
    }
  };
  std::vector<std::thread> pool;
  const size_t threads = std::min<size_t>(
      static_cast<size_t>(jobs), std::max<size_t>(plan.work.size(), 1));
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
}

// Phase 4: the regression checksums, then the timing groups, alone.
absl::Status RunTimingGroups(const Plan& plan, Progress* progress,
                             Outcome* out) {
  if (plan.timing.empty() || Stopping()) return absl::OkStatus();
  if (absl::Status s = CheckGoldens(); !s.ok()) return s;
  progress->StartTiming();
  for (const TimingJob& j : plan.timing) {
    if (Stopping()) break;
    const absl::Status s = RunTimingJob(j);
    out->Add(s, j.cells.size());
    progress->Done(
        absl::StrCat(
            j.spec->experiment, "/", j.cells[0]->Name(),
            j.cells.size() > 1 ? absl::StrCat(" +", j.cells.size() - 1) : "",
            s.ok() ? "" : " FAILED"),
        /*timing=*/true);
  }
  return absl::OkStatus();
}

// A failed write or a stop signal ends the run here (see runner.h).
absl::Status StoppedEarly(const Plan& plan, const Outcome& out) {
  if (WriteFailed()) {
    return absl::InternalError(absl::StrCat(
        "cannot write results (stopped at the first failed write; ",
        out.written.load(),
        " cell file(s) of this run are complete and kept, no partial file is "
        "left): ",
        FirstWriteError(), ". Free space or fix ", plan.results,
        ", then rerun the same command: it resumes."));
  }
  if (const int sig = StopSignal(); sig != 0) {
    return absl::CancelledError(absl::StrCat(
        "interrupted by ", sig == SIGINT ? "SIGINT" : "SIGTERM", ": ",
        out.written.load(),
        " cell file(s) written by this run are complete and "
        "kept; nothing was assembled. Rerun the same command to resume."));
  }
  return absl::OkStatus();
}

// Phase 5, sharded: this shard's record per experiment (the merge
// assembles).
void RecordShard(const RunOptions& o, const Plan& plan, const GitState& git,
                 Outcome* out) {
  for (size_t i = 0; i < plan.specs.size(); ++i) {
    ShardRecord r;
    r.shard = o.shard;
    r.shards = o.shards;
    r.git_commit = git.commit;
    r.git_dirty = git.dirty;
    r.spec_hash = absl::StrFormat("%016x", plan.specs[i].hash);
    r.tier = plan.specs[i].tier;
    r.host = HostName();
    r.cpu_model = CpuModel();
    r.date_utc = UtcNow();
    r.command_line = o.command_line;
    r.machine_json = MachineJson();
    r.cells = plan.shard_units[i].first;
    r.timing_groups = plan.shard_units[i].second;
    out->Add(WriteResult(absl::StrCat(plan.dirs[i], "/shards/",
                                      ShardFileName(o.shard, o.shards)),
                         ShardRecordToml(r)),
             0);
  }
}

// Phase 5: every experiment whose cells are all there and whose shards (if
// any) agree gets data.csv, summary.csv and meta.json. Experiments this
// invocation computed no cell of and that are assembled already keep their
// files (meta.json names the commit and date that measured them).
void AssembleAll(const RunOptions& o, const Plan& plan, const GitState& git,
                 Progress* progress, Outcome* out,
                 std::vector<std::string>* refused) {
  for (size_t i = 0; i < plan.specs.size(); ++i) {
    const Spec& spec = plan.specs[i];
    const std::string& dir = plan.dirs[i];
    bool computed = false;
    for (const Job& j : plan.work) computed |= j.spec == &spec;
    for (const TimingJob& j : plan.timing) computed |= j.spec == &spec;
    if (!o.merge && !computed && fs::exists(dir + "/data.csv") &&
        fs::exists(dir + "/meta.json")) {
      progress->Message(
          absl::StrCat("chbench run: ", dir, " is complete; nothing to do"));
      continue;
    }
    absl::StatusOr<std::vector<ShardRecord>> records = ReadShardRecords(dir);
    absl::Status agree =
        records.ok() ? CheckShards(spec, *records, git) : records.status();
    if (!agree.ok()) {
      refused->push_back(std::string(agree.message()));
      continue;
    }
    bool timing = false;
    for (const Cell& c : spec.cells) timing |= c.timing();
    if (absl::Status s = Assemble(spec, dir); !s.ok()) {
      out->errors.push_back(
          absl::StrCat(spec.experiment, ": not assembled: ", s.message()));
      continue;
    }
    if (absl::Status s = WriteResult(
            dir + "/meta.json",
            MetaJson(spec, o.command_line, timing, spec.cells.size(), git,
                     ShardsJson(*records)));
        !s.ok()) {
      out->errors.push_back(std::string(s.message()));
      continue;
    }
    progress->Message(absl::StrCat(
        "chbench ", o.merge ? "merge" : "run", ": wrote ", dir, "/data.csv (",
        spec.cells.size(), " cells",
        records->empty() ? "" : absl::StrCat(", ", records->size(), " shards"),
        ")"));
  }
}

absl::Status Errors(const std::vector<std::string>& errors) {
  return absl::InternalError(absl::StrCat(errors.size(), " error(s): ",
                                          absl::StrJoin(errors, "\n  ")));
}

}  // namespace

absl::Status RunExperiments(const std::vector<std::string>& experiments,
                            const RunOptions& o) {
  const std::string spec_dir =
      o.spec_dir.empty() ? DefaultSpecDir() : o.spec_dir;
  Plan plan;
  plan.results = o.results_dir.empty() ? DefaultResultsDir() : o.results_dir;
  absl::StatusOr<std::vector<Spec>> specs =
      LoadSpecs(experiments, spec_dir, o.tier);
  if (!specs.ok()) return specs.status();
  plan.specs = std::move(*specs);
  // Whole-group re-measurements of timing groups measured in a slow state
  // (bench/harness.h) may take this much wall time per process: the default
  // tier keeps its 15-minute budget through an hour of slow states (a fresh
  // clone's `make experiments` at d8c779f spent about 230 s on them); the
  // full tier has no budget.
  ProcessSentinelReference().SetRetryBudget(
      o.tier == "default" ? std::optional<double>(60)
      : o.tier == "smoke" ? std::optional<double>(10)
                          : std::nullopt);
  const GitState git = SourceGitState();
  const Selection selection{o.merge, o.force, o.shard, o.shards};
  if (absl::Status s = Expand(selection, &plan); !s.ok()) return s;
  if (absl::Status s = Preflight(o, plan); !s.ok()) return s;
  StopSignals stop_signals;
  Progress progress(plan.work.size(), plan.timing.size());
  for (const std::string& n : plan.notes) progress.Message(n);
  if (plan.skipped) {
    progress.Message(absl::StrCat("chbench run: ", plan.skipped,
                                  " cells already done (use --force to redo)"));
  }
  Outcome out;
  RunPool(plan, o.jobs > 0 ? o.jobs
                           : std::max(1u, std::thread::hardware_concurrency()),
          &progress, &out);
  if (absl::Status s = RunTimingGroups(plan, &progress, &out); !s.ok()) {
    return s;
  }
  if (absl::Status s = StoppedEarly(plan, out); !s.ok()) return s;
  if (o.shards > 0) {
    RecordShard(o, plan, git, &out);
    if (!out.errors.empty()) return Errors(out.errors);
    progress.Message(
        absl::StrCat("chbench run: shard ", o.shard, "/", o.shards, " done (",
                     out.written.load(),
                     " cell file(s) written); once every shard is done, "
                     "`chbench merge` assembles data.csv"));
    return absl::OkStatus();
  }
  // What the names in these results mean, then the experiments.
  if (absl::Status s = WriteResult(plan.results + "/registry.json",
                                   RegistryJson(spec_dir));
      !s.ok()) {
    out.errors.push_back(std::string(s.message()));
  }
  std::vector<std::string> refused;
  AssembleAll(o, plan, git, &progress, &out, &refused);
  if (!out.errors.empty()) return Errors(out.errors);
  if (!refused.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("not assembled: ", absl::StrJoin(refused, "; ")));
  }
  return absl::OkStatus();
}

}  // namespace chbench
