// Copyright 2026 The chbench Authors.

#include "experiments/runner.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/checksum.h"
#include "algorithms/registry.h"
#include "bench/cluster/memcached.h"
#include "bench/timing.h"
#include "experiments/csv.h"
#include "experiments/kinds/kind.h"
#include "experiments/metrics.h"
#include "experiments/registry_json.h"

namespace chbench {

namespace fs = std::filesystem;

std::string DefaultResultsDir() {
  std::error_code ec;
  if (fs::is_directory(CHBENCH_SOURCE_DIR, ec)) {
    return std::string(CHBENCH_SOURCE_DIR) + "/results";
  }
  return "results";
}

std::string DefaultSpecDir() {
  return std::string(CHBENCH_SOURCE_DIR) + "/experiments";
}

std::string NodeName(size_t i, uint64_t seed) {
  return seed == 0 ? absl::StrCat("node-", i)
                   : absl::StrCat("node-", i, "-s", seed);
}

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
    } else if (*sum != info.golden) {
      bad.push_back(absl::StrFormat(
          "%s: MappingChecksum 0x%016x != registry golden 0x%016x", info.name,
          *sum, info.golden));
    }
  }
  if (bad.empty()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "regression checksum check failed (no timing was run): ", absl::StrJoin(bad, "; "),
      ". An algorithm's mapping changed: fix it, or regenerate the goldens "
      "(CHBENCH_REGENERATE_GOLDEN=1) if the change is intended."));
}

// ======================================================= orchestration
namespace {

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      out += absl::StrFormat("\\u%04x", c);
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

std::string Command(const std::string& cmd) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, n);
  pclose(f);
  return Trim(out);
}

std::string ReadSmall(const std::string& path) {
  absl::StatusOr<std::string> s = ReadFile(path);
  return s.ok() ? Trim(*s) : std::string();
}

std::string MachineJson() {
  std::string cpu;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (absl::StartsWith(line, "model name")) {
      cpu = Trim(line.substr(line.find(':') + 1));
      break;
    }
  }
  std::vector<std::string> caches;
  for (int i = 0; i < 8; ++i) {
    const std::string dir =
        absl::StrCat("/sys/devices/system/cpu/cpu0/cache/index", i);
    if (!fs::exists(dir)) break;
    caches.push_back(absl::StrCat(
        "{\"level\": ", JsonString(ReadSmall(dir + "/level")),
        ", \"type\": ", JsonString(ReadSmall(dir + "/type")),
        ", \"size\": ", JsonString(ReadSmall(dir + "/size")), "}"));
  }
  struct utsname u;
  std::string kernel;
  if (uname(&u) == 0)
    kernel = absl::StrCat(u.sysname, " ", u.release, " ", u.machine);
  return absl::StrCat(
      "{\"cpu_model\": ", JsonString(cpu),
      ", \"logical_cpus\": ", std::thread::hardware_concurrency(),
      ", \"caches\": [", absl::StrJoin(caches, ", "),
      "], \"kernel\": ", JsonString(kernel), "}");
}

