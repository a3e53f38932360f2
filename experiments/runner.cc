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
#include "absl/strings/str_split.h"
#include "algorithms/checksum.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/registry.h"
#include "algorithms/util/alloc_counter.h"
#include "algorithms/util/random.h"
#include "bench/timing.h"
#include "experiments/csv.h"
#include "workload/keyset.h"
#include "experiments/metrics.h"

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

namespace {

// Rendezvous looks up in O(N); its key count is capped so that one mapping
// pass costs at most this many score evaluations (~0.7 s at ~3.4 ns each).
constexpr uint64_t kRendezvousBudget = 200'000'000;

ResultRow BaseRow(const Cell& c, const std::string& run_id) {
  ResultRow r;
  r.run_id = run_id;
  r.experiment = c.experiment;
  r.algorithm = c.algorithm;
  r.hash = c.hash;
  r.keyset = c.keyset;
  if (c.nodes) r.nodes = c.nodes;
  if (c.vnodes) r.vnodes = *c.vnodes;
  if (c.keys) r.keys = c.keys;
  r.table_size = c.table_size;
  r.load_factor = c.load_factor;
  r.seed = c.seed;
  r.repetition = c.repetition;
  return r;
}

std::string ClaimScenario(const Cell& c, std::string_view scenario) {
  if (c.claim.empty()) return std::string(scenario);
  if (scenario.empty()) return c.claim;
  return absl::StrCat(c.claim, ".", std::string(scenario));
}

void Add(std::vector<ResultRow>* rows, const ResultRow& base,
         std::string_view metric, std::optional<double> value,
         std::string_view unit, std::string_view note = "") {
  ResultRow r = base;
  r.metric = std::string(metric);
  r.value = value;
  r.unit = std::string(unit);
  r.note = std::string(note);
  rows->push_back(std::move(r));
}

std::vector<NodeSpec> MakeNodes(size_t n, uint64_t seed,
                                const std::vector<double>& weights = {}) {
  std::vector<NodeSpec> nodes(n);
  for (size_t i = 0; i < n; ++i) {
    nodes[i].name = NodeName(i, seed);
    if (i < weights.size()) nodes[i].weight = weights[i];
  }
  return nodes;
}

// Key count after the rendezvous cap, with the note explaining it.
uint64_t CappedKeys(const Cell& c, std::string* note) {
  if (c.algorithm != "rendezvous" || c.nodes == 0) return c.keys;
  const uint64_t cap = std::max<uint64_t>(1000, kRendezvousBudget / c.nodes);
  if (c.keys <= cap) return c.keys;
  *note = absl::StrCat("keys capped from ", c.keys, " to ", cap,
                       ": rendezvous lookup is O(N) (budget ",
                       kRendezvousBudget, " score evaluations per pass)");
  return cap;
}

absl::StatusOr<std::vector<uint64_t>> Digests(const Cell& c, uint64_t count,
                                              ConsistentHash& algo) {
  absl::StatusOr<std::vector<std::string>> keys =
      GenerateKeys(c.keyset, count, c.seed);
  if (!keys.ok()) return keys.status();
  std::vector<uint64_t> d(keys->size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = algo.HashKey((*keys)[i]);
  return d;
}

absl::StatusOr<std::unique_ptr<ConsistentHash>> Built(
    const Cell& c, std::span<const NodeSpec> nodes) {
  absl::StatusOr<std::unique_ptr<ConsistentHash>> a =
      MakeAlgorithm(c.algorithm, c.Params());
  if (!a.ok()) return a.status();
  if (absl::Status s = (*a)->Build(nodes); !s.ok()) return s;
  return a;
}

// Owner of each key as an index via `id_to_index` (Place for stateful
// algorithms, in key order).
std::vector<uint32_t> MapKeys(ConsistentHash& algo,
                              std::span<const uint64_t> digests,
                              std::span<const uint32_t> id_to_index) {
  std::vector<uint32_t> out(digests.size());
  if (algo.capabilities().stateful) {
    algo.PlaceBatch(digests, out);
    if (!id_to_index.empty()) {
      for (uint32_t& id : out) id = id_to_index[id];
    }
    return out;
  }
  for (size_t k = 0; k < digests.size(); ++k) {
    const NodeId id = algo.Lookup(digests[k]);
    out[k] = id_to_index.empty() ? id : id_to_index[id];
  }
  return out;
}

std::vector<uint64_t> Loads(std::span<const uint32_t> owners, size_t n) {
  std::vector<uint64_t> loads(n, 0);
  for (uint32_t o : owners) ++loads[o];
  return loads;
}

// ---------------------------------------------------------------- balance
absl::StatusOr<std::vector<ResultRow>> RunBalance(const Cell& c,
                                                  const std::string& run_id) {
  std::string note;
  const uint64_t m0 = CappedKeys(c, &note);
  const std::vector<NodeSpec> nodes = MakeNodes(c.nodes, c.seed);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, nodes);
  if (!algo.ok()) return algo.status();
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  const uint64_t m = d->size();
  const std::vector<uint64_t> loads = Loads(MapKeys(**algo, *d, {}), c.nodes);
  const LoadStats s = ComputeLoadStats(loads);
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  base.keys = m;
  base.scenario = ClaimScenario(c, "measured");
  Add(&rows, base, "load_max_over_mean", s.max_over_mean, "ratio", note);
  Add(&rows, base, "load_min_over_mean", s.min_over_mean, "ratio", note);
  Add(&rows, base, "load_rel_stddev", s.rel_stddev, "ratio", note);
  Add(&rows, base, "load_chi2_pvalue", s.chi2_pvalue, "probability", note);
  Add(&rows, base, "load_max", static_cast<double>(s.max), "keys", note);
  Add(&rows, base, "load_min", static_cast<double>(s.min), "keys", note);
  base.scenario = ClaimScenario(c, "analytic");
  if (c.algorithm == "bounded_load") {
    const double bound = BoundedLoadBound(m, c.nodes, *c.load_factor);
    Add(&rows, base, "load_max_over_mean", bound, "ratio",
        "bound ceil(c*m/n)/(m/n) (Mirrokni et al. 2018)");
    Add(&rows, base, "load_max", bound * m / c.nodes, "keys",
        "bound ceil(c*m/n)");
    return rows;
  }
  AnalyticBalance a;
  std::string model;
  if (c.algorithm == "ring") {
    a = RingBalance(m, c.nodes, *c.vnodes);
    model =
        "ring: shares Beta(v,(n-1)v) plus binomial key noise; extremes by "
        "moment-matched gamma at Blom positions (results/README.md)";
  } else {
    a = IdealUniformBalance(m, c.nodes);
    model =
        "ideal uniform: multinomial loads; extremes by moment-matched "
        "gamma at Blom positions (results/README.md)";
  }
  Add(&rows, base, "load_max_over_mean", a.max_over_mean, "ratio", model);
  Add(&rows, base, "load_min_over_mean", a.min_over_mean, "ratio", model);
  Add(&rows, base, "load_rel_stddev", a.rel_stddev, "ratio", model);
  Add(&rows, base, "load_chi2_pvalue", a.chi2_pvalue, "probability",
      "p-value of the expected chi-squared statistic");
  Add(&rows, base, "load_max", a.load_max, "keys", model);
  Add(&rows, base, "load_min", a.load_min, "keys", model);
  return rows;
}

// ------------------------------------------------------------- disruption
absl::StatusOr<std::vector<ResultRow>> RunDisruption(
    const Cell& c, const std::string& run_id) {
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", c.algorithm, "'"));
  }
  std::string note;
  const uint64_t m0 = CappedKeys(c, &note);
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  std::string scenario = c.scenario;
  const uint32_t n = c.nodes;
  const bool arbitrary = info->capabilities.arbitrary_removal;
  const bool single_random = scenario == "remove_random";
  if (!arbitrary && single_random) {
    scenario = "remove_last";
    note = absl::StrCat(note, note.empty() ? "" : "; ", c.algorithm,
                        " removes only the last node: remove_last recorded "
                        "instead of remove_random");
  }
  base.scenario = ClaimScenario(c, scenario);
  if (!arbitrary && absl::EndsWith(scenario, "pct_random")) {
    const std::string na = absl::StrCat("not applicable: ", c.algorithm,
                                        " can remove only the last node");
    base.keys = m0;
    for (const char* metric : {"moved_fraction", "moved_optimal_fraction",
                               "moved_excess_fraction", "load_max"}) {
      Add(&rows, base, metric, std::nullopt,
          std::string_view(metric) == "load_max" ? "keys" : "fraction", na);
    }
    return rows;
  }
  // Which nodes leave.
  std::vector<uint32_t> removed;
  std::optional<uint32_t> added;
  if (scenario == "add") {
    added = n;
  } else if (scenario == "remove_last") {
    removed = {n - 1};
  } else if (scenario == "remove_random") {
    Sfc64 rng(c.seed ^ 0x72656d6f7665ULL);  // "remove"
    removed = {static_cast<uint32_t>(rng.Below(n))};
  } else {
    int pct = 0;
    const std::vector<std::string> parts = absl::StrSplit(scenario, '_');
    if (parts.size() != 3 ||
        !absl::SimpleAtoi(absl::StripSuffix(parts[1], "pct"), &pct)) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown disruption scenario '", scenario, "'"));
    }
    uint32_t r = static_cast<uint32_t>(std::llround(n * pct / 100.0));
    r = std::clamp<uint32_t>(r, 1, n - 1);
    if (parts[2] == "lifo") {
      for (uint32_t i = n - r; i < n; ++i) removed.push_back(i);
    } else {
      std::vector<uint32_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      Sfc64 rng(c.seed ^ 0x72656d6f7665ULL);
      for (uint32_t i = 0; i < r; ++i) {
        std::swap(order[i], order[i + rng.Below(n - i)]);
      }
      removed.assign(order.begin(), order.begin() + r);
      std::sort(removed.begin(), removed.end());
    }
  }
  const std::vector<NodeSpec> nodes = MakeNodes(n + 1, c.seed);
  const std::span<const NodeSpec> before_nodes(nodes.data(), n);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, before_nodes);
  if (!algo.ok()) return algo.status();
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  base.keys = d->size();
  const std::vector<uint32_t> before = MapKeys(**algo, *d, {});
  std::vector<uint32_t> after;
  const bool stateful = info->capabilities.stateful;
  if (!stateful && (added || removed.size() == 1)) {
    // One dynamic operation on the same instance: ids are the indices.
    if (added) {
      absl::StatusOr<NodeId> id = (*algo)->AddNode(nodes[n]);
      if (!id.ok()) return id.status();
      if (*id != n) {
        return absl::InternalError(absl::StrCat(
            c.algorithm, ": AddNode gave id ", *id, ", expected ", n));
      }
    } else if (absl::Status s = (*algo)->RemoveNode(removed[0]); !s.ok()) {
      return s;
    }
    after = MapKeys(**algo, *d, {});
  } else {
    // A fresh instance with the node set after the change (stateful
    // algorithms re-place every key in key order; batch removals).
    std::vector<NodeSpec> after_nodes;
    std::vector<uint32_t> id_to_index;
    std::vector<bool> gone(n + 1, false);
    for (uint32_t r : removed) gone[r] = true;
    for (uint32_t i = 0; i < (added ? n + 1 : n); ++i) {
      if (gone[i]) continue;
      after_nodes.push_back(nodes[i]);
      id_to_index.push_back(i);
    }
    absl::StatusOr<std::unique_ptr<ConsistentHash>> b = Built(c, after_nodes);
    if (!b.ok()) return b.status();
    after = MapKeys(**b, *d, id_to_index);
  }
  const DisruptionStats s =
      ComputeDisruption(before, after, n, n + 1, added, removed);
  Add(&rows, base, "moved_fraction", s.moved_fraction, "fraction", note);
  Add(&rows, base, "moved_optimal_fraction", s.moved_optimal_fraction,
      "fraction", note);
  Add(&rows, base, "moved_excess_fraction", s.moved_excess_fraction, "fraction",
      note);
  if (s.receivers) {
    Add(&rows, base, "receivers", static_cast<double>(*s.receivers), "nodes",
        note);
  }
  Add(&rows, base, "load_max", static_cast<double>(s.load_max), "keys", note);
  return rows;
}

