// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: fuzz/map_input_fuzzer.cc
// -----------------------------------------------------------------------------
//
// libFuzzer target: the input handling of `chbench map`
// (experiments/cli/map_input.h): flag values, node names, weights, zones,
// servers, removals, and the key lines, string or u64.
//
// Input. Flag lines, an empty line, then what `chbench map` reads on stdin:
//
//   --algorithm=ring
//   --node-names=a,b,c
//   --weights=1,2,0.5
//
//   alice
//   bob
//
// A flag line is `--<flag>=<value>` with the flag's name as on the command
// line (--key-format, --preset-options, ...); it sets the flag as given.
// Other header lines are ignored. `--read-block=N` (1..4096, default 16)
// sets LineReader's first buffer size, so that the partial-line and growth
// paths run on short inputs. Without an empty line everything is header.
//
// Bounds. Configurations whose build would take long are configured and
// validated but not built: more than 256 nodes, more than 10^5 ring points,
// a Maglev table above 2 * 10^5, a capacity above 10^5, preset options with
// a number above 4096; --nodes above 64 is skipped before Configure (a
// million node specs is a legitimate but slow allocation).
//
// Findings: a crash, a sanitizer report, or a broken invariant (printed,
// then abort). Invariants:
//   * ConfigureMap and BuildMapInstance fail only with InvalidArgument (the
//     exit-2 errors of `chbench map`) and a non-empty message.
//   * LineReader returns exactly the '\n'-separated lines of its input (a
//     final line without '\n' included), whatever the block size.
//   * MapLine appends exactly key<TAB>owner[<TAB>...]<LF> with the owners the
//     instance gives (Lookup, or the placed node for a stateful algorithm,
//     or LookupReplicas), every owner a node that was not removed; with
//     u64 keys it fails with InvalidArgument and appends nothing exactly
//     when the line is not a decimal u64. It never returns Internal.

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "experiments/cli/cli_util.h"
#include "experiments/cli/map_input.h"