std::string MetaJson(const Spec& spec, const RunOptions& o, bool timing,
                     size_t cells) {
  const std::string src = CHBENCH_SOURCE_DIR;
  const std::string commit =
      Command("git -C '" + src + "' rev-parse HEAD 2>/dev/null");
  // Dirty = a tracked source file differs from the commit. Untracked files
  // and the suite's outputs (results/, plots/figures*/, the README headline)
  // do not count: a rerun rewrites committed results before this is read.
  const std::string dirty = Command(
      "git --no-optional-locks -C '" + src +
      "' status --porcelain --untracked-files=no -- . ':(exclude)results' "
      "':(exclude,glob)plots/figures*/**' ':(exclude)README.md' 2>/dev/null");
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::vector<std::string> seeds;
  for (uint64_t s : spec.seeds) seeds.push_back(std::to_string(s));
  std::string j = "{\n";
  auto kv = [&j](std::string_view k, const std::string& v, bool last = false) {
    absl::StrAppend(&j, "  ", JsonString(k), ": ", v, last ? "\n" : ",\n");
  };
  kv("run_id", JsonString(spec.run_id));
  kv("experiment", JsonString(spec.experiment));
  kv("description", JsonString(spec.description));
  kv("tier", JsonString(spec.tier));
  kv("spec_file", JsonString(spec.display_path));
  kv("spec_hash", JsonString(absl::StrFormat("%016x", spec.hash)));
  kv("command_line", JsonString(o.command_line));
  kv("date_utc", JsonString(date));
  kv("git_commit", commit.empty() ? "null" : JsonString(commit));
  kv("git_dirty", commit.empty() ? "null" : (dirty.empty() ? "false" : "true"));
  kv("compiler", JsonString(absl::StrCat("g++ ", __VERSION__)));
  kv("cxx_flags", JsonString(CHBENCH_CXX_FLAGS));
  kv("build_type", JsonString(CHBENCH_BUILD_TYPE));
  kv("machine", MachineJson());
  kv("libraries",
     absl::StrCat(
         "{\"absl\": ", JsonString(CHBENCH_ABSL_VERSION),
         ", \"benchmark\": ", JsonString(CHBENCH_BENCHMARK_VERSION),
         ", \"boost\": ", JsonString(CHBENCH_BOOST_VERSION),
         ", \"xxhash\": ", JsonString(CHBENCH_XXHASH_VERSION),
         ", \"murmurhash\": ", JsonString(CHBENCH_MURMURHASH_VERSION),
         ", \"tomlplusplus\": ", JsonString(CHBENCH_TOMLPLUSPLUS_VERSION),
         ", \"openssl\": ", JsonString(CHBENCH_OPENSSL_VERSION), "}"));
  kv("seeds", absl::StrCat("[", absl::StrJoin(seeds, ", "), "]"));
  kv("node_names",
     JsonString("node-<i> for seed 0, node-<i>-s<seed> otherwise"));
  kv("cells", std::to_string(cells));
  kv("benchmark_context", timing ? BenchmarkContextJson() : "null", true);
  j += "}\n";
  return j;
}

struct Job {
  const Spec* spec;
  const Cell* cell;
  std::string dir;  // results/<exp>/<run_id>
  std::string path;
};

// Progress on stderr. The ETA extrapolates each phase from its own cells:
// the parallel non-timing cells are fast and many, the timing groups slow and
// few, so one rate for both would be wrong by an order of magnitude. Until
// the first timing group finishes, the groups still to come are shown as
// a count instead of a time.
class Progress {
 public:
  Progress(size_t parallel_total, size_t timing_total)
      : parallel_total_(parallel_total),
        timing_total_(timing_total),
        tty_(isatty(2)),
        start_(Clock::now()),
        timing_start_(start_) {}
  // Called once, when the timing phase begins.
  void StartTiming() {
    std::lock_guard<std::mutex> lock(mu_);
    timing_start_ = Clock::now();
  }
  void Done(const std::string& what, bool timing) {
    std::lock_guard<std::mutex> lock(mu_);
    const Clock::time_point now = Clock::now();
    ++(timing ? timing_done_ : parallel_done_);
    const double el = Seconds(now - start_);
    double eta = 0;
    if (parallel_done_ > 0) {
      const double rate =
          Seconds((timing_done_ > 0 ? timing_start_ : now) - start_) /
          static_cast<double>(parallel_done_);
      eta += rate * static_cast<double>(parallel_total_ - parallel_done_);
    }
    std::string pending;
    if (timing_done_ > 0) {
      eta += Seconds(now - timing_start_) / static_cast<double>(timing_done_) *
             static_cast<double>(timing_total_ - timing_done_);
    } else if (timing_total_ > 0) {
      pending = absl::StrCat(" + ", timing_total_, " timing groups");
    }
    const size_t done = parallel_done_ + timing_done_;
    const std::string msg = absl::StrFormat(
        "[%zu/%zu] %s  elapsed %.0fs  ETA %.0fs%s", done,
        parallel_total_ + timing_total_, what, el, eta, pending);
    if (tty_) {
      std::fprintf(stderr, "\r\033[K%s", msg.c_str());
      if (done == parallel_total_ + timing_total_) std::fputc('\n', stderr);
    } else {
      std::fprintf(stderr, "%s\n", msg.c_str());
    }
    std::fflush(stderr);
  }
  void Message(const std::string& m) {
    std::lock_guard<std::mutex> lock(mu_);
    std::fprintf(stderr, "%s%s\n", tty_ ? "\r\033[K" : "", m.c_str());
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double Seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
  }

