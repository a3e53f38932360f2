// Copyright 2026 The chbench Authors.

#include "experiments/spec.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "algorithms/ring/ring.h"
#include "bench/timing.h"
#include "experiments/csv.h"
#include "experiments/kinds/schema.h"
#include "experiments/metric_registry.h"
#include "experiments/spec_block.h"
#include "toml++/toml.h"
#include "workload/keyset.h"
#include "workload/removal.h"

namespace chbench {

bool IsTimingMetric(std::string_view metric) {
  const MetricInfo* info = FindMetric(metric);  // metric_registry.h
  return info != nullptr && info->timing;
}

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string JoinViews(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

namespace {

// Upper bounds checked before anything runs, so that no value is silently
// truncated to 32 bits and no cell fails halfway through a run.
//
// Nodes: 2^24 = 16.8 M is a memory/time sanity cap, far above any size the
// suite sweeps (10^5) and below every algorithm's own limit (jump: 2^31 - 1;
// a ring with the default 100 points per node reaches its 2^31-point limit
// at 2^24 nodes). Tighter per-algorithm limits (ring points, Maglev's table)
// are checked as well.
constexpr int64_t kMaxNodes = int64_t{1} << 24;
// Keys per cell, from `keys` or `keys_per_node` x nodes (or placed keys):
// at most 2^32, so counts and key indices fit the runner's 32-bit owners
// and a cell's keys fit in memory (2^32 16-byte keys are ~200 GB already).
constexpr int64_t kMaxKeys = int64_t{1} << 32;
constexpr int64_t kMaxRepetitions = 10000;
// Cells per tier, counted as the product is expanded (repeated axis values
// count before the duplicates are dropped): a bound on the memory and time
// of expansion, which happens before anything runs. The largest shipped
// expansion is 4640 cells (disruption, tier full); the axes' product of a
// spec written by mistake (or by a fuzzer) can be 10^10.
constexpr size_t kMaxCells = 100000;
constexpr double kMaxMinTimeS = 60;
// Timing kinds: rounds when `repetitions` is not given, and the fewest
// accepted (a median and a spread need at least 3).
constexpr int64_t kDefaultTimingRounds = 10;
constexpr int64_t kMinTimingRounds = 3;
// A stateful algorithm (bounded_load) keeps placed keys by digest, so it
// refuses 32-bit hashes; the spec drops those combinations.
bool Is32BitHash(std::string_view hash) {
  const HashInfo* info = FindHash(hash);
  return info != nullptr && info->bits < 64;
}

std::string Sanitize(std::string_view s) {
  std::string out;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '.' || c == '-';
    out += ok ? c : '-';
  }
  return out;
}

}  // namespace

bool Cell::timing() const {
  const KindSchema* schema = FindKindSchema(kind);
  return schema != nullptr && schema->runs_alone(*this);
}

std::string Cell::Name() const {
  std::vector<std::string> parts = {kind};
  if (!claim.empty()) parts.push_back(claim);
  if (!algorithm.empty()) parts.push_back(algorithm);
  parts.push_back(hash);
  parts.push_back(keyset);
  if (nodes) parts.push_back(absl::StrCat("n", nodes));
  if (vnodes) parts.push_back(absl::StrCat("v", *vnodes));
  if (table_size) parts.push_back(absl::StrCat("t", *table_size));
  if (load_factor) parts.push_back(absl::StrCat("c", FormatNumber(*load_factor)));
  if (capacity) parts.push_back(absl::StrCat("a", *capacity));
  if (probes) parts.push_back(absl::StrCat("q", *probes));
  parts.push_back(absl::StrCat("k", keys));
  if (!weights.empty()) {
    std::vector<std::string> w;
    for (double x : weights) w.push_back(FormatNumber(x));
    parts.push_back(absl::StrCat("w", absl::StrJoin(w, "-")));
  }
  if (placed_keys_per_node) {
    parts.push_back(absl::StrCat("p", placed_keys_per_node));
  }
  if (!scenario.empty()) parts.push_back(scenario);
  if (multithread) parts.push_back("mt");
  if (batch > 1) parts.push_back(absl::StrCat("b", batch));
  if (!removal.empty()) parts.push_back(absl::StrCat(removal, "-r", removed));
  if (replicas) parts.push_back(absl::StrCat("r", replicas));
  if (!topology.empty()) parts.push_back(topology);
  if (!mode.empty()) {
    parts.push_back(mode);
    if (zipf) parts.push_back(absl::StrCat("z", FormatNumber(*zipf)));
    parts.push_back(absl::StrCat("R", requests));
    parts.push_back(absl::StrCat("L", cache_items));
    if (stale_fraction) {
      parts.push_back(absl::StrCat("f", FormatNumber(*stale_fraction)));
    }
    if (utilization) {
      parts.push_back(absl::StrCat("u", FormatNumber(*utilization)));
    }
  }
  parts.push_back(absl::StrCat("s", seed));
  std::string name;
  for (const std::string& p : parts) {
    if (!name.empty()) name += '_';
    name += Sanitize(p);
  }
  return name;
}

AlgorithmParams Cell::Params() const {
  AlgorithmParams p;
  p.hash = hash;
  if (vnodes) p.vnodes = *vnodes;
  if (table_size) p.table_size = *table_size;
  if (load_factor) p.load_factor = *load_factor;
  if (capacity) p.capacity = *capacity;
  if (probes) p.probes = *probes;
  return p;
}

namespace {

// The row of `name` among `rows`, or nullptr.
const AlgorithmInfo* FindIn(std::span<const AlgorithmInfo> rows,
                            std::string_view name) {
  for (const AlgorithmInfo& info : rows) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

// "a, b, c": the names of the rows that satisfy `keep`, in catalogue order.
template <typename Pred>
std::string NamesIn(std::span<const AlgorithmInfo> rows, Pred keep) {
  std::string out;
  for (const AlgorithmInfo& info : rows) {
    if (!keep(info)) continue;
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

std::string AllNamesIn(std::span<const AlgorithmInfo> rows) {
  return NamesIn(rows, [](const AlgorithmInfo&) { return true; });
}

// Whether the row of `alg` lists `param` among the AlgorithmParams fields its
// factory reads.
bool ReadsParam(std::span<const AlgorithmInfo> rows, std::string_view alg,
                std::string_view param) {
  const AlgorithmInfo* info = FindIn(rows, alg);
  if (info == nullptr) return false;
  return info->FindParameter(param) != nullptr;
}

// The keys of an algorithm selection (spec.h): the capabilities, each a
// boolean the capability must equal, then the other criteria.
struct CapabilityKey {
  std::string_view key;
  bool Capabilities::*field;
};
constexpr std::array<CapabilityKey, 6> kCapabilityKeys = {{
    {"arbitrary_removal", &Capabilities::arbitrary_removal},
    {"minimal_disruption", &Capabilities::minimal_disruption},
    {"weights", &Capabilities::weights},
    {"replicas", &Capabilities::replicas},
    {"stateful", &Capabilities::stateful},
    {"history_dependent", &Capabilities::history_dependent},
}};
constexpr std::array<std::string_view, 11> kSelectionKeys = {
    "all",          "arbitrary_removal", "minimal_disruption", "weights",
    "replicas",     "stateful",          "history_dependent",  "hash_axis",
    "lookup_class", "except",            "every_row"};

// "lo..hi"
std::string Range(int64_t lo, int64_t hi) { return absl::StrCat(lo, "..", hi); }

template <typename C>
std::string JoinNames(const C& c) {
  return absl::StrJoin(c, ", ", [](std::string* out, const auto& v) {
    absl::StrAppend(out, std::string(std::string_view(v)));
  });
}

// The text of the problem when a kind does not run production presets.
constexpr std::string_view kPresetsRefused =
    "production presets run in kind 'presets' and in kind 'lookup' with "
    "scenario = [\"string\"] only";

// The axis table (kAxes, after the parser): one row per block key, with the
// shape of its value, the SweepBlock field it fills and how the value is
// checked. The shapes:

// Names: a string or an array of strings. `known` (nullptr: any name) says
// which are valid and `valid` lists them for the error.
struct NamesAxis {
  std::vector<std::string> SweepBlock::*field;
  bool (*known)(const std::string& name) = nullptr;
  std::string (*valid)() = nullptr;
};
// One string, given in the block itself (a tier cannot override it);
// `known` and `valid` as for NamesAxis.
struct BlockText {
  std::string SweepBlock::*field;
  bool (*known)(const std::string& name) = nullptr;
  std::string (*valid)() = nullptr;
};
// Integers in [min, max], `why` (optional) explaining the bounds; then
// `problem` (nullptr: none) says what is wrong with a value in range, or "".
struct IntsAxis {
  std::vector<int64_t> SweepBlock::*field;
  int64_t min, max;
  std::string_view why = {};
  std::string (*problem)(int64_t v) = nullptr;
};
// Numbers for which `valid` holds; `range` says which, after "value x out of
// range; ".
struct NumbersAxis {
  std::vector<double> SweepBlock::*field;
  bool (*valid)(double x);
  std::string_view range;
};
// One integer in [min, max], into `field` or else `optional_field`.
struct IntValue {
  int64_t SweepBlock::*field = nullptr;
  int64_t min, max;
  std::optional<int64_t> SweepBlock::*optional_field = nullptr;
};
// One number for which `valid` holds; `range` as for NumbersAxis.
struct NumberValue {
  double SweepBlock::*field;
  bool (*valid)(double x);
  std::string_view range;
};
// true or false.
struct BoolValue {
  bool SweepBlock::*field;
};
// Read by a parser method of its own.
class Parser;
struct CustomAxis {
  absl::Status (Parser::*read)(std::string_view key, const toml::node& node,
                               SweepBlock* b) const;
};
// The block's tier tables: checked by Parser::CheckTiers, applied by
// ParseSpec; not a value of the block.
struct TierTables {};

struct Axis {
  std::string_view key;
  std::variant<NamesAxis, BlockText, IntsAxis, NumbersAxis, IntValue,
               NumberValue, BoolValue, CustomAxis, TierTables>
      shape;
  // Accepted only by the kinds whose KindSchema::axes list it (IsKindAxis);
  // false: by every kind.
  bool kind_axis = false;
  // When a kind refuses it: the text after "not used by kind '<kind>'"
  // (KindSchema::RefusalNote may replace it), or, when `refused` is given,
  // that whole problem instead.
  std::string_view not_used_note = {};
  std::string_view refused = {};
};

class Parser {
 public:
  Parser(std::string_view path, std::span<const AlgorithmInfo> algorithms)
      : path_(path), algorithms_(algorithms) {}

  absl::Status Error(std::string_view key, std::string_view problem) const {
    return absl::InvalidArgumentError(
        absl::StrCat(path_, ": key '", std::string(key), "': ",
                     std::string(problem)));
  }

  // Elements of an axis: an array's elements, or the scalar itself.
  std::vector<const toml::node*> Elements(const toml::node& node) const {
    std::vector<const toml::node*> out;
    if (const toml::array* arr = node.as_array()) {
      for (const toml::node& e : *arr) out.push_back(&e);
    } else {
      out.push_back(&node);
    }
    return out;
  }

  absl::Status Strings(std::string_view key, const toml::node& node,
                       std::vector<std::string>* out) const {
    out->clear();
    for (const toml::node* e : Elements(node)) {
      std::optional<std::string> s = e->value<std::string>();
      if (!s || !e->is_string()) return Error(key, "expected a string or an array of strings");
      out->push_back(*s);
    }
    if (out->empty()) return Error(key, "empty axis; give at least one value");
    return absl::OkStatus();
  }

  // Integers in [min, max]; `why` (optional) explains the bounds.
  absl::Status Ints(std::string_view key, const toml::node& node,
                    int64_t min, int64_t max, std::vector<int64_t>* out,
                    std::string_view why = "") const {
    out->clear();
    for (const toml::node* e : Elements(node)) {
      if (!e->is_integer()) {
        return Error(key, "expected an integer or an array of integers");
      }
      const int64_t v = *e->value<int64_t>();
      if (v < min || v > max) {
        return Error(key, absl::StrCat("value ", v, " out of range; valid: ",
                                       Range(min, max),
                                       why.empty() ? "" : " (",
                                       std::string(why),
                                       why.empty() ? "" : ")"));
      }
      out->push_back(v);
    }
    if (out->empty()) return Error(key, "empty axis; give at least one value");
    return absl::OkStatus();
  }

  absl::Status Doubles(std::string_view key, const toml::node& node,
                       std::vector<double>* out) const {
    out->clear();
    for (const toml::node* e : Elements(node)) {
      if (!e->is_number()) {
        return Error(key, "expected a number or an array of numbers");
      }
      out->push_back(*e->value<double>());
    }
    if (out->empty()) return Error(key, "empty axis; give at least one value");
    return absl::OkStatus();
  }

  absl::Status Scalar(std::string_view key, const toml::node& node,
                      std::string* out) const {
    if (!node.is_string()) return Error(key, "expected a string");
    *out = *node.value<std::string>();
    return absl::OkStatus();
  }

  // An algorithm's name among the rows; else an error naming the valid ones.
  absl::Status CheckAlgorithmName(std::string_view key,
                                  const std::string& a) const {
    if (FindIn(algorithms_, a) != nullptr) return absl::OkStatus();
    return Error(key, absl::StrCat(
                          "unknown value '", a, "'; valid: ",
                          AllNamesIn(algorithms_),
                          FindPreset(a) != nullptr
                              ? " ('" + a + "' is a production "
                                "preset: list it under key 'preset')"
                              : std::string()));
  }

  // The `algorithm` key: names, "all", or a selection table (spec.h).
  absl::Status Algorithms(const toml::node& node,
                          std::vector<std::string>* out) const {
    constexpr std::string_view key = "algorithm";
    if (const toml::table* t = node.as_table()) return Select(*t, out);
    if (node.is_string() && *node.value<std::string>() == "all") {
      out->clear();
      for (const AlgorithmInfo& info : algorithms_) {
        if (info.in_sweeps) out->push_back(std::string(info.name));
      }
      return absl::OkStatus();
    }
    if (absl::Status s = Strings(key, node, out); !s.ok()) return s;
    for (const std::string& a : *out) {
      if (absl::Status s = CheckAlgorithmName(key, a); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // A selection table: the rows, in catalogue order, that meet every
  // criterion given.
  absl::Status Select(const toml::table& t,
                      std::vector<std::string>* out) const {
    std::vector<std::pair<bool Capabilities::*, bool>> capabilities;
    std::optional<bool> hash_axis;
    bool every_row = false;
    std::vector<std::string> classes, except;
    if (t.empty()) {
      return Error("algorithm", absl::StrCat("empty selection; give \"all\" "
                                             "or selection keys: ",
                                             JoinNames(kSelectionKeys)));
    }
    for (const auto& [k, v] : t) {
      const std::string sk(k.str());
      const std::string key = absl::StrCat("algorithm.", sk);
      if (std::find(kSelectionKeys.begin(), kSelectionKeys.end(), sk) ==
          kSelectionKeys.end()) {
        return Error(key, absl::StrCat("unknown selection key; valid: ",
                                       JoinNames(kSelectionKeys)));
      }
      if (sk == "lookup_class") {
        if (absl::Status s = Strings(key, v, &classes); !s.ok()) return s;
        for (const std::string& c : classes) {
          if (std::find(std::begin(kLookupClasses), std::end(kLookupClasses),
                        c) == std::end(kLookupClasses)) {
            return Error(key, absl::StrCat("unknown value '", c, "'; valid: ",
                                           JoinNames(kLookupClasses)));
          }
        }
        continue;
      }
      if (sk == "except") {
        if (absl::Status s = Strings(key, v, &except); !s.ok()) return s;
        for (const std::string& a : except) {
          if (absl::Status s = CheckAlgorithmName(key, a); !s.ok()) return s;
        }
        continue;
      }
      if (!v.is_boolean()) return Error(key, "expected true or false");
      const bool value = *v.value<bool>();
      if (sk == "all") {
        if (!value) return Error(key, "value false; valid: true");
      } else if (sk == "hash_axis") {
        hash_axis = value;
      } else if (sk == "every_row") {
        every_row = value;
      } else {
        for (const CapabilityKey& c : kCapabilityKeys) {
          if (c.key == sk) capabilities.push_back({c.field, value});
        }
      }
    }
    out->clear();
    for (const AlgorithmInfo& info : algorithms_) {
      bool keep = std::all_of(
          capabilities.begin(), capabilities.end(),
          [&](const auto& c) { return info.capabilities.*c.first == c.second; });
      keep = keep && (info.in_sweeps || every_row);
      keep = keep && (!hash_axis || info.hash_axis == *hash_axis);
      keep = keep && (classes.empty() ||
                      std::find(classes.begin(), classes.end(),
                                info.lookup_class) != classes.end());
      keep = keep && std::find(except.begin(), except.end(), info.name) ==
                         except.end();
      if (keep) out->push_back(std::string(info.name));
    }
    if (out->empty()) {
      return Error("algorithm", "the selection matches no algorithm; valid: "
                                "a selection that keeps at least one of " +
                                    AllNamesIn(algorithms_));
    }
    return absl::OkStatus();
  }

  // Applies the keys of `t` (a block or a tier table) to `b`, each read
  // and checked as its row of the axis table says (kAxes, below).
  absl::Status Apply(const toml::table& t, bool allow_kind,
                     SweepBlock* b) const;

  // The readers of the axis table's shapes.
  absl::Status Read(const NamesAxis& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;
  absl::Status Read(const BlockText& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;
  absl::Status Read(const IntsAxis& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;
  absl::Status Read(const NumbersAxis& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;
  absl::Status Read(const IntValue& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;
  absl::Status Read(const NumberValue& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;
  absl::Status Read(const BoolValue& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;
  absl::Status Read(const CustomAxis& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;
  absl::Status Read(const TierTables& a, std::string_view key,
                    const toml::node& node, bool allow_kind,
                    SweepBlock* b) const;

  // The custom readers: `algorithm` (names, "all" or a selection) and
  // `weights` (one array of weights, or an array of them).
  absl::Status ReadAlgorithms(std::string_view key, const toml::node& node,
                              SweepBlock* b) const {
    (void)key;
    return Algorithms(node, &b->algorithm);
  }
  absl::Status ReadWeights(std::string_view key, const toml::node& node,
                           SweepBlock* b) const;

  absl::Status CheckKindAxes(const SweepBlock& b,
                             const KindSchema& schema) const;

  // A kind's own check (KindSchema::check): its error with the spec's path.
  absl::Status WithPath(const absl::Status& s) const {
    if (s.ok()) return s;
    return absl::InvalidArgumentError(absl::StrCat(path_, ": ", s.message()));
  }

  // Checks that the tier table names only known tiers.
  absl::Status CheckTiers(const toml::node* tiers) const {
    if (tiers == nullptr) return absl::OkStatus();
    const toml::table* t = tiers->as_table();
    if (t == nullptr) return Error("tiers", "expected a table");
    for (const auto& [k, v] : *t) {
      if (std::find(kTierNames.begin(), kTierNames.end(), k.str()) ==
          kTierNames.end()) {
        return Error("tiers", absl::StrCat("unknown value '", std::string(k.str()),
                                           "'; valid: ", JoinNames(kTierNames)));
      }
      if (!v.is_table()) return Error(k.str(), "expected a table");
    }
    return absl::OkStatus();
  }

  absl::Status CheckBlock(const SweepBlock& b) const {
    if (b.kind.empty()) {
      return Error("kind", absl::StrCat("missing; valid: ", KindSchemaNames()));
    }
    const KindSchema* schema = FindKindSchema(b.kind);
    if (schema == nullptr) {
      return Error("kind", absl::StrCat("unknown value '", b.kind,
                                        "'; valid: ", KindSchemaNames()));
    }
    if (absl::Status s = CheckKindAxes(b, *schema); !s.ok()) return s;
    if (schema->check != nullptr) {
      if (absl::Status s = WithPath(schema->check(b)); !s.ok()) return s;
    }
    if (schema->takes_algorithm && b.algorithm.empty() && b.preset.empty()) {
      return Error("algorithm", "missing");
    }
    // Presets in a kind that accepts them only with one scenario.
    if (!b.preset.empty() && !schema->presets_scenario.empty() &&
        !(b.scenario.size() == 1 &&
          b.scenario[0] == schema->presets_scenario)) {
      return Error("preset", kPresetsRefused);
    }
    if (schema->nodes == NodesFrom::kNodes && b.nodes.empty()) {
      return Error("nodes", "missing");
    }
    if (schema->nodes == NodesFrom::kWeights && b.weights.empty()) {
      return Error("weights", "missing");
    }
    if (schema->requires_scenario && b.scenario.empty()) {
      return Error("scenario", "missing");
    }
    if (schema->removal == RemovalAxis::kRequired) {
      if (b.removal.empty()) {
        return Error("removal", absl::StrCat("missing; valid: ",
                                             JoinNames(kRemovalOrders)));
      }
      if (b.removed_fraction.empty()) return Error("removed_fraction", "missing");
    }
    for (int64_t n : b.nodes) {
      if (n < schema->min_nodes) {
        return Error("nodes", absl::StrCat("value ", n, " out of range; ",
                                           b.kind, " needs >= ",
                                           schema->min_nodes, " nodes"));
      }
    }
    // Scenarios that only algorithms with a capability run (kinds/schema.cc:
    // the lookup scenarios): "weighted" needs weights, "replicas" replica
    // lists.
    struct ScenarioNeed {
      std::string_view scenario;
      bool (*able)(const AlgorithmInfo&);
      std::string_view refusal;
    };
    static constexpr ScenarioNeed kScenarioNeeds[] = {
        {"weighted",
         [](const AlgorithmInfo& i) { return i.capabilities.weights; },
         "it does not accept node weights"},
        {"replicas",
         [](const AlgorithmInfo& i) { return i.capabilities.replicas; },
         "it has no replica lists"}};
    for (const ScenarioNeed& need : kScenarioNeeds) {
      if (std::find(schema->scenarios.begin(), schema->scenarios.end(),
                    need.scenario) == schema->scenarios.end() ||
          std::find(b.scenario.begin(), b.scenario.end(), need.scenario) ==
              b.scenario.end()) {
        continue;
      }
      for (const std::string& a : b.algorithm) {
        const AlgorithmInfo* info = FindIn(algorithms_, a);
        if (info != nullptr && !need.able(*info)) {
          return Error("algorithm",
                       absl::StrCat("value '", a, "' with scenario '",
                                    std::string(need.scenario), "': ",
                                    std::string(need.refusal), "; valid: ",
                                    NamesIn(algorithms_, need.able)));
        }
      }
    }
    if (schema->removal == RemovalAxis::kOptional) {
      if (b.removal.empty() != b.removed_fraction.empty()) {
        return Error(b.removal.empty() ? "removal" : "removed_fraction",
                     "missing; 'removal' and 'removed_fraction' go together");
      }
      if (!b.removal.empty()) {
        for (const std::string& sc : b.scenario) {
          if (sc != "prehashed") {
            return Error("scenario", absl::StrCat(
                "value '", sc, "' with 'removal'; lookups after removals are "
                "timed on prehashed keys only; valid: prehashed"));
          }
        }
        if (b.scenario.empty()) {
          return Error("scenario", "missing; give scenario = [\"prehashed\"] "
                                   "with 'removal'");
        }
      }
    }
    const std::span<const std::string_view> valid = schema->scenarios;
    for (const std::string& sc : b.scenario) {
      if (std::find(valid.begin(), valid.end(), sc) == valid.end()) {
        return Error("scenario",
                     absl::StrCat("unknown value '", sc, "' for kind '", b.kind,
                                  "'; valid: ", JoinNames(valid)));
      }
    }
    const bool places = schema->places_keys;
    if (schema->timing) {
      const int64_t rounds = b.repetitions.value_or(kDefaultTimingRounds);
      if (rounds < kMinTimingRounds) {
        return Error("repetitions",
                     absl::StrCat("value ", rounds, " out of range for timing "
                                  "kind '", b.kind, "' (measurement rounds of "
                                  "one cell; a median and its spread need at "
                                  "least ", kMinTimingRounds, "); valid: ",
                                  Range(kMinTimingRounds, kMaxRepetitions)));
      }
    }
    // Node counts of the cells: `nodes`, or one node per weight.
    std::vector<int64_t> node_counts = b.nodes;
    for (const std::vector<double>& w : b.weights) {
      const int64_t n = static_cast<int64_t>(w.size());
      if (n > kMaxNodes) {
        return Error("weights", absl::StrCat(n, " weights (one node each) out "
                                             "of range; valid: ",
                                             Range(1, kMaxNodes), " nodes"));
      }
      node_counts.push_back(n);
    }
    // Key counts: keys_per_node x nodes, overflow-checked, <= 2^32.
    for (int64_t k : b.keys_per_node) {
      for (int64_t n : node_counts) {
        if (k > kMaxKeys / n) {
          return Error("keys_per_node",
                       absl::StrCat("value ", k, " x ", n, " nodes out of "
                                    "range; the key count must be in ",
                                    Range(1, kMaxKeys)));
        }
      }
    }
    std::vector<const AlgorithmInfo*> infos;
    for (const std::string& a : b.algorithm) {
      infos.push_back(FindIn(algorithms_, a));
    }
    // Per-algorithm limits of an integer axis (ParamInfo::max).
    for (const AlgorithmInfo* info : infos) {
      for (const auto& [param, axis] :
           {std::pair{"vnodes", &b.vnodes}, std::pair{"table_size", &b.table_size},
            std::pair{"probes", &b.probes}}) {
        const ParamInfo* pi = info->FindParameter(param);
        if (pi == nullptr || pi->max == 0) continue;
        for (int64_t v : *axis) {
          if (static_cast<uint64_t>(v) > pi->max) {
            return Error(param, absl::StrCat(
                "value ", v, " out of range for ", std::string(info->name), "; valid: ",
                Range(1, static_cast<int64_t>(pi->max))));
          }
        }
      }
    }
    for (const AlgorithmInfo* info : infos) {
      if (!info->capabilities.stateful) continue;
      if (places) {
        for (int64_t p : b.placed_keys_per_node) {
          for (int64_t n : node_counts) {
            if (p > kMaxKeys / n) {
              return Error("placed_keys_per_node",
                           absl::StrCat("value ", p, " x ", n, " nodes out of "
                                        "range; at most ", kMaxKeys,
                                        " placed keys"));
            }
          }
        }
      }
      if (std::all_of(b.hash.begin(), b.hash.end(), Is32BitHash)) {
        return Error("hash", absl::StrCat(
            "values '", absl::StrJoin(b.hash, "', '"), "' are 32-bit hashes; ",
            std::string(info->name), " refuses them (distinct keys with equal digests "
            "would be merged into one placed key) and drops them from a "
            "mixed hash axis, which leaves it no cell here; add a 64-bit "
            "hash (xxh64, xxh3, murmur3_128, md5, fnv1a)"));
      }
    }
    // Ring points: nodes x vnodes (x weight) within the ring's limits, for
    // the algorithms that read vnodes (rings).
    if (std::any_of(infos.begin(), infos.end(), [](const AlgorithmInfo* i) {
          return i->FindParameter("vnodes") != nullptr;
        })) {
      constexpr uint64_t kMaxPoints = Ring<Xxh64>::kMaxPoints;
      const std::vector<int64_t> vs =
          b.vnodes.empty()
              ? std::vector<int64_t>{int64_t{AlgorithmParams{}.vnodes}}
              : b.vnodes;
      for (int64_t v : vs) {
        for (int64_t n : b.nodes) {
          if (static_cast<uint64_t>(n) * static_cast<uint64_t>(v) >
              kMaxPoints) {
            return Error("vnodes", absl::StrCat(
                "value ", v, " x ", n, " nodes = ",
                static_cast<uint64_t>(n) * static_cast<uint64_t>(v),
                " ring points out of range; a ring holds at most ",
                kMaxPoints));
          }
        }
      }
    }
    // Weights an algorithm cannot represent (a ring weight below one point:
    // algorithms/ring/ring.h) are the block's error, before any cell runs:
    // each weighted algorithm builds each weight vector once per vnodes
    // value (one node per weight, default parameters otherwise).
    for (const AlgorithmInfo* info : infos) {
      if (!info->capabilities.weights || b.weights.empty()) continue;
      std::vector<int64_t> vs = {0};  // 0: the default
      if (info->FindParameter("vnodes") != nullptr && !b.vnodes.empty()) {
        vs = b.vnodes;
      }
      for (int64_t v : vs) {
        AlgorithmParams params;
        if (v > 0) params.vnodes = static_cast<uint32_t>(v);
        absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
            info->make(params);
        if (!algo.ok()) continue;  // the parameter checks above and below
        for (const std::vector<double>& w : b.weights) {
          std::vector<NodeSpec> nodes(w.size());
          for (size_t i = 0; i < w.size(); ++i) {
            nodes[i].name = absl::StrCat("node-", i);
            nodes[i].weight = w[i];
          }
          if (absl::Status st = (*algo)->Build(nodes);
              st.code() == absl::StatusCode::kInvalidArgument) {
            return Error("weights", std::string(st.message()));
          }
        }
      }
    }
    // Builds and prehashed lookups are timed with the default hash only,
    // and string-key lookups with other hashes for the hash-axis algorithms
    // only (bench/timing.h: a prehashed lookup hashes no key; the other
    // kernels are not compiled).
    if (schema->timing && schema->takes_algorithm && !b.algorithm.empty()) {
      const std::string def = AlgorithmParams{}.hash;
      const bool prehashed =
          schema->scenarios.empty() || b.scenario.empty() ||
          std::find_if(b.scenario.begin(), b.scenario.end(),
                       [](const std::string& sc) {
                         return sc == "prehashed" || sc == "weighted" ||
                                sc == "replicas";
                       }) != b.scenario.end();
      for (const std::string& h : b.hash) {
        if (h != def && !prehashed) {
          if (std::find(std::begin(kLookupTimedHashes),
                        std::end(kLookupTimedHashes),
                        h) == std::end(kLookupTimedHashes)) {
            return Error("hash", absl::StrCat("value '", h,
                                              "': lookups are timed with ",
                                              LookupTimedHashNames(),
                                              " only (bench/timing.h)"));
          }
          for (const std::string& a : b.algorithm) {
            const AlgorithmInfo* info = FindIn(algorithms_, a);
            if (info != nullptr && !info->hash_axis) {
              return Error("hash", absl::StrCat(
                  "value '", h, "' with algorithm '", a,
                  "': string-key lookups with hashes other than '", def,
                  "' are timed for ",
                  NamesIn(algorithms_,
                          [](const AlgorithmInfo& i) { return i.hash_axis; }),
                  " only (bench/timing.h)"));
            }
          }
        }
        if (h != def && prehashed) {
          return Error(
              "hash",
              absl::StrCat(
                  "value '", h, "' with kind '", b.kind, "'",
                  schema->scenarios.empty() ? "" : " and a prehashed scenario",
                  ": builds and prehashed lookups are timed with hash '", def,
                  "' only (a prehashed lookup hashes no key); time other "
                  "hashes "
                  "with scenario = [\"string\"]"));
        }
      }
    }
    if (schema->keys != KeysFrom::kNone &&
        b.keys.empty() == b.keys_per_node.empty()) {
      return Error("keys", "give exactly one of 'keys' and 'keys_per_node'");
    }
    if (!schema->timing) {
      for (const std::string& h : b.hash) {
        const HashInfo* info = FindHash(h);
        if (info != nullptr && !info->reproducible) {
          return Error("hash", absl::StrCat(
              "value '", h, "' is seeded per process and cannot be used "
              "where results must reproduce (kind '", b.kind,
              "'); use it in lookup, build or hash_speed only"));
        }
      }
    }
    for (int64_t m : b.table_size) {
      for (int64_t n : b.nodes) {
        if (m < n) {
          return Error("table_size", absl::StrCat(
              "value ", m, " out of range; must be >= nodes (", n, ")"));
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  std::string path_;
  std::span<const AlgorithmInfo> algorithms_;
};

bool KnownKind(const std::string& k) { return FindKindSchema(k) != nullptr; }
bool KnownPreset(const std::string& p) { return FindPreset(p) != nullptr; }
bool KnownHash(const std::string& h) { return FindHash(h) != nullptr; }
bool KnownKeySet(const std::string& k) { return FindKeySet(k) != nullptr; }
bool KnownRemovalOrder(const std::string& o) {
  return std::find(kRemovalOrders.begin(), kRemovalOrders.end(), o) !=
         kRemovalOrders.end();
}
std::string RemovalOrderNames() { return JoinNames(kRemovalOrders); }
bool KnownClusterMode(const std::string& m) {
  return std::find(kClusterModes.begin(), kClusterModes.end(), m) !=
         kClusterModes.end();
}
std::string ClusterModeNames() { return JoinNames(kClusterModes); }
bool KnownTopology(const std::string& t) {
  return std::find(kReplicaTopologies.begin(), kReplicaTopologies.end(), t) !=
         kReplicaTopologies.end();
}
std::string TopologyNames() { return JoinNames(kReplicaTopologies); }

std::string NotPrime(int64_t m) {
  if (IsPrime(static_cast<uint64_t>(m))) return "";
  return absl::StrCat("value ", m,
                      " out of range; Maglev table sizes must be prime (e.g. ",
                      NextPrime(m), ")");
}

// seed + repetition must stay a valid int64 seed.
constexpr int64_t kMaxSeed =
    std::numeric_limits<int64_t>::max() - kMaxRepetitions;

// "; cluster only": the cluster axes' note when another kind refuses them.
constexpr std::string_view kClusterOnly = "; cluster only";

// Every key a [[sweep]] block (or a tier table) may give, in the order the
// unknown-key error lists them.
const Axis kAxes[] = {
    {"kind", BlockText{&SweepBlock::kind, &KnownKind, &KindSchemaNames}},
    {"claim", BlockText{&SweepBlock::claim}},
    {"algorithm", CustomAxis{&Parser::ReadAlgorithms}, true},
    {"preset", NamesAxis{&SweepBlock::preset, &KnownPreset, &PresetNames}, true,
     "", kPresetsRefused},
    {"hash", NamesAxis{&SweepBlock::hash, &KnownHash, &HashNames}},
    {"keyset", NamesAxis{&SweepBlock::keyset, &KnownKeySet, &KeySetNames}},
    {"nodes",
     IntsAxis{&SweepBlock::nodes, 1, kMaxNodes,
              "a memory/time sanity cap; algorithms may have tighter limits"},
     true},
    {"vnodes", IntsAxis{&SweepBlock::vnodes, kRingMinVnodes, kRingMaxVnodes,
                        "ring's limit"}},
    {"table_size",
     IntsAxis{&SweepBlock::table_size, 2, maglev_internal::kMaxTableSize,
              "Maglev's largest table: the largest prime below 2^32",
              &NotPrime}},
    {"load_factor",
     NumbersAxis{&SweepBlock::load_factor,
                 [](double c) { return c > 1 && std::isfinite(c); },
                 "must be > 1 and finite"}},
    {"overprovision", NumbersAxis{&SweepBlock::overprovision,
                                  [](double x) { return x >= 1 && x <= 1024; },
                                  "valid: 1..1024 (capacity / nodes)"}},
    {"probes",
     IntsAxis{&SweepBlock::probes, 1, 1024, "multiprobe's probes per lookup"}},
    {"removal",
     NamesAxis{&SweepBlock::removal, &KnownRemovalOrder, &RemovalOrderNames},
     true, "; removal and lookup only"},
    {"removed_fraction",
     NumbersAxis{&SweepBlock::removed_fraction,
                 [](double f) { return f >= 0 && f <= 0.99; },
                 "valid: 0..0.99"},
     true, "; removal and lookup only"},
    {"keys", IntsAxis{&SweepBlock::keys, 1, kMaxKeys}, true},
    {"keys_per_node", IntsAxis{&SweepBlock::keys_per_node, 1, kMaxKeys}, true},
    {"placed_keys_per_node",
     IntsAxis{&SweepBlock::placed_keys_per_node, 0,
              std::numeric_limits<uint32_t>::max()},
     true, "; lookup, build and memory only"},
    // Its values depend on the kind: checked in CheckBlock.
    {"scenario", NamesAxis{&SweepBlock::scenario}, true},
    {"weights", CustomAxis{&Parser::ReadWeights}, true},
    {"repetitions", IntValue{.min = 1,
                             .max = kMaxRepetitions,
                             .optional_field = &SweepBlock::repetitions}},
    {"seed", IntValue{&SweepBlock::seed, 0, kMaxSeed}},
    {"min_time_s",
     NumberValue{&SweepBlock::min_time_s,
                 [](double t) { return t > 0 && t <= kMaxMinTimeS; },
                 "valid: (0, 60] seconds"}},  // 60: kMaxMinTimeS
    {"multithread", BoolValue{&SweepBlock::multithread}, true, "; lookup only"},
    {"batch",
     IntsAxis{&SweepBlock::batch, 1, kMaxLookupBatch,
              "keys per LookupBatch call; 1 = single-key lookups"},
     true, "; lookup only"},
    {"mode", NamesAxis{&SweepBlock::mode, &KnownClusterMode, &ClusterModeNames},
     true, kClusterOnly},
    {"zipf",
     NumbersAxis{&SweepBlock::zipf, [](double z) { return z >= 0 && z <= 10; },
                 "valid: 0..10"},
     true, kClusterOnly},
    {"requests", IntsAxis{&SweepBlock::requests, 2, int64_t{1} << 40}, true,
     kClusterOnly},
    {"cache_items",
     IntsAxis{&SweepBlock::cache_items, 0, kMaxKeys,
              "LRU keys per server; 0 = the universe"},
     true, kClusterOnly},
    {"stale_fraction",
     NumbersAxis{&SweepBlock::stale_fraction,
                 [](double f) { return f >= 0 && f <= 1; }, "valid: 0..1"},
     true, kClusterOnly},
    {"utilization",
     NumbersAxis{&SweepBlock::utilization,
                 [](double u) { return u > 0 && u <= 1; }, "valid: (0, 1]"},
     true, kClusterOnly},
    {"buckets", IntValue{&SweepBlock::buckets, 2, 100000}, true, kClusterOnly},
    {"clients", IntValue{&SweepBlock::clients, 1, 100000}, true, kClusterOnly},
    {"workers", IntValue{&SweepBlock::workers, 1, 64}, true, kClusterOnly},
    {"rate",
     NumberValue{&SweepBlock::rate, [](double r) { return r >= 0 && r <= 1e9; },
                 "valid: 0..1e9 requests/s (0: unpaced)"},
     true, kClusterOnly},
    {"db_delay_us", IntValue{&SweepBlock::db_delay_us, 0, 1000000}, true,
     kClusterOnly},
    {"replicas",
     IntsAxis{&SweepBlock::replicas, 1, kMaxReplicas,
              "replicas per key; at most the nodes"},
     true, "; replicas only"},
    {"topology",
     NamesAxis{&SweepBlock::topology, &KnownTopology, &TopologyNames}, true,
     "; replicas only"},
    {"enabled", BoolValue{&SweepBlock::enabled}},
    {"tiers", TierTables{}},
};

const Axis* FindAxis(std::string_view key) {
  for (const Axis& a : kAxes) {
    if (a.key == key) return &a;
  }
  return nullptr;
}

std::string AxisNames() {
  std::string out;
  for (const Axis& a : kAxes) {
    if (!out.empty()) out += ", ";
    out += a.key;
  }
  return out;
}

absl::Status Parser::Apply(const toml::table& t, bool allow_kind,
                           SweepBlock* b) const {
  for (const auto& entry : t) {
    const std::string key(entry.first.str());
    const toml::node& node = entry.second;
    const Axis* axis = FindAxis(key);
    if (axis == nullptr) {
      return Error(key, absl::StrCat("unknown key; valid: ", AxisNames()));
    }
    if (std::holds_alternative<TierTables>(axis->shape)) continue;
    b->set_keys.insert(key);
    absl::Status s = std::visit(
        [&](const auto& shape) {
          return Read(shape, key, node, allow_kind, b);
        },
        axis->shape);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Parser::Read(const NamesAxis& a, std::string_view key,
                          const toml::node& node, bool, SweepBlock* b) const {
  std::vector<std::string>& names = b->*a.field;
  if (absl::Status s = Strings(key, node, &names); !s.ok()) return s;
  for (const std::string& n : names) {
    if (a.known != nullptr && !a.known(n)) {
      return Error(key,
                   absl::StrCat("unknown value '", n, "'; valid: ", a.valid()));
    }
  }
  return absl::OkStatus();
}

absl::Status Parser::Read(const BlockText& a, std::string_view key,
                          const toml::node& node, bool allow_kind,
                          SweepBlock* b) const {
  if (!allow_kind) return Error(key, "cannot be overridden by a tier");
  std::string& text = b->*a.field;
  if (absl::Status s = Scalar(key, node, &text); !s.ok()) return s;
  if (a.known != nullptr && !a.known(text)) {
    return Error(
        key, absl::StrCat("unknown value '", text, "'; valid: ", a.valid()));
  }
  return absl::OkStatus();
}

absl::Status Parser::Read(const IntsAxis& a, std::string_view key,
                          const toml::node& node, bool, SweepBlock* b) const {
  std::vector<int64_t>& values = b->*a.field;
  if (absl::Status s = Ints(key, node, a.min, a.max, &values, a.why); !s.ok()) {
    return s;
  }
  for (int64_t v : values) {
    if (a.problem == nullptr) break;
    if (std::string problem = a.problem(v); !problem.empty()) {
      return Error(key, problem);
    }
  }
  return absl::OkStatus();
}

absl::Status Parser::Read(const NumbersAxis& a, std::string_view key,
                          const toml::node& node, bool, SweepBlock* b) const {
  std::vector<double>& values = b->*a.field;
  if (absl::Status s = Doubles(key, node, &values); !s.ok()) return s;
  for (double x : values) {
    if (!a.valid(x)) {
      return Error(key, absl::StrCat("value ", FormatNumber(x),
                                     " out of range; ", std::string(a.range)));
    }
  }
  return absl::OkStatus();
}

absl::Status Parser::Read(const IntValue& a, std::string_view key,
                          const toml::node& node, bool, SweepBlock* b) const {
  if (!node.is_integer()) return Error(key, "expected an integer");
  std::vector<int64_t> v;
  if (absl::Status s = Ints(key, node, a.min, a.max, &v); !s.ok()) return s;
  if (a.field != nullptr) {
    b->*a.field = v[0];
  } else {
    b->*a.optional_field = v[0];
  }
  return absl::OkStatus();
}

absl::Status Parser::Read(const NumberValue& a, std::string_view key,
                          const toml::node& node, bool, SweepBlock* b) const {
  if (!node.is_number()) return Error(key, "expected a number");
  const double x = *node.value<double>();
  if (!a.valid(x)) {
    return Error(key, absl::StrCat("value ", FormatNumber(x), " out of range; ",
                                   std::string(a.range)));
  }
  b->*a.field = x;
  return absl::OkStatus();
}

absl::Status Parser::Read(const BoolValue& a, std::string_view key,
                          const toml::node& node, bool, SweepBlock* b) const {
  if (!node.is_boolean()) return Error(key, "expected true or false");
  b->*a.field = *node.value<bool>();
  return absl::OkStatus();
}

absl::Status Parser::Read(const CustomAxis& a, std::string_view key,
                          const toml::node& node, bool, SweepBlock* b) const {
  return (this->*a.read)(key, node, b);
}

absl::Status Parser::Read(const TierTables&, std::string_view,
                          const toml::node&, bool, SweepBlock*) const {
  return absl::OkStatus();
}

absl::Status Parser::ReadWeights(std::string_view key, const toml::node& node,
                                 SweepBlock* b) const {
  b->weights.clear();
  const toml::array* arr = node.as_array();
  if (arr == nullptr) return Error(key, "expected an array of numbers");
  const bool nested = !arr->empty() && (*arr)[0].is_array();
  std::vector<const toml::node*> rows;
  if (nested) {
    for (const toml::node& e : *arr) rows.push_back(&e);
  } else {
    rows.push_back(&node);
  }
  for (const toml::node* row : rows) {
    std::vector<double> w;
    if (!row->is_array()) return Error(key, "expected arrays of numbers");
    if (absl::Status s = Doubles(key, *row, &w); !s.ok()) return s;
    for (double x : w) {
      if (!(x > 0 && std::isfinite(x))) {
        return Error(key, absl::StrCat("value ", FormatNumber(x),
                                       " out of range; weights must be "
                                       "finite and > 0"));
      }
    }
    b->weights.push_back(std::move(w));
  }
  if (b->weights.empty()) {
    return Error(key, "empty axis; give at least one value");
  }
  return absl::OkStatus();
}

// The keys that only some kinds accept, in table order, each refused as
// its row and the kind's row say.
absl::Status Parser::CheckKindAxes(const SweepBlock& b,
                                   const KindSchema& schema) const {
  for (const Axis& axis : kAxes) {
    if (!axis.kind_axis || schema.Accepts(axis.key) ||
        !b.set_keys.count(std::string(axis.key))) {
      continue;
    }
    if (!axis.refused.empty()) return Error(axis.key, axis.refused);
    return Error(axis.key, absl::StrCat("not used by kind '", b.kind, "'",
                                        std::string(schema.RefusalNote(
                                            axis.key, axis.not_used_note))));
  }
  return absl::OkStatus();
}

}  // namespace

bool IsKindAxis(std::string_view key) {
  const Axis* axis = FindAxis(key);
  return axis != nullptr && axis->kind_axis;
}

namespace {

// One combination of the cluster kind's own axes (a single empty one for
// the other kinds): stale_fraction only for stale_view, utilization only for
// cascade, the LRU capacity only for the simulation.
struct ClusterCombo {
  std::string mode;
  std::optional<double> zipf;
  uint64_t requests = 0, cache_items = 0;
  std::optional<double> stale_fraction, utilization;
};

// Stops after kMaxCells + 1 combinations (each gives at least one cell).
std::vector<ClusterCombo> ClusterCombos(const SweepBlock& b,
                                        std::string_view sc) {
  const KindSchema* schema = FindKindSchema(b.kind);
  if (schema == nullptr || !schema->cluster_axes) return {ClusterCombo{}};
  const std::vector<std::string> modes =
      b.mode.empty() ? std::vector<std::string>{"sim"} : b.mode;
  const std::vector<double> zipfs =
      b.zipf.empty() ? std::vector<double>{0.99} : b.zipf;
  const std::vector<int64_t> caches =
      b.cache_items.empty() ? std::vector<int64_t>{0} : b.cache_items;
  std::vector<std::optional<double>> stale = {std::nullopt};
  if (sc == "stale_view") {
    stale.clear();
    if (b.stale_fraction.empty()) stale.push_back(0.25);
    for (double f : b.stale_fraction) stale.push_back(f);
  }
  std::vector<std::optional<double>> util = {std::nullopt};
  if (sc == "cascade" || sc == "cascade_mean") {
    util.clear();
    if (b.utilization.empty()) util.push_back(0.8);
    for (double u : b.utilization) util.push_back(u);
  }
  std::vector<ClusterCombo> out;
  for (const std::string& m : modes) {
    for (double z : zipfs) {
      for (int64_t r : b.requests) {
        for (int64_t c : caches) {
          if (m == "memcached" && c != caches.front()) continue;
          for (const auto& f : stale) {
            for (const auto& u : util) {
              if (out.size() > kMaxCells) return out;
              out.push_back(ClusterCombo{
                  m, z, static_cast<uint64_t>(r),
                  m == "memcached" ? 0 : static_cast<uint64_t>(c), f, u});
            }
          }
        }
      }
    }
  }
  return out;
}

// The values of the AlgorithmParams field `param` for an algorithm's cells:
// none ({nullopt}) when `info` does not read it; else the axis' values, or
// when the axis is not given the default, `info`'s effective value for `n`
// nodes when it has one, else `field_default` (AlgorithmParams{}'s).
template <typename T, typename V>
std::vector<std::optional<T>> ParamAxis(const AlgorithmInfo* info,
                                        std::string_view param,
                                        const std::vector<V>& axis,
                                        T field_default, uint32_t n) {
  const ParamInfo* p = info == nullptr ? nullptr : info->FindParameter(param);
  if (p == nullptr) return {std::nullopt};
  std::vector<std::optional<T>> out;
  if (axis.empty()) {
    out.push_back(p->effective != nullptr ? static_cast<T>(p->effective(n))
                                          : field_default);
  }
  for (V v : axis) out.push_back(static_cast<T>(v));
  return out;
}

// Appends the block's cells; false, leaving the cells so far, as soon as the
// tier would have more than kMaxCells.
bool Expand(const SweepBlock& b, std::string_view experiment,
            std::string_view tier, std::span<const AlgorithmInfo> algorithms,
            std::vector<Cell>* cells) {
  const KindSchema* schema = FindKindSchema(b.kind);
  if (schema == nullptr) return true;  // CheckBlock refuses it
  const bool timing = schema->timing;
  const bool places = schema->places_keys;
  std::vector<std::string> algs =
      schema->takes_algorithm ? b.algorithm : std::vector<std::string>{""};
  if (schema->takes_algorithm) {
    algs.insert(algs.end(), b.preset.begin(), b.preset.end());
  }
  std::vector<int64_t> nodes = b.nodes;
  // From weights, or none.
  if (schema->nodes != NodesFrom::kNodes) nodes = {0};
  std::vector<std::vector<double>> weights = b.weights;
  if (weights.empty()) weights = {{}};
  std::vector<std::string> scenarios = b.scenario;
  if (scenarios.empty()) {
    scenarios.assign(schema->default_scenarios.begin(),
                     schema->default_scenarios.end());
  }
  if (scenarios.empty()) scenarios = {""};
  // The replicas kind's axes (one empty value for the other kinds).
  std::vector<int64_t> replica_axis = b.replicas;
  if (replica_axis.empty()) replica_axis = {0};
  std::vector<std::string> topologies = b.topology;
  if (topologies.empty()) topologies = {""};
  // The lookup kind's batch axis (1: single-key lookups; the other kinds
  // refuse the key).
  std::vector<int64_t> batch_axis = b.batch;
  if (batch_axis.empty()) batch_axis = {1};
  const bool per_node = !b.keys_per_node.empty();
  std::vector<int64_t> key_axis = per_node ? b.keys_per_node : b.keys;
  if (key_axis.empty()) key_axis = {0};  // memory
  // Timing kinds: one cell per configuration, measured `rounds` times at
  // `seed`; other kinds: one cell per repetition, at seed + repetition.
  const int64_t reps = timing ? 1 : b.repetitions.value_or(1);
  const uint32_t rounds = timing ? static_cast<uint32_t>(b.repetitions.value_or(
                                       kDefaultTimingRounds))
                                 : 0;
  (void)tier;
  for (const std::string& alg : algs) {
    // nullptr for presets and hash_speed's empty algorithm.
    const AlgorithmInfo* info = FindIn(algorithms, alg);
    const bool stateful = info != nullptr && info->capabilities.stateful;
    for (const std::string& hash : b.hash) {
      // Stateful algorithms refuse 32-bit hashes (CheckBlock keeps one
      // other).
      if (stateful && Is32BitHash(hash)) continue;
      for (const std::string& keyset : b.keyset) {
        for (int64_t n0 : nodes) {
          for (const std::vector<double>& w : weights) {
            const uint32_t n = schema->nodes == NodesFrom::kWeights
                                   ? static_cast<uint32_t>(w.size())
                                   : static_cast<uint32_t>(n0);
            // A parameter the algorithm reads gets a cell per value of its
            // axis, or its default: AlgorithmParams{}'s field, or the value
            // the row says the algorithm uses for N nodes.
            const AlgorithmParams defaults;
            const std::vector<std::optional<uint32_t>> vn =
                ParamAxis<uint32_t>(info, "vnodes", b.vnodes, defaults.vnodes,
                                    n);
            const std::vector<std::optional<uint64_t>> ts =
                ParamAxis<uint64_t>(info, "table_size", b.table_size,
                                    defaults.table_size, n);
            const std::vector<std::optional<double>> lf = ParamAxis<double>(
                info, "load_factor", b.load_factor, defaults.load_factor, n);
            // Placed keys per node: stateful algorithms, in the kinds that
            // place keys.
            std::vector<uint32_t> placed = {0};
            if (stateful && places) {
              placed.clear();
              if (b.placed_keys_per_node.empty()) placed.push_back(100);
              for (int64_t p : b.placed_keys_per_node) {
                placed.push_back(static_cast<uint32_t>(p));
              }
            }
            // anchor, dx: capacity from overprovision (default: theirs).
            std::vector<std::optional<uint64_t>> cap = {std::nullopt};
            if (ReadsParam(algorithms, alg, "capacity") && !b.overprovision.empty()) {
              cap.clear();
              for (double x : b.overprovision) {
                cap.push_back(static_cast<uint64_t>(
                    std::ceil(x * static_cast<double>(n) - 1e-9)));
              }
            }
            const std::vector<std::optional<uint32_t>> pr =
                ParamAxis<uint32_t>(info, "probes", b.probes, defaults.probes,
                                    n);
            // Removal states (order, removed count), without duplicates;
            // only the last node can leave a range hash: lifo only.
            std::vector<std::pair<std::string, uint32_t>> rem = {{"", 0}};
            if (!b.removal.empty()) {
              rem.clear();
              const bool arbitrary =
                  info != nullptr && info->capabilities.arbitrary_removal;
              std::set<std::pair<std::string, uint32_t>> seen;
              for (const std::string& o : b.removal) {
                if (!arbitrary && o != "lifo") continue;
                for (double f : b.removed_fraction) {
                  const std::pair<std::string, uint32_t> st = {
                      o, RemovedCount(n, f)};
                  if (seen.insert(st).second) rem.push_back(st);
                }
              }
            }
            for (const auto& v : vn) {
              for (const auto& t : ts) {
                for (const auto& c : lf) {
                  for (const auto& a : cap) {
                  for (const auto& q : pr) {
                  for (const auto& [order, removed] : rem) {
                  for (uint32_t p : placed) {
                    for (int64_t k : key_axis) {
                      for (const std::string& sc : scenarios) {
                        for (const ClusterCombo& cc : ClusterCombos(b, sc)) {
                        for (int64_t rf : replica_axis) {
                        for (const std::string& topo : topologies) {
                        for (int64_t bt : batch_axis) {
                        for (int64_t r = 0; r < reps; ++r) {
                          if (cells->size() >= kMaxCells) return false;
                          Cell cell;
                          cell.experiment = std::string(experiment);
                          cell.kind = b.kind;
                          cell.claim = b.claim;
                          cell.algorithm = alg;
                          cell.hash = hash;
                          cell.keyset = keyset;
                          cell.nodes = n;
                          cell.vnodes = v;
                          cell.table_size = t;
                          cell.load_factor = c;
                          cell.capacity = a;
                          cell.probes = q;
                          cell.removal = order;
                          cell.removed = removed;
                          // Both factors are bounded by CheckBlock, so the
                          // product is <= 2^32.
                          cell.keys = per_node ? static_cast<uint64_t>(k) * n
                                               : static_cast<uint64_t>(k);
                          cell.scenario = sc;
                          cell.weights = w;
                          cell.seed = static_cast<uint64_t>(b.seed + r);
                          cell.repetition = static_cast<uint32_t>(r);
                          cell.min_time_s = b.min_time_s;
                          cell.rounds = rounds;
                          cell.placed_keys_per_node = p;
                          cell.batch = static_cast<uint32_t>(bt);
                          // Multi-thread rates: lookups_per_s on a
                          // single-key cell, batch_lookups_per_s on a
                          // batched one.
                          cell.multithread =
                              b.multithread && sc == "prehashed";
                          if (schema->cluster_axes) {
                            cell.mode = cc.mode;
                            cell.zipf = cc.zipf;
                            cell.requests = cc.requests;
                            cell.cache_items = cc.cache_items;
                            cell.stale_fraction = cc.stale_fraction;
                            cell.utilization = cc.utilization;
                            cell.buckets = static_cast<uint32_t>(b.buckets);
                            cell.clients = static_cast<uint32_t>(b.clients);
                            cell.workers = static_cast<uint32_t>(b.workers);
                            cell.db_delay_us =
                                static_cast<uint32_t>(b.db_delay_us);
                            cell.rate = b.rate;
                          }
                          cell.replicas = static_cast<uint32_t>(rf);
                          cell.topology = topo;
                          cells->push_back(std::move(cell));
                        }
                        }
                        }
                        }
                        }
                      }
                    }
                  }
                  }
                  }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return true;
}

}  // namespace

// Refuses, before toml++ sees it, spec text with a non-ASCII byte (a UTF-8
// byte-order mark at the start excepted). toml++ 3.3.0 (Debian 12's
// libtomlplusplus) has undefined behaviour when it asks whether some
// non-ASCII characters are whitespace (is_non_ascii_horizontal_whitespace
// reaches an unreachable switch default for most of U+00A1..U+0499 and
// U+FB36..U+FEFE: marzer/tomlplusplus#190 and #295), and it asks that in many
// places: between tokens, at the end of every number, boolean or date, while
// scanning a value that starts like a number (`+"..."`, through quotes),
// and after a backslash in a multi-line string. Found by
// fuzz/spec_fuzzer.cc, first between tokens, then inside a string that a
// lexer of strings and comments took as safe. ASCII-only specs cannot reach
// it; strings can still hold any character as \uXXXX. Errors read like
// toml++'s: "<path>:<line>:<column>: TOML syntax error: ...".
absl::Status CheckSpecIsAscii(std::string_view text, std::string_view path) {
  size_t start = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a BOM
  size_t line = 1, column = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80 && i >= start) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s:%d:%d: TOML syntax error: non-ASCII byte 0x%02X; spec files "
          "are ASCII (the TOML parser, toml++ 3.3.0, misreads some non-ASCII "
          "text): write other characters in strings as \\uXXXX",
          std::string(path), line, column, c));
    }
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Spec> ParseSpec(std::string_view text,
                               std::string_view display_path,
                               std::string_view experiment,
                               std::string_view tier,
                               std::span<const AlgorithmInfo> algorithms) {
  Parser p(display_path, algorithms);
  if (std::find(kTierNames.begin(), kTierNames.end(), tier) ==
      kTierNames.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown tier '", std::string(tier), "'; valid tiers: ", JoinNames(kTierNames)));
  }
  if (absl::Status s = CheckSpecIsAscii(text, display_path); !s.ok()) {
    return s;
  }
  toml::table root;
  try {
    root = toml::parse(text, display_path);
  } catch (const toml::parse_error& e) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(display_path), ":", e.source().begin.line, ":",
        e.source().begin.column,
        ": TOML syntax error: ", std::string(e.description())));
  }
  Spec spec;
  spec.experiment = std::string(experiment);
  spec.display_path = std::string(display_path);
  spec.tier = std::string(tier);
  const std::string salted = absl::StrCat(std::string(text), std::string(1, '\0'),
                                          std::string(tier));
  spec.hash = Fnv1a64(salted);
  spec.run_id = absl::StrFormat("%s-%08x", std::string(tier),
                                static_cast<uint32_t>(spec.hash >> 32));
  for (const auto& [k, node] : root) {
    const std::string key(k.str());
    if (key != "description" && key != "sweep" && key != "tiers") {
      return p.Error(key, "unknown key; valid: description, sweep, tiers");
    }
  }
  if (const toml::node* d = root.get("description")) {
    if (absl::Status s = p.Scalar("description", *d, &spec.description);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = p.CheckTiers(root.get("tiers")); !s.ok()) return s;
  const toml::array* sweep =
      root.get("sweep") ? root.get("sweep")->as_array() : nullptr;
  if (sweep == nullptr || sweep->empty()) {
    return p.Error("sweep", "missing; give at least one [[sweep]] block");
  }
  std::set<uint64_t> seeds;
  // Every tier is validated; the requested one is expanded.
  for (std::string_view t : kTierNames) {
    std::vector<Cell> cells;
    for (const toml::node& bn : *sweep) {
      const toml::table* bt = bn.as_table();
      if (bt == nullptr) return p.Error("sweep", "expected [[sweep]] tables");
      SweepBlock b;
      if (absl::Status s = p.Apply(*bt, true, &b); !s.ok()) return s;
      const toml::node* bt_tiers = bt->get("tiers");
      if (absl::Status s = p.CheckTiers(bt_tiers); !s.ok()) return s;
      if (const toml::node* g = root.at_path(absl::StrCat("tiers.", std::string(t))).node()) {
        if (absl::Status s = p.Apply(*g->as_table(), false, &b); !s.ok()) {
          return s;
        }
      }
      if (bt_tiers != nullptr) {
        if (const toml::node* o = bt_tiers->as_table()->get(t)) {
          if (absl::Status s = p.Apply(*o->as_table(), false, &b); !s.ok()) {
            return s;
          }
        }
      }
      if (absl::Status s = p.CheckBlock(b); !s.ok()) return s;
      if (t == tier && b.enabled && !Expand(b, experiment, tier, algorithms, &cells)) {
        return p.Error(
            "sweep",
            absl::StrCat("tier '", std::string(tier), "' expands to more than ",
                         kMaxCells, " cells (the product of each block's axes "
                         "and repetitions, summed over the blocks); valid: "
                         "1..", kMaxCells, " cells per tier: shorten the "
                         "axes or split the experiment"));
      }
    }
    if (t != tier) continue;
    std::set<std::string> names;
    for (Cell& c : cells) {
      if (names.insert(c.Name()).second) {
        seeds.insert(c.seed);
        spec.cells.push_back(std::move(c));
      }
    }
  }
  spec.seeds.assign(seeds.begin(), seeds.end());
  return spec;
}

absl::StatusOr<Spec> LoadSpec(const std::string& path,
                              std::string_view display_path,
                              std::string_view experiment,
                              std::string_view tier,
                              std::span<const AlgorithmInfo> algorithms) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    return absl::NotFoundError(absl::StrCat(
        "cannot read spec ", path, " for experiment '", std::string(experiment), "'"));
  }
  return ParseSpec(*text, display_path, experiment, tier, algorithms);
}

}  // namespace chbench
