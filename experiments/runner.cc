// Copyright 2026 The chbench Authors.

#include "experiments/runner.h"

#include <signal.h>
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
#include <sstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/checksum.h"
#include "algorithms/registry.h"
#include "algorithms/rendezvous/rendezvous.h"
#include "bench/cluster/memcached.h"
#include "bench/harness.h"
#include "bench/timing.h"
#include "experiments/csv.h"
#include "experiments/kinds/kind.h"
#include "experiments/metrics.h"
#include "experiments/registry_json.h"
#include "toml++/toml.h"

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

int ShardOfUnit(std::string_view experiment, size_t unit, int shards) {
  size_t offset = 0;
  for (size_t i = 0; i < kExperimentNames.size(); ++i) {
    if (kExperimentNames[i] == experiment) offset = i;
  }
  return static_cast<int>((offset + unit) % static_cast<size_t>(shards)) + 1;
}

// ======================================================= orchestration
namespace {

// ------------------------------------------------------------ stopping
// SIGINT / SIGTERM during a run: the first one lets the cells in progress
// finish (their files are written atomically) and starts no new one; a
// second one ends the process at once (its default action). A failed
// result write (a full disk) stops the run the same way.
std::atomic<int> g_stop_signal{0};
std::atomic<bool> g_write_failed{false};
// The handlers StopSignals replaced (SIGINT, SIGTERM), for the second signal.
struct sigaction g_replaced[NSIG];
std::mutex g_write_error_mu;
std::string g_write_error;  // the first failed write

void OnStopSignal(int sig) {
  if (g_stop_signal.exchange(sig) != 0) {
    // The handler this one replaced: the default (terminate), or the
    // cluster's, which first kills the memcached servers (memcached.h).
    sigaction(sig, &g_replaced[sig], nullptr);
    raise(sig);
    return;
  }
  static constexpr char kMsg[] =
      "\nchbench run: interrupted; finishing the cells in progress "
      "(interrupt again to stop at once)\n";
  [[maybe_unused]] const ssize_t n = write(2, kMsg, sizeof(kMsg) - 1);
}

bool Stopping() { return g_stop_signal.load() != 0 || g_write_failed.load(); }

// Installs OnStopSignal for SIGINT and SIGTERM (a signal the parent ignores
// stays ignored) and restores the previous handlers when it goes away.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal.store(0);
    g_write_failed.store(false);
    g_write_error.clear();
    for (int i = 0; i < 2; ++i) {
      struct sigaction action {};
      action.sa_handler = OnStopSignal;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_RESTART;
      installed_[i] = sigaction(kSignals[i], &action, &previous_[i]) == 0;
      if (installed_[i] && !(previous_[i].sa_flags & SA_SIGINFO) &&
          previous_[i].sa_handler == SIG_IGN) {
        sigaction(kSignals[i], &previous_[i], nullptr);
        installed_[i] = false;
      }
      if (installed_[i]) g_replaced[kSignals[i]] = previous_[i];
    }
  }
  ~StopSignals() {
    for (int i = 0; i < 2; ++i) {
      if (installed_[i]) sigaction(kSignals[i], &previous_[i], nullptr);
    }
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr int kSignals[2] = {SIGINT, SIGTERM};
  struct sigaction previous_[2];
  bool installed_[2] = {false, false};
};

// Writes a result file; a failure also stops the run (see above).
absl::Status WriteResult(const std::string& path, std::string_view data) {
  absl::Status s = WriteFileAtomic(path, data);
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(g_write_error_mu);
    if (!g_write_failed.exchange(true))
      g_write_error = std::string(s.message());
  }
  return s;
}

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

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (absl::StartsWith(line, "model name")) {
      return Trim(line.substr(line.find(':') + 1));
    }
  }
  return "";
}