// ----------------------------------------------------------------- memory
absl::StatusOr<std::vector<ResultRow>> RunMemory(const Cell& c,
                                                 const std::string& run_id) {
  const std::vector<NodeSpec> nodes = MakeNodes(c.nodes, c.seed);
  const int64_t before = ThreadHeapBytes();
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, nodes);
  if (!algo.ok()) return algo.status();
  const int64_t heap = ThreadHeapBytes() - before;
  const double self = static_cast<double>((*algo)->MemoryBytes());
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  base.keys.reset();
  Add(&rows, base, "memory_bytes", self, "bytes");
  Add(&rows, base, "heap_bytes", static_cast<double>(heap), "bytes",
      "counting allocator around creation + Build (includes the object)");
  Add(&rows, base, "memory_bytes_per_node", self / c.nodes, "bytes");
  return rows;
}

// ---------------------------------------------------------------- weights
absl::StatusOr<std::vector<ResultRow>> RunWeights(const Cell& c,
                                                  const std::string& run_id) {
  const AlgorithmInfo* info = FindAlgorithm(c.algorithm);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", c.algorithm, "'"));
  }
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  const double total = std::accumulate(c.weights.begin(), c.weights.end(), 0.0);
  if (!info->capabilities.weights) {
    base.scenario = ClaimScenario(c, "measured");
    for (size_t i = 0; i < c.weights.size(); ++i) {
      base.node = i;
      base.weight = c.weights[i];
      Add(&rows, base, "share", std::nullopt, "fraction",
          absl::StrCat("not applicable: ", c.algorithm,
                       " does not support weights"));
    }
    return rows;
  }
  std::string note;
  const uint64_t m0 = CappedKeys(c, &note);
  const std::vector<NodeSpec> nodes = MakeNodes(c.nodes, c.seed, c.weights);
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = Built(c, nodes);
  if (!algo.ok()) return algo.status();
  absl::StatusOr<std::vector<uint64_t>> d = Digests(c, m0, **algo);
  if (!d.ok()) return d.status();
  base.keys = d->size();
  const std::vector<uint64_t> loads = Loads(MapKeys(**algo, *d, {}), c.nodes);
  for (size_t i = 0; i < c.weights.size(); ++i) {
    base.node = i;
    base.weight = c.weights[i];
    base.scenario = ClaimScenario(c, "measured");
    Add(&rows, base, "share",
        static_cast<double>(loads[i]) / static_cast<double>(d->size()),
        "fraction", note);
    base.scenario = ClaimScenario(c, "analytic");
    Add(&rows, base, "share", c.weights[i] / total, "fraction", "w_i / sum w");
  }
  return rows;
}

