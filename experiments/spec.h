// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: spec.h
// -----------------------------------------------------------------------------
//
// Experiment specs: one TOML file per experiment, experiments/<name>.toml,
// parsed with toml++. A spec is a list of sweep blocks; every array in a
// block is a sweep axis (a scalar is a one-value axis) and the runner takes
// the cartesian product. Tiers override axes:
//
//   description = "Keys moved when one node joins or leaves"
//   [tiers.smoke]                 # applies to every block
//   repetitions = 2
//
//   [[sweep]]
//   kind = "disruption"           # lookup|build|memory|disruption|balance|
//                                 # hash_speed|weights
//   claim = "mod_4to5"            # optional: names the claim in `scenario`
//   algorithm = ["modulo", "ring", "jump"]   # or a selection, see below
//   preset = ["nginx", "haproxy"] # production presets (algorithms/presets/),
//                                 # cells beside the algorithms' (kind
//                                 # presets; kind lookup, scenario "string")
//   hash = ["xxh64"]              # default ["xxh64"]
//   keyset = ["uniform"]          # default ["uniform"]
//   nodes = [10, 100, 1000]       # 1 .. 2^24
//   vnodes = [100]                # ring, bounded_load (default 100);
//                                 # 1 .. 2^20 (bounded_load: 1 .. 10^6),
//                                 # nodes x vnodes <= 2^31 ring points
//   table_size = [65537]          # maglev, primes <= 4294967291 (default:
//                                 # smallest prime >= 100 * nodes)
//   load_factor = [1.25]          # bounded_load, > 1 and finite (default 1.25)
//   overprovision = [1, 2, 10]    # anchor, dx: capacity = ceil(x * nodes),
//                                 # 1 <= x <= 1024 (default: the algorithm's,
//                                 # anchor a = N, dx the power of two >= N)
//   probes = [21]                 # multiprobe, 1 .. 1024 (default 21)
//   removal = ["random"]          # removal kind, lookup (prehashed): the
//                                 # order nodes fail in, random|fifo|lifo
//                                 # (workload/removal.h); algorithms that
//                                 # remove only the last node get lifo only
//   removed_fraction = [0.5]      # with removal: fraction of the nodes
//                                 # removed, 0 .. 0.99 (round(f * N), < N)
//   keys = [1000000]              # or keys_per_node = [1000]; the key count
//                                 # (keys_per_node x nodes) is 1 .. 2^32
//   placed_keys_per_node = [100]  # bounded_load in lookup/build/memory:
//                                 # keys placed before measuring (default
//                                 # [100]; 0 = none); dropped elsewhere
//   scenario = ["add", "remove_random"]   # disruption (required), or lookup:
//                                 # prehashed | string (default both)
//   multithread = false           # lookup: also lookups_per_s with T threads
//                                 # (prehashed cells; batched cells:
//                                 # batch_lookups_per_s)
//   batch = [1, 16]               # lookup: keys per LookupBatch call,
//                                 # 1 .. 1024 (default [1]: single-key);
//                                 # B > 1 times LookupBatch beside the
//                                 # single-key loop (not with scenario
//                                 # replicas; no multithread)
//   weights = [[1, 1, 2, 4]]      # weights only: one node per entry
//   # kind "cluster" (bench/cluster/cluster.h): scenario = the event,
//   # none|add|remove|stale_view|cascade|cascade_mean; keys = the universe
//   # U; nodes = servers before the event (2 .. 100000); load_factor =
//   # bounded_load's request bound c.
//   mode = ["sim", "memcached"]   # in-process LRU servers | real memcached
//   zipf = [0, 0.99]              # request popularity exponent, 0 .. 10
//   requests = [1000000]          # per run, buckets .. 2^40
//   cache_items = [2000]          # sim: LRU keys per server (0 = U)
//   stale_fraction = [0.25]       # stale_view: fraction of stale clients
//   utilization = [0.8]           # cascade: busiest server's start load
//                                 # (cascade_mean: the mean server's)
//   buckets = 40                  # time buckets (2 .. 100000)
//   clients = 20                  # logical clients (views)
//   workers = 2                   # memcached: client threads (1 .. 64)
//   rate = 50000                  # requests/s: memcached pacing (0 = none)
//                                 # and the timeline of db_reads_per_s
//   db_delay_us = 0               # memcached: added per database read
//   # kind "replicas" (experiments/kinds/replicas.h): scenario =
//   # zone_aware|zone_blind (default zone_aware; zone_blind not with flat);
//   # algorithms with replicas only (ring, rendezvous, choosek, crush)
//   replicas = [2, 3, 5]          # replicas per key r, 1..5, r <= nodes
//   topology = ["flat", "zones3"] # flat|zones3|zones3_uneven|racks_hosts
//   # kind "growth" (experiments/kinds/growth.cc): nodes = N, grown to 2N
//   # one node at a time and back (LIFO), keys (not keys_per_node), no
//   # scenario; no stateful algorithm; N <= 2^23; keys x (2N + 1) lookups
//   # (x 1.5 N for linear-time algorithms) <= 2^33
//   repetitions = 5               # 1 .. 10000; see below
//   seed = 0
//   min_time_s = 0.1              # timing kinds; (0, 60]
//   enabled = true                # false: no cells in this tier (a block
//                                 # for one tier: enabled = false, and
//                                 # enabled = true in its tier table)
//   [sweep.tiers.smoke]           # overrides for this block (last wins)
//   nodes = [10]
//
// Algorithm selections. `algorithm` takes names (a fixed set), or "all", or
// an inline table that selects from the catalogue (algorithms/catalogue.h),
// so that an algorithm added there enters every block that applies:
//
//   algorithm = "all"                              # every algorithm
//   algorithm = { arbitrary_removal = true }       # a capability class
//   algorithm = { lookup_class = ["constant", "logarithmic"],
//                 except = ["ring", "maglev"] }
//   algorithm = { all = true, except = ["bounded_load"] }
//
// Selection keys, all optional, every one given must hold:
//   all = true                  # no criterion (reads well with except)
//   arbitrary_removal, minimal_disruption, weights, replicas, stateful,
//   history_dependent = <bool>  # the capability (Capabilities) equals it
//   hash_axis = <bool>          # AlgorithmInfo::hash_axis equals it
//   lookup_class = "constant"   # or an array: one of constant, logarithmic,
//                               # linear (AlgorithmInfo::lookup_class)
//   except = ["modulo"]         # names left out
//   every_row = true            # also the rows selected by name only
//                               # elsewhere (AlgorithmInfo::in_sweeps false:
//                               # measured in some experiments, not all)
// "all" and the selections keep only rows with in_sweeps unless every_row is
// true, e.g. { replicas = true, every_row = true } is every algorithm with
// replica lists. TOML keeps an inline table on one line (an array inside it may span
// lines). The selected algorithms come in catalogue order. An unknown key or
// value, an empty table, or a selection that keeps no algorithm is an error
// naming the key (e.g. 'algorithm.lookup_class') and the valid values.
//
// Order of precedence: block < [tiers.<tier>] < [sweep.tiers.<tier>].
// Parameters that an algorithm does not read (vnodes for modulo, ...) are
// dropped for its cells, so the product has no duplicate cells. bounded_load
// refuses 32-bit hashes (crc32, murmur3_32: distinct keys with equal digests
// would be merged into one placed key), so those combinations are dropped
// too; a block whose hashes are all 32-bit and that names bounded_load is an
// error.
//
// What each kind accepts (its block keys, scenarios and their defaults,
// nodes, keys, removal, presets, ...), its own rules and which kinds are
// timed: experiments/kinds/schema.h. A key a kind does not accept is an
// error, "key 'x': not used by kind 'y'" (with a reason where there is one).
//
// Repetitions. Non-timing kinds: one cell per repetition, at seeds
// seed .. seed + repetitions - 1 (default 1). Timing kinds (lookup, build,
// hash_speed): NOT expanded over seeds; one cell at `seed` with
// Cell::rounds = repetitions measurement rounds (default 10, at least 3).
//
// Expansion is bounded: a tier expands to at most 100000 cells (counted
// before repeated axis values are merged; the largest shipped spec has
// 4640), or ParseSpec fails naming the tier and the limit.
//
// Spec files are ASCII: a non-ASCII byte (but a leading byte-order mark) is
// a syntax error with its line and column, before the TOML parser (toml++
// 3.3.0, which misreads some non-ASCII text) sees it. Strings can hold any
// character as \uXXXX (spec.cc, CheckSpecIsAscii).
//
// Validation happens before anything runs, for every tier: unknown key,
// unknown algorithm/hash/keyset/scenario/kind/tier, empty axis, wrong type and
// out-of-range values (including overflowing products such as
// keys_per_node x nodes) give InvalidArgument naming the key, the value and
// the valid range, e.g.
//   "experiments/x.toml: key 'algorithm': unknown value 'foo'; valid: ..."
//   "experiments/x.toml: key 'nodes': value 4294967298 out of range;
//    valid: 1..16777216 (...)"

