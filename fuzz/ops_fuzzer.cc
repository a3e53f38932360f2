// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: fuzz/ops_fuzzer.cc
// -----------------------------------------------------------------------------
//
// libFuzzer target: operation sequences on every registered algorithm
// (algorithms/registry.h) and production preset (algorithms/presets/
// registry.h), checked after every step with the invariants of the
// conformance suite (algorithms/conformance_test.cc).
//
// Input. The bytes are read with FuzzedDataProvider: which algorithm or
// preset, its parameters (hash, vnodes, table size, load factor, capacity,
// probes; a preset's option string), a seed for the probe keys, then up to
// kMaxOps operations until the bytes run out:
//   Build(0..kMaxNodes specs), AddNode(spec), RemoveNode(a live id, or a
//   removed, unknown or invalid one), Lookup(key), Place(key),
//   PlaceBatch(1..16 keys, repeats likely), LookupReplicas(key, r, zones).
// Names come from a small pool, so duplicates are common; weights from a
// table with invalid values (0, -1, NaN, inf, 1e300, 2^32); zones from five.
// Sizes are bounded so that one execution takes milliseconds: N <= 64,
// vnodes <= 32, Maglev tables of 1009 slots at most (or the default 100 N),
// preset options with no number above 4096 (groupcache replicas, Envoy's
// sizes), and Envoy Maglev's table at 251 slots unless the input sets
// table_size.
//
// Findings. Any Status error is fine: it is the answer to bad input. A
// crash, a sanitizer report, a failed assert, or a broken invariant (the
// target prints what broke and aborts) is a finding. Invariants:
//   * Bookkeeping: size() and LiveNodes() (ascending) follow the successful
//     operations; ids are 0..k-1 after Build(k specs) and the next unused id
//     after AddNode, never reused; NodeName(id) is the name given, also for
//     removed ids.
//   * Errors: a failed Build/AddNode/RemoveNode changes nothing (live nodes,
//     mapping). Removing an unknown or removed id fails; where removal is
//     not arbitrary, removing any live node but the last fails. Algorithms
//     reject an empty or duplicate live name, a weight that is not finite
//     and > 0, and a weight other than 1 without the weights capability;
//     presets an empty or duplicate live name and a weight that is not an
//     integer >= 1.
//   * Every Lookup, Place and PlaceBatch answer is a live node. A stateless
//     algorithm's Place is its Lookup; a placed key keeps its node.
//   * Disruption: where minimal_disruption is claimed before and after a
//     change (and not stateful), an AddNode moves keys only to the new node,
//     a RemoveNode only the removed node's keys.
//   * Reference: the independent model of the definition
//     (testing/reference_models.h, MakeReferenceModel) maps every probe and
//     placed key like the algorithm after every step; history-dependent
//     algorithms' models replay the same AddNode/RemoveNode calls.
//   * Live set: an instance whose mapping is not history-dependent maps
//     like a fresh instance built from its live nodes in id order (for a
//     stateful one: that also placed the same keys in the same order).
//     maglev with table_size 0 is exempt (its M is chosen by the first
//     Build; a fresh Build chooses it again).
//   * Replicas: where supported, r in 1..live gives r distinct live nodes
//     (with distinct zones: min(r, zones among the live nodes) nodes in
//     distinct zones), the first being Lookup's answer; r > live fails;
//     where not supported, every call fails.
//   * Determinism: a second fresh instance given the same operations (each
//     PlaceBatch as Place calls in order, so PlaceBatch == Place in order is
//     checked too) returns exactly the same results.
// Presets have no reference model: their mapping is checked against the
// real systems by `make verify-presets`. Here they get the interface
// invariants above: bookkeeping, errors, liveness, determinism, the live-set
// rebuild that presets/preset.h promises (except Cassandra's tokens=even,
// history-dependent by design), and minimal disruption where a preset's
// capabilities claim it.
//
// Not checked here: the statistical balance bounds and MemoryBytes' accuracy
// (they need large N and a counting allocator; the conformance suite and
// memory_alloc_test.cc check them).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/reference_models.h"
#include "fuzzer/FuzzedDataProvider.h"

