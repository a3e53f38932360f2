// Copyright 2026 The chbench Authors.

#include "bench/timing.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/checksum.h"
#include "algorithms/registry.h"
#include "algorithms/util/random.h"
#include "bench/dispatch.h"
#include "bench/kernels.h"
#include "benchmark/benchmark.h"
#include "workload/keyset.h"

namespace chbench {
namespace {

using bench_internal::HashOnly;
using bench_internal::LookupLatency;
using bench_internal::LookupThroughput;
using bench_internal::MutatingOp;
using bench_internal::StringLookupLatency;
using bench_internal::StringLookupThroughput;

constexpr uint64_t kChecksumMask = (uint64_t{1} << 52) - 1;

std::mutex& TimingMutex() {
  static std::mutex* const mu = new std::mutex();
  return *mu;
}

// benchmark::Initialize once, with a synthetic command line. Per-benchmark
// MinTime/Iterations override the flag, so only the first value matters.
void EnsureBenchmarkInitialized(double min_time_s) {
  static std::once_flag once;
  std::call_once(once, [min_time_s] {
    static std::string arg0 = "chbench";
    // 1.7.1 takes a plain number of seconds (no "s" suffix).
    static std::string arg1 =
        absl::StrFormat("--benchmark_min_time=%g", min_time_s);
    static char* argv[] = {arg0.data(), arg1.data(), nullptr};
    int argc = 2;
    benchmark::Initialize(&argc, argv);
  });
}

// One display reporter that fans out: Google Benchmark's JSON reporter into a
// string (merged into gbench.json afterwards), the console table on stderr
// when verbose, and a copy of every iteration run for conversion into rows.
class TeeReporter : public benchmark::BenchmarkReporter {
 public:
  explicit TeeReporter(bool verbose)
      : console_(benchmark::ConsoleReporter::OO_Tabular) {
    json_.SetOutputStream(&json_text_);
    json_.SetErrorStream(&json_text_);
    console_.SetOutputStream(&std::cerr);
    console_.SetErrorStream(&std::cerr);
    verbose_ = verbose;
  }

  bool ReportContext(const Context& context) override {
    json_.ReportContext(context);
    if (verbose_) console_.ReportContext(context);
    return true;
  }
  void ReportRuns(const std::vector<Run>& reports) override {
    json_.ReportRuns(reports);
    if (verbose_) console_.ReportRuns(reports);
    for (const Run& run : reports) {
      if (run.run_type == Run::RT_Iteration) runs_.push_back(run);
    }
  }
  void Finalize() override {
    json_.Finalize();
    if (verbose_) console_.Finalize();
  }

  const std::vector<Run>& runs() const { return runs_; }
  std::string json() const { return json_text_.str(); }

 private:
  benchmark::JSONReporter json_;
  benchmark::ConsoleReporter console_;
  std::ostringstream json_text_;
  bool verbose_ = false;
  std::vector<Run> runs_;
};

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  return s;
}
std::string_view Trim(std::string_view s) {
  s = TrimRight(s);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  return s;
}

constexpr std::string_view kBenchmarksKey = "\"benchmarks\": [";

// Appends the "benchmarks" entries of `cell_json` (one complete JSONReporter
// document) to the document at `path`, creating it if missing or empty.
absl::Status AppendGbenchJson(const std::string& path,
                              const std::string& cell_json) {
  if (path.empty()) return absl::OkStatus();
  std::string existing;
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      existing.assign(std::istreambuf_iterator<char>(in),
                      std::istreambuf_iterator<char>());
    }
  }
  std::string merged;
  if (Trim(existing).empty()) {
    merged = cell_json;
  } else {
    const size_t new_key = cell_json.find(kBenchmarksKey);
    const size_t new_end = cell_json.rfind(']');
    const size_t old_key = existing.find(kBenchmarksKey);
    const size_t old_end = existing.rfind(']');
    if (old_key == std::string::npos || old_end == std::string::npos ||
        old_end < old_key) {
      return absl::FailedPreconditionError(absl::StrCat(
          "gbench JSON file '", path,
          "' exists but is not a Google Benchmark JSON document (no \"",
          "benchmarks\" array); remove it or choose another path"));
    }
    if (new_key == std::string::npos || new_end == std::string::npos) {
      return absl::InternalError("Google Benchmark wrote no benchmarks array");
    }
    const size_t entries_begin = new_key + kBenchmarksKey.size();
    const std::string_view entries = Trim(std::string_view(cell_json).substr(
        entries_begin, new_end > entries_begin ? new_end - entries_begin : 0));
    if (entries.empty()) return absl::OkStatus();
    const std::string_view head =
        TrimRight(std::string_view(existing).substr(0, old_end));
    merged = std::string(head);
    merged += head.back() == '[' ? "\n    " : ",\n    ";
    merged += entries;
    merged += "\n  ]\n}\n";
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << merged;
    out.close();
    if (!out) {
      return absl::UnavailableError(
          absl::StrCat("cannot write gbench JSON file '", tmp, "'"));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return absl::UnavailableError(absl::StrCat(
        "cannot rename '", tmp, "' to gbench JSON file '", path, "'"));
  }
  return absl::OkStatus();
}

