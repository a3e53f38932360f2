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
//   * The mapping is the library's: node i (node-i, the i-th --node-names
//     entry, or the i-th line of --topology FILE) is built as id i with
//     `Build(specs)` in order (for jump: bucket i), and a string key's digest
//     is the algorithm's `HashKey(key)`. With --key-format u64 each line is
//     the digest itself. Replicas are `LookupReplicas(digest, R)`: for a
//     preset, its system's preference list (Cassandra's replication
//     strategy, npm hashring's and uhashring's range()).
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
//   * CRUSH maps (CrushMapping in cli/map_input.h): `--algorithm crush
//     --crush-map FILE --rule NAME|ID --replicas R [--reweight ID:W,...]
//     --key-format u64` prints `x<TAB>osd<TAB>osd...` as `crushtool --test
//     --show-mappings --num-rep R` computes it (`none` for a hole of an
//     indep rule); `--preset ceph --crush-map FILE --preset-options
//     pool=ID,pg_num=N,rule=NAME --replicas R` maps object names as
//     `osdmaptool --test-map-object` does with every OSD up and in, printing
//     `name<TAB>pgid<TAB>osd...`. Both are bit-exact with Ceph 16.2.15
//     (algorithms/crush/testdata).
//
// The flags' validation, the build, the line splitting and the per-key step
// are in cli/map_input.h (shared with fuzz/map_input_fuzzer.cc); this file
// has the command line and the process's I/O.

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/cli/commands.h"
#include "experiments/cli/map_input.h"

namespace chbench {
namespace {

// Buffers output and writes it to stdout (fd 1) with write(2).
class OutputBuffer {
 public:
  OutputBuffer() { buf_.reserve(cli::kMapBlockBytes + 4096); }

  std::string& buf() { return buf_; }
  bool full() const { return buf_.size() >= cli::kMapBlockBytes; }

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

// The flags' text (bound to CLI11) and their CLI11 options, which say which
// flags were given.
struct MapOptions {
  cli::MapFlags flags;
  CLI::Option* algorithm = nullptr;
  CLI::Option* preset = nullptr;
  CLI::Option* preset_options = nullptr;
  CLI::Option* servers = nullptr;
  CLI::Option* nodes = nullptr;
  CLI::Option* node_names = nullptr;
  CLI::Option* vnodes = nullptr;
  CLI::Option* hash = nullptr;
  CLI::Option* table_size = nullptr;
  CLI::Option* load_factor = nullptr;
  CLI::Option* weights = nullptr;
  CLI::Option* replicas = nullptr;
  CLI::Option* zones = nullptr;
  CLI::Option* key_format = nullptr;
  CLI::Option* capacity = nullptr;
  CLI::Option* probes = nullptr;
  CLI::Option* remove = nullptr;
  CLI::Option* crush_map = nullptr;
  CLI::Option* rule = nullptr;
  CLI::Option* reweight = nullptr;
  CLI::Option* topology = nullptr;
  CLI::Option* zone_level = nullptr;