namespace chbench {
namespace {

using ::chbench::testing::KeyDigests;
using ::chbench::testing::LiveNode;
using ::chbench::testing::ReferenceModel;

constexpr size_t kMaxOps = 200;
constexpr size_t kMaxNodes = 64;
constexpr size_t kMaxBatch = 16;
constexpr size_t kProbeKeys = 32;

// Prints what broke and aborts, which libFuzzer records as a crash.
[[noreturn]] void Broken(const std::string& what) {
  std::fprintf(stderr, "ops_fuzzer: invariant broken: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}
#define FUZZ_CHECK(cond, ...)                                    \
  do {                                                           \
    if (!(cond)) Broken(absl::StrCat(#cond, ": ", __VA_ARGS__)); \
  } while (0)

// -----------------------------------------------------------------------------
// What to run
// -----------------------------------------------------------------------------

struct Target {
  std::string name;
  bool preset = false;
  AlgorithmParams params;      // algorithms
  std::string preset_options;  // presets
  int key_bits = 64;           // raw keys are reduced to this width

  absl::StatusOr<std::unique_ptr<ConsistentHash>> Make() const {
    return preset ? MakePreset(name, preset_options)
                  : MakeAlgorithm(name, params);
  }
};

enum class OpKind {
  kBuild,
  kAdd,
  kRemove,
  kLookup,
  kPlace,
  kPlaceBatch,
  kReplicas
};

struct Op {
  OpKind kind;
  std::vector<NodeSpec> specs;  // Build: all; AddNode: one
  uint8_t victim_mode = 0;      // RemoveNode: how the id is chosen
  uint32_t victim_pick = 0;
  NodeId victim = kInvalidNode;  // resolved by the first run
  std::vector<uint64_t> keys;    // Lookup, Place, LookupReplicas: one
  size_t r = 0;
  bool distinct_zones = false;
};

// Preset options with a number above this are skipped: a preset's points or
// table grow with them (groupcache replicas, Envoy's table), and the fuzzer
// wants many fast executions, not one large configuration.
constexpr uint64_t kMaxPresetOptionNumber = 4096;

bool HasLargeNumber(std::string_view text) {
  uint64_t v = 0;
  size_t digits = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (c >= '0' && c <= '9') {
      if (++digits > 6) return true;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    } else {
      if (v > kMaxPresetOptionNumber) return true;
      v = 0;
      digits = 0;
    }
  }
  return false;
}

bool PickTarget(FuzzedDataProvider& in, Target* t) {
  const std::span<const AlgorithmInfo> algorithms = Algorithms();
  const std::span<const PresetInfo> presets = Presets();
  const size_t pick = in.ConsumeIntegralInRange<size_t>(
      0, algorithms.size() + presets.size() - 1);
  if (pick < algorithms.size()) {
    t->name = std::string(algorithms[pick].name);
    const std::span<const HashInfo> hashes = HashFunctions();
    const HashInfo& h =
        hashes[in.ConsumeIntegralInRange<size_t>(0, hashes.size() - 1)];
    t->params.hash = std::string(h.name);
    t->key_bits = h.bits;
    // Mostly valid parameters, sometimes ones the factory must refuse.
    const bool odd = in.ConsumeIntegralInRange<int>(0, 15) == 0;
    t->params.vnodes = odd ? in.ConsumeIntegralInRange<uint32_t>(0, 2)
                           : in.ConsumeIntegralInRange<uint32_t>(1, 32);
    static constexpr uint64_t kTables[] = {0, 67, 101, 257, 1009, 2, 3, 100, 1};
    t->params.table_size = kTables[in.ConsumeIntegralInRange<size_t>(
        0, odd ? std::size(kTables) - 1 : 4)];
    static constexpr double kLoadFactors[] = {1.25, 1.01, 2.0, 4.0,
                                              1.0,  0.5,  NAN, INFINITY};
    t->params.load_factor = kLoadFactors[in.ConsumeIntegralInRange<size_t>(
        0, odd ? std::size(kLoadFactors) - 1 : 3)];
    t->params.capacity =
        in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<uint64_t>(0, 256);
    t->params.probes = odd ? in.ConsumeIntegralInRange<uint32_t>(0, 2)
                           : in.ConsumeIntegralInRange<uint32_t>(1, 32);
  } else {
    const PresetInfo& p = presets[pick - algorithms.size()];
    t->preset = true;
    t->name = std::string(p.name);
    if (in.ConsumeBool()) t->preset_options = in.ConsumeRandomLengthString(32);
    if (HasLargeNumber(t->preset_options)) return false;
    // Envoy Maglev's default table (65537 slots, refilled at every change)
    // would make its executions 30x slower than the others': without a
    // table_size option it gets 251 slots.
    if (t->name == "envoy_maglev" &&
        t->preset_options.find("table_size") == std::string::npos) {
      t->preset_options +=
          t->preset_options.empty() ? "table_size=251" : ",table_size=251";
    }
  }
  return true;
}

// -----------------------------------------------------------------------------
// Decoding operations
// -----------------------------------------------------------------------------

constexpr double kWeights[] = {
    1,  1,    1, 1,  1,   1,        2,     0.5,          3,
    16, 0.01, 0, -1, NAN, INFINITY, 1e300, 4294967296.0, 1e-300};

NodeSpec MakeSpec(FuzzedDataProvider& in, const Target& t) {
  NodeSpec spec;
  const uint8_t b = in.ConsumeIntegral<uint8_t>();
  if (b < 232) {
    // A small pool of names, so that duplicates and re-added names occur.
    spec.name = t.preset ? absl::StrCat("10.0.0.", b % 80, ":11211")
                         : absl::StrCat("n", b % 80);
  } else if (b < 240) {
    spec.name = absl::StrCat("host", b % 4);  // no port
  } else {
    spec.name = in.ConsumeRandomLengthString(12);
  }
  spec.weight =
      kWeights[in.ConsumeIntegralInRange<size_t>(0, std::size(kWeights) - 1)];
  static constexpr std::string_view kZones[] = {"", "a", "b", "c", "d"};
  spec.zone = std::string(
      kZones[in.ConsumeIntegralInRange<size_t>(0, std::size(kZones) - 1)]);
  return spec;
}

uint64_t MakeKey(FuzzedDataProvider& in, const Target& t) {
  uint64_t k = in.ConsumeIntegral<uint64_t>();
  // A small pool half of the time, so that keys repeat.
  if (in.ConsumeBool()) k %= 8;
  if (t.key_bits < 64) k &= (uint64_t{1} << t.key_bits) - 1;
  return k;
}

std::vector<Op> DecodeOps(FuzzedDataProvider& in, const Target& t) {
  std::vector<Op> ops;
  while (in.remaining_bytes() > 0 && ops.size() < kMaxOps) {
    Op op;
    op.kind = static_cast<OpKind>(in.ConsumeIntegralInRange<int>(0, 6));
    switch (op.kind) {
      case OpKind::kBuild: {
        const size_t n = in.ConsumeIntegralInRange<size_t>(0, kMaxNodes);
        for (size_t i = 0; i < n && in.remaining_bytes() > 0; ++i) {
          op.specs.push_back(MakeSpec(in, t));
        }
        break;
      }
      case OpKind::kAdd:
        op.specs.push_back(MakeSpec(in, t));
        break;
      case OpKind::kRemove:
        op.victim_mode = in.ConsumeIntegralInRange<uint8_t>(0, 7);
        op.victim_pick = in.ConsumeIntegral<uint32_t>();
        break;
      case OpKind::kLookup:
      case OpKind::kPlace:
        op.keys.push_back(MakeKey(in, t));
        break;
      case OpKind::kPlaceBatch: {
        const size_t n = in.ConsumeIntegralInRange<size_t>(1, kMaxBatch);
        for (size_t i = 0; i < n; ++i) op.keys.push_back(MakeKey(in, t));
        break;
      }
      case OpKind::kReplicas:
        op.keys.push_back(MakeKey(in, t));
        op.r = in.ConsumeIntegralInRange<size_t>(0, kMaxNodes + 1);
        op.distinct_zones = in.ConsumeBool();
        break;
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

// -----------------------------------------------------------------------------
// The checked run
// -----------------------------------------------------------------------------

// What the algorithm should look like: specs by id and liveness.
struct Shadow {
  std::vector<NodeSpec> specs;
  std::vector<bool> live;
  std::vector<uint64_t> placed;  // placement order, distinct
  std::set<uint64_t> placed_set;

  std::vector<NodeId> LiveIds() const {
    std::vector<NodeId> ids;
    for (NodeId id = 0; id < specs.size(); ++id) {
      if (live[id]) ids.push_back(id);
    }
    return ids;
  }
  bool IsLiveName(const std::string& name) const {
    for (NodeId id = 0; id < specs.size(); ++id) {
      if (live[id] && specs[id].name == name) return true;
    }
    return false;
  }
};

class Checker {
 public:
  Checker(const Target& t, std::unique_ptr<ConsistentHash> algo,
          uint64_t probe_seed)
      : t_(t), algo_(std::move(algo)), caps_(algo_->capabilities()) {
    probes_ = KeyDigests(*algo_, kProbeKeys, probe_seed);
    if (!t_.preset) model_ = testing::MakeReferenceModel(t_.name, t_.params);
    // A fresh Build of the live set equals the instance unless the mapping
    // depends on history, or maglev's M depends on the first Build.
    fresh_check_ = !caps_.history_dependent &&
                   !(t_.name == "maglev" && t_.params.table_size == 0);
  }

  // Runs `ops` with every check; appends each result to *trace. With
  // OPS_FUZZER_VERBOSE set, prints each operation (to triage a finding:
  // `OPS_FUZZER_VERBOSE=1 ops_fuzzer crash-...`).
  void Run(std::vector<Op>& ops, std::vector<uint64_t>* trace) {
    trace_ = trace;
    const bool verbose = std::getenv("OPS_FUZZER_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "%s\n", Where().c_str());
    Consistent("start");
    for (size_t i = 0; i < ops.size(); ++i) {
      step_ = i;
      Op& op = ops[i];
      if (verbose) std::fprintf(stderr, "%s\n", Describe(op).c_str());
      switch (op.kind) {
        case OpKind::kBuild:
          DoBuild(op);
          break;
        case OpKind::kAdd:
          DoAdd(op);
          break;
        case OpKind::kRemove:
          DoRemove(op);
          break;
        case OpKind::kLookup:
          DoLookup(op);
          break;
        case OpKind::kPlace:
          DoPlace(op);
          break;
        case OpKind::kPlaceBatch:
          DoPlaceBatch(op);
          break;
        case OpKind::kReplicas:
          DoReplicas(op);
          break;
      }
    }
    Record(Mapping());
  }

 private:
  std::string Where() const {
    return absl::StrCat(
        t_.preset ? "preset " : "algorithm ", t_.name,
        t_.preset
            ? absl::StrCat(" options '", t_.preset_options, "'")
            : absl::StrCat(" hash ", t_.params.hash, " vnodes ",
                           t_.params.vnodes, " table ", t_.params.table_size,
                           " capacity ", t_.params.capacity),
        ", step ", step_, ", live ", algo_->size());
  }

  static std::string Describe(const Op& op) {
    static constexpr const char* kNames[] = {
        "Build", "AddNode",    "RemoveNode",    "Lookup",
        "Place", "PlaceBatch", "LookupReplicas"};
    std::string out = kNames[static_cast<int>(op.kind)];
    for (const NodeSpec& s : op.specs) {
      absl::StrAppend(&out, " '", s.name, "' w=", s.weight, " z=", s.zone, ";");
    }
    if (op.kind == OpKind::kRemove) {
      absl::StrAppend(&out, " mode ", op.victim_mode, " pick ", op.victim_pick);
    }
    for (uint64_t k : op.keys) absl::StrAppend(&out, " ", k);
    if (op.kind == OpKind::kReplicas) {
      absl::StrAppend(&out, " r=", op.r, op.distinct_zones ? " zones" : "");
    }
    return out;
  }

  void Record(uint64_t v) { trace_->push_back(v); }
  void Record(const std::vector<NodeId>& v) {
    trace_->push_back(v.size());
    for (NodeId id : v) trace_->push_back(id);
  }

  bool IsLive(NodeId id) const {
    return id < shadow_.specs.size() && shadow_.live[id];
  }

  // The keys every mapping check looks at: the probes and the placed keys.
  std::vector<uint64_t> CheckedKeys() const {
    std::vector<uint64_t> keys = probes_;
    keys.insert(keys.end(), shadow_.placed.begin(), shadow_.placed.end());
    return keys;
  }

  // Owners of the checked keys (Lookup: places nothing); empty if no node.
  std::vector<NodeId> Mapping() const {
    std::vector<NodeId> owners;
    if (algo_->size() == 0) return owners;
    for (uint64_t k : CheckedKeys()) owners.push_back(algo_->Lookup(k));
    return owners;
  }

  // Bookkeeping against the shadow, and liveness of the mapping.
  void Consistent(const char* after) {
    const std::vector<NodeId> want = shadow_.LiveIds();
    FUZZ_CHECK(algo_->LiveNodes() == want, Where(), " after ", after);
    FUZZ_CHECK(algo_->size() == want.size(), Where(), " after ", after);
    for (NodeId id = 0; id < shadow_.specs.size(); ++id) {
      FUZZ_CHECK(algo_->NodeName(id) == shadow_.specs[id].name, Where(), " id ",
                 id);
    }
    for (NodeId owner : Mapping()) {
      FUZZ_CHECK(IsLive(owner), Where(), " after ", after, ": owner ", owner,
                 " is not live");
    }
  }

  // Reference model and fresh instance agree with the algorithm.
  void AgreesWithReferences() {
    if (algo_->size() == 0) return;
    const std::vector<uint64_t> keys = CheckedKeys();
    const std::vector<NodeId> live = shadow_.LiveIds();
    std::vector<LiveNode> live_nodes;
    std::vector<NodeSpec> live_specs;
    for (NodeId id : live) {
      live_nodes.push_back({id, shadow_.specs[id]});
      live_specs.push_back(shadow_.specs[id]);
    }
    if (model_ != nullptr) {
      if (!caps_.history_dependent) model_->Rebuild(live_nodes);
    }
    if (model_ != nullptr && model_->Covers()) {
      for (uint64_t k : keys) {
        FUZZ_CHECK(model_->Lookup(k) == algo_->Lookup(k), Where(), " key ", k,
                   ": reference model says ", model_->Lookup(k),
                   ", algorithm says ", algo_->Lookup(k));
      }
    }
    if (!fresh_check_) return;
    absl::StatusOr<std::unique_ptr<ConsistentHash>> fresh = t_.Make();
    FUZZ_CHECK(fresh.ok(), Where(), ": ", fresh.status().ToString());
    const absl::Status built = (*fresh)->Build(live_specs);
    FUZZ_CHECK(built.ok(), Where(),
               ": a fresh Build of the live nodes fails: ", built.ToString());
    if (caps_.stateful) {
      for (uint64_t k : shadow_.placed) (*fresh)->Place(k);
    }
    for (uint64_t k : keys) {
      const NodeId f = (*fresh)->Lookup(k);
      FUZZ_CHECK(f < live.size(), Where(), " fresh owner ", f);
      FUZZ_CHECK(live[f] == algo_->Lookup(k), Where(), " key ", k,
                 ": a fresh instance of the live nodes says ", live[f],
                 ", the instance says ", algo_->Lookup(k));
    }
  }

  // Whether `spec` must be refused (given the live names).
  bool MustRefuse(const NodeSpec& spec,
                  const std::set<std::string>& live_names) const {
    if (spec.name.empty() || live_names.count(spec.name) != 0) return true;
    const double w = spec.weight;
    if (t_.preset) return !(std::isfinite(w) && w >= 1 && w == std::floor(w));
    if (!std::isfinite(w) || w <= 0) return true;
    return !caps_.weights && w != 1.0;
  }

  std::set<std::string> LiveNames() const {
    std::set<std::string> names;
    for (NodeId id : shadow_.LiveIds()) names.insert(shadow_.specs[id].name);
    return names;
  }

  void DoBuild(const Op& op) {
    const std::vector<NodeId> before = Mapping();
    std::set<std::string> seen;
    bool must_refuse = false;
    for (const NodeSpec& s : op.specs) {
      must_refuse = must_refuse || MustRefuse(s, seen);
      seen.insert(s.name);
    }
    const absl::Status s = algo_->Build(op.specs);
    Record(s.ok());
    FUZZ_CHECK(s.ok() || !s.message().empty(), Where());
    if (must_refuse) FUZZ_CHECK(!s.ok(), Where(), ": Build accepted bad specs");
    if (!s.ok()) {
      Consistent("a failed Build");
      FUZZ_CHECK(Mapping() == before, Where(),
                 ": a failed Build changed the mapping: ", s.ToString());
      return;
    }
    shadow_.specs = op.specs;
    shadow_.live.assign(op.specs.size(), true);
    Consistent("Build");
    if (model_ != nullptr && caps_.history_dependent) {
      std::vector<LiveNode> live;
      for (NodeId id = 0; id < op.specs.size(); ++id) {
        live.push_back({id, op.specs[id]});
      }
      model_->Rebuild(live);
    }
    AgreesWithReferences();
  }

  void DoAdd(const Op& op) {
    const NodeSpec& spec = op.specs[0];
    const std::vector<NodeId> before = Mapping();
    const bool minimal = algo_->capabilities().minimal_disruption;
    const bool must_refuse = MustRefuse(spec, LiveNames());
    const absl::StatusOr<NodeId> id = algo_->AddNode(spec);
    Record(id.ok() ? *id : kInvalidNode);
    if (must_refuse) {
      FUZZ_CHECK(!id.ok(), Where(), ": AddNode accepted '", spec.name,
                 "' weight ", spec.weight);
    }
    if (!id.ok()) {
      Consistent("a failed AddNode");
      FUZZ_CHECK(Mapping() == before, Where(),
                 ": a failed AddNode changed the mapping");
      return;
    }
    FUZZ_CHECK(*id == shadow_.specs.size(), Where(), ": AddNode returned id ",
               *id, ", the next id is ", shadow_.specs.size());
    shadow_.specs.push_back(spec);
    shadow_.live.push_back(true);
    Consistent("AddNode");
    if (minimal && algo_->capabilities().minimal_disruption &&
        !caps_.stateful && !before.empty()) {
      const std::vector<NodeId> after = Mapping();
      for (size_t i = 0; i < before.size(); ++i) {
        FUZZ_CHECK(after[i] == before[i] || after[i] == *id, Where(),
                   ": AddNode moved a key from ", before[i], " to ", after[i],
                   ", not to the new node ", *id);
      }
    }
    if (model_ != nullptr && caps_.history_dependent) model_->Added(*id, spec);
    AgreesWithReferences();
  }

  void DoRemove(Op& op) {
    const std::vector<NodeId> live = shadow_.LiveIds();
    const std::vector<NodeId> before = Mapping();
    const bool minimal = algo_->capabilities().minimal_disruption;
    // Modes 0..4: a live node; 5: a removed or never issued id; 6: far out;
    // 7: kInvalidNode.
    if (op.victim == kInvalidNode) {
      if (op.victim_mode <= 4 && !live.empty()) {
        op.victim = live[op.victim_pick % live.size()];
      } else if (op.victim_mode <= 5) {
        op.victim =
            static_cast<NodeId>(op.victim_pick % (shadow_.specs.size() + 2));
      } else if (op.victim_mode == 6) {
        op.victim = static_cast<NodeId>(shadow_.specs.size() + 1000);
      }
    }
    const NodeId victim = op.victim;
    const bool is_live = IsLive(victim);
    const absl::Status s = algo_->RemoveNode(victim);
    Record(s.ok());
    if (!is_live) {
      FUZZ_CHECK(!s.ok(), Where(), ": removing id ", victim,
                 " (not live) succeeded");
    } else if (!caps_.arbitrary_removal && victim != live.back()) {
      FUZZ_CHECK(!s.ok(), Where(), ": removing id ", victim,
                 " (not the last) succeeded without arbitrary removal");
    }
    if (!s.ok()) {
      Consistent("a failed RemoveNode");
      FUZZ_CHECK(Mapping() == before, Where(),
                 ": a failed RemoveNode changed the mapping");
      return;
    }
    shadow_.live[victim] = false;
    Consistent("RemoveNode");
    if (minimal && algo_->capabilities().minimal_disruption &&
        !caps_.stateful && algo_->size() > 0) {
      const std::vector<NodeId> after = Mapping();
      for (size_t i = 0; i < before.size(); ++i) {
        FUZZ_CHECK(after[i] == before[i] || before[i] == victim, Where(),
                   ": RemoveNode(", victim, ") moved a key from ", before[i],
                   " to ", after[i]);
      }
    }
    if (model_ != nullptr && caps_.history_dependent) model_->Removed(victim);
    AgreesWithReferences();
  }

  void DoLookup(const Op& op) {
    if (algo_->size() == 0) return Record(kInvalidNode);  // precondition
    const NodeId id = algo_->Lookup(op.keys[0]);
    Record(id);
    FUZZ_CHECK(IsLive(id), Where(), ": Lookup gave ", id);
    if (model_ != nullptr && model_->Covers()) {
      FUZZ_CHECK(model_->Lookup(op.keys[0]) == id, Where(), " key ", op.keys[0],
                 ": reference model disagrees");
    }
  }

  // One placement, checked; shared by Place and PlaceBatch.
  void Placed(uint64_t key, NodeId id) {
    FUZZ_CHECK(IsLive(id), Where(), ": Place gave ", id);
    if (!caps_.stateful) {
      FUZZ_CHECK(algo_->Lookup(key) == id, Where(),
                 ": Place differs from Lookup for a stateless algorithm");
      return;
    }
    if (model_ != nullptr && model_->Covers()) {
      FUZZ_CHECK(model_->Place(key) == id, Where(), " key ", key,
                 ": reference model places it elsewhere");
    }
    if (shadow_.placed_set.insert(key).second) shadow_.placed.push_back(key);
  }

  void DoPlace(const Op& op) {
    if (algo_->size() == 0) return Record(kInvalidNode);
    const NodeId id = algo_->Place(op.keys[0]);
    Record(id);
    Placed(op.keys[0], id);
    FUZZ_CHECK(algo_->Lookup(op.keys[0]) == id, Where(),
               ": a placed key's Lookup differs from its Place");
  }

  void DoPlaceBatch(const Op& op) {
    if (algo_->size() == 0) {
      for (size_t i = 0; i < op.keys.size(); ++i) Record(kInvalidNode);
      return;
    }
    std::vector<NodeId> out(op.keys.size(), kInvalidNode);
    algo_->PlaceBatch(op.keys, out);
    for (size_t i = 0; i < op.keys.size(); ++i) {
      Record(out[i]);
      Placed(op.keys[i], out[i]);
    }
    for (size_t i = 0; i < op.keys.size(); ++i) {
      FUZZ_CHECK(algo_->Lookup(op.keys[i]) == out[i], Where(),
                 ": a placed key's Lookup differs from its PlaceBatch");
    }
  }

  void DoReplicas(const Op& op) {
    std::vector<NodeId> out;
    const uint64_t key = op.keys[0];
    const absl::Status s =
        algo_->LookupReplicas(key, op.r, op.distinct_zones, &out);
    Record(s.ok());
    if (s.ok()) Record(out);
    const size_t live = algo_->size();
    if (!caps_.replicas) {
      FUZZ_CHECK(!s.ok(), Where(), ": LookupReplicas without the capability");
      return;
    }
    if (op.r > live) {
      FUZZ_CHECK(!s.ok(), Where(), ": LookupReplicas(r = ", op.r, ") with ",
                 live, " live nodes succeeded");
      return;
    }
    if (op.r == 0) return;  // unspecified; must not crash
    // A preset returns its system's list: shorter than r when a live server
    // has no point (a weight share below one point) or a Cassandra
    // datacenter has fewer hosts than its factor; Cassandra strategy=nts
    // takes only r = the sum of its factors, refuses distinct zones, and
    // starts with the primary only when the primary's datacenter is
    // replicated (algorithms/consistent_hash.h, LookupReplicas).
    const bool nts = t_.preset && t_.preset_options.find("strategy=nts") !=
                                      std::string::npos;
    if (nts && !s.ok()) return;
    FUZZ_CHECK(s.ok(), Where(), ": LookupReplicas(r = ", op.r,
               ") failed: ", s.ToString());
    // Always r nodes (consistent_hash.h): with distinct zones, the first
    // min(r, zones) are in distinct zones and the rest are the nodes passed
    // over.
    const size_t want = op.r;
    size_t distinct = want;
    if (op.distinct_zones) {
      std::set<std::string> zones;
      for (NodeId id : shadow_.LiveIds()) zones.insert(shadow_.specs[id].zone);
      distinct = std::min(want, zones.size());
    }
    if (t_.preset) {
      FUZZ_CHECK((nts || !out.empty()) && out.size() <= want, Where(), ": ",
                 out.size(), " replicas, expected up to ", want);
    } else {
      FUZZ_CHECK(out.size() == want, Where(), ": ", out.size(),
                 " replicas, expected ", want);
    }
    FUZZ_CHECK(nts || out[0] == algo_->Lookup(key), Where(),
               ": the first replica is not Lookup's answer");
    std::set<NodeId> ids;
    std::set<std::string> zones;
    for (size_t i = 0; i < out.size(); ++i) {
      FUZZ_CHECK(IsLive(out[i]), Where(), ": replica ", out[i], " not live");
      ids.insert(out[i]);
      if (i < distinct) zones.insert(shadow_.specs[out[i]].zone);
    }
    FUZZ_CHECK(ids.size() == out.size(), Where(), ": replicas repeat");
    if (op.distinct_zones) {
      FUZZ_CHECK(zones.size() == std::min(distinct, out.size()), Where(),
                 ": zones repeat among the first ", distinct);
    }
  }

  const Target& t_;
  std::unique_ptr<ConsistentHash> algo_;
  Capabilities caps_;
  std::unique_ptr<ReferenceModel> model_;
  bool fresh_check_ = false;
  std::vector<uint64_t> probes_;
  Shadow shadow_;
  std::vector<uint64_t>* trace_ = nullptr;
  size_t step_ = 0;
};

// The replay: the same operations on a second instance, without checks,
// each PlaceBatch as Place calls in order.
void Replay(ConsistentHash& algo, const std::vector<Op>& ops,
            const std::vector<uint64_t>& probes,
            std::vector<uint64_t>* placed_keys, std::vector<uint64_t>* trace) {
  std::set<uint64_t> placed_set;
  const bool stateful = algo.capabilities().stateful;
  auto place = [&](uint64_t k) {
    const NodeId id = algo.Place(k);
    if (stateful && placed_set.insert(k).second) placed_keys->push_back(k);
    return id;
  };
  for (const Op& op : ops) {
    switch (op.kind) {
      case OpKind::kBuild:
        trace->push_back(algo.Build(op.specs).ok());
        break;
      case OpKind::kAdd: {
        absl::StatusOr<NodeId> id = algo.AddNode(op.specs[0]);
        trace->push_back(id.ok() ? *id : kInvalidNode);
        break;
      }
      case OpKind::kRemove:
        trace->push_back(algo.RemoveNode(op.victim).ok());
        break;
      case OpKind::kLookup:
        trace->push_back(algo.size() == 0 ? kInvalidNode
                                          : algo.Lookup(op.keys[0]));
        break;
      case OpKind::kPlace:
      case OpKind::kPlaceBatch:
        for (uint64_t k : op.keys) {
          trace->push_back(algo.size() == 0 ? kInvalidNode : place(k));
        }
        break;
      case OpKind::kReplicas: {
        std::vector<NodeId> out;
        const absl::Status s =
            algo.LookupReplicas(op.keys[0], op.r, op.distinct_zones, &out);
        trace->push_back(s.ok());
        if (s.ok()) {
          trace->push_back(out.size());
          for (NodeId id : out) trace->push_back(id);
        }
        break;
      }
    }
  }
  // The final mapping, as Checker::Run records it.
  std::vector<uint64_t> keys = probes;
  keys.insert(keys.end(), placed_keys->begin(), placed_keys->end());
  if (algo.size() == 0) {
    trace->push_back(0);
  } else {
    trace->push_back(keys.size());
    for (uint64_t k : keys) trace->push_back(algo.Lookup(k));
  }
}

// -----------------------------------------------------------------------------
// Seeds (fuzz/corpus/ops_fuzzer/): written by this binary, so that they
// follow the decoder above and the registries' order:
//   OPS_FUZZER_WRITE_SEEDS=fuzz/corpus/ops_fuzzer build-fuzz/fuzz/ops_fuzzer
// One seed per algorithm (the hashes in turn) and per preset, plus presets
// with options: a Build, placements and lookups, removals (a live node, a
// removed and an invalid id), additions (new, duplicate and invalid-weight
// nodes), replicas, a Build that must fail and an empty Build. Regenerate
// them when the decoding changes.
// -----------------------------------------------------------------------------

// The inverse of FuzzedDataProvider: integers are read from the end of the
// data (most significant byte first), strings from the front.
class Encoder {
 public:
  void InRange(uint64_t lo, uint64_t hi, uint64_t v) {
    const uint64_t range = hi - lo;
    std::vector<uint8_t> bytes;
    for (size_t offset = 0; offset < 64 && (range >> offset) > 0; offset += 8) {
      bytes.push_back(0);
    }
    uint64_t x = v - lo;
    for (size_t i = bytes.size(); i-- > 0;) {
      bytes[i] = static_cast<uint8_t>(x & 0xFF);
      x >>= 8;
    }
    back_.insert(back_.end(), bytes.begin(), bytes.end());
  }
  void U8(uint8_t v) { InRange(0, 0xFF, v); }
  void U32(uint32_t v) { InRange(0, 0xFFFFFFFFu, v); }
  void U64(uint64_t v) { InRange(0, ~uint64_t{0}, v); }
  void Bool(bool v) { U8(v ? 1 : 0); }
  // `s` has no backslash; ended by a backslash and another byte.
  void String(std::string_view s) {
    front_.insert(front_.end(), s.begin(), s.end());
    front_.push_back('\\');
    front_.push_back('.');
  }
  std::string Data() const {
    std::string out(front_.begin(), front_.end());
    out.append(back_.rbegin(), back_.rend());
    return out;
  }

 private:
  std::vector<uint8_t> front_, back_;
};

size_t WeightIndex(double w) {
  for (size_t i = 0; i < std::size(kWeights); ++i) {
    if (kWeights[i] == w) return i;
  }
  return std::size(kWeights) - 1;  // NaN: not found by ==
}

void EncodeSpec(Encoder& e, uint8_t name, double weight, size_t zone) {
  e.U8(name);
  e.InRange(0, std::size(kWeights) - 1, WeightIndex(weight));
  e.InRange(0, 4, zone);
}
void EncodeKey(Encoder& e, uint64_t k) {
  e.U64(k);
  e.Bool(false);
}
void EncodeOp(Encoder& e, OpKind kind) {
  e.InRange(0, 6, static_cast<uint64_t>(kind));
}

// A varied operation sequence; `weighted` uses weights 2 and 3 on some
// nodes.
void EncodeOps(Encoder& e, bool weighted) {
  EncodeOp(e, OpKind::kBuild);
  e.InRange(0, kMaxNodes, 6);
  for (uint8_t i = 0; i < 6; ++i) {
    EncodeSpec(e, i, weighted && i % 3 == 1 ? 2 : 1, i % 4 + 1);
  }
  for (uint64_t k : {11ULL, 0xFFFFFFFFULL, 3ULL}) {
    EncodeOp(e, OpKind::kPlace);
    EncodeKey(e, k);
  }
  EncodeOp(e, OpKind::kPlaceBatch);
  e.InRange(1, kMaxBatch, 6);
  for (uint64_t k : {5ULL, 6ULL, 5ULL, 0x8000000000000000ULL, 7ULL, 6ULL}) {
    EncodeKey(e, k);
  }
  EncodeOp(e, OpKind::kLookup);
  EncodeKey(e, 0x123456789ULL);
  EncodeOp(e, OpKind::kRemove);  // a live node
  e.InRange(0, 7, 0);
  e.U32(3);
  EncodeOp(e, OpKind::kRemove);  // the last live node
  e.InRange(0, 7, 1);
  e.U32(6);
  EncodeOp(e, OpKind::kRemove);  // kInvalidNode
  e.InRange(0, 7, 7);
  e.U32(0);
  EncodeOp(e, OpKind::kAdd);  // new
  EncodeSpec(e, 20, weighted ? 3 : 1, 2);
  EncodeOp(e, OpKind::kAdd);  // a live name
  EncodeSpec(e, 0, 1, 0);
  EncodeOp(e, OpKind::kAdd);  // a removed name again
  EncodeSpec(e, 3, 1, 3);
  EncodeOp(e, OpKind::kAdd);  // bad weight
  EncodeSpec(e, 21, 0, 0);
  EncodeOp(e, OpKind::kRemove);  // an id that is not live
  e.InRange(0, 7, 5);
  e.U32(3);
  for (size_t r : {size_t{1}, size_t{2}, size_t{3}, size_t{9}}) {
    EncodeOp(e, OpKind::kReplicas);
    EncodeKey(e, 42 + r);
    e.InRange(0, kMaxNodes + 1, r);
    e.Bool(r == 2);
  }
  EncodeOp(e, OpKind::kBuild);  // a duplicate name: refused
  e.InRange(0, kMaxNodes, 3);
  for (uint8_t i : {30, 31, 30}) EncodeSpec(e, i, 1, 0);
  EncodeOp(e, OpKind::kBuild);  // no node
  e.InRange(0, kMaxNodes, 0);
  EncodeOp(e, OpKind::kLookup);
  EncodeKey(e, 1);
  EncodeOp(e, OpKind::kAdd);
  EncodeSpec(e, 40, 1, 1);
  EncodeOp(e, OpKind::kAdd);
  EncodeSpec(e, 41, 1, 2);
  EncodeOp(e, OpKind::kPlace);
  EncodeKey(e, 11);
  EncodeOp(e, OpKind::kRemove);
  e.InRange(0, 7, 2);
  e.U32(0);
  EncodeOp(e, OpKind::kLookup);
  EncodeKey(e, 99);
}

void WriteSeed(const std::string& dir, const std::string& name,
               const std::string& data) {
  const std::string path = absl::StrCat(dir, "/", name);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  FUZZ_CHECK(f != nullptr, "cannot write ", path);
  std::fwrite(data.data(), 1, data.size(), f);
  std::fclose(f);
}

void WriteSeeds(const std::string& dir) {
  const std::span<const AlgorithmInfo> algorithms = Algorithms();
  const std::span<const PresetInfo> presets = Presets();
  const std::span<const HashInfo> hashes = HashFunctions();
  const size_t targets = algorithms.size() + presets.size();
  size_t h = 0;
  for (size_t a = 0; a < algorithms.size(); ++a) {
    const AlgorithmInfo& info = algorithms[a];
    // A 64-bit hash for bounded_load; the others take the hashes in turn.
    size_t hash = h++ % hashes.size();
    while (info.capabilities.stateful && hashes[hash].bits < 64) {
      hash = h++ % hashes.size();
    }
    Encoder e;
    e.InRange(0, targets - 1, a);
    e.InRange(0, hashes.size() - 1, hash);
    e.InRange(0, 15, 1);  // not odd
    e.InRange(1, 32, 8);  // vnodes
    e.InRange(0, 4, 2);   // table_size 101
    e.InRange(0, 3, 0);   // load factor 1.25
    e.Bool(false);        // capacity given:
    e.InRange(0, 256, 64);
    e.InRange(1, 32, 5);  // probes
    e.U8(7);              // probe seed
    EncodeOps(e, info.capabilities.weights);
    WriteSeed(dir, absl::StrCat("algorithm_", std::string(info.name)),
              e.Data());
  }
  struct WithOptions {
    std::string_view preset, options;
  };
  std::vector<WithOptions> configs;
  for (const PresetInfo& p : presets) configs.push_back({p.name, ""});
  configs.push_back({"twemproxy", "hash=md5"});
  configs.push_back({"haproxy", "hash=crc32,avalanche=0"});
  configs.push_back({"groupcache", "replicas=3"});
  configs.push_back({"cassandra", "tokens=splitmix64:4"});
  configs.push_back({"envoy_maglev", "table_size=1009"});
  configs.push_back({"envoy_ring_hash", "min_ring_size=64"});
  for (const WithOptions& c : configs) {
    size_t index = 0;
    while (presets[index].name != c.preset) ++index;
    Encoder e;
    e.InRange(0, targets - 1, algorithms.size() + index);
    e.Bool(!c.options.empty());
    if (!c.options.empty()) e.String(c.options);
    e.U8(9);  // probe seed
    absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
        MakePreset(c.preset, c.options);
    FUZZ_CHECK(made.ok(), made.status().ToString());
    EncodeOps(e, (*made)->capabilities().weights);
    std::string name = absl::StrCat("preset_", std::string(c.preset));
    if (!c.options.empty()) {
      absl::StrAppend(&name, "_", std::string(c.options));
      for (char& ch : name)
        ch = (ch == '=' || ch == ',' || ch == ':') ? '-' : ch;
    }
    WriteSeed(dir, name, e.Data());
  }
}
}  // namespace
}  // namespace chbench

// With OPS_FUZZER_WRITE_SEEDS=<dir>: writes the seeds there and exits.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("OPS_FUZZER_WRITE_SEEDS")) {
    chbench::WriteSeeds(dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace chbench;
  FuzzedDataProvider in(data, size);
  Target target;
  if (!PickTarget(in, &target)) return -1;  // not worth keeping
  const uint64_t probe_seed = in.ConsumeIntegral<uint8_t>();
  std::vector<Op> ops = DecodeOps(in, target);

  absl::StatusOr<std::unique_ptr<ConsistentHash>> a = target.Make();
  if (!a.ok()) return 0;  // refused parameters: fine
  absl::StatusOr<std::unique_ptr<ConsistentHash>> b = target.Make();
  FUZZ_CHECK(b.ok(), "a second Make of ", target.name, " failed");

  const std::vector<uint64_t> probes = KeyDigests(**a, kProbeKeys, probe_seed);
  std::vector<uint64_t> trace_a, trace_b, placed_b;
  Checker(target, *std::move(a), probe_seed).Run(ops, &trace_a);
  Replay(**b, ops, probes, &placed_b, &trace_b);
  if (trace_a != trace_b) {
    size_t i = 0;
    while (i < trace_a.size() && i < trace_b.size() && trace_a[i] == trace_b[i])
      ++i;
    Broken(absl::StrCat(target.name, ": a second instance given the same ",
                        ops.size(),
                        " operations (PlaceBatch as Place calls) "
                        "answers differently at result ",
                        i));
  }
  return 0;
}
