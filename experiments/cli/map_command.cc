// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: cli/map_command.cc
// -----------------------------------------------------------------------------
//
// `chbench map`: maps keys read from stdin to their owners.
//
//   $ printf 'alice\nbob\n' | chbench map --algorithm ring --nodes 3
//   alice<TAB>node-2
//   bob<TAB>node-0
//
// Guarantees:
//   * One output line per input line, in input order: `key<TAB>owner`, or
//     with --replicas R > 1, `key<TAB>owner1<TAB>...<TAB>ownerR` in
//     preference order. Owners are node names.
//   * The mapping is the library's: node i (node-i, or the i-th
//     --node-names entry) is built as id i with `Build(specs)` in order (for
//     jump: bucket i), and a string key's digest is the algorithm's
//     `HashKey(key)`. With --key-format u64 each line is the digest itself.
//   * Streaming: memory does not grow with the number of keys. Input is read
//     with read(2) in blocks of up to 1 MiB; the pending output is written
//     with write(2) before each read and when it reaches 1 MiB, so output
//     follows input block by block (and line by line on a terminal).
//   * Option errors are detected before any key is read: exit 2, one line on
//     stderr naming the bad value and the valid ones, nothing on stdout.
//     A malformed u64 key stops the command with exit 2 and an error naming
//     the line; the lines before it have been written, none after it.
//   * bounded_load is stateful: keys are placed with Place() in input order,
//     so a key's owner can depend on the keys before it, and a repeated key
//     gets the node of its first placement. It remembers every placed key's
//     digest (about 25 bytes per distinct key), the one case where memory
//     grows with the input. Because keys are identified by digest, it
//     refuses 32-bit hashes (crc32, murmur3_32): exit 2 with
//     MakeBoundedLoad's one-line error, before any key is read.
//   * Exit 1 only for internal failures: a read or write error, out of
//     memory, or an algorithm that fails at lookup time.

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/cli/cli_util.h"
#include "experiments/cli/commands.h"

