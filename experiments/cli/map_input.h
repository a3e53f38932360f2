// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: cli/map_input.h
// -----------------------------------------------------------------------------
//
// The input handling of `chbench map` (cli/map_command.cc), apart from the
// command line and the process: the flags' text is validated into a
// `MapConfig`, the configured algorithm or preset is built, stdin is split
// into lines, and each line becomes one output line. map_command.cc binds
// CLI11 to a `MapFlags` and does the I/O; fuzz/map_input_fuzzer.cc drives
// the same functions with arbitrary flag values and key lines.
//
// Errors are InvalidArgument carrying the one-line message `chbench map`
// prints before exiting with status 2, except MapLine's Internal errors
// (exit status 1), which mean an algorithm broke the interface.
//
// Example (what map_command.cc does, without the error handling):
//   MapFlags flags;  // filled by CLI11
//   MapConfig config;
//   absl::Status s = ConfigureMap(flags, &config);
//   absl::StatusOr<MapInstance> instance = BuildMapInstance(&config);
//   LineReader reader(STDIN_FILENO);
//   std::string out;
//   std::vector<NodeId> owners;
//   uint64_t line_number = 0;
//   while (reader.Next(&line, flush_out) == LineReader::kLine) {
//     s = MapLine(line, ++line_number, config, *instance, &owners, &out);
//   }

#ifndef CHBENCH_EXPERIMENTS_CLI_MAP_INPUT_H_
#define CHBENCH_EXPERIMENTS_CLI_MAP_INPUT_H_

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/crush/ceph_pool.h"
#include "algorithms/crush/crush_map.h"

namespace chbench::cli {

// Upper bound on --nodes (and on the lists that give one item per node): far
// above any experiment (10^5 nodes), low enough that a typo like 4000000000
// is an error message rather than an attempt to allocate hundreds of
// gigabytes.
inline constexpr uint64_t kMapMaxNodes = 10'000'000;
// The read(2) block of LineReader and the output block of `chbench map`.
inline constexpr size_t kMapBlockBytes = size_t{1} << 20;

// One flag's raw text and whether it was given on the command line; a flag
// with a default has the default as its text when not given. Numbers are
// parsed by cli_util.h's strict parsers, so that errors can quote the text.
struct MapFlag {
  MapFlag() = default;
  explicit MapFlag(std::string default_value)
      : value(std::move(default_value)) {}

