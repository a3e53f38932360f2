// Copyright 2026 The chbench Authors.

#include "experiments/provenance.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "experiments/build_facts.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/rendezvous/rendezvous.h"
#include "algorithms/util/json.h"
#include "bench/timing.h"
#include "experiments/csv.h"
#include "experiments/paths.h"

namespace chbench {

namespace fs = std::filesystem;

namespace {

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

}  // namespace

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

GitState SourceGitState() {
  const std::string src = SourceDir();
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
std::string MetaJson(const Spec& spec, const std::string& command_line,
                     bool timing, size_t cells, const GitState& git,
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
  kv("command_line", JsonString(command_line));
  kv("date_utc", JsonString(date));
  kv("git_commit", commit.empty() ? "null" : JsonString(commit));
  kv("git_dirty", commit.empty() ? "null" : (git.dirty ? "true" : "false"));
  kv("compiler", JsonString(absl::StrCat("g++ ", __VERSION__)));
  kv("cxx_flags", JsonString(ThisBuild().cxx_flags));
  kv("build_type", JsonString(ThisBuild().build_type));
  // Loops chosen at run time from the CPU, not from the flags.
  kv("cpu_dispatch",
     absl::StrCat(
         "{\"rendezvous_xxh64\": ",
         JsonString(RendezvousKernelName(Rendezvous<Xxh64>::BestKernel())),
         "}"));
  kv("machine", MachineJson());
  kv("libraries",
     absl::StrCat(
         "{\"absl\": ", JsonString(ThisBuild().absl),
         ", \"benchmark\": ", JsonString(ThisBuild().benchmark),
         ", \"boost\": ", JsonString(ThisBuild().boost),
         ", \"xxhash\": ", JsonString(ThisBuild().xxhash),
         ", \"murmurhash\": ", JsonString(ThisBuild().murmurhash),
         ", \"tomlplusplus\": ", JsonString(ThisBuild().tomlplusplus),
         ", \"openssl\": ", JsonString(ThisBuild().openssl), "}"));
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

}  // namespace chbench