namespace chbench {
namespace {

// Upper bound on --nodes: far above any experiment (10^5 nodes), low enough
// that a typo like 4000000000 is an error message rather than an attempt to
// allocate hundreds of gigabytes.
constexpr uint64_t kMaxNodes = 10'000'000;
constexpr size_t kBlockBytes = size_t{1} << 20;

// The raw text of every flag; numbers are parsed by cli_util.h's strict
// parsers so that errors can quote the text.
struct MapFlags {
  std::string algorithm;
  std::string nodes;
  std::string node_names;
  std::string vnodes = "100";
  std::string hash = "xxh64";
  std::string table_size;
  std::string load_factor = "1.25";
  std::string weights;
  std::string replicas = "1";
  std::string zones;
  std::string key_format = "string";
  std::string capacity;
  std::string probes = "21";
  std::string remove;
  std::string preset;
  std::string preset_options;
  std::string servers;
  // Which optional flags were given (CLI11 Option pointers, set at setup).
  CLI::Option* algorithm_opt = nullptr;
  CLI::Option* preset_opt = nullptr;
  CLI::Option* preset_options_opt = nullptr;
  CLI::Option* servers_opt = nullptr;
  CLI::Option* vnodes_opt = nullptr;
  CLI::Option* hash_opt = nullptr;
  CLI::Option* load_factor_opt = nullptr;
  CLI::Option* replicas_opt = nullptr;
  CLI::Option* capacity_opt = nullptr;
  CLI::Option* probes_opt = nullptr;
  CLI::Option* remove_opt = nullptr;
  CLI::Option* nodes_opt = nullptr;
  CLI::Option* node_names_opt = nullptr;
  CLI::Option* table_size_opt = nullptr;
  CLI::Option* weights_opt = nullptr;
  CLI::Option* zones_opt = nullptr;
};

// The validated configuration.
struct MapConfig {
  std::string algorithm;
  std::string preset;          // --preset: a production preset instead
  std::string preset_options;  // its --preset-options
  AlgorithmParams params;
  std::vector<NodeSpec> nodes;
  size_t replicas = 1;
  std::vector<std::string> remove;  // --remove, in order
  bool distinct_zones = false;
  bool u64_keys = false;
};

// "ring, rendezvous, maglev": the registry's algorithms with a capability.
std::string AlgorithmsWith(bool Capabilities::*field) {
  std::vector<std::string> names;
  for (const AlgorithmInfo& info : Algorithms()) {
    if (info.capabilities.*field) names.emplace_back(info.name);
  }
  return names.empty() ? std::string("(none)") : absl::StrJoin(names, ", ");
}

absl::Status Invalid(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

// "anchor, dx": the registry's algorithms whose factory reads `param`.
std::string AlgorithmsReading(std::string_view param) {
  std::vector<std::string> names;
  for (const AlgorithmInfo& info : Algorithms()) {
    for (std::string_view p : info.parameters) {
      if (p == param) names.emplace_back(info.name);
    }
  }
  return names.empty() ? std::string("(none)") : absl::StrJoin(names, ", ");
}

bool Reads(const AlgorithmInfo& info, std::string_view param) {
  for (std::string_view p : info.parameters) {
    if (p == param) return true;
  }
  return false;
}

// Checks every flag and fills `config`. Order: algorithm, hash, key format,
// node count and names, then the parameters that depend on the node count.
// --key-format: string | u64.
absl::Status ParseKeyFormat(const std::string& format, MapConfig* config) {
  if (format != "string" && format != "u64") {
    return Invalid(absl::StrCat("invalid --key-format '", cli::Excerpt(format),
                                "'; valid formats: string, u64"));
  }
  config->u64_keys = format == "u64";
  return absl::OkStatus();
}

// "10.0.0.1:11211:2" -> name "10.0.0.1:11211", weight 2. A weight suffix is
// recognized only in the form host:port:weight (host without ':', port and
// weight decimal); any other item is a whole server name of weight 1 (e.g.
// groupcache's "http://10.0.0.1:8000").
absl::Status ParseServers(std::string_view text, std::vector<NodeSpec>* out) {
  if (text.empty()) return Invalid("--servers is empty; e.g. --servers 10.0.0.1:11211,10.0.0.2:11211");
  for (const std::string& item :
       std::vector<std::string>(absl::StrSplit(std::string(text), ','))) {
    if (item.empty()) {
      return Invalid(absl::StrCat("--servers '", cli::Excerpt(text),
                                  "' has an empty item; valid: "
                                  "host:port[:weight],..."));
    }
    const std::vector<std::string> f = absl::StrSplit(item, ':');
    auto digits = [](const std::string& s) {
      return !s.empty() && s.size() <= 10 &&
             std::all_of(s.begin(), s.end(),
                         [](char c) { return c >= '0' && c <= '9'; });
    };
    NodeSpec spec;
    if (f.size() == 3 && !f[0].empty() && digits(f[1]) && digits(f[2])) {
      spec.name = f[0] + ":" + f[1];
      spec.weight = static_cast<double>(std::stoull(f[2]));
      if (spec.weight < 1) {
        return Invalid(absl::StrCat("--servers item '", cli::Excerpt(item),
                                    "' has weight 0; weights are >= 1"));
      }
    } else {
      spec.name = item;
    }
    out->push_back(std::move(spec));
  }
  if (out->size() > kMaxNodes) {
    return Invalid(absl::StrCat("--servers lists ", out->size(),
                                " servers; at most ", kMaxNodes));
  }
  return absl::OkStatus();
}

absl::Status ConfigurePreset(const MapFlags& flags, MapConfig* config) {
  if (FindPreset(flags.preset) == nullptr) {
    return Invalid(absl::StrCat("unknown preset '", cli::Excerpt(flags.preset),
                                "'; valid presets: ", PresetNames()));
  }
  const std::pair<CLI::Option*, const char*> conflicts[] = {
      {flags.algorithm_opt, "--algorithm"}, {flags.nodes_opt, "--nodes"},
      {flags.node_names_opt, "--node-names"}, {flags.vnodes_opt, "--vnodes"},
      {flags.hash_opt, "--hash"}, {flags.table_size_opt, "--table-size"},
      {flags.load_factor_opt, "--load-factor"}, {flags.weights_opt, "--weights"},
      {flags.zones_opt, "--zones"}, {flags.capacity_opt, "--capacity"},
      {flags.probes_opt, "--probes"}, {flags.replicas_opt, "--replicas"}};
  for (const auto& [opt, name] : conflicts) {
    if (opt != nullptr && opt->count() > 0) {
      return Invalid(absl::StrCat(
          name, " does not apply to --preset (a preset fixes its system's "
          "configuration); give servers with --servers host:port[:weight],... "
          "and system options with --preset-options"));
    }
  }
  if (flags.servers_opt->count() == 0) {
    return Invalid(absl::StrCat("--preset ", flags.preset,
                                " needs --servers host:port[:weight],..."));
  }
  if (absl::Status s = ParseServers(flags.servers, &config->nodes); !s.ok()) {
    return s;
  }
  // Options are validated by the factory (unknown names, bad values).
  absl::StatusOr<std::unique_ptr<ConsistentHash>> probe =
      MakePreset(flags.preset, flags.preset_options);
  if (!probe.ok()) return Invalid(std::string(probe.status().message()));
  config->preset = flags.preset;
  config->preset_options = flags.preset_options;
  config->algorithm = flags.preset;
  if (absl::Status s = ParseKeyFormat(flags.key_format, config); !s.ok()) {
    return s;
  }
  if (flags.remove_opt->count() > 0) {
    for (const std::string& name :
         std::vector<std::string>(absl::StrSplit(flags.remove, ','))) {
      config->remove.push_back(name);
    }
  }
  return absl::OkStatus();
}

absl::Status Configure(const MapFlags& flags, MapConfig* config) {
  if (flags.preset_opt->count() > 0) return ConfigurePreset(flags, config);
  if (flags.algorithm_opt->count() == 0) {
    return Invalid("one of --algorithm NAME or --preset NAME is required");
  }
  if (flags.servers_opt->count() > 0 || flags.preset_options_opt->count() > 0) {
    return Invalid(
        "--servers and --preset-options apply to --preset only; algorithms "
        "take --nodes or --node-names");
  }
  const AlgorithmInfo* info = FindAlgorithm(flags.algorithm);
  if (info == nullptr) {
    return Invalid(absl::StrCat("unknown algorithm '",
                                cli::Excerpt(flags.algorithm),
                                "'; valid algorithms: ", AlgorithmNames()));
  }
  config->algorithm = std::string(info->name);
  const Capabilities& caps = info->capabilities;

  if (FindHash(flags.hash) == nullptr) return UnknownHashError(flags.hash);
  config->params.hash = flags.hash;

  if (absl::Status s = ParseKeyFormat(flags.key_format, config); !s.ok()) {
    return s;
  }

  // Node count and names.
  const bool have_count = flags.nodes_opt->count() > 0;
  const bool have_names = flags.node_names_opt->count() > 0;
  uint64_t n = 0;
  if (have_count) {
    if (!cli::ParseDecimalU64(flags.nodes, &n) || n == 0 || n > kMaxNodes) {
      return Invalid(absl::StrCat("invalid --nodes '", cli::Excerpt(flags.nodes),
                                  "'; expected an integer in 1..", kMaxNodes));
    }
  }
  std::vector<std::string> names;
  if (have_names) {
    names = cli::SplitCommaList(flags.node_names);
    if (names.size() > kMaxNodes) {
      return Invalid(absl::StrCat("--node-names lists ", names.size(),
                                  " names; at most ", kMaxNodes));
    }
    if (have_count && n != names.size()) {
      return Invalid(absl::StrCat(
          "--nodes ", n, " disagrees with --node-names, which lists ",
          names.size(), " name", names.size() == 1 ? "" : "s", " ('",
          cli::Excerpt(flags.node_names), "'); give one of them or make them "
          "agree"));
    }
    n = names.size();
  }
  if (n == 0) {
    return Invalid(absl::StrCat("--nodes is required (an integer in 1..",
                                kMaxNodes, ") unless --node-names is given"));
  }

  uint64_t vnodes = 0;
  if (!cli::ParseDecimalU64(flags.vnodes, &vnodes) || vnodes == 0 ||
      vnodes > UINT32_MAX) {
    return Invalid(absl::StrCat("invalid --vnodes '", cli::Excerpt(flags.vnodes),
                                "'; expected an integer in 1..", UINT32_MAX));
  }
  config->params.vnodes = static_cast<uint32_t>(vnodes);

  if (flags.table_size_opt->count() > 0) {
    uint64_t m = 0;
    if (!cli::ParseDecimalU64(flags.table_size, &m) || !cli::IsPrime(m)) {
      return Invalid(absl::StrCat(
          "invalid --table-size '", cli::Excerpt(flags.table_size),
          "'; expected a prime >= the number of nodes (", n, ")"));
    }
    if (m < n) {
      return Invalid(absl::StrCat("invalid --table-size '", flags.table_size,
                                  "': smaller than the number of nodes (", n,
                                  "); expected a prime >= ", n));
    }
    config->params.table_size = m;
  }

  double c = 0;
  if (!cli::ParseFiniteDouble(flags.load_factor, &c) || !(c > 1.0)) {
    return Invalid(absl::StrCat("invalid --load-factor '",
                                cli::Excerpt(flags.load_factor),
                                "'; expected a number > 1 (c = 1 + epsilon)"));
  }
  config->params.load_factor = c;

  if (flags.capacity_opt->count() > 0) {
    if (!Reads(*info, "capacity")) {
      return Invalid(absl::StrCat(config->algorithm,
                                  " does not use --capacity; algorithms with "
                                  "a capacity: ", AlgorithmsReading("capacity")));
    }
    uint64_t a = 0;
    if (!cli::ParseDecimalU64(flags.capacity, &a) || a < n) {
      return Invalid(absl::StrCat(
          "invalid --capacity '", cli::Excerpt(flags.capacity),
          "'; expected an integer >= the number of nodes (", n, ")"));
    }
    config->params.capacity = a;
  }
  if (flags.probes_opt->count() > 0) {
    if (!Reads(*info, "probes")) {
      return Invalid(absl::StrCat(config->algorithm,
                                  " does not use --probes; algorithms with "
                                  "probes: ", AlgorithmsReading("probes")));
    }
    uint64_t q = 0;
    if (!cli::ParseDecimalU64(flags.probes, &q) || q < 1 || q > 1024) {
      return Invalid(absl::StrCat("invalid --probes '",
                                  cli::Excerpt(flags.probes),
                                  "'; expected an integer in 1..1024"));
    }
    config->params.probes = static_cast<uint32_t>(q);
  }

  config->nodes.assign(n, NodeSpec{});
  for (uint64_t i = 0; i < n; ++i) {
    config->nodes[i].name =
        have_names ? std::move(names[i]) : absl::StrCat("node-", i);
  }

  if (flags.weights_opt->count() > 0) {
    if (!caps.weights) {
      return Invalid(absl::StrCat(config->algorithm,
                                  " does not support --weights; algorithms "
                                  "with weights: ",
                                  AlgorithmsWith(&Capabilities::weights)));
    }
    const std::vector<std::string> weights = cli::SplitCommaList(flags.weights);
    if (weights.size() != n) {
      return Invalid(absl::StrCat("--weights lists ", weights.size(),
                                  " weight", weights.size() == 1 ? "" : "s",
                                  " but there ", n == 1 ? "is " : "are ", n,
                                  " node", n == 1 ? "" : "s",
                                  "; give one weight per node"));
    }
    for (size_t i = 0; i < n; ++i) {
      double w = 0;
      if (!cli::ParseFiniteDouble(weights[i], &w) || !(w > 0)) {
        return Invalid(absl::StrCat("invalid weight '",
                                    cli::Excerpt(weights[i]), "' (number ",
                                    i + 1, " in --weights); weights must be "
                                    "finite numbers > 0"));
      }
      config->nodes[i].weight = w;
    }
  }

  uint64_t r = 0;
  if (!cli::ParseDecimalU64(flags.replicas, &r) || r == 0) {
    return Invalid(absl::StrCat("invalid --replicas '",
                                cli::Excerpt(flags.replicas),
                                "'; expected an integer in 1..", n,
                                " (the number of nodes)"));
  }
  if (r > n) {
    return Invalid(absl::StrCat("invalid --replicas '", flags.replicas,
                                "': more than the number of nodes (", n,
                                "); expected an integer in 1..", n));
  }
  if (r > 1 && !caps.replicas) {
    return Invalid(absl::StrCat(config->algorithm, " does not support --replicas ", r,
                                "; algorithms with replicas: ",
                                AlgorithmsWith(&Capabilities::replicas)));
  }
  config->replicas = static_cast<size_t>(r);

  if (flags.zones_opt->count() > 0) {
    const std::vector<std::string> zones = cli::SplitCommaList(flags.zones);
    if (zones.size() != n) {
      return Invalid(absl::StrCat("--zones lists ", zones.size(), " zone",
                                  zones.size() == 1 ? "" : "s", " ('",
                                  cli::Excerpt(flags.zones), "') but there ",
                                  n == 1 ? "is " : "are ", n, " node",
                                  n == 1 ? "" : "s",
                                  "; give one zone per node"));
    }
    for (size_t i = 0; i < n; ++i) config->nodes[i].zone = zones[i];
    config->distinct_zones = true;
  }

  if (flags.remove_opt->count() > 0) {
    config->remove = cli::SplitCommaList(flags.remove);
    std::set<std::string_view> known, seen;
    for (const NodeSpec& s : config->nodes) known.insert(s.name);
    for (const std::string& name : config->remove) {
      if (known.count(name) == 0) {
        return Invalid(absl::StrCat(
            "invalid --remove: no node named '", cli::Excerpt(name),
            "'; nodes are ", have_names ? std::string("the --node-names") : absl::StrCat(
                "node-0..node-", n - 1)));
      }
      if (!seen.insert(name).second) {
        return Invalid(absl::StrCat("invalid --remove: node '",
                                    cli::Excerpt(name), "' listed twice"));
      }
    }
    if (config->remove.size() >= n) {
      return Invalid(absl::StrCat("invalid --remove: removes all ", n,
                                  " nodes; at least one must stay live"));
    }
  }
  return absl::OkStatus();
}

// Reads stdin (fd 0) line by line in blocks, without a per-line allocation.
// A final line without '\n' is still a line; "" is no line and "\n" one
// empty line.
class LineReader {
 public:
  LineReader() : buf_(kBlockBytes) {}

  enum Result { kLine, kEnd, kError };

  // Sets *line to the next line without its '\n'; valid until the next call.
  // `before_read` runs before every read(2) (used to flush output).
  template <typename F>
  Result Next(std::string_view* line, F&& before_read) {
    while (true) {
      const char* const base = buf_.data();
      if (const void* nl =
              std::memchr(base + scan_, '\n', end_ - scan_)) {
        const size_t pos = static_cast<const char*>(nl) - base;
        *line = std::string_view(base + begin_, pos - begin_);
        begin_ = scan_ = pos + 1;
        return kLine;
      }
      scan_ = end_;
      if (eof_) {
        if (begin_ == end_) return kEnd;
        *line = std::string_view(base + begin_, end_ - begin_);
        begin_ = scan_ = end_;
        return kLine;
      }
      // Keep the partial line at the front; grow if it fills the buffer.
      if (begin_ > 0) {
        std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        scan_ -= begin_;
        begin_ = 0;
      }
      if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
      before_read();
      ssize_t got;
      do {
        got = ::read(STDIN_FILENO, buf_.data() + end_, buf_.size() - end_);
      } while (got < 0 && errno == EINTR);
      if (got < 0) return kError;
      if (got == 0) eof_ = true;
      end_ += static_cast<size_t>(got);
    }
  }

 private:
  std::vector<char> buf_;
  size_t begin_ = 0;  // start of the current (unreturned) line
  size_t scan_ = 0;   // bytes before this hold no '\n' of the current line
  size_t end_ = 0;    // end of valid data
  bool eof_ = false;
};

// Buffers output and writes it to stdout (fd 1) with write(2).
class OutputBuffer {
 public:
  OutputBuffer() { buf_.reserve(kBlockBytes + 4096); }

  std::string& buf() { return buf_; }
  bool full() const { return buf_.size() >= kBlockBytes; }

  // Writes everything pending; false (errno set) on a write error.
  bool Flush() {
    size_t done = 0;
    while (done < buf_.size()) {
      const ssize_t put =
          ::write(STDOUT_FILENO, buf_.data() + done, buf_.size() - done);
      if (put < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      done += static_cast<size_t>(put);
    }
    buf_.clear();
    return true;
  }

 private:
  std::string buf_;
};

// Note: Debian's Abseil is built with its own absl::string_view (not an
// alias of std::string_view), hence the explicit conversions below.
int Fail(int code, absl::string_view message) {
  std::fprintf(stderr, "chbench map: %.*s\n", static_cast<int>(message.size()),
               message.data());
  return code;
}

// Builds the algorithm and streams stdin to stdout. Returns the exit status.
int RunMap(const MapFlags& flags) {
  MapConfig config;
  if (absl::Status s = Configure(flags, &config); !s.ok()) {
    return Fail(2, s.message());
  }
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      config.preset.empty()
          ? MakeAlgorithm(config.algorithm, config.params)
          : MakePreset(config.preset, config.preset_options);
  if (!made.ok()) return Fail(2, made.status().message());
  ConsistentHash& algo = **made;
  if (absl::Status s = algo.Build(config.nodes); !s.ok()) {
    return Fail(2, s.message());
  }
  const size_t n = config.nodes.size();
  config.nodes.clear();
  config.nodes.shrink_to_fit();
  for (const std::string& name : config.remove) {
    if (absl::Status s = algo.RemoveNodeByName(name); !s.ok()) {
      return Fail(2, absl::StrCat("--remove ", name, ": ", s.message()));
    }
  }

  // Owner names by id, read back from the instance (ids 0..n-1 after Build).
  std::vector<std::string> names(n);
  for (NodeId id = 0; id < n; ++id) names[id] = algo.NodeName(id);

  const bool stateful = algo.capabilities().stateful;
  const size_t r = config.replicas;
  std::vector<NodeId> owners;
  owners.reserve(r);

  LineReader reader;
  OutputBuffer out;
  bool write_failed = false;
  int write_errno = 0;
  auto flush = [&out, &write_failed, &write_errno] {
    if (!write_failed && !out.Flush()) {
      write_failed = true;
      write_errno = errno;
    }
  };
  std::string_view line;
  uint64_t line_number = 0;
  while (true) {
    const LineReader::Result got = reader.Next(&line, flush);
    if (write_failed) {
      return Fail(1, absl::StrCat("write error on stdout: ",
                                  std::strerror(write_errno)));
    }
    if (got == LineReader::kEnd) break;
    if (got == LineReader::kError) {
      const int err = errno;
      flush();
      return Fail(1, absl::StrCat("read error on stdin: ", std::strerror(err)));
    }
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    uint64_t key_hash;
    if (config.u64_keys) {
      if (!cli::ParseDecimalU64(line, &key_hash)) {
        flush();  // the lines before this one, then nothing further
        return Fail(2, absl::StrCat(
                           "line ", line_number, ": invalid u64 key '",
                           cli::Excerpt(line),
                           "'; with --key-format u64 every line must be a "
                           "decimal integer in 0..18446744073709551615"));
      }
    } else {
      key_hash = algo.HashKey(line);
    }

    std::string& buf = out.buf();
    buf.append(line);
    if (r == 1) {
      const NodeId id = stateful ? algo.Place(key_hash) : algo.Lookup(key_hash);
      if (id >= n) {
        flush();
        return Fail(1, absl::StrCat("internal error: ", config.algorithm,
                                    " returned node id ", id, " for line ",
                                    line_number, "; valid ids: 0..", n - 1));
      }
      buf.push_back('\t');
      buf.append(names[id]);
    } else {
      if (absl::Status s = algo.LookupReplicas(key_hash, r,
                                               config.distinct_zones, &owners);
          !s.ok()) {
        flush();
        return Fail(1, absl::StrCat("internal error at line ", line_number,
                                    ": ", s.message()));
      }
      for (const NodeId id : owners) {
        if (id >= n) {
          flush();
          return Fail(1, absl::StrCat("internal error: ", config.algorithm,
                                      " returned replica id ", id,
                                      " for line ", line_number,
                                      "; valid ids: 0..", n - 1));
        }
        buf.push_back('\t');
        buf.append(names[id]);
      }
    }
    buf.push_back('\n');
    if (out.full()) flush();
  }
  flush();
  if (write_failed) {
    return Fail(1, absl::StrCat("write error on stdout: ",
                                std::strerror(write_errno)));
  }
  return 0;
}

}  // namespace

void AddMapCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<MapFlags>();
  CLI::App* map = app.add_subcommand(
      "map",
      "Map keys read from stdin (one per line) to their owner nodes: prints "
      "key<TAB>owner per key, in input order.");
  flags->algorithm_opt =
      map->add_option("-a,--algorithm", flags->algorithm,
                      "Algorithm, one of: " + AlgorithmNames() +
                          " (or --preset)")
          ->type_name("NAME");
  flags->preset_opt =
      map->add_option("--preset", flags->preset,
                      "A production system's exact mapping instead of an "
                      "algorithm, one of: " + PresetNames() +
                          " (chbench list shows each system and version)")
          ->type_name("NAME");
  flags->servers_opt =
      map->add_option("--servers", flags->servers,
                      "--preset: the servers as the system is configured, "
                      "in order: host:port[:weight],... (an item not of that "
                      "form is a whole name, e.g. http://10.0.0.1:8000); the "
                      "owner printed is the server without its weight")
          ->type_name("S1,S2,...");
  flags->preset_options_opt =
      map->add_option("--preset-options", flags->preset_options,
                      "--preset: the system's options, e.g. hash=md5 "
                      "(twemproxy), hash=crc32,avalanche=0 (haproxy), "
                      "replicas=50 (groupcache), tokens=splitmix64:16 "
                      "(cassandra)")
          ->type_name("K=V,...");
  flags->nodes_opt =
      map->add_option("-n,--nodes", flags->nodes,
                      "Number of nodes N (1.." + std::to_string(kMaxNodes) +
                          "); nodes are node-0..node-(N-1). Required unless "
                          "--node-names is given")
          ->type_name("N");
  flags->node_names_opt =
      map->add_option("--node-names", flags->node_names,
                      "Comma-separated node names, in id order (node i = the "
                      "i-th name; jump's bucket i); N defaults to their count "
                      "and must agree with --nodes if both are given")
          ->type_name("A,B,...");
  flags->vnodes_opt = map->add_option("--vnodes", flags->vnodes,
                  "ring, bounded_load: points per unit weight (>= 1)")
      ->type_name("V")
      ->default_str(flags->vnodes);
  flags->hash_opt = map->add_option("--hash", flags->hash, "Hash function, one of: " + HashNames())
      ->type_name("H")
      ->default_str(flags->hash);
  flags->table_size_opt =
      map->add_option("--table-size", flags->table_size,
                      "maglev: prime table size M >= N")
          ->type_name("M")
          ->default_str("smallest prime >= 100*N");
  flags->load_factor_opt = map->add_option("--load-factor", flags->load_factor,
                  "bounded_load: capacity factor c > 1 (each node holds at "
                  "most ceil(c*m/n) keys)")
      ->type_name("C")
      ->default_str(flags->load_factor);
  flags->weights_opt =
      map->add_option("--weights", flags->weights,
                      "Comma-separated weights (finite, > 0), one per node; "
                      "algorithms with weights: " +
                          AlgorithmsWith(&Capabilities::weights))
          ->type_name("W1,W2,...")
          ->default_str("1 per node");
  flags->replicas_opt = map->add_option("-r,--replicas", flags->replicas,
                  "Owners per key, 1..N, printed tab-separated in preference "
                  "order; R > 1 needs an algorithm with replicas: " +
                      AlgorithmsWith(&Capabilities::replicas))
      ->type_name("R")
      ->default_str(flags->replicas);
  flags->zones_opt =
      map->add_option("--zones", flags->zones,
                      "Comma-separated zone per node; with --replicas R > 1 "
                      "the owners are in distinct zones (fewer than R when "
                      "there are fewer zones)")
          ->type_name("Z1,Z2,...");
  flags->capacity_opt =
      map->add_option("--capacity", flags->capacity,
                      "Buckets ever available (>= N), for: " +
                          AlgorithmsReading("capacity") +
                          ". anchor: its fixed anchor size a; dx: its initial "
                          "array size")
          ->type_name("A")
          ->default_str("anchor: N; dx: smallest power of two >= N");
  flags->probes_opt =
      map->add_option("--probes", flags->probes,
                      "Probes per lookup (1..1024), for: " +
                          AlgorithmsReading("probes"))
          ->type_name("K")
          ->default_str(flags->probes);
  flags->remove_opt =
      map->add_option("--remove", flags->remove,
                      "Comma-separated node names removed, in this order, "
                      "after the build: who owns each key after these nodes "
                      "failed. An algorithm that cannot remove a node (jump "
                      "and the other range hashes: only the last) says why "
                      "and exits with 2")
          ->type_name("A,B,...");
  map->add_option("--key-format", flags->key_format,
                  "string: each line is a key, hashed with the algorithm's "
                  "HashKey (the --hash function, seed 0). u64: each line is a "
                  "decimal integer in 0..2^64-1 used directly as the key's "
                  "hash")
      ->type_name("string|u64")
      ->default_str(flags->key_format);
  map->footer(
      "Input: one key per line on stdin; a trailing \\r is stripped and an "
      "empty line is the key \"\".\n"
      "Output: key<TAB>owner (owner = node name) per line, in input order; "
      "with --replicas R > 1, key<TAB>owner1<TAB>...<TAB>ownerR.\n"
      "Keys are streamed: memory does not depend on the number of keys "
      "(except for bounded_load, below), and output is written block by "
      "block as input arrives.\n"
      "bounded_load is stateful: keys are placed with Place() in input order, "
      "so a key's owner can depend on the keys before it (capacity "
      "ceil(c*(m+1)/n) for the (m+1)-th key) and a repeated key keeps its "
      "first node; it remembers each placed key's digest (about 25 bytes per "
      "distinct key), so its memory grows with the input.\n"
      "Errors: a bad option prints one line on stderr, nothing on stdout, and "
      "exits with 2. With --key-format u64 a malformed line (empty, sign, "
      "non-digit, overflow, trailing characters) stops the command with exit "
      "status 2 and names the line; the lines before it have already been "
      "printed, nothing after it is. Exit status 1 means an internal failure "
      "(e.g. a write error on stdout).\n"
      "Example: printf 'alice\\nbob\\n' | chbench map --algorithm ring "
      "--nodes 3");
  map->callback([flags, exit_code] {
    try {
      *exit_code = RunMap(*flags);
    } catch (const std::bad_alloc&) {
      *exit_code = Fail(1, "out of memory");
    }
  });
}

}  // namespace chbench