std::string MachineJson() {
  const std::string cpu = CpuModel();
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
  // Some VMs (Firecracker, for one) expose no cache directory in sysfs; glibc
  // still reports the sizes from CPUID. Same fields and size format as sysfs
  // ("48K"), marked with their source.
  if (caches.empty()) {
    const struct {
      int name;
      const char* level;
      const char* type;
    } kSysconf[] = {{_SC_LEVEL1_DCACHE_SIZE, "1", "Data"},
                    {_SC_LEVEL1_ICACHE_SIZE, "1", "Instruction"},
                    {_SC_LEVEL2_CACHE_SIZE, "2", "Unified"},
                    {_SC_LEVEL3_CACHE_SIZE, "3", "Unified"}};
    for (const auto& c : kSysconf) {
      const long bytes = sysconf(c.name);
      if (bytes <= 0) continue;
      caches.push_back(absl::StrCat(
          "{\"level\": \"", c.level, "\", \"type\": \"", c.type,
          "\", \"size\": \"", bytes / 1024, "K\", \"source\": \"sysconf\"}"));
    }
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

struct GitState {
  std::string commit;  // empty: not a git checkout
  bool dirty = false;
};

GitState SourceGitState() {
  const std::string src = CHBENCH_SOURCE_DIR;
  GitState g;
  g.commit = Command("git -C '" + src + "' rev-parse HEAD 2>/dev/null");
  // Dirty = a tracked source file differs from the commit. Untracked files
  // and the suite's outputs (results/, plots/figures*/, the README headline)
  // do not count: a rerun rewrites committed results before this is read.
  g.dirty = !Command("git --no-optional-locks -C '" + src +
                     "' status --porcelain --untracked-files=no -- . "
                     "':(exclude)results' ':(exclude,glob)plots/figures*/**' "
                     "':(exclude)README.md' 2>/dev/null")
                 .empty();
  return g;
}

std::string UtcNow() {
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return date;
}

std::string HostName() {
  char host[256] = {0};
  if (gethostname(host, sizeof(host) - 1) != 0) return "";
  return host;
}

// ------------------------------------------------------------ shards
// One shard's record: <dir>/shards/<shard>-of-<shards>.toml.
struct ShardRecord {
  int64_t shard = 0;
  int64_t shards = 0;
  std::string git_commit;
  bool git_dirty = false;
  std::string spec_hash;
  std::string tier;
  std::string host;
  std::string cpu_model;
  std::string date_utc;
  std::string command_line;
  std::string machine_json;
  int64_t cells = 0;
  int64_t timing_groups = 0;
};

std::string ShardFileName(int shard, int shards) {
  return absl::StrCat(shard, "-of-", shards, ".toml");
}

std::string ShardRecordToml(const ShardRecord& r) {
  toml::table t{{"shard", r.shard},
                {"shards", r.shards},
                {"git_commit", r.git_commit},
                {"git_dirty", r.git_dirty},
                {"spec_hash", r.spec_hash},
                {"tier", r.tier},
                {"host", r.host},
                {"cpu_model", r.cpu_model},
                {"date_utc", r.date_utc},
                {"command_line", r.command_line},
                {"machine_json", r.machine_json},
                {"cells", r.cells},
                {"timing_groups", r.timing_groups}};
  std::ostringstream out;
  out << "# chbench shard record (written by `chbench run --shard`)\n"
      << t << "\n";
  return out.str();
}

// Every shard record of the run in `dir`, by shard number. InvalidArgument
// for a malformed record (naming the file).
absl::StatusOr<std::vector<ShardRecord>> ReadShardRecords(
    const std::string& dir) {
  std::vector<ShardRecord> out;
  std::error_code ec;
  if (!fs::is_directory(dir + "/shards", ec)) return out;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir + "/shards", ec)) {
    const std::string name = e.path().filename().string();
    if (absl::EndsWith(name, ".toml")) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    absl::StatusOr<std::string> text = ReadFile(f);
    if (!text.ok()) return text.status();
    ShardRecord r;
    try {
      const toml::table t = toml::parse(*text, f);
      r.shard = t["shard"].value_or<int64_t>(0);
      r.shards = t["shards"].value_or<int64_t>(0);
      r.git_commit = t["git_commit"].value_or<std::string>("");
      r.git_dirty = t["git_dirty"].value_or(false);
      r.spec_hash = t["spec_hash"].value_or<std::string>("");
      r.tier = t["tier"].value_or<std::string>("");
      r.host = t["host"].value_or<std::string>("");
      r.cpu_model = t["cpu_model"].value_or<std::string>("");
      r.date_utc = t["date_utc"].value_or<std::string>("");
      r.command_line = t["command_line"].value_or<std::string>("");
      r.machine_json = t["machine_json"].value_or<std::string>("null");
      r.cells = t["cells"].value_or<int64_t>(0);
      r.timing_groups = t["timing_groups"].value_or<int64_t>(0);
    } catch (const toml::parse_error& e) {
      return absl::InvalidArgumentError(absl::StrCat(
          "malformed shard record ", f, ": ", std::string(e.description())));
    }
    if (r.shards < 1 || r.shard < 1 || r.shard > r.shards ||
        fs::path(f).filename().string() !=
            ShardFileName(static_cast<int>(r.shard),
                          static_cast<int>(r.shards))) {
      return absl::InvalidArgumentError(
          absl::StrCat("malformed shard record ", f, ": shard ", r.shard,
                       " of ", r.shards, " does not match its file name"));
    }
    out.push_back(std::move(r));
  }
  return out;
}