  void SetGiven() {
    flags.algorithm.given = algorithm->count() > 0;
    flags.preset.given = preset->count() > 0;
    flags.preset_options.given = preset_options->count() > 0;
    flags.servers.given = servers->count() > 0;
    flags.nodes.given = nodes->count() > 0;
    flags.node_names.given = node_names->count() > 0;
    flags.vnodes.given = vnodes->count() > 0;
    flags.hash.given = hash->count() > 0;
    flags.table_size.given = table_size->count() > 0;
    flags.load_factor.given = load_factor->count() > 0;
    flags.weights.given = weights->count() > 0;
    flags.replicas.given = replicas->count() > 0;
    flags.zones.given = zones->count() > 0;
    flags.key_format.given = key_format->count() > 0;
    flags.capacity.given = capacity->count() > 0;
    flags.probes.given = probes->count() > 0;
    flags.remove.given = remove->count() > 0;
    flags.crush_map.given = crush_map->count() > 0;
    flags.rule.given = rule->count() > 0;
    flags.reweight.given = reweight->count() > 0;
    flags.topology.given = topology->count() > 0;
    flags.zone_level.given = zone_level->count() > 0;
  }
};

// Builds the algorithm and streams stdin to stdout. Returns the exit status.
int RunMap(const cli::MapFlags& flags) {
  cli::MapConfig config;
  if (absl::Status s = cli::ConfigureMap(flags, &config); !s.ok()) {
    return Fail(2, s.message());
  }
  absl::StatusOr<cli::MapInstance> instance = cli::BuildMapInstance(&config);
  if (!instance.ok()) return Fail(2, instance.status().message());
  std::vector<NodeId> owners;
  owners.reserve(config.replicas);

  cli::LineReader reader(STDIN_FILENO);
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
    const cli::LineReader::Result got = reader.Next(&line, flush);
    if (write_failed) {
      return Fail(1, absl::StrCat("write error on stdout: ",
                                  std::strerror(write_errno)));
    }
    if (got == cli::LineReader::kEnd) break;
    if (got == cli::LineReader::kError) {
      const int err = errno;
      flush();
      return Fail(1, absl::StrCat("read error on stdin: ", std::strerror(err)));
    }
    ++line_number;
    if (absl::Status s = cli::MapLine(line, line_number, config, *instance,
                                      &owners, &out.buf());
        !s.ok()) {
      // A malformed u64 key: the lines before it, then nothing further (2).
      // An internal failure (1): the same, with this line's key.
      flush();
      return Fail(absl::IsInvalidArgument(s) ? 2 : 1, s.message());
    }
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
  auto options = std::make_shared<MapOptions>();
  cli::MapFlags& flags = options->flags;
  CLI::App* map = app.add_subcommand(
      "map",
      "Map keys read from stdin (one per line) to their owner nodes: prints "
      "key<TAB>owner per key, in input order.");
  options->algorithm =
      map->add_option("-a,--algorithm", flags.algorithm.value,
                      "Algorithm, one of: " + AlgorithmNames() +
                          " (or --preset)")
          ->type_name("NAME");
  options->preset =
      map->add_option("--preset", flags.preset.value,
                      "A production system's exact mapping instead of an "
                      "algorithm, one of: " + PresetNames() +
                          " (chbench list shows each system and version)")
          ->type_name("NAME");
  options->servers =
      map->add_option("--servers", flags.servers.value,
                      "--preset: the servers as the system is configured, "
                      "in order: host:port[:weight],... (an item not of that "
                      "form is a whole name, e.g. http://10.0.0.1:8000); the "
                      "owner printed is the server without its weight")
          ->type_name("S1,S2,...");
  options->preset_options =
      map->add_option("--preset-options", flags.preset_options.value,
                      "--preset: the system's options, e.g. hash=md5 "
                      "(twemproxy), hash=crc32,avalanche=0 (haproxy), "
                      "replicas=50 (groupcache), tokens=splitmix64:16 "
                      "(cassandra)")
          ->type_name("K=V,...");
  options->nodes =
      map->add_option("-n,--nodes", flags.nodes.value,
                      "Number of nodes N (1.." + std::to_string(cli::kMapMaxNodes) +
                          "); nodes are node-0..node-(N-1). Required unless "
                          "--node-names is given")
          ->type_name("N");
  options->node_names =
      map->add_option("--node-names", flags.node_names.value,
                      "Comma-separated node names, in id order (node i = the "
                      "i-th name; jump's bucket i); N defaults to their count "
                      "and must agree with --nodes if both are given")
          ->type_name("A,B,...");
  options->vnodes = map->add_option("--vnodes", flags.vnodes.value,
                  "ring, bounded_load: points per unit weight (>= 1)")
      ->type_name("V")
      ->default_str(flags.vnodes.value);
  options->hash = map->add_option("--hash", flags.hash.value, "Hash function, one of: " + HashNames())
      ->type_name("H")
      ->default_str(flags.hash.value);
  options->table_size =
      map->add_option("--table-size", flags.table_size.value,
                      "maglev: prime table size M >= N")
          ->type_name("M")
          ->default_str("smallest prime >= 100*N");
  options->load_factor = map->add_option("--load-factor", flags.load_factor.value,
                  "bounded_load: capacity factor c > 1 (each node holds at "
                  "most ceil(c*m/n) keys)")
      ->type_name("C")
      ->default_str(flags.load_factor.value);
  options->weights =
      map->add_option("--weights", flags.weights.value,
                      "Comma-separated weights (finite, > 0), one per node; "
                      "a weight too small for one ring point (< 0.5 / "
                      "vnodes) is an error naming the smallest one; "
                      "algorithms with weights: " +
                          cli::AlgorithmsWith(&Capabilities::weights))
          ->type_name("W1,W2,...")
          ->default_str("1 per node");
  options->replicas =
      map->add_option(
             "-r,--replicas", flags.replicas.value,
             "Owners per key, 1..N, printed tab-separated in preference "
             "order; R > 1 needs an algorithm with replicas: " +
                 cli::AlgorithmsWith(&Capabilities::replicas) +
                 ", or a preset whose system has preference lists "
                 "(cassandra: SimpleStrategy with RF = R, or with "
                 "strategy=nts,rf=DC:N/... NetworkTopologyStrategy, R = "
                 "the sum of N; npm_hashring, uhashring, "
                 "uhashring_ketama: range(key, R, unique=true))")
          ->type_name("R")
          ->default_str(flags.replicas.value);
  options->zones =
      map->add_option("--zones", flags.zones.value,
                      "Comma-separated zone per node; with --replicas R > 1 "
                      "the first owners are in distinct zones, then, when "
                      "the zones run out, the nodes passed over")
          ->type_name("Z1,Z2,...");
  options->topology =
      map->add_option("--topology", flags.topology.value,
                      "A topology file: one node a line, name<TAB>weight<TAB>"
                      "location, location a path of failure domains from the "
                      "largest down (e.g. dc1/r1); '#' lines are comments. "
                      "Gives the nodes instead of --nodes, --node-names, "
                      "--weights and --zones (or a preset's --servers). With "
                      "an algorithm, replicas are in distinct locations; the "
                      "cassandra preset reads dc/rack for strategy=nts")
          ->type_name("FILE");
  options->zone_level =
      map->add_option("--zone-level", flags.zone_level.value,
                      "With --topology and an algorithm: the failure domain "
                      "replicas are spread over is the first K levels of "
                      "each location (1: dc1 of dc1/r1/h3; default: the "
                      "whole location; a shorter location is whole)")
          ->type_name("K");
  options->capacity =
      map->add_option("--capacity", flags.capacity.value,
                      "Buckets ever available (>= N), for: " +
                          cli::AlgorithmsReading("capacity") +
                          ". anchor: its fixed anchor size a; dx: its initial "
                          "array size")
          ->type_name("A")
          ->default_str("anchor: N; dx: smallest power of two >= N");
  options->probes =
      map->add_option("--probes", flags.probes.value,
                      "Probes per lookup (1..1024), for: " +
                          cli::AlgorithmsReading("probes"))
          ->type_name("K")
          ->default_str(flags.probes.value);
  options->remove =
      map->add_option("--remove", flags.remove.value,
                      "Comma-separated node names removed, in this order, "
                      "after the build: who owns each key after these nodes "
                      "failed. An algorithm that cannot remove a node (jump "
                      "and the other range hashes: only the last) says why "
                      "and exits with 2")
          ->type_name("A,B,...");
  options->crush_map =
      map->add_option("--crush-map", flags.crush_map.value,
                      "--algorithm crush or --preset ceph: a CRUSH map in "
                      "crushtool's text form (crushtool -d); its rule is "
                      "applied as Ceph 16.2 does")
          ->type_name("FILE");
  options->rule =
      map->add_option("--rule", flags.rule.value,
                      "--algorithm crush --crush-map: the rule, by name or "
                      "id (crushtool --test --rule)")
          ->type_name("NAME|ID");
  options->reweight =
      map->add_option("--reweight", flags.reweight.value,
                      "--algorithm crush --crush-map: device reweights in "
                      "0..1 (crushtool --weight ID W), e.g. 3:0.5,7:0")
          ->type_name("ID:W,...");
  options->key_format = map->add_option("--key-format", flags.key_format.value,
                  "string: each line is a key, hashed with the algorithm's "
                  "HashKey (the --hash function, seed 0). u64: each line is a "
                  "decimal integer in 0..2^64-1 used directly as the key's "
                  "hash")
      ->type_name("string|u64")
      ->default_str(flags.key_format.value);
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
      "CRUSH maps: with --algorithm crush --crush-map FILE --rule NAME|ID "
      "--replicas R --key-format u64 each line is a CRUSH input x (low 32 "
      "bits) and the output is x<TAB>osd<TAB>osd... as crushtool --test "
      "--show-mappings --num-rep R gives it (OSD ids; none for a hole of an "
      "indep rule); with --preset ceph --crush-map FILE --preset-options "
      "pool=ID,pg_num=N,rule=NAME[,pgp_num=N] --replicas R each line is an "
      "object name and the output is name<TAB>pgid<TAB>osd... as osdmaptool "
      "--test-map-object gives it with every OSD up and in.\n"
      "Example: printf 'alice\\nbob\\n' | chbench map --algorithm ring "
      "--nodes 3\n"
      "Example: printf 'user:1\\n' | chbench map --preset cassandra "
      "--topology cluster.tsv --preset-options "
      "tokens=splitmix64:8,strategy=nts,rf=dc1:3/dc2:2 --replicas 5");
  map->callback([options, exit_code] {
    options->SetGiven();
    try {
      *exit_code = RunMap(options->flags);
    } catch (const std::bad_alloc&) {
      *exit_code = Fail(1, "out of memory");
    }
  });
}

}  // namespace chbench