  std::string value;
  bool given = false;
};

// The flags of `chbench map`, as text (see map_command.cc for their help).
struct MapFlags {
  MapFlag algorithm;
  MapFlag preset;
  MapFlag preset_options;
  MapFlag servers;
  MapFlag nodes;
  MapFlag node_names;
  MapFlag vnodes{"100"};
  MapFlag hash{"xxh64"};
  MapFlag table_size;
  MapFlag load_factor{"1.25"};
  MapFlag weights;
  MapFlag replicas{"1"};
  MapFlag zones;
  MapFlag key_format{"string"};
  MapFlag capacity;
  MapFlag probes{"21"};
  MapFlag remove;
  MapFlag crush_map;  // --algorithm crush / --preset ceph: a text map file
  MapFlag rule;       // --algorithm crush --crush-map: rule name or id
  MapFlag reweight;   // --algorithm crush --crush-map: ID:W,...
  MapFlag topology;   // --topology FILE: name<TAB>weight<TAB>location
  MapFlag zone_level;  // --topology with an algorithm: domain = first K levels
};

// `chbench map --crush-map FILE`: the map's rule applied as Ceph 16.2 does.
//   --algorithm crush: each line is x (--key-format u64; its low 32 bits),
//     mapped like `crushtool --test --rule R --num-rep R [--weight ID W]`:
//     output `x<TAB>osd<TAB>osd...` (OSD ids; `none` for an indep hole).
//   --preset ceph: each line is an object name, mapped like `osdmaptool
//     --test-map-object NAME --pool ID` with every OSD up and in: output
//     `name<TAB>pgid<TAB>osd<TAB>osd...`.
struct CrushMapping {
  crush::CrushMap map;
  size_t rule = 0;  // index in map.rules
  int replicas = 1;
  std::vector<uint32_t> weights;  // reweight per device id, 16.16
  bool ceph = false;              // --preset ceph: object names via `pool`
  crush::CephPool pool;
  std::vector<int32_t> result;  // scratch: replicas
  std::vector<int32_t> work;    // scratch: 3 * replicas
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
  // --crush-map: set, and MapLine maps through it (no algorithm instance).
  std::shared_ptr<CrushMapping> crush;
};

// "ring, rendezvous, maglev": the registry's algorithms with a capability
// ("(none)" if none has it).
std::string AlgorithmsWith(bool Capabilities::*field);
// "anchor, dx": the registry's algorithms whose factory reads `param`.
std::string AlgorithmsReading(std::string_view param);

// --key-format: string | u64.
absl::Status ParseKeyFormat(const std::string& format, MapConfig* config);

// --servers: "10.0.0.1:11211:2" -> name "10.0.0.1:11211", weight 2. A weight
// suffix is recognized only in the form host:port:weight (host without ':',
// port and weight decimal); any other item is a whole server name of weight
// 1 (e.g. groupcache's "http://10.0.0.1:8000"). Appends to *out.
absl::Status ParseServers(std::string_view text, std::vector<NodeSpec>* out);

// Checks every flag and fills `config`. Order: algorithm (or preset), hash,
// key format, node count and names, then the parameters that depend on the
// node count. Nothing is built: a preset's options are checked by making an
// empty instance. --topology FILE (algorithms/topology.h) is read here: it
// gives the nodes' names, weights and locations, instead of --nodes,
// --node-names, --weights and --zones (or a preset's --servers); with an
// algorithm, replicas are then in distinct locations (the whole path is the
// zone), while a preset places them by its system's rule.
absl::Status ConfigureMap(const MapFlags& flags, MapConfig* config);

// The instance `chbench map` looks keys up in.
struct MapInstance {
  std::unique_ptr<ConsistentHash> algo;
  std::vector<std::string> names;  // owner name by id (ids 0..n-1)
  bool stateful = false;           // keys are placed (bounded_load)
};

// Makes the algorithm or preset of `config`, builds it with config->nodes
// as ids 0..n-1 (then releases config->nodes: the names live on in
// MapInstance::names) and removes config->remove in order.
absl::StatusOr<MapInstance> BuildMapInstance(MapConfig* config);

// Maps one input line (without its '\n'; a trailing '\r' is stripped) and
// appends `key<TAB>owner[<TAB>owner...]<LF>` to *out: the key's owner, or
// with config.replicas > 1 its replicas in preference order. A string key's
// digest is the instance's HashKey; with config.u64_keys the line is the
// digest in decimal. `owners` is scratch space kept across calls.
// InvalidArgument for a malformed u64 key (nothing appended); Internal when
// the algorithm returns an id out of range or LookupReplicas fails (the key
// has been appended: `chbench map` writes it before failing).
absl::Status MapLine(std::string_view line, uint64_t line_number,
                     const MapConfig& config, MapInstance& instance,
                     std::vector<NodeId>* owners, std::string* out);

// Reads a file descriptor line by line in blocks, without a per-line
// allocation. A final line without '\n' is still a line; "" is no line and
// "\n" one empty line. A line longer than the buffer grows it (doubling).
class LineReader {
 public:
  explicit LineReader(int fd = STDIN_FILENO,
                      size_t block_bytes = kMapBlockBytes)
      : fd_(fd), buf_(block_bytes > 0 ? block_bytes : 1) {}

  enum Result { kLine, kEnd, kError };

  // Sets *line to the next line without its '\n'; valid until the next call.
  // `before_read` runs before every read(2) (used to flush output). kError:
  // read(2) failed, errno says why.
  template <typename F>
  Result Next(std::string_view* line, F&& before_read) {
    while (true) {
      const char* const base = buf_.data();
      if (const void* nl = std::memchr(base + scan_, '\n', end_ - scan_)) {
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
        got = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
      } while (got < 0 && errno == EINTR);
      if (got < 0) return kError;
      if (got == 0) eof_ = true;
      end_ += static_cast<size_t>(got);
    }
  }

 private:
  int fd_;
  std::vector<char> buf_;
  size_t begin_ = 0;  // start of the current (unreturned) line
  size_t scan_ = 0;   // bytes before this hold no '\n' of the current line
  size_t end_ = 0;    // end of valid data
  bool eof_ = false;
};

}  // namespace chbench::cli

#endif  // CHBENCH_EXPERIMENTS_CLI_MAP_INPUT_H_