// The shards of one run must agree with each other and with this checkout:
// the same shard count, commit, spec and tier. InvalidArgument naming the
// disagreement otherwise.
absl::Status CheckShards(const Spec& spec,
                         const std::vector<ShardRecord>& records,
                         const GitState& here) {
  if (records.empty()) return absl::OkStatus();
  const std::string where =
      absl::StrCat(spec.experiment, " (", spec.run_id, ")");
  const std::string spec_hash = absl::StrFormat("%016x", spec.hash);
  for (const ShardRecord& r : records) {
    const std::string name = absl::StrCat("shard ", r.shard, "/", r.shards);
    if (r.shards != records.front().shards) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": shards of different splits in one run (", r.shard, "/",
          r.shards, " and ", records.front().shard, "/", records.front().shards,
          "); rerun every shard with one --shard I/N split"));
    }
    if (r.spec_hash != spec_hash || r.tier != spec.tier) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", name, " ran spec ", r.spec_hash, " tier ",
                       r.tier, ", this spec is ", spec_hash, " tier ",
                       spec.tier, "; rerun that shard with this spec"));
    }
    if (r.git_commit != records.front().git_commit) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": shards from different commits: shard ", r.shard, "/",
          r.shards, " ran at ",
          r.git_commit.empty() ? "(no git)" : r.git_commit, ", shard ",
          records.front().shard, "/", r.shards, " at ",
          records.front().git_commit.empty() ? "(no git)"
                                             : records.front().git_commit,
          "; rerun the shards at one commit"));
    }
    if (!here.commit.empty() && !r.git_commit.empty() &&
        r.git_commit != here.commit) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": ", name, " ran at commit ", r.git_commit,
          ", this checkout is at ", here.commit,
          "; merge with the checkout the shards ran from, or rerun them"));
    }
  }
  return absl::OkStatus();
}

// meta.json's "shards" value: null, or each record and the hosts that
// measured timing cells (more than one host: absolute times in different
// timing groups come from different machines; ratios within a group do
// not, as a group never spans shards).
std::string ShardsJson(const std::vector<ShardRecord>& records) {
  if (records.empty()) return "null";
  std::vector<std::string> items;
  std::vector<std::string> timing_hosts;
  for (const ShardRecord& r : records) {
    items.push_back(absl::StrCat(
        "{\"shard\": ", r.shard, ", \"shards\": ", r.shards,
        ", \"git_commit\": ", JsonString(r.git_commit), ", \"git_dirty\": ",
        r.git_dirty ? "true" : "false", ", \"host\": ", JsonString(r.host),
        ", \"cpu_model\": ", JsonString(r.cpu_model),
        ", \"date_utc\": ", JsonString(r.date_utc),
        ", \"command_line\": ", JsonString(r.command_line),
        ", \"cells\": ", r.cells, ", \"timing_groups\": ", r.timing_groups,
        ", \"machine\": ", r.machine_json, "}"));
    const std::string id = absl::StrCat(r.host, " (", r.cpu_model, ")");
    if (r.timing_groups > 0 &&
        std::find(timing_hosts.begin(), timing_hosts.end(), id) ==
            timing_hosts.end()) {
      timing_hosts.push_back(id);
    }
  }
  std::vector<std::string> hosts;
  for (const std::string& h : timing_hosts) hosts.push_back(JsonString(h));
  return absl::StrCat("{\"records\": [", absl::StrJoin(items, ", "),
                      "], \"timing_hosts\": [", absl::StrJoin(hosts, ", "),
                      "], \"timing_mixed_machines\": ",
                      timing_hosts.size() > 1 ? "true" : "false", "}");
}