// One registered benchmark and the row it becomes.
struct Pending {
  std::string name;  // registered (family) name
  ResultRow row;     // everything but value
  // Manual time (steady clock around the operation) is reported as Google
  // Benchmark's real time; automatic loops as CPU time (see timing.h).
  bool manual_time = false;
};

// Runs the registered benchmarks, appends their JSON, and fills each
// pending row's value from the run whose family name matches.
absl::StatusOr<std::vector<ResultRow>> RunRegistered(
    std::vector<Pending> pending, const TimingOptions& options) {
  TeeReporter reporter(options.verbose);
  benchmark::RunSpecifiedBenchmarks(&reporter, ".");
  benchmark::ClearRegisteredBenchmarks();
  for (const benchmark::BenchmarkReporter::Run& run : reporter.runs()) {
    if (run.error_occurred) {
      return absl::InternalError(absl::StrCat("benchmark ",
                                              run.benchmark_name(),
                                              " failed: ", run.error_message));
    }
  }
  if (absl::Status s = AppendGbenchJson(options.gbench_json_path,
                                        reporter.json());
      !s.ok()) {
    return s;
  }
  std::vector<ResultRow> rows;
  for (Pending& p : pending) {
    if (p.row.value.has_value() || !p.row.note.empty()) {
      rows.push_back(std::move(p.row));  // computed without a benchmark
      continue;
    }
    const benchmark::BenchmarkReporter::Run* found = nullptr;
    for (const auto& run : reporter.runs()) {
      if (run.run_name.function_name == p.name) found = &run;
    }
    if (found == nullptr) {
      return absl::InternalError(
          absl::StrCat("benchmark ", p.name, " produced no run"));
    }
    // Unit(kNanosecond) is set on every benchmark: ns per iteration.
    p.row.value = p.manual_time ? found->GetAdjustedRealTime()
                                : found->GetAdjustedCPUTime();
    rows.push_back(std::move(p.row));
  }
  return rows;
}

std::vector<NodeSpec> NodeSpecs(uint32_t n, uint32_t first = 0) {
  std::vector<NodeSpec> specs(n);
  for (uint32_t i = 0; i < n; ++i) {
    specs[i].name = absl::StrCat("node-", first + i);
  }
  return specs;
}

// A fresh, empty instance of the concrete type A from the registry factory.
template <typename A>
absl::StatusOr<std::unique_ptr<A>> MakeConcrete(const TimingCell& cell) {
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      MakeAlgorithm(cell.algorithm, cell.params);
  if (!made.ok()) return made.status();
  A* concrete = dynamic_cast<A*>(made->get());
  if (concrete == nullptr) {
    return absl::InternalError(absl::StrCat(
        "factory of '", cell.algorithm, "' with hash '", cell.params.hash,
        "' did not return the concrete type DispatchConcrete chose"));
  }
  made->release();
  return std::unique_ptr<A>(concrete);
}

template <typename A>
absl::StatusOr<std::unique_ptr<A>> MakeBuilt(const TimingCell& cell) {
  absl::StatusOr<std::unique_ptr<A>> algo = MakeConcrete<A>(cell);
  if (!algo.ok()) return algo.status();
  const std::vector<NodeSpec> specs = NodeSpecs(cell.nodes);
  if (absl::Status s = (*algo)->Build(specs); !s.ok()) return s;
  return algo;
}

// The configuration columns shared by every row of the cell.
template <typename A>
ResultRow BaseRow(const TimingCell& cell, std::string_view experiment,
                  const A* built) {
  ResultRow row;
  row.experiment = std::string(experiment);
  row.algorithm = cell.algorithm;
  row.hash = cell.params.hash;
  row.keyset = cell.keyset;
  row.nodes = cell.nodes;
  if (cell.algorithm == "ring" || cell.algorithm == "bounded_load") {
    row.vnodes = cell.params.vnodes;
  }
  if (cell.algorithm == "bounded_load") {
    row.load_factor = cell.params.load_factor;
  }
  if constexpr (requires(const A& a) { a.table_size(); }) {
    if (built != nullptr) row.table_size = built->table_size();
  }
  row.seed = cell.seed;
  row.unit = "ns";
  return row;
}