  std::mutex mu_;
  const size_t parallel_total_, timing_total_;
  size_t parallel_done_ = 0, timing_done_ = 0;
  const bool tty_;
  const Clock::time_point start_;
  Clock::time_point timing_start_;
};

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
                   return WriteFileAtomic(j.path, Rows(*rows));
                 });
}

// A timing group: its cells are measured together, interleaved, and every
// cell's file is written when the group ends.
struct TimingJob {
  const Spec* spec;
  std::vector<const Cell*> cells;
  std::vector<std::string> paths;
};

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
          if (absl::Status s = WriteFileAtomic(j.paths[i], Rows((*rows)[i]));
              !s.ok()) {
            return s;
          }
        }
        return absl::OkStatus();
      });
}

// Assembles data.csv and summary.csv of one experiment from its cell files.
absl::Status Assemble(const Spec& spec, const std::string& dir) {
  std::string data = CsvHeader();
  std::vector<std::vector<std::string>> rows;
  for (const Cell& c : spec.cells) {
    const std::string path = absl::StrCat(dir, "/cells/", c.Name(), ".csv");
    absl::StatusOr<std::string> text = ReadFile(path);
    if (!text.ok()) return text.status();
    absl::StatusOr<std::vector<std::vector<std::string>>> recs =
        ParseCsv(*text);
    if (!recs.ok()) {
      return absl::DataLossError(absl::StrCat(
          path, ": ", recs.status().message(), "; rerun with --force"));
    }
    for (size_t i = 1; i < recs->size(); ++i) {
      if ((*recs)[i].size() != kColumns.size()) {
        return absl::DataLossError(absl::StrCat(path, ": row ", i, " has ",
                                                (*recs)[i].size(), " fields"));
      }
      data += FormatFields((*recs)[i]);
      rows.push_back(std::move((*recs)[i]));
    }
  }
  if (absl::Status s = WriteFileAtomic(dir + "/data.csv", data); !s.ok()) {
    return s;
  }
  // Summary: group by every configuration column (all but run_id, seed,
  // repetition, metric's value and note), in order of first appearance.
  std::vector<size_t> key_cols;
  for (size_t c = 0; c < kColumns.size(); ++c) {
    const std::string_view name = kColumns[c];
    if (name != "run_id" && name != "seed" && name != "repetition" &&
        name != "value" && name != "note") {
      key_cols.push_back(c);
    }
  }
  const size_t value_col = ColumnIndex("value");
  const size_t note_col = ColumnIndex("note");
  struct Group {
    std::vector<std::string> key;
    std::vector<double> values;
    bool noisy = false;
    bool n_eff_one = false;
  };
  std::map<std::vector<std::string>, size_t> index;
  std::vector<Group> groups;
  for (const std::vector<std::string>& r : rows) {
    std::vector<std::string> key;
    for (size_t c : key_cols) key.push_back(r[c]);
    auto [it, inserted] = index.emplace(key, groups.size());
    if (inserted) groups.push_back({key, {}});
    Group& g = groups[it->second];
    double v;
    if (!r[value_col].empty() && absl::SimpleAtod(r[value_col], &v)) {
      g.values.push_back(v);
    }
    g.noisy |= absl::StartsWith(r[note_col], "noisy");
    g.n_eff_one |= absl::StrContains(r[note_col], "n_eff = 1");
  }
  std::vector<std::string> header;
  for (size_t c : key_cols) header.emplace_back(kColumns[c]);
  for (const char* h :
       {"n", "n_eff", "median", "median_ci_low", "median_ci_high", "min", "max",
        "cv", "mean", "mean_ci_low", "mean_ci_high", "noisy"}) {
    header.emplace_back(h);
  }
  std::string summary = FormatFields(header);
  for (const Group& g : groups) {
    const SummaryStats st = Summarize(g.values, g.n_eff_one);
    std::vector<std::string> f = g.key;
    const bool any = st.n > 0;
    f.push_back(std::to_string(st.n));
    f.push_back(std::to_string(st.n_eff));
    f.push_back(any ? FormatNumber(st.median) : "");
    f.push_back(FormatOptional(st.median_ci_low));
    f.push_back(FormatOptional(st.median_ci_high));
    f.push_back(any ? FormatNumber(st.min) : "");
    f.push_back(any ? FormatNumber(st.max) : "");
    f.push_back(FormatOptional(st.cv));
    f.push_back(any ? FormatNumber(st.mean) : "");
    f.push_back(FormatOptional(st.mean_ci_low));
    f.push_back(FormatOptional(st.mean_ci_high));
    f.push_back(g.noisy ? "1" : "0");
    summary += FormatFields(f);
  }
  return WriteFileAtomic(dir + "/summary.csv", summary);
}

}  // namespace