std::string MetaJson(const Spec& spec, const RunOptions& o, bool timing,
                     size_t cells, const GitState& git,
                     const std::string& shards_json) {
  const std::string& commit = git.commit;
  const std::string date = UtcNow();
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
  kv("git_dirty", commit.empty() ? "null" : (git.dirty ? "true" : "false"));
  kv("compiler", JsonString(absl::StrCat("g++ ", __VERSION__)));
  kv("cxx_flags", JsonString(CHBENCH_CXX_FLAGS));
  kv("build_type", JsonString(CHBENCH_BUILD_TYPE));
  // Loops chosen at run time from the CPU, not from the flags.
  kv("cpu_dispatch",
     absl::StrCat(
         "{\"rendezvous_xxh64\": ",
         JsonString(RendezvousKernelName(Rendezvous<Xxh64>::BestKernel())),
         "}"));
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
  kv("shards", shards_json);
  kv("timing_policy", timing ? TimingPolicyJson() : "null");
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
                   return WriteResult(j.path, Rows(*rows));
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
          if (absl::Status s = WriteResult(j.paths[i], Rows((*rows)[i]));
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
  if (absl::Status s = WriteResult(dir + "/data.csv", data); !s.ok()) {
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
  return WriteResult(dir + "/summary.csv", summary);
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
  const bool sharded = o.shards > 0;
  std::vector<Job> work;
  std::vector<TimingJob> timing;
  std::vector<std::string> dirs;
  // Per experiment: how many cells and timing groups this shard runs.
  std::vector<std::pair<int64_t, int64_t>> shard_units(specs.size());
  size_t skipped = 0;
  std::vector<std::string> missing;  // merge: what is not there
  std::vector<std::string> notes;    // said before the run starts
  for (size_t si = 0; si < specs.size(); ++si) {
    const Spec& spec = specs[si];
    const std::string dir =
        absl::StrCat(results, "/", spec.experiment, "/", spec.run_id);
    dirs.push_back(dir);
    // Earlier runs of this experiment and tier under other spec hashes: the
    // spec changed since. Their files stay as they are; say so once.
    if (!o.merge) {
      std::error_code ec;
      std::vector<std::string> earlier;
      for (const auto& e : fs::directory_iterator(
               absl::StrCat(results, "/", spec.experiment), ec)) {
        const std::string id = e.path().filename().string();
        if (id != spec.run_id && absl::StartsWith(id, spec.tier + "-")) {
          earlier.push_back(id);
        }
      }
      std::sort(earlier.begin(), earlier.end());
      if (!earlier.empty()) {
        notes.push_back(absl::StrCat(
            "chbench run: ", spec.display_path, " (tier ", spec.tier,
            ") differs from the spec of run(s) ", absl::StrJoin(earlier, ", "),
            " in ", results, "/", spec.experiment,
            " (kept as they are); this spec's run is ", spec.run_id));
      }
    }
    // Units (non-timing cells, and timing groups at their first cell) in
    // expansion order; a sharded run keeps those of its shard.
    size_t unit = 0;
    auto mine = [&](size_t u) {
      return !sharded || ShardOfUnit(spec.experiment, u, o.shards) == o.shard;
    };
    std::map<std::string, size_t> group_of;
    std::vector<TimingJob> groups;
    std::vector<size_t> group_unit;
    size_t absent = 0;
    for (const Cell& c : spec.cells) {
      const std::string path = absl::StrCat(dir, "/cells/", c.Name(), ".csv");
      if (!c.timing()) {
        const size_t u = unit++;
        if (o.merge) {
          absent += !fs::exists(path);
          continue;
        }
        if (!mine(u)) continue;
        ++shard_units[si].first;
        if (!o.force && fs::exists(path)) {
          ++skipped;
          continue;
        }
        work.push_back(Job{&spec, &c, dir, path});
        continue;
      }
      auto [it, inserted] = group_of.emplace(TimingGroupKey(c), groups.size());
      if (inserted) {
        groups.push_back(TimingJob{&spec, {}, {}});
        group_unit.push_back(unit++);
      }
      groups[it->second].cells.push_back(&c);
      groups[it->second].paths.push_back(path);
    }
    // A group is measured again as a whole unless every cell is there: its
    // cells are only comparable when measured in the same rounds.
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      TimingJob& g = groups[gi];
      bool done = true;
      for (const std::string& p : g.paths) done = done && fs::exists(p);
      if (o.merge) {
        if (!done) absent += g.cells.size();
        continue;
      }
      if (!mine(group_unit[gi])) continue;
      shard_units[si].first += static_cast<int64_t>(g.cells.size());
      ++shard_units[si].second;
      if (done && !o.force) {
        skipped += g.cells.size();
        continue;
      }
      timing.push_back(std::move(g));
    }
    if (o.merge && absent > 0) {
      std::string which;
      absl::StatusOr<std::vector<ShardRecord>> records = ReadShardRecords(dir);
      if (records.ok() && !records->empty()) {
        const int64_t n = records->front().shards;
        std::vector<std::string> none;
        for (int64_t i = 1; i <= n; ++i) {
          bool seen = false;
          for (const ShardRecord& r : *records) seen |= r.shard == i;
          if (!seen) none.push_back(absl::StrCat(i, "/", n));
        }
        if (!none.empty()) {
          which = absl::StrCat("; no record of shard(s) ",
                               absl::StrJoin(none, ", "),
                               " (not run, or not finished)");
        }
      } else {
        which = "; no shard records (no `run --shard` wrote here)";
      }
      missing.push_back(absl::StrCat(spec.experiment, " (", dir, "): ", absent,
                                     " of ", spec.cells.size(),
                                     " cells missing", which));
    }
  }
  if (!missing.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot merge: ", absl::StrJoin(missing, "; "),
        ". Run the missing shards (same --tier and --results-dir), then merge "
        "again."));
  }
  // Real memcached cells need the memcached binary and a server that
  // starts: checked once before anything runs, so a missing package is a
  // one-line error (exit 2), not one failed cell per configuration.
  bool real_cluster = false;
  for (const TimingJob& j : timing) {
    for (const Cell* c : j.cells) {
      real_cluster |= c->kind == "cluster" && c->mode == "memcached";
    }
  }
  if (real_cluster) {
    absl::StatusOr<std::unique_ptr<MemcachedCluster>> probe =
        MemcachedCluster::Start(1, MemcachedOptions{});
    if (!probe.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the cluster experiment's memcached cells cannot run: ",
                       probe.status().message()));
    }
  }
  if (!o.merge) {
    for (const std::string& dir : dirs) {
      for (const char* sub : {"/cells", "/shards"}) {
        if (!sharded && std::string_view(sub) == "/shards") continue;
        std::error_code ec;
        fs::create_directories(dir + sub, ec);
        if (ec) {
          return absl::InvalidArgumentError(absl::StrCat(
              "cannot write results: cannot create ", dir, sub, ": ",
              ec.message(), " (--results-dir ", results, ")"));
        }
      }
    }
  }
  StopSignals stop_signals;
  Progress progress(work.size(), timing.size());
  for (const std::string& n : notes) progress.Message(n);
  if (skipped) {
    progress.Message(absl::StrCat("chbench run: ", skipped,
                                  " cells already done (use --force to redo)"));
  }
  std::vector<std::string> errors;
  std::mutex mu;
  std::atomic<size_t> written{0};
  // 1. Non-timing cells on a thread pool.
  const int jobs =
      o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (;;) {
      if (Stopping()) return;
      const size_t i = next.fetch_add(1);
      if (i >= work.size()) return;
      const absl::Status s = RunJob(work[i]);
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        errors.push_back(std::string(s.message()));
      } else {
        ++written;
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
  if (!timing.empty() && !Stopping()) {
    if (absl::Status s = CheckGoldens(); !s.ok()) return s;
    progress.StartTiming();
    for (const TimingJob& j : timing) {
      if (Stopping()) break;
      const absl::Status s = RunTimingJob(j);
      if (!s.ok()) {
        errors.push_back(std::string(s.message()));
      } else {
        written += j.cells.size();
      }
      progress.Done(
          absl::StrCat(
              j.spec->experiment, "/", j.cells[0]->Name(),
              j.cells.size() > 1 ? absl::StrCat(" +", j.cells.size() - 1) : "",
              s.ok() ? "" : " FAILED"),
          /*timing=*/true);
    }
  }
  if (g_write_failed.load()) {
    return absl::InternalError(absl::StrCat(
        "cannot write results (stopped at the first failed write; ",
        written.load(),
        " cell file(s) of this run are complete and kept, no partial file is "
        "left): ",
        g_write_error, ". Free space or fix ", results,
        ", then rerun the same command: it "
        "resumes."));
  }
  if (const int sig = g_stop_signal.load(); sig != 0) {
    return absl::CancelledError(absl::StrCat(
        "interrupted by ", sig == SIGINT ? "SIGINT" : "SIGTERM", ": ",
        written.load(),
        " cell file(s) written by this run are complete and "
        "kept; nothing was assembled. Rerun the same command to resume."));
  }
  // 3. Sharded: record this shard and stop (the merge assembles).
  if (sharded) {
    for (size_t i = 0; i < specs.size(); ++i) {
      ShardRecord r;
      r.shard = o.shard;
      r.shards = o.shards;
      r.git_commit = git.commit;
      r.git_dirty = git.dirty;
      r.spec_hash = absl::StrFormat("%016x", specs[i].hash);
      r.tier = specs[i].tier;
      r.host = HostName();
      r.cpu_model = CpuModel();
      r.date_utc = UtcNow();
      r.command_line = o.command_line;
      r.machine_json = MachineJson();
      r.cells = shard_units[i].first;
      r.timing_groups = shard_units[i].second;
      if (absl::Status s =
              WriteResult(absl::StrCat(dirs[i], "/shards/",
                                       ShardFileName(o.shard, o.shards)),
                          ShardRecordToml(r));
          !s.ok()) {
        errors.push_back(std::string(s.message()));
      }
    }
    if (!errors.empty()) {
      return absl::InternalError(absl::StrCat(
          errors.size(), " error(s): ", absl::StrJoin(errors, "\n  ")));
    }
    progress.Message(
        absl::StrCat("chbench run: shard ", o.shard, "/", o.shards, " done (",
                     written.load(),
                     " cell file(s) written); once every shard is done, "
                     "`chbench merge` assembles data.csv"));
    return absl::OkStatus();
  }
  // 4. What the names in these results mean, then assemble every experiment
  // whose cells are all there and whose shards (if any) agree.
  if (absl::Status s =
          WriteResult(results + "/registry.json", RegistryJson(spec_dir));
      !s.ok()) {
    errors.push_back(std::string(s.message()));
  }
  std::vector<std::string> refused;
  // Experiments this invocation computed cells of: the others, already
  // assembled, keep their files (meta.json names the commit and date that
  // measured them, not this run's).
  std::vector<bool> computed(specs.size(), false);
  for (size_t i = 0; i < specs.size(); ++i) {
    for (const Job& j : work) computed[i] = computed[i] || j.spec == &specs[i];
    for (const TimingJob& j : timing) {
      computed[i] = computed[i] || j.spec == &specs[i];
    }
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    const Spec& spec = specs[i];
    if (!o.merge && !computed[i] && fs::exists(dirs[i] + "/data.csv") &&
        fs::exists(dirs[i] + "/meta.json")) {
      progress.Message(absl::StrCat("chbench run: ", dirs[i],
                                    " is complete; nothing to do"));
      continue;
    }
    absl::StatusOr<std::vector<ShardRecord>> records =
        ReadShardRecords(dirs[i]);
    absl::Status agree =
        records.ok() ? CheckShards(spec, *records, git) : records.status();
    if (!agree.ok()) {
      refused.push_back(std::string(agree.message()));
      continue;
    }
    bool timing_exp = false;
    for (const Cell& c : spec.cells) timing_exp |= c.timing();
    if (absl::Status s = Assemble(spec, dirs[i]); !s.ok()) {
      errors.push_back(
          absl::StrCat(spec.experiment, ": not assembled: ", s.message()));
      continue;
    }
    if (absl::Status s =
            WriteResult(dirs[i] + "/meta.json",
                        MetaJson(spec, o, timing_exp, spec.cells.size(), git,
                                 ShardsJson(*records)));
        !s.ok()) {
      errors.push_back(std::string(s.message()));
      continue;
    }
    progress.Message(absl::StrCat(
        "chbench ", o.merge ? "merge" : "run", ": wrote ", dirs[i],
        "/data.csv (", spec.cells.size(), " cells",
        records->empty() ? "" : absl::StrCat(", ", records->size(), " shards"),
        ")"));
  }
  if (!errors.empty()) {
    return absl::InternalError(absl::StrCat(
        errors.size(), " error(s): ", absl::StrJoin(errors, "\n  ")));
  }
  if (!refused.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("not assembled: ", absl::StrJoin(refused, "; ")));
  }
  return absl::OkStatus();
}

}  // namespace chbench