#ifndef CHBENCH_EXPERIMENTS_SPEC_H_
#define CHBENCH_EXPERIMENTS_SPEC_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/registry.h"
#include "algorithms/util/prime.h"

namespace chbench {

inline constexpr std::array<std::string_view, 16> kExperimentNames = {
    "lookup",  "build",  "memory",       "disruption", "balance",
    "vnodes",  "hashes", "bounded_load", "weights",    "seeds",
    "removal", "overprovision", "presets", "cluster", "replicas", "growth"};
inline constexpr std::array<std::string_view, 3> kTierNames = {
    "smoke", "default", "full"};
// Modes of the cluster kind: the in-process simulation (deterministic) or
// real memcached servers on 127.0.0.1 (bench/cluster/).
inline constexpr std::array<std::string_view, 2> kClusterModes = {
    "sim", "memcached"};
// Scenarios of the removal kind: the removal done in one go and measured at
// the end, or one node at a time with the keys moved checked after every
// step.
inline constexpr std::array<std::string_view, 2> kRemovalScenarios = {
    "oneshot", "incremental"};
// Topologies of the replicas kind: how N nodes are spread over failure
// domains (experiments/kinds/replicas.h: TopologyLocation).
inline constexpr std::array<std::string_view, 4> kReplicaTopologies = {
    "flat", "zones3", "zones3_uneven", "racks_hosts"};
// Scenarios of the replicas kind: placement with distinct failure domains
// (flat: without, there are none), or ignoring the domains of a zoned
// topology.
inline constexpr std::array<std::string_view, 2> kReplicaScenarios = {
    "zone_aware", "zone_blind"};
// Replicas per key of the replicas kind: 1 .. kMaxReplicas (replica sets
// are kept as sorted arrays of at most this many nodes, and a set is packed
// into 128 bits, 24 per node id, to count distinct copysets).
inline constexpr int64_t kMaxReplicas = 5;

inline constexpr std::array<std::string_view, 9> kDisruptionScenarios = {
    "add",
    "remove_random",
    "remove_last",
    "remove_10pct_random",
    "remove_30pct_random",
    "remove_50pct_random",
    "remove_10pct_lifo",
    "remove_30pct_lifo",
    "remove_50pct_lifo"};

// Metrics that vary run to run (anything in ns, lookups_per_s, *_ratio_to_*,
// load_avg_1m, cpu_steal_fraction); everything else reproduces bit for bit.
bool IsTimingMetric(std::string_view metric);

// One unit of work: one parameter combination and one repetition.
struct Cell {
  std::string experiment;
  std::string kind;
  std::string claim;      // seeds: names the reproduced claim
  std::string algorithm;  // empty for hash_speed
  std::string hash;
  std::string keyset;
  uint32_t nodes = 0;
  std::optional<uint32_t> vnodes;      // ring, bounded_load
  std::optional<uint64_t> table_size;  // maglev
  std::optional<double> load_factor;   // bounded_load
  std::optional<uint64_t> capacity;    // anchor, dx (from overprovision)
  std::optional<uint32_t> probes;      // multiprobe
  uint64_t keys = 0;
  std::string scenario;  // disruption operation; lookup: prehashed | string
  std::vector<double> weights;
  uint64_t seed = 0;
  uint32_t repetition = 0;
  double min_time_s = 0.1;
  // Timing kinds (lookup, build, hash_speed) only. A timing cell is NOT
  // expanded over seeds: it runs at `seed` and repeats its measurement
  // `rounds` times inside one job, interleaved with the other cells of its
  // timing group (bench/harness.h). From the spec's `repetitions`
  // (default 10 for timing kinds; at least 3).
  uint32_t rounds = 0;
  // bounded_load in lookup, build and memory cells: keys placed (Place, in
  // key order) before anything is measured: placed_keys_per_node * nodes.
  // 0 for every other algorithm. Spec key `placed_keys_per_node` (axis,
  // default [100]).
  uint32_t placed_keys_per_node = 0;
  // lookup, scenario "prehashed": also measure lookups_per_s with T = 1 ..
  // hardware threads sharing one instance (batched cells: batch_lookups_per_s,
  // LookupBatch over `batch` keys per call). Spec key `multithread` (bool,
  // default false).
  bool multithread = false;
  // lookup, scenarios prehashed, weighted and string: keys per LookupBatch
  // call (TimingMember::batch, bench/timing.h). 1: the single-key kernels;
  // B > 1: batch_lookup_ns beside the cell's own single-key lookup_ns in
  // the same rounds. Spec key `batch` (axis, default [1], 1 ..
  // kMaxLookupBatch).
  uint32_t batch = 1;
  // Removal state: the order nodes fail in (random | fifo | lifo; empty: no
  // removal) and how many of the `nodes` built are removed before measuring
  // (workload/removal.h). Removal kind and prehashed lookup cells.
  std::string removal;
  uint32_t removed = 0;
  // Cluster kind (bench/cluster/cluster.h): the scenario is the event, keys
  // the universe. Axes: mode, zipf, requests, cache_items, stale_fraction,
  // utilization; the rest one value per block.
  std::string mode;  // sim | memcached
  std::optional<double> zipf;
  uint64_t requests = 0;
  uint64_t cache_items = 0;  // 0 = the universe (no eviction)
  std::optional<double> stale_fraction;  // stale_view only
  std::optional<double> utilization;     // cascade only
  uint32_t buckets = 0, clients = 0, workers = 0, db_delay_us = 0;
  double rate = 0;
  // Replicas kind (experiments/kinds/replicas.h): replicas per key (r; 0:
  // another kind) and the topology (kReplicaTopologies). Spec keys
  // `replicas` and `topology` (axes).
  uint32_t replicas = 0;
  std::string topology;