std::string CellTag(const TimingCell& cell) {
  return absl::StrCat(cell.algorithm, "/", cell.params.hash, "/nodes:",
                      cell.nodes, "/seed:", cell.seed);
}

// Measures one lookup scenario on a fresh instance.
template <typename A>
absl::StatusOr<std::vector<ResultRow>> LookupScenario(
    const TimingCell& cell, const TimingOptions& options,
    std::string_view scenario) {
  absl::StatusOr<std::unique_ptr<A>> built = MakeBuilt<A>(cell);
  if (!built.ok()) return built.status();
  const A& algo = **built;
  const bool stateful = algo.capabilities().stateful;

  std::vector<uint64_t> hashes;
  std::vector<std::string> strings;
  if (scenario == "prehashed") {
    hashes = GenerateKeyHashes(cell.num_keys, cell.seed);
  } else {
    absl::StatusOr<std::vector<std::string>> keys =
        GenerateKeys(cell.keyset, cell.num_keys, cell.seed);
    if (!keys.ok()) return keys.status();
    strings = *std::move(keys);
    if (strings.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("key set '", cell.keyset, "' produced no keys"));
    }
    hashes.reserve(strings.size());
    for (const std::string& s : strings) hashes.push_back(algo.HashKey(s));
  }
  // Stateful algorithms time lookups of placed keys.
  if (stateful) {
    for (uint64_t h : hashes) (*built)->Place(h);
  }
  uint64_t checksum = kChecksumInit;
  const size_t folded = ChecksumKeyCount(hashes.size(), cell.nodes);
  for (size_t i = 0; i < folded; ++i) {
    checksum = FoldChecksum(checksum, algo.Lookup(hashes[i]));
  }

  ResultRow base = BaseRow<A>(cell, "lookup", &algo);
  base.scenario = std::string(scenario);
  base.keys = hashes.size();
  const std::string tag =
      absl::StrCat(cell.algorithm, "/", cell.params.hash, "/",
                   scenario == "string" ? cell.keyset + "/" : "",
                   std::string(scenario));
  const std::string args = absl::StrCat("/nodes:", cell.nodes,
                                        "/keys:", hashes.size(),
                                        "/seed:", cell.seed);
  std::vector<Pending> pending;
  auto add = [&](std::string_view metric, auto fn) {
    Pending p{absl::StrCat(tag, "/", std::string(metric), args), base};
    p.row.metric = std::string(metric);
    benchmark::RegisterBenchmark(p.name.c_str(), fn)
        ->MinTime(options.min_time_s)
        ->Unit(benchmark::kNanosecond);
    pending.push_back(std::move(p));
  };
  const std::span<const uint64_t> hspan(hashes);
  const std::span<const std::string> sspan(strings);
  if (scenario == "prehashed") {
    add("lookup_ns", [&algo, hspan](benchmark::State& st) {
      LookupThroughput<A>(st, algo, hspan);
    });
    add("lookup_latency_ns", [&algo, hspan](benchmark::State& st) {
      LookupLatency<A>(st, algo, hspan);
    });
  } else {
    add("lookup_ns", [&algo, sspan](benchmark::State& st) {
      StringLookupThroughput<A>(st, algo, sspan);
    });
    add("lookup_latency_ns", [&algo, sspan](benchmark::State& st) {
      StringLookupLatency<A>(st, algo, sspan);
    });
    add("hash_ns", [&algo, sspan](benchmark::State& st) {
      HashOnly<A>(st, algo, sspan);
    });
  }
  Pending check{"", base};
  check.row.metric = "checksum";
  check.row.unit = "id-fold";
  check.row.value = static_cast<double>(checksum & kChecksumMask);
  if (folded != hashes.size()) {
    check.row.note = absl::StrCat("folded the first ", folded, " of ",
                                  hashes.size(), " keys");
  }
  const HashInfo* hash_info = FindHash(cell.params.hash);
  if (hash_info != nullptr && !hash_info->reproducible) {
    absl::StrAppend(&check.row.note, check.row.note.empty() ? "" : "; ",
                    "not reproducible: ", std::string(hash_info->name),
                    " is seeded per process, so this checksum differs "
                    "between runs");
  }
  pending.push_back(std::move(check));
  return RunRegistered(std::move(pending), options);
}