namespace chbench {
namespace {

[[noreturn]] void Broken(const std::string& what) {
  std::fprintf(stderr, "map_input_fuzzer: invariant broken: %s\n",
               what.c_str());
  std::fflush(stderr);
  std::abort();
}
#define FUZZ_CHECK(cond, ...)                                    \
  do {                                                           \
    if (!(cond)) Broken(absl::StrCat(#cond, ": ", __VA_ARGS__)); \
  } while (0)

constexpr uint64_t kMaxFuzzNodes = 64;
constexpr size_t kMaxBuildNodes = 256;
constexpr double kMaxRingPoints = 1e5;
constexpr uint64_t kMaxTable = 200000;
constexpr uint64_t kMaxCapacity = 100000;
constexpr uint64_t kMaxOptionNumber = 4096;

bool HasLargeNumber(std::string_view text) {
  uint64_t v = 0;
  size_t digits = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (c >= '0' && c <= '9') {
      if (++digits > 6) return true;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    } else {
      if (v > kMaxOptionNumber) return true;
      v = 0;
      digits = 0;
    }
  }
  return false;
}

// Sets the flag named by a header line; false for an unknown line.
bool SetFlag(std::string_view line, cli::MapFlags* f, size_t* block) {
  if (line.substr(0, 2) != "--") return false;
  const size_t eq = line.find('=');
  const std::string_view name =
      line.substr(2, eq == line.npos ? line.npos : eq - 2);
  const std::string value(eq == line.npos ? std::string_view()
                                          : line.substr(eq + 1));
  if (name == "read-block") {
    uint64_t b = 0;
    if (cli::ParseDecimalU64(value, &b) && b >= 1 && b <= 4096) *block = b;
    return true;
  }
  const struct {
    std::string_view name;
    cli::MapFlag* flag;
  } kFlags[] = {{"algorithm", &f->algorithm},
                {"preset", &f->preset},
                {"preset-options", &f->preset_options},
                {"servers", &f->servers},
                {"nodes", &f->nodes},
                {"node-names", &f->node_names},
                {"vnodes", &f->vnodes},
                {"hash", &f->hash},
                {"table-size", &f->table_size},
                {"load-factor", &f->load_factor},
                {"weights", &f->weights},
                {"replicas", &f->replicas},
                {"zones", &f->zones},
                {"key-format", &f->key_format},
                {"capacity", &f->capacity},
                {"probes", &f->probes},
                {"remove", &f->remove}};
  for (const auto& [n, flag] : kFlags) {
    if (n == name) {
      flag->value = value;
      flag->given = true;
      return true;
    }
  }
  return false;
}

// Whether building `config` would be slow (see Bounds above).
bool TooBig(const cli::MapConfig& c) {
  if (c.nodes.size() > kMaxBuildNodes) return true;
  double weight = 0;
  for (const NodeSpec& n : c.nodes) weight += n.weight;
  if (!c.preset.empty()) {
    return weight > 1000 || HasLargeNumber(c.preset_options);
  }
  return static_cast<double>(c.params.vnodes) * weight > kMaxRingPoints ||
         c.params.table_size > kMaxTable || c.params.capacity > kMaxCapacity;
}

// The lines of `text` as `chbench map` reads them.
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    if (nl == text.npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// Reads `text` through a pipe with LineReader.
std::vector<std::string> ReadLines(std::string_view text, size_t block) {
  int fds[2];
  FUZZ_CHECK(::pipe(fds) == 0, "pipe");
  // A pipe holds 64 KiB; -max_len keeps inputs far below that.
  const std::string_view part = text.substr(0, 60000);
  size_t done = 0;
  while (done < part.size()) {
    const ssize_t put = ::write(fds[1], part.data() + done, part.size() - done);
    FUZZ_CHECK(put > 0, "write to pipe");
    done += static_cast<size_t>(put);
  }
  ::close(fds[1]);
  cli::LineReader reader(fds[0], block);
  std::vector<std::string> lines;
  std::string_view line;
  size_t reads = 0;
  while (true) {
    const cli::LineReader::Result r = reader.Next(&line, [&reads] { ++reads; });
    FUZZ_CHECK(r != cli::LineReader::kError, "read error");
    if (r == cli::LineReader::kEnd) break;
    lines.emplace_back(line);
  }
  ::close(fds[0]);
  const std::vector<std::string_view> want = SplitLines(part);
  FUZZ_CHECK(lines.size() == want.size(), "LineReader gave ", lines.size(),
             " lines, the input has ", want.size(), " (block ", block, ")");
  for (size_t i = 0; i < lines.size(); ++i) {
    FUZZ_CHECK(lines[i] == want[i], "LineReader line ", i, " differs (block ",
               block, ")");
  }
  return lines;
}

void Run(std::string_view data) {
  const size_t split = data.find("\n\n");
  const std::string_view header = data.substr(0, split);
  const std::string_view input =
      split == data.npos ? std::string_view() : data.substr(split + 2);

  cli::MapFlags flags;
  size_t block = 16;
  for (std::string_view line : SplitLines(header))
    SetFlag(line, &flags, &block);
  uint64_t nodes = 0;
  if (flags.nodes.given && cli::ParseDecimalU64(flags.nodes.value, &nodes) &&
      nodes > kMaxFuzzNodes) {
    return;
  }

  cli::MapConfig config;
  const absl::Status configured = cli::ConfigureMap(flags, &config);
  if (!configured.ok()) {
    FUZZ_CHECK(
        absl::IsInvalidArgument(configured) && !configured.message().empty(),
        "ConfigureMap: ", configured.ToString());
    return;
  }
  FUZZ_CHECK(!config.nodes.empty() && config.nodes.size() <= cli::kMapMaxNodes,
             config.nodes.size(), " nodes configured");
  FUZZ_CHECK(config.replicas >= 1 && config.replicas <= config.nodes.size(),
             "replicas ", config.replicas);
  if (TooBig(config)) return;

  const cli::MapConfig configured_copy = config;
  absl::StatusOr<cli::MapInstance> instance = cli::BuildMapInstance(&config);
  if (!instance.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(instance.status()) &&
                   !instance.status().message().empty(),
               "BuildMapInstance: ", instance.status().ToString());
    return;
  }
  ConsistentHash& algo = *instance->algo;
  const size_t n = configured_copy.nodes.size();
  FUZZ_CHECK(instance->names.size() == n, "names ", instance->names.size());
  FUZZ_CHECK(algo.size() + configured_copy.remove.size() == n, "live ",
             algo.size(), " after removing ", configured_copy.remove.size(),
             " of ", n);
  FUZZ_CHECK(algo.size() > 0, "no live node left to map keys to");
  std::set<NodeId> live;
  for (NodeId id : algo.LiveNodes()) live.insert(id);

  const std::vector<std::string> lines = ReadLines(input, block);
  std::vector<NodeId> owners;
  std::string out;
  uint64_t line_number = 0;
  for (const std::string& raw : lines) {
    ++line_number;
    std::string_view key = raw;
    if (!key.empty() && key.back() == '\r') key.remove_suffix(1);
    uint64_t digest = 0;
    const bool u64_ok = cli::ParseDecimalU64(key, &digest);
    const size_t before = out.size();
    const absl::Status s =
        cli::MapLine(raw, line_number, config, *instance, &owners, &out);
    FUZZ_CHECK(!absl::IsInternal(s), s.ToString());
    if (config.u64_keys) {
      FUZZ_CHECK(s.ok() == u64_ok, "line ", line_number, ": u64 key '",
                 cli::Excerpt(key), "' ", s.ToString());
    } else {
      FUZZ_CHECK(s.ok(), s.ToString());
      digest = algo.HashKey(key);
    }
    if (!s.ok()) {
      FUZZ_CHECK(out.size() == before, "a refused line appended output");
      break;  // chbench map stops here
    }
    // The owners, asked again: a placed key keeps its node.
    std::vector<NodeId> want;
    if (config.replicas == 1) {
      want.push_back(algo.Lookup(digest));
    } else {
      FUZZ_CHECK(algo.LookupReplicas(digest, config.replicas,
                                     config.distinct_zones, &want)
                     .ok(),
                 "LookupReplicas");
    }
    std::string expected(key);
    for (NodeId id : want) {
      FUZZ_CHECK(live.count(id) != 0, "owner ", id, " is not live");
      absl::StrAppend(&expected, "\t", instance->names[id]);
    }
    expected += '\n';
    FUZZ_CHECK(std::string_view(out).substr(before) == expected, "line ",
               line_number, ": output '", cli::Excerpt(out.substr(before)),
               "', expected '", cli::Excerpt(expected), "'");
    if (out.size() > (1 << 16)) out.clear();
  }
}

}  // namespace
}  // namespace chbench

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  chbench::Run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