// ------------------------------------------------------------- hash speed
absl::StatusOr<std::vector<ResultRow>> RunHashSpeed(const Cell& c,
                                                    const std::string& run_id) {
  absl::StatusOr<std::vector<std::string>> keys =
      GenerateKeys(c.keyset, c.keys, c.seed);
  if (!keys.ok()) return keys.status();
  double ns = 0;
  uint64_t sink = 0;
  const bool known = DispatchHash(c.hash, [&]<typename H>() {
    using Clock = std::chrono::steady_clock;
    uint64_t rounds = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    do {
      for (const std::string& k : *keys) sink += HashString<H>(k);
      ++rounds;
      elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < c.min_time_s);
    ns = elapsed * 1e9 / (static_cast<double>(rounds) * keys->size());
  });
  if (!known) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown hash '", c.hash, "'"));
  }
  static std::atomic<uint64_t> g_sink;
  g_sink += sink;
  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  base.keys = keys->size();
  base.scenario = "string";
  Add(&rows, base, "hash_ns", ns, "ns",
      "mean ns per key over repeated passes of HashString<H> (runner loop)");
  return rows;
}

// ----------------------------------------------------------- lookup/build
absl::StatusOr<std::vector<ResultRow>> RunTiming(const Cell& c,
                                                 const std::string& run_id,
                                                 const std::string& gbench) {
  TimingCell t{.algorithm = c.algorithm,
               .params = c.Params(),
               .nodes = c.nodes,
               .keyset = c.keyset,
               .seed = c.seed,
               .num_keys = c.keys};
  TimingOptions o;
  o.min_time_s = c.min_time_s;
  o.gbench_json_path = gbench;
  // Build/add/remove wall-time cap scales with the tier's min_time_s.
  o.build_wall_budget_s = std::min(2.0, 20 * c.min_time_s);
  absl::StatusOr<std::vector<ResultRow>> rows =
      c.kind == "lookup" ? RunLookupTiming(t, o) : RunBuildTiming(t, o);
  if (!rows.ok()) return rows.status();
  const ResultRow base = BaseRow(c, run_id);
  for (ResultRow& r : *rows) {
    r.run_id = run_id;
    r.experiment = c.experiment;
    r.seed = c.seed;
    r.repetition = c.repetition;
    if (r.algorithm.empty()) r.algorithm = base.algorithm;
    if (r.hash.empty()) r.hash = base.hash;
    if (r.keyset.empty()) r.keyset = base.keyset;
    if (!r.nodes) r.nodes = base.nodes;
    if (!r.vnodes) r.vnodes = base.vnodes;
    if (!r.table_size) r.table_size = base.table_size;
    if (!r.load_factor) r.load_factor = base.load_factor;
    if (c.kind == "build") r.keys.reset();
  }
  return rows;
}

}  // namespace