template <typename A>
absl::StatusOr<std::vector<ResultRow>> LookupCell(const TimingCell& cell,
                                                  const TimingOptions& options) {
  std::vector<std::string_view> scenarios;
  if (cell.scenario.empty()) {
    scenarios = {"prehashed", "string"};
  } else if (cell.scenario == "prehashed" || cell.scenario == "string") {
    scenarios = {cell.scenario};
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown lookup scenario '", cell.scenario,
        "'; valid scenarios: prehashed, string (empty = both)"));
  }
  std::vector<ResultRow> rows;
  for (std::string_view scenario : scenarios) {
    absl::StatusOr<std::vector<ResultRow>> part =
        LookupScenario<A>(cell, options, scenario);
    if (!part.ok()) return part.status();
    for (ResultRow& r : *part) rows.push_back(std::move(r));
  }
  return rows;
}

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

// Iterations for a mutating measurement: enough for min_time of measured
// time, at most what fits into the wall budget with the rebuilds, >= 1.
int64_t IterationsFor(double op_s, double setup_s,
                      const TimingOptions& options) {
  const double op = std::max(op_s, 1e-9);
  const double want = std::ceil(options.min_time_s / op);
  const double fit =
      std::floor(options.build_wall_budget_s / std::max(op + setup_s, 1e-9));
  const double n = std::min(want, fit);
  return static_cast<int64_t>(std::clamp(n, 1.0, 1e8));
}

template <typename A>
absl::StatusOr<std::vector<ResultRow>> BuildCell(const TimingCell& cell,
                                                 const TimingOptions& options) {
  using Clock = std::chrono::steady_clock;
  const std::vector<NodeSpec> specs = NodeSpecs(cell.nodes);
  NodeSpec extra;
  extra.name = absl::StrCat("node-", cell.nodes);

  // Probe: one untimed round of each operation, also to learn whether the
  // algorithm accepts it.
  Clock::time_point t0 = Clock::now();
  absl::StatusOr<std::unique_ptr<A>> probe = MakeConcrete<A>(cell);
  if (!probe.ok()) return probe.status();
  const double make_s = SecondsSince(t0);
  t0 = Clock::now();
  if (absl::Status s = (*probe)->Build(specs); !s.ok()) return s;
  const double build_s = SecondsSince(t0);
  const ResultRow base = BaseRow<A>(cell, "build", probe->get());

  t0 = Clock::now();
  const absl::Status add_status = (*probe)->AddNode(extra).status();
  const double add_s = SecondsSince(t0);

  const bool last_only = !(*probe)->capabilities().arbitrary_removal;
  const NodeId victim =
      last_only ? cell.nodes - 1
                : static_cast<NodeId>(Sfc64(cell.seed).Below(cell.nodes));
  probe->reset();
  absl::StatusOr<std::unique_ptr<A>> probe2 = MakeBuilt<A>(cell);
  if (!probe2.ok()) return probe2.status();
  t0 = Clock::now();
  const absl::Status remove_status = (*probe2)->RemoveNode(victim);
  const double remove_s = SecondsSince(t0);
  probe2->reset();

  std::vector<Pending> pending;
  const std::string tag = CellTag(cell);
  auto add = [&](std::string_view metric, const absl::Status& applicable,
                 int64_t iterations, auto fn) {
    Pending p{absl::StrCat("build/", tag, "/", std::string(metric)), base};
    p.row.metric = std::string(metric);
    p.manual_time = true;
    if (!applicable.ok()) {
      p.row.note = absl::StrCat("not applicable: ", applicable.message());
    } else {
      benchmark::RegisterBenchmark(p.name.c_str(), fn)
          ->UseManualTime()
          ->Iterations(iterations)
          ->Unit(benchmark::kNanosecond);
    }
    pending.push_back(std::move(p));
  };

  add("build_ns", absl::OkStatus(),
      IterationsFor(build_s, make_s, options),
      [&cell, &specs](benchmark::State& st) {
        auto setup = [&]() -> std::unique_ptr<A> {
          absl::StatusOr<std::unique_ptr<A>> a = MakeConcrete<A>(cell);
          return a.ok() ? *std::move(a) : nullptr;
        };
        auto op = [&](A& a) { return a.Build(specs); };
        MutatingOp<A>(st, setup, op);
      });
  auto setup_built = [&cell]() -> std::unique_ptr<A> {
    absl::StatusOr<std::unique_ptr<A>> a = MakeBuilt<A>(cell);
    return a.ok() ? *std::move(a) : nullptr;
  };
  add("add_node_ns", add_status,
      IterationsFor(add_s, make_s + build_s, options),
      [setup_built, &extra](benchmark::State& st) mutable {
        auto op = [&](A& a) { return a.AddNode(extra).status(); };
        MutatingOp<A>(st, setup_built, op);
      });
  add("remove_node_ns", remove_status,
      IterationsFor(remove_s, make_s + build_s, options),
      [setup_built, victim](benchmark::State& st) mutable {
        auto op = [&](A& a) { return a.RemoveNode(victim); };
        MutatingOp<A>(st, setup_built, op);
      });
  return RunRegistered(std::move(pending), options);
}