  // Cells that run alone (one at a time, after the parallel ones): the
  // kind schema's KindSchema::runs_alone (experiments/kinds/schema.h).
  bool timing() const;
  // File-name-safe and unique among the cells of an experiment, e.g.
  // "disruption_ring_xxh64_uniform_n100_v100_k1000000_add_s0"; adds
  // "p<placed_keys_per_node>" when nonzero, "mt" for multithread,
  // "b<batch>" for a batch above 1, and "r<replicas>_<topology>" for
  // replica cells.
  // (rounds is not part of it: one spec gives one rounds value per cell.)
  std::string Name() const;
  AlgorithmParams Params() const;
};

struct Spec {
  std::string experiment;
  std::string display_path;  // e.g. "experiments/disruption.toml"
  std::string tier;
  std::string description;
  uint64_t hash = 0;    // FNV-1a 64 of the file bytes, a NUL and the tier
  std::string run_id;   // "<tier>-<first 8 hex digits of hash>"
  std::vector<Cell> cells;  // expansion order, no duplicates
  std::vector<uint64_t> seeds;  // distinct seeds used, ascending
};

// Parses and validates `text` (the bytes of `display_path`) and expands the
// cells of `tier`. `algorithms`: the rows every algorithm name, selection and
// parameter is looked up in (the catalogue's; a test passes rows of its own,
// e.g. CatalogueRows(kToyCatalogue)).
absl::StatusOr<Spec> ParseSpec(
    std::string_view text, std::string_view display_path,
    std::string_view experiment, std::string_view tier,
    std::span<const AlgorithmInfo> algorithms = Algorithms());
// OK when `text` is ASCII (a leading UTF-8 byte-order mark allowed), else
// InvalidArgument "<path>:<line>:<column>: TOML syntax error: non-ASCII
// byte 0xNN; ...". ParseSpec checks it first; so does any other reader of
// spec files with toml++ (registry_json.cc), which 3.3.0 cannot be trusted
// with non-ASCII text.
absl::Status CheckSpecIsAscii(std::string_view text, std::string_view path);

// Reads `path` and calls ParseSpec.
absl::StatusOr<Spec> LoadSpec(
    const std::string& path, std::string_view display_path,
    std::string_view experiment, std::string_view tier,
    std::span<const AlgorithmInfo> algorithms = Algorithms());

// Whether `key` is a block key that only some kinds accept: those whose
// KindSchema::axes list it (experiments/kinds/schema.h); false for the keys
// every kind accepts and for unknown keys.
bool IsKindAxis(std::string_view key);

uint64_t Fnv1a64(std::string_view bytes);
// "a, b, c"
std::string JoinViews(std::span<const std::string_view> names);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_SPEC_H_