absl::StatusOr<std::vector<ResultRow>> RunCell(const Cell& cell,
                                               const std::string& run_id,
                                               const std::string& gbench_path) {
  if (cell.kind == "balance") return RunBalance(cell, run_id);
  if (cell.kind == "disruption") return RunDisruption(cell, run_id);
  if (cell.kind == "memory") return RunMemory(cell, run_id);
  if (cell.kind == "weights") return RunWeights(cell, run_id);
  if (cell.kind == "hash_speed") return RunHashSpeed(cell, run_id);
  if (cell.kind == "lookup" || cell.kind == "build") {
    return RunTiming(cell, run_id, gbench_path);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown cell kind '", cell.kind, "'"));
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
      "correctness gate failed (no timing was run): ", absl::StrJoin(bad, "; "),
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
// the parallel non-timing cells are fast and many, the timing cells slow and
// few, so one rate for both would be wrong by an order of magnitude. Until
// the first timing cell finishes, the timing cells still to come are shown as
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
      pending = absl::StrCat(" + ", timing_total_, " timing cells");
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

absl::Status RunJob(const Job& j) {
  absl::StatusOr<std::vector<ResultRow>> rows =
      RunCell(*j.cell, j.spec->run_id, j.dir + "/gbench.json");
  if (!rows.ok()) {
    return absl::Status(rows.status().code(),
                        absl::StrCat(j.spec->experiment, "/", j.cell->Name(),
                                     ": ", rows.status().message()));
  }
  std::string text = CsvHeader();
  for (const ResultRow& r : *rows) text += FormatRow(r);
  return WriteFileAtomic(j.path, text);
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
  // Summary: group by every column except run_id, seed, repetition, value,
  // note (indices 0, 10, 11, 16, 18), in order of first appearance.
  const std::vector<size_t> key_cols = {1, 2, 3,  4,  5,  6,  7,
                                        8, 9, 12, 13, 14, 15, 17};
  std::map<std::vector<std::string>, size_t> index;
  std::vector<std::pair<std::vector<std::string>, std::vector<double>>> groups;
  for (const std::vector<std::string>& r : rows) {
    std::vector<std::string> key;
    for (size_t c : key_cols) key.push_back(r[c]);
    auto [it, inserted] = index.emplace(key, groups.size());
    if (inserted) groups.push_back({key, {}});
    double v;
    if (!r[16].empty() && absl::SimpleAtod(r[16], &v)) {
      groups[it->second].second.push_back(v);
    }
  }
  std::vector<std::string> header;
  for (size_t c : key_cols) header.emplace_back(kColumns[c]);
  for (const char* h : {"n", "median", "mean", "ci95_low", "ci95_high"}) {
    header.emplace_back(h);
  }
  std::string summary = FormatFields(header);
  for (auto& [key, values] : groups) {
    const SummaryStats s = Summarize(values);
    std::vector<std::string> f = key;
    f.push_back(std::to_string(s.n));
    f.push_back(s.n ? FormatNumber(s.median) : "");
    f.push_back(s.n ? FormatNumber(s.mean) : "");
    f.push_back(FormatOptional(s.ci95_low));
    f.push_back(FormatOptional(s.ci95_high));
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
  std::vector<Job> work, timing;
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
    bool has_timing = false;
    for (const Cell& c : spec.cells) {
      Job j{&spec, &c, dir, absl::StrCat(dir, "/cells/", c.Name(), ".csv")};
      has_timing |= c.timing();
      if (!o.force && fs::exists(j.path)) {
        ++skipped;
        continue;
      }
      (c.timing() ? timing : work).push_back(std::move(j));
    }
    if (o.force && has_timing) fs::remove(dir + "/gbench.json", ec);
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
  // 2. The gate, then timing cells alone.
  if (!timing.empty()) {
    if (absl::Status s = CheckGoldens(); !s.ok()) return s;
    progress.StartTiming();
    for (const Job& j : timing) {
      const absl::Status s = RunJob(j);
      if (!s.ok()) errors.push_back(std::string(s.message()));
      progress.Done(absl::StrCat(j.spec->experiment, "/", j.cell->Name(),
                                 s.ok() ? "" : " FAILED"),
                    /*timing=*/true);
    }
  }
  // 3. Assemble every experiment whose cells are all there.
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