absl::Status ValidateCell(const TimingCell& cell) {
  if (cell.nodes == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("timing cell ", cell.algorithm,
                     ": nodes must be >= 1, got 0"));
  }
  return absl::OkStatus();
}

template <bool kLookup>
absl::StatusOr<std::vector<ResultRow>> RunCell(const TimingCell& cell,
                                               const TimingOptions& options) {
  if (absl::Status s = ValidateCell(cell); !s.ok()) return s;
  if (kLookup && cell.num_keys == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "timing cell ", cell.algorithm, ": num_keys must be >= 1, got 0"));
  }
  if (!(options.min_time_s > 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "min_time_s must be > 0, got ", options.min_time_s));
  }
  std::lock_guard<std::mutex> lock(TimingMutex());
  EnsureBenchmarkInitialized(options.min_time_s);
  benchmark::ClearRegisteredBenchmarks();
  absl::StatusOr<std::vector<ResultRow>> result =
      absl::InternalError("not run");
  absl::Status dispatched = DispatchConcrete(
      cell.algorithm, cell.params.hash, [&]<typename A>() {
        if constexpr (kLookup) {
          result = LookupCell<A>(cell, options);
        } else {
          result = BuildCell<A>(cell, options);
        }
      });
  benchmark::ClearRegisteredBenchmarks();
  if (!dispatched.ok()) return dispatched;
  return result;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += absl::StrFormat("\\u%04x", c);
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace

size_t ChecksumKeyCount(size_t num_keys, uint32_t nodes) {
  const size_t by_cost =
      std::max<size_t>(4096, (size_t{1} << 28) / std::max<uint32_t>(nodes, 1));
  return std::min(num_keys, by_cost);
}

absl::StatusOr<std::vector<ResultRow>> RunLookupTiming(
    const TimingCell& cell, const TimingOptions& options) {
  return RunCell<true>(cell, options);
}

absl::StatusOr<std::vector<ResultRow>> RunBuildTiming(
    const TimingCell& cell, const TimingOptions& options) {
  return RunCell<false>(cell, options);
}

std::string BenchmarkContextJson() {
  const benchmark::CPUInfo& cpu = benchmark::CPUInfo::Get();
  const benchmark::SystemInfo& sys = benchmark::SystemInfo::Get();
  std::string scaling = "null";
  if (cpu.scaling == benchmark::CPUInfo::ENABLED) scaling = "true";
  if (cpu.scaling == benchmark::CPUInfo::DISABLED) scaling = "false";
  std::vector<std::string> caches;
  for (const benchmark::CPUInfo::CacheInfo& c : cpu.caches) {
    caches.push_back(absl::StrCat("{\"type\": ", JsonString(c.type),
                                  ", \"level\": ", c.level,
                                  ", \"size\": ", c.size,
                                  ", \"num_sharing\": ", c.num_sharing, "}"));
  }
  std::vector<std::string> load;
  for (double l : cpu.load_avg) load.push_back(absl::StrFormat("%.2f", l));
#ifdef CHBENCH_BENCHMARK_VERSION
  const char* version = CHBENCH_BENCHMARK_VERSION;
#else
  const char* version = "";
#endif
  return absl::StrCat(
      "{\"host_name\": ", JsonString(sys.name),
      ", \"num_cpus\": ", cpu.num_cpus,
      ", \"mhz_per_cpu\": ",
      absl::StrFormat("%.0f", cpu.cycles_per_second / 1e6),
      ", \"cpu_scaling_enabled\": ", scaling, ", \"caches\": [",
      absl::StrJoin(caches, ", "), "], \"load_avg\": [",
      absl::StrJoin(load, ", "), "], \"benchmark_version\": ",
      JsonString(version), "}");
}

}  // namespace chbench
