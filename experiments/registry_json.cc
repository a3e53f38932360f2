// Copyright 2026 The chbench Authors.

#include "experiments/registry_json.h"

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "algorithms/util/json.h"
#include "bench/peers/peers.h"
#include "experiments/csv.h"
#include "experiments/metric_registry.h"
#include "experiments/paths.h"
#include "experiments/spec.h"
#include "toml++/toml.h"
#include "workload/keyset.h"

namespace chbench {
namespace {

const char* Bool(bool b) { return b ? "true" : "false"; }

// "description" of <spec_dir>/<name>.toml, or "" (also for a file that
// ParseSpec would refuse as non-ASCII: CheckSpecIsAscii).
std::string SpecDescription(const std::string& spec_dir,
                            std::string_view name) {
  const std::string path = spec_dir + "/" + std::string(name) + ".toml";
  const absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok() || !CheckSpecIsAscii(*text, path).ok()) return "";
  try {
    const toml::table root = toml::parse(*text, path);
    if (std::optional<std::string> d =
            root["description"].value<std::string>()) {
      return *d;
    }
  } catch (const toml::parse_error&) {
  }
  return "";
}

// `name: [\n    e0,\n    e1\n  ]` from already formatted elements.
std::string Array(std::string_view name, const std::vector<std::string>& els,
                  bool last) {
  std::string out = "  " + JsonString(name) + ": [";
  for (size_t i = 0; i < els.size(); ++i) {
    out += i == 0 ? "\n    " : ",\n    ";
    out += els[i];
  }
  out += els.empty() ? "]" : "\n  ]";
  out += last ? "\n" : ",\n";
  return out;
}

}  // namespace

std::string RegistryJson() { return RegistryJson(DefaultSpecDir()); }

std::string RegistryJson(const std::string& spec_dir,
                         std::span<const AlgorithmInfo> algorithms) {
  std::string out = "{\n";

  std::vector<std::string> els;
  for (const AlgorithmInfo& a : algorithms) {
    std::string params;
    for (const ParamInfo& param : a.parameters) {
      const std::string_view p = param.name;
      if (!params.empty()) params += ", ";
      params += JsonString(p);
    }
    const Capabilities& c = a.capabilities;
    els.push_back(absl::StrFormat(
        "{\"name\": %s, \"description\": %s, \"citation\": %s, "
        "\"lookup_complexity\": %s, \"lookup_class\": %s, "
        "\"capabilities\": {\"arbitrary_removal\": %s, "
        "\"minimal_disruption\": %s, \"weights\": %s, \"replicas\": %s, "
        "\"stateful\": %s, \"history_dependent\": %s}, \"parameters\": [%s], "
        "\"in_sweeps\": %s, \"bounds_loads_of\": %s, "
        "\"accepts_crush_map\": %s, \"golden\": \"0x%016x\"}",
        JsonString(a.name), JsonString(a.description), JsonString(a.citation),
        JsonString(a.lookup_complexity), JsonString(a.lookup_class),
        Bool(c.arbitrary_removal), Bool(c.minimal_disruption),
        Bool(c.weights), Bool(c.replicas), Bool(c.stateful),
        Bool(c.history_dependent), params, Bool(a.in_sweeps),
        JsonString(a.bounds_loads_of), Bool(a.accepts_crush_map),
        a.golden()));
  }
  out += Array("algorithms", els, false);

  els.clear();
  for (const HashInfo& h : HashFunctions()) {
    els.push_back(absl::StrFormat(
        "{\"name\": %s, \"description\": %s, \"bits\": %d, "
        "\"reproducible\": %s}",
        JsonString(h.name), JsonString(h.description), h.bits,
        Bool(h.reproducible)));
  }
  out += Array("hashes", els, false);

  els.clear();
  for (const HashInfo& h : PresetHashFunctions()) {
    els.push_back(absl::StrFormat(
        "{\"name\": %s, \"description\": %s, \"bits\": %d, "
        "\"verification\": \"0x%08X\"}",
        JsonString(h.name), JsonString(h.description), h.bits, h.verification));
  }
  out += Array("preset_hashes", els, false);

  els.clear();
  for (const PresetInfo& p : Presets()) {
    auto made = p.make({});
    const Capabilities c =
        made.ok() ? (*made)->capabilities() : Capabilities{};
    els.push_back(absl::StrFormat(
        "{\"name\": %s, \"system\": %s, \"version\": %s, \"source\": %s, "
        "\"description\": %s, \"verified\": %s, \"key_hash\": %s, "
        "\"search\": %s, \"max_servers\": %d, \"capabilities\": "
        "{\"arbitrary_removal\": %s, \"minimal_disruption\": %s, "
        "\"weights\": %s, \"history_dependent\": %s}, "
        "\"golden\": \"0x%016x\"}",
        JsonString(p.name), JsonString(p.system), JsonString(p.version),
        JsonString(p.source), JsonString(p.description), JsonString(p.verified),
        JsonString(p.key_hash), JsonString(p.search), p.max_servers,
        Bool(c.arbitrary_removal), Bool(c.minimal_disruption),
        Bool(c.weights), Bool(c.history_dependent), p.golden));
  }
  out += Array("presets", els, false);

  els.clear();
  for (const KeySetInfo& k : KeySets()) {
    els.push_back(absl::StrFormat("{\"name\": %s, \"description\": %s}",
                                  JsonString(k.name),
                                  JsonString(k.description)));
  }
  out += Array("keysets", els, false);

  els.clear();
  for (std::string_view e : kExperimentNames) {
    els.push_back(absl::StrFormat(
        "{\"name\": %s, \"description\": %s}", JsonString(e),
        JsonString(SpecDescription(spec_dir, e))));
  }
  out += Array("experiments", els, false);

  els.clear();
  // A bound of the metric's range (RangeOfMetric): a number, or null when
  // unbounded on that side.
  auto bound = [](double b) {
    return std::isfinite(b) ? absl::StrFormat("%.17g", b) : "null";
  };
  for (const MetricInfo& m : Metrics()) {
    const MetricRange range = RangeOfMetric(m.name);
    els.push_back(absl::StrFormat(
        "{\"name\": %s, \"unit\": %s, \"better\": %s, \"timing\": %s, "
        "\"range\": [%s, %s], \"description\": %s}",
        JsonString(m.name), JsonString(m.unit), JsonString(m.better),
        Bool(m.timing), bound(range.lower), bound(range.upper),
        JsonString(m.description)));
  }
  out += Array("metrics", els, false);

  els.clear();
  for (const peers::PeerInfo& p : peers::Peers()) {
    els.push_back(absl::StrFormat(
        "{\"name\": %s, \"base\": %s, \"description\": %s, \"source\": %s}",
        JsonString(p.name), JsonString(p.base), JsonString(p.description),
        JsonString(p.source)));
  }
  out += Array("peers", els, true);

  return out + "}\n";
}

}  // namespace chbench