absl::Status RunExperiments(const std::vector<std::string>& experiments,
                            const RunOptions& o) {
  std::vector<std::string> names;
  for (const std::string& e : experiments) {
    if (e == "all") {
      for (std::string_view n : kExperimentNames) names.emplace_back(n);
    } else if (std::find(kExperimentNames.begin(), kExperimentNames.end(), e) !=
               kExperimentNames.end()) {
      names.push_back(e);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown experiment '", e, "'; valid: all, ",
                       JoinViews(kExperimentNames)));
    }
  }
  const std::string spec_dir =
      o.spec_dir.empty() ? DefaultSpecDir() : o.spec_dir;
  const std::string results =
      o.results_dir.empty() ? DefaultResultsDir() : o.results_dir;
  // Parse and validate every spec before anything runs.
  std::vector<Spec> specs;
  for (const std::string& n : names) {
    const std::string path = absl::StrCat(spec_dir, "/", n, ".toml");
    absl::StatusOr<Spec> spec =
        LoadSpec(path, absl::StrCat("experiments/", n, ".toml"), n, o.tier);
    if (!spec.ok()) {
      return absl::InvalidArgumentError(spec.status().message());
    }
    specs.push_back(std::move(*spec));
  }
  // Real memcached cells need the memcached binary and a server that
  // starts: checked once before anything runs, so a missing package is a
  // one-line error (exit 2), not one failed cell per configuration.
  bool real_cluster = false;
  for (const Spec& spec : specs) {
    for (const Cell& c : spec.cells) {
      real_cluster |= c.kind == "cluster" && c.mode == "memcached";
    }
  }
  if (real_cluster) {
    absl::StatusOr<std::unique_ptr<MemcachedCluster>> probe =
        MemcachedCluster::Start(1, MemcachedOptions{});
    if (!probe.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the cluster experiment's memcached cells cannot run: ",
          probe.status().message()));
    }
  }
  std::vector<Job> work;
  std::vector<TimingJob> timing;
  std::vector<std::string> dirs;
  size_t skipped = 0;
  for (const Spec& spec : specs) {
    const std::string dir =
        absl::StrCat(results, "/", spec.experiment, "/", spec.run_id);
    dirs.push_back(dir);
    std::error_code ec;
    fs::create_directories(dir + "/cells", ec);
    if (ec) {
      return absl::InternalError(
          absl::StrCat("cannot create ", dir, "/cells: ", ec.message()));
    }
    // Timing cells by group, in expansion order of each group's first cell.
    std::map<std::string, size_t> group_of;
    std::vector<TimingJob> groups;
    for (const Cell& c : spec.cells) {
      const std::string path = absl::StrCat(dir, "/cells/", c.Name(), ".csv");
      if (!c.timing()) {
        if (!o.force && fs::exists(path)) {
          ++skipped;
          continue;
        }
        work.push_back(Job{&spec, &c, dir, path});
        continue;
      }
      auto [it, inserted] = group_of.emplace(TimingGroupKey(c), groups.size());
      if (inserted) groups.push_back(TimingJob{&spec, {}, {}});
      groups[it->second].cells.push_back(&c);
      groups[it->second].paths.push_back(path);
    }
    // A group is measured again as a whole unless every cell is there: its
    // cells are only comparable when measured in the same rounds.
    for (TimingJob& g : groups) {
      bool done = !o.force;
      for (const std::string& p : g.paths) done = done && fs::exists(p);
      if (done) {
        skipped += g.cells.size();
        continue;
      }
      timing.push_back(std::move(g));
    }
  }
  Progress progress(work.size(), timing.size());
  if (skipped) {
    progress.Message(absl::StrCat("chbench run: ", skipped,
                                  " cells already done (use --force to redo)"));
  }
  std::vector<std::string> errors;
  std::mutex mu;
  // 1. Non-timing cells on a thread pool.
  const int jobs =
      o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (;;) {
      const size_t i = next.fetch_add(1);
      if (i >= work.size()) return;
      const absl::Status s = RunJob(work[i]);
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        errors.push_back(std::string(s.message()));
      }
      progress.Done(absl::StrCat(work[i].spec->experiment, "/",
                                 work[i].cell->Name(), s.ok() ? "" : " FAILED"),
                    /*timing=*/false);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(jobs, std::max<size_t>(work.size(), 1));
       ++t) {
    pool.emplace_back(worker);
  }
  for (std::thread& t : pool) t.join();
  // 2. The regression checksums, then timing groups alone.
  if (!timing.empty()) {
    if (absl::Status s = CheckGoldens(); !s.ok()) return s;
    progress.StartTiming();
    for (const TimingJob& j : timing) {
      const absl::Status s = RunTimingJob(j);
      if (!s.ok()) errors.push_back(std::string(s.message()));
      progress.Done(absl::StrCat(j.spec->experiment, "/", j.cells[0]->Name(),
                                 j.cells.size() > 1
                                     ? absl::StrCat(" +", j.cells.size() - 1)
                                     : "",
                                 s.ok() ? "" : " FAILED"),
                    /*timing=*/true);
    }
  }
  // 3. What the names in these results mean, then assemble every experiment
  // whose cells are all there.
  if (absl::Status s = WriteFileAtomic(results + "/registry.json",
                                       RegistryJson(spec_dir));
      !s.ok()) {
    errors.push_back(std::string(s.message()));
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    const Spec& spec = specs[i];
    bool timing_exp = false;
    for (const Cell& c : spec.cells) timing_exp |= c.timing();
    if (absl::Status s = Assemble(spec, dirs[i]); !s.ok()) {
      errors.push_back(
          absl::StrCat(spec.experiment, ": not assembled: ", s.message()));
      continue;
    }
    if (absl::Status s =
            WriteFileAtomic(dirs[i] + "/meta.json",
                            MetaJson(spec, o, timing_exp, spec.cells.size()));
        !s.ok()) {
      errors.push_back(std::string(s.message()));
      continue;
    }
    progress.Message(absl::StrCat("chbench run: wrote ", dirs[i], "/data.csv (",
                                  spec.cells.size(), " cells)"));
  }
  if (!errors.empty()) {
    return absl::InternalError(absl::StrCat(
        errors.size(), " error(s): ", absl::StrJoin(errors, "\n  ")));
  }
  return absl::OkStatus();
}

}  // namespace chbench
