// Copyright 2026 The chbench Authors.

#include "experiments/cli/map_input.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/presets/preset.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "algorithms/topology.h"
#include "experiments/cli/cli_util.h"

namespace chbench::cli {
namespace {

absl::Status Invalid(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

bool Reads(const AlgorithmInfo& info, std::string_view param) {
  return info.FindParameter(param) != nullptr;
}

// "cassandra, npm_hashring, ...": the presets with replicas (an instance of
// each, with default options, says).
std::string PresetsWithReplicas() {
  std::vector<std::string> names;
  for (const PresetInfo& p : Presets()) {
    absl::StatusOr<std::unique_ptr<ConsistentHash>> made = p.make({});
    if (made.ok() && (*made)->capabilities().replicas) {
      names.emplace_back(p.name);
    }
  }
  return names.empty() ? std::string("(none)") : absl::StrJoin(names, ", ");
}

absl::Status ConfigurePreset(const MapFlags& flags, MapConfig* config) {
  if (FindPreset(flags.preset.value) == nullptr) {
    return Invalid(absl::StrCat("unknown preset '", Excerpt(flags.preset.value),
                                "'; valid presets: ", PresetNames(),
                                ", ceph (with --crush-map FILE)"));
  }
  const std::pair<const MapFlag*, const char*> conflicts[] = {
      {&flags.algorithm, "--algorithm"},
      {&flags.nodes, "--nodes"},
      {&flags.node_names, "--node-names"},
      {&flags.vnodes, "--vnodes"},
      {&flags.hash, "--hash"},
      {&flags.table_size, "--table-size"},
      {&flags.load_factor, "--load-factor"},
      {&flags.weights, "--weights"},
      {&flags.zones, "--zones"},
      {&flags.zone_level, "--zone-level"},
      {&flags.capacity, "--capacity"},
      {&flags.probes, "--probes"}};
  for (const auto& [flag, name] : conflicts) {
    if (flag->given) {
      return Invalid(absl::StrCat(
          name,
          " does not apply to --preset (a preset fixes its system's "
          "configuration); give servers with --servers host:port[:weight],... "
          "or --topology FILE and system options with --preset-options"));
    }
  }
  if (flags.servers.given && flags.topology.given) {
    return Invalid(
        "--servers and --topology both give the servers; give one of them");
  }
  if (!flags.servers.given && !flags.topology.given) {
    return Invalid(absl::StrCat("--preset ", flags.preset.value,
                                " needs --servers host:port[:weight],... or "
                                "--topology FILE"));
  }
  if (flags.topology.given) {
    absl::StatusOr<std::vector<NodeSpec>> nodes =
        ReadTopologyFile(flags.topology.value);
    if (!nodes.ok()) {
      return Invalid(
          absl::StrCat("invalid --topology: ", nodes.status().message()));
    }
    if (nodes->size() > kMapMaxNodes) {
      return Invalid(absl::StrCat("--topology lists ", nodes->size(),
                                  " servers; at most ", kMapMaxNodes));
    }
    config->nodes = *std::move(nodes);
  } else if (absl::Status s = ParseServers(flags.servers.value, &config->nodes);
             !s.ok()) {
    return s;
  }
  // Options are validated by the factory (unknown names, bad values).
  absl::StatusOr<std::unique_ptr<ConsistentHash>> probe =
      MakePreset(flags.preset.value, flags.preset_options.value);
  if (!probe.ok()) return Invalid(std::string(probe.status().message()));
  // --replicas: 1..servers, a preset whose system has preference lists, and
  // the count its configuration fixes (Cassandra NetworkTopologyStrategy).
  const uint64_t n = config->nodes.size();
  uint64_t r = 0;
  if (!ParseDecimalU64(flags.replicas.value, &r) || r == 0 || r > n) {
    return Invalid(absl::StrCat(
        "invalid --replicas '", Excerpt(flags.replicas.value),
        "'; expected an integer in 1..", n, " (the number of servers)"));
  }
  if (r > 1 && !(*probe)->capabilities().replicas) {
    return Invalid(
        absl::StrCat(flags.preset.value, " does not support --replicas ", r,
                     "; presets with replicas: ", PresetsWithReplicas()));
  }
  if (const auto* preset = dynamic_cast<const Preset*>(probe->get());
      preset != nullptr) {
    if (absl::Status s = preset->CheckFixedReplicaCount(r); !s.ok()) {
      return Invalid(absl::StrCat("invalid --replicas '", flags.replicas.value,
                                  "': ", s.message()));
    }
  }
  config->replicas = static_cast<size_t>(r);
  config->preset = flags.preset.value;
  config->preset_options = flags.preset_options.value;
  config->algorithm = flags.preset.value;
  if (absl::Status s = ParseKeyFormat(flags.key_format.value, config); !s.ok()) {
    return s;
  }
  if (flags.remove.given) {
    for (const std::string& name :
         std::vector<std::string>(absl::StrSplit(flags.remove.value, ','))) {
      config->remove.push_back(name);
    }
    // Unknown names fail at the removal itself; removing every server must
    // fail here (found by map_input_fuzzer: the lookup of the first key on
    // no server was an internal error, exit 1, after printing the key).
    std::set<std::string_view> servers, removed;
    for (const NodeSpec& s : config->nodes) servers.insert(s.name);
    for (const std::string& name : config->remove) {
      if (servers.count(name) != 0) removed.insert(name);
    }
    if (removed.size() == servers.size()) {
      return Invalid(absl::StrCat("invalid --remove: removes all ",
                                  servers.size(), " server",
                                  servers.size() == 1 ? "" : "s",
                                  "; at least one must stay live"));
    }
    const uint64_t left = servers.size() - removed.size();
    if (config->replicas > left) {
      return Invalid(absl::StrCat(
          "invalid --replicas '", Excerpt(flags.replicas.value),
          "': more than the ", left, " server", left == 1 ? "" : "s",
          " left after --remove; expected an integer in 1..", left));
    }
  }
  return absl::OkStatus();
}

// --crush-map FILE with --algorithm crush or --preset ceph (CrushMapping in
// map_input.h). The map is read and parsed here, so that a bad map, rule or
// option is reported before any key is read.
absl::Status ConfigureCrushMap(const MapFlags& flags, MapConfig* config) {
  const bool ceph = flags.preset.given;
  const std::string form =
      ceph ? "--preset ceph" : "--algorithm crush --crush-map";
  const AlgorithmInfo* info =
      flags.algorithm.given ? FindAlgorithm(flags.algorithm.value) : nullptr;
  if (ceph ? flags.preset.value != "ceph"
           : info == nullptr || !info->accepts_crush_map) {
    std::string takers;
    for (const AlgorithmInfo& a : Algorithms()) {
      if (a.accepts_crush_map) {
        takers.append("--algorithm ").append(a.name).append(" and ");
      }
    }
    return Invalid(absl::StrCat(
        "--crush-map applies to ", takers, "--preset ceph only; got ",
        ceph ? "--preset " : "--algorithm ",
        Excerpt(ceph ? flags.preset.value : flags.algorithm.value)));
  }
  if (ceph && flags.algorithm.given) {
    return Invalid("give one of --algorithm crush and --preset ceph");
  }
  const std::pair<const MapFlag*, const char*> conflicts[] = {
      {&flags.nodes, "--nodes"},
      {&flags.node_names, "--node-names"},
      {&flags.vnodes, "--vnodes"},
      {&flags.hash, "--hash"},
      {&flags.table_size, "--table-size"},
      {&flags.load_factor, "--load-factor"},
      {&flags.weights, "--weights"},
      {&flags.zones, "--zones"},
      {&flags.zone_level, "--zone-level"},
      {&flags.capacity, "--capacity"},
      {&flags.probes, "--probes"},
      {&flags.remove, "--remove"},
      {&flags.servers, "--servers"}};
  for (const auto& [flag, name] : conflicts) {
    if (flag->given) {
      return Invalid(absl::StrCat(name, " does not apply to ", form,
                                  " (the map file defines the OSDs, their "
                                  "weights and the hierarchy)"));
    }
  }
  auto mapping = std::make_shared<CrushMapping>();
  mapping->ceph = ceph;
  const std::string& path = flags.crush_map.value;
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      return Invalid(
          absl::StrCat("--crush-map ", Excerpt(path),
                       ": cannot read the file: ", std::strerror(errno)));
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  absl::StatusOr<crush::CrushMap> map = crush::ParseCrushText(text);
  if (!map.ok()) {
    return Invalid(absl::StrCat("--crush-map ", Excerpt(path), ": ",
                                map.status().message()));
  }
  mapping->map = *std::move(map);
  const crush::CrushMap& m = mapping->map;

  std::string rule_name;
  if (ceph) {
    if (flags.rule.given || flags.reweight.given) {
      return Invalid(
          "--rule and --reweight do not apply to --preset ceph; give the "
          "rule in --preset-options pool=ID,pg_num=N,rule=NAME (every OSD "
          "is up and in)");
    }
    absl::StatusOr<PresetOptions> options =
        ParsePresetOptions(flags.preset_options.value);
    if (!options.ok()) {
      return Invalid(absl::StrCat("ceph: ", options.status().message()));
    }
    for (const auto& [key, value] : *options) {
      if (key != "pool" && key != "pg_num" && key != "pgp_num" &&
          key != "rule") {
        return Invalid(absl::StrCat("ceph: unknown option '", Excerpt(key),
                                    "'; valid: pool, pg_num, pgp_num, rule"));
      }
    }
    for (const char* need : {"pool", "pg_num", "rule"}) {
      if (options->count(need) == 0) {
        return Invalid(absl::StrCat(
            "--preset ceph needs --preset-options pool=ID,pg_num=N,rule=NAME "
            "(pgp_num=N optional); missing: ",
            need));
      }
    }
    auto number = [&](const char* key, uint64_t lo, uint64_t hi,
                      uint32_t* out) -> absl::Status {
      uint64_t v = 0;
      const std::string& value = options->at(key);
      if (!ParseDecimalU64(value, &v) || v < lo || v > hi) {
        return Invalid(absl::StrCat("ceph: invalid ", key, " '", Excerpt(value),
                                    "'; valid: an integer in ", lo, "..", hi));
      }
      *out = static_cast<uint32_t>(v);
      return absl::OkStatus();
    };
    if (absl::Status s =
            number("pool", 0, uint64_t{INT32_MAX}, &mapping->pool.id);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = number("pg_num", 1, 1u << 31, &mapping->pool.pg_num);
        !s.ok()) {
      return s;
    }
    mapping->pool.pgp_num = mapping->pool.pg_num;
    if (options->count("pgp_num") != 0) {
      if (absl::Status s = number("pgp_num", 1, mapping->pool.pg_num,
                                  &mapping->pool.pgp_num);
          !s.ok()) {
        return s;
      }
    }
    rule_name = options->at("rule");
    if (flags.key_format.given && flags.key_format.value != "string") {
      return Invalid(absl::StrCat(
          "invalid --key-format '", Excerpt(flags.key_format.value),
          "' for --preset ceph; valid: string (each line is an object name)"));
    }
  } else {
    if (flags.preset_options.given) {
      return Invalid("--preset-options applies to --preset only");
    }
    if (!flags.rule.given) {
      return Invalid(absl::StrCat(
          "--algorithm crush --crush-map needs --rule NAME|ID; rules in ",
          Excerpt(path), ": ", m.RuleList()));
    }
    rule_name = flags.rule.value;
    if (!flags.key_format.given || flags.key_format.value != "u64") {
      return Invalid(
          "--algorithm crush --crush-map maps CRUSH inputs x: give "
          "--key-format u64 (each line a decimal x; its low 32 bits are "
          "used)");
    }
  }
  const crush::Rule* rule = m.FindRule(rule_name);
  if (rule == nullptr) {
    return Invalid(absl::StrCat("unknown rule '", Excerpt(rule_name),
                                "'; rules in ", Excerpt(path),
                                " (id name): ", m.RuleList()));
  }
  mapping->rule = static_cast<size_t>(rule - m.rules.data());

  uint64_t r = 0;
  constexpr uint64_t kMaxReplicas = 256;
  if (!ParseDecimalU64(flags.replicas.value, &r) || r == 0 ||
      r > kMaxReplicas) {
    return Invalid(
        absl::StrCat("invalid --replicas '", Excerpt(flags.replicas.value),
                     "'; expected an integer in 1..", kMaxReplicas, " (",
                     ceph ? "the pool size" : "--num-rep", ")"));
  }
  mapping->replicas = static_cast<int>(r);
  mapping->result.resize(r);
  mapping->work.resize(3 * r);

  // Reweights: crushtool --test's vector (design notes §10): 1.0 for a
  // device in some bucket, else 0 (osdmaptool with every OSD up and in: 1.0
  // for every device), then the --reweight overrides.
  mapping->weights.assign(static_cast<size_t>(m.max_devices),
                          ceph ? crush::kWeightOne : 0);
  if (!ceph) {
    for (const crush::Bucket& b : m.buckets) {
      for (int32_t item : b.items) {
        if (item >= 0) mapping->weights[item] = crush::kWeightOne;
      }
    }
  }
  if (flags.reweight.given) {
    for (const std::string& item : SplitCommaList(flags.reweight.value)) {
      const size_t colon = item.find(':');
      uint64_t id = 0;
      double w = -1;
      if (colon == std::string::npos ||
          !ParseDecimalU64(std::string_view(item).substr(0, colon), &id) ||
          !ParseFiniteDouble(std::string_view(item).substr(colon + 1), &w) ||
          w < 0 || w > 1) {
        return Invalid(absl::StrCat(
            "invalid --reweight item '", Excerpt(item),
            "'; expected ID:W with W in 0..1 (crushtool --weight ID W), "
            "e.g. 3:0.5"));
      }
      if (id >= static_cast<uint64_t>(m.max_devices)) {
        return Invalid(absl::StrCat("invalid --reweight item '", Excerpt(item),
                                    "': no device ", id, " in ", Excerpt(path),
                                    "; device ids: 0..", m.max_devices - 1));
      }
      // crushtool: (int)(W * 0x10000), clamped to 0..0x10000.
      mapping->weights[id] = static_cast<uint32_t>(
          std::clamp(static_cast<int>(w * 0x10000), 0, 0x10000));
    }
  }
  config->algorithm = ceph ? "ceph" : flags.algorithm.value;
  config->preset = ceph ? "ceph" : "";
  config->preset_options = flags.preset_options.value;
  config->u64_keys = !ceph;
  config->replicas = static_cast<size_t>(r);
  config->crush = std::move(mapping);
  return absl::OkStatus();
}

// One line of `chbench map --crush-map` (CrushMapping in map_input.h).
absl::Status CrushMapLine(std::string_view line, uint64_t line_number,
                          CrushMapping& m, std::string* out) {
  uint32_t x = 0;
  std::string pg_name;
  if (m.ceph) {
    const uint32_t pg = crush::PgOfObject(m.pool, line);
    x = crush::PlacementSeed(m.pool, pg);
    pg_name = crush::PgName(m.pool, pg);
  } else {
    uint64_t key = 0;
    if (!ParseDecimalU64(line, &key)) {
      return Invalid(absl::StrCat(
          "line ", line_number, ": invalid u64 key '", Excerpt(line),
          "'; with --key-format u64 every line must be a decimal integer in "
          "0..18446744073709551615"));
    }
    x = static_cast<uint32_t>(key);
  }
  const int got =
      crush::DoRule(m.map, m.map.rules[m.rule], x, m.result.data(), m.replicas,
                    m.weights.data(), m.weights.size(), m.work.data());
  out->append(line);
  if (m.ceph) {
    out->push_back('\t');
    out->append(pg_name);
  }
  for (int i = 0; i < got; ++i) {
    out->push_back('\t');
    if (m.result[i] == crush::kItemNone) {
      out->append("none");
    } else {
      absl::StrAppend(out, m.result[i]);
    }
  }
  out->push_back('\n');
  return absl::OkStatus();
}

}  // namespace

// "ring, rendezvous, maglev": the registry's algorithms with a capability.
std::string AlgorithmsWith(bool Capabilities::*field) {
  std::vector<std::string> names;
  for (const AlgorithmInfo& info : Algorithms()) {
    if (info.capabilities.*field) names.emplace_back(info.name);
  }
  return names.empty() ? std::string("(none)") : absl::StrJoin(names, ", ");
}

// "anchor, dx": the registry's algorithms whose factory reads `param`.
std::string AlgorithmsReading(std::string_view param) {
  std::vector<std::string> names;
  for (const AlgorithmInfo& info : Algorithms()) {
    if (info.FindParameter(param) != nullptr) names.emplace_back(info.name);
  }
  return names.empty() ? std::string("(none)") : absl::StrJoin(names, ", ");
}

absl::Status ParseKeyFormat(const std::string& format, MapConfig* config) {
  if (format != "string" && format != "u64") {
    return Invalid(absl::StrCat("invalid --key-format '", Excerpt(format),
                                "'; valid formats: string, u64"));
  }
  config->u64_keys = format == "u64";
  return absl::OkStatus();
}

absl::Status ParseServers(std::string_view text, std::vector<NodeSpec>* out) {
  if (text.empty()) return Invalid("--servers is empty; e.g. --servers 10.0.0.1:11211,10.0.0.2:11211");
  for (const std::string& item :
       std::vector<std::string>(absl::StrSplit(std::string(text), ','))) {
    if (item.empty()) {
      return Invalid(absl::StrCat("--servers '", Excerpt(text),
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
        return Invalid(absl::StrCat("--servers item '", Excerpt(item),
                                    "' has weight 0; weights are >= 1"));
      }
    } else {
      spec.name = item;
    }
    out->push_back(std::move(spec));
  }
  if (out->size() > kMapMaxNodes) {
    return Invalid(absl::StrCat("--servers lists ", out->size(),
                                " servers; at most ", kMapMaxNodes));
  }
  return absl::OkStatus();
}

absl::Status ConfigureMap(const MapFlags& flags, MapConfig* config) {
  if (flags.crush_map.given) return ConfigureCrushMap(flags, config);
  if (flags.rule.given || flags.reweight.given) {
    return Invalid(
        "--rule and --reweight apply to --algorithm crush --crush-map FILE "
        "only");
  }
  if (flags.preset.given && flags.preset.value == "ceph") {
    return Invalid(
        "--preset ceph needs --crush-map FILE (a crushtool text map) and "
        "--preset-options pool=ID,pg_num=N,rule=NAME");
  }
  if (flags.preset.given) return ConfigurePreset(flags, config);
  if (!flags.algorithm.given) {
    return Invalid("one of --algorithm NAME or --preset NAME is required");
  }
  if (flags.servers.given || flags.preset_options.given) {
    return Invalid(
        "--servers and --preset-options apply to --preset only; algorithms "
        "take --nodes, --node-names or --topology");
  }
  if (flags.topology.given) {
    const std::pair<const MapFlag*, const char*> conflicts[] = {
        {&flags.nodes, "--nodes"},
        {&flags.node_names, "--node-names"},
        {&flags.weights, "--weights"},
        {&flags.zones, "--zones"}};
    for (const auto& [flag, name] : conflicts) {
      if (flag->given) {
        return Invalid(absl::StrCat(
            name,
            " cannot be combined with --topology, which gives the "
            "nodes' names, weights and locations; give one of them"));
      }
    }
  }
  const AlgorithmInfo* info = FindAlgorithm(flags.algorithm.value);
  if (info == nullptr) {
    return Invalid(absl::StrCat("unknown algorithm '",
                                Excerpt(flags.algorithm.value),
                                "'; valid algorithms: ", AlgorithmNames()));
  }
  config->algorithm = std::string(info->name);
  const Capabilities& caps = info->capabilities;

  if (FindHash(flags.hash.value) == nullptr) return UnknownHashError(flags.hash.value);
  config->params.hash = flags.hash.value;

  if (absl::Status s = ParseKeyFormat(flags.key_format.value, config); !s.ok()) {
    return s;
  }

  // Node count and names.
  const bool have_count = flags.nodes.given;
  const bool have_names = flags.node_names.given;
  uint64_t n = 0;
  if (have_count) {
    if (!ParseDecimalU64(flags.nodes.value, &n) || n == 0 || n > kMapMaxNodes) {
      return Invalid(absl::StrCat("invalid --nodes '", Excerpt(flags.nodes.value),
                                  "'; expected an integer in 1..", kMapMaxNodes));
    }
  }
  std::vector<std::string> names;
  std::vector<NodeSpec> topology;
  if (flags.zone_level.given && !flags.topology.given) {
    return Invalid(
        "--zone-level applies with --topology only (it picks the leading "
        "levels of each node's location)");
  }
  if (flags.topology.given) {
    absl::StatusOr<std::vector<NodeSpec>> nodes =
        ReadTopologyFile(flags.topology.value);
    if (!nodes.ok()) {
      return Invalid(
          absl::StrCat("invalid --topology: ", nodes.status().message()));
    }
    if (nodes->size() > kMapMaxNodes) {
      return Invalid(absl::StrCat("--topology lists ", nodes->size(),
                                  " nodes; at most ", kMapMaxNodes));
    }
    topology = *std::move(nodes);
    n = topology.size();
  }
  if (have_names) {
    names = SplitCommaList(flags.node_names.value);
    if (names.size() > kMapMaxNodes) {
      return Invalid(absl::StrCat("--node-names lists ", names.size(),
                                  " names; at most ", kMapMaxNodes));
    }
    if (have_count && n != names.size()) {
      return Invalid(absl::StrCat(
          "--nodes ", n, " disagrees with --node-names, which lists ",
          names.size(), " name", names.size() == 1 ? "" : "s", " ('",
          Excerpt(flags.node_names.value), "'); give one of them or make them "
          "agree"));
    }
    n = names.size();
  }
  if (n == 0) {
    return Invalid(absl::StrCat("--nodes is required (an integer in 1..",
                                kMapMaxNodes, ") unless --node-names is given"));
  }

  uint64_t vnodes = 0;
  if (!ParseDecimalU64(flags.vnodes.value, &vnodes) || vnodes == 0 ||
      vnodes > UINT32_MAX) {
    return Invalid(absl::StrCat("invalid --vnodes '", Excerpt(flags.vnodes.value),
                                "'; expected an integer in 1..", UINT32_MAX));
  }
  config->params.vnodes = static_cast<uint32_t>(vnodes);

  if (flags.table_size.given) {
    uint64_t m = 0;
    if (!ParseDecimalU64(flags.table_size.value, &m) || !IsPrime(m)) {
      return Invalid(absl::StrCat(
          "invalid --table-size '", Excerpt(flags.table_size.value),
          "'; expected a prime >= the number of nodes (", n, ")"));
    }
    if (m < n) {
      return Invalid(absl::StrCat("invalid --table-size '", flags.table_size.value,
                                  "': smaller than the number of nodes (", n,
                                  "); expected a prime >= ", n));
    }
    config->params.table_size = m;
  }

  double c = 0;
  if (!ParseFiniteDouble(flags.load_factor.value, &c) || !(c > 1.0)) {
    return Invalid(absl::StrCat("invalid --load-factor '",
                                Excerpt(flags.load_factor.value),
                                "'; expected a number > 1 (c = 1 + epsilon)"));
  }
  config->params.load_factor = c;

  if (flags.capacity.given) {
    if (!Reads(*info, "capacity")) {
      return Invalid(absl::StrCat(config->algorithm,
                                  " does not use --capacity; algorithms with "
                                  "a capacity: ", AlgorithmsReading("capacity")));
    }
    uint64_t a = 0;
    if (!ParseDecimalU64(flags.capacity.value, &a) || a < n) {
      return Invalid(absl::StrCat(
          "invalid --capacity '", Excerpt(flags.capacity.value),
          "'; expected an integer >= the number of nodes (", n, ")"));
    }
    config->params.capacity = a;
  }
  if (flags.probes.given) {
    if (!Reads(*info, "probes")) {
      return Invalid(absl::StrCat(config->algorithm,
                                  " does not use --probes; algorithms with "
                                  "probes: ", AlgorithmsReading("probes")));
    }
    uint64_t q = 0;
    if (!ParseDecimalU64(flags.probes.value, &q) || q < 1 || q > 1024) {
      return Invalid(absl::StrCat("invalid --probes '",
                                  Excerpt(flags.probes.value),
                                  "'; expected an integer in 1..1024"));
    }
    config->params.probes = static_cast<uint32_t>(q);
  }

  config->nodes.assign(n, NodeSpec{});
  for (uint64_t i = 0; i < n; ++i) {
    config->nodes[i].name =
        have_names ? std::move(names[i]) : absl::StrCat("node-", i);
  }
  if (!topology.empty()) {
    for (const NodeSpec& spec : topology) {
      if (spec.weight != 1 && !caps.weights) {
        return Invalid(absl::StrCat(
            config->algorithm, " does not support weights; --topology gives '",
            Excerpt(spec.name), "' weight ", spec.weight,
            " (valid: 1); algorithms with weights: ",
            AlgorithmsWith(&Capabilities::weights)));
      }
    }
    if (flags.zone_level.given) {
      int level = 0;
      if (!absl::SimpleAtoi(flags.zone_level.value, &level) || level < 1 ||
          level > 64) {
        return Invalid(absl::StrCat(
            "invalid --zone-level '", Excerpt(flags.zone_level.value),
            "'; expected an integer in 1..64 (the leading levels of each "
            "--topology location that form its failure domain)"));
      }
      for (NodeSpec& spec : topology) spec.zone = LeadingLevels(spec.zone, level);
    }
    config->nodes = std::move(topology);
    config->distinct_zones = true;
  }

  if (flags.weights.given) {
    if (!caps.weights) {
      return Invalid(absl::StrCat(config->algorithm,
                                  " does not support --weights; algorithms "
                                  "with weights: ",
                                  AlgorithmsWith(&Capabilities::weights)));
    }
    const std::vector<std::string> weights = SplitCommaList(flags.weights.value);
    if (weights.size() != n) {
      return Invalid(absl::StrCat("--weights lists ", weights.size(),
                                  " weight", weights.size() == 1 ? "" : "s",
                                  " but there ", n == 1 ? "is " : "are ", n,
                                  " node", n == 1 ? "" : "s",
                                  "; give one weight per node"));
    }
    for (size_t i = 0; i < n; ++i) {
      double w = 0;
      if (!ParseFiniteDouble(weights[i], &w) || !(w > 0)) {
        return Invalid(absl::StrCat("invalid weight '",
                                    Excerpt(weights[i]), "' (number ",
                                    i + 1, " in --weights); weights must be "
                                    "finite numbers > 0"));
      }
      config->nodes[i].weight = w;
    }
  }

  uint64_t r = 0;
  if (!ParseDecimalU64(flags.replicas.value, &r) || r == 0) {
    return Invalid(absl::StrCat("invalid --replicas '",
                                Excerpt(flags.replicas.value),
                                "'; expected an integer in 1..", n,
                                " (the number of nodes)"));
  }
  if (r > n) {
    return Invalid(absl::StrCat("invalid --replicas '", flags.replicas.value,
                                "': more than the number of nodes (", n,
                                "); expected an integer in 1..", n));
  }
  if (r > 1 && !caps.replicas) {
    return Invalid(absl::StrCat(config->algorithm, " does not support --replicas ", r,
                                "; algorithms with replicas: ",
                                AlgorithmsWith(&Capabilities::replicas)));
  }
  config->replicas = static_cast<size_t>(r);

  if (flags.zones.given) {
    const std::vector<std::string> zones = SplitCommaList(flags.zones.value);
    if (zones.size() != n) {
      return Invalid(absl::StrCat("--zones lists ", zones.size(), " zone",
                                  zones.size() == 1 ? "" : "s", " ('",
                                  Excerpt(flags.zones.value), "') but there ",
                                  n == 1 ? "is " : "are ", n, " node",
                                  n == 1 ? "" : "s",
                                  "; give one zone per node"));
    }
    for (size_t i = 0; i < n; ++i) config->nodes[i].zone = zones[i];
    config->distinct_zones = true;
  }

  if (flags.remove.given) {
    config->remove = SplitCommaList(flags.remove.value);
    std::set<std::string_view> known, seen;
    for (const NodeSpec& s : config->nodes) known.insert(s.name);
    for (const std::string& name : config->remove) {
      if (known.count(name) == 0) {
        return Invalid(absl::StrCat(
            "invalid --remove: no node named '", Excerpt(name), "'; nodes are ",
            flags.topology.given ? std::string("the --topology names")
            : have_names         ? std::string("the --node-names")
                                 : absl::StrCat("node-0..node-", n - 1)));
      }
      if (!seen.insert(name).second) {
        return Invalid(absl::StrCat("invalid --remove: node '",
                                    Excerpt(name), "' listed twice"));
      }
    }
    if (config->remove.size() >= n) {
      return Invalid(absl::StrCat("invalid --remove: removes all ", n,
                                  " nodes; at least one must stay live"));
    }
    // Replicas come from the nodes left (found by map_input_fuzzer: the
    // lookup failed at the first key, exit 1, after printing the key).
    const uint64_t left = n - config->remove.size();
    if (config->replicas > left) {
      return Invalid(absl::StrCat(
          "invalid --replicas '", Excerpt(flags.replicas.value),
          "': more than the ", left, " node", left == 1 ? "" : "s",
          " left after --remove; expected an integer in 1..", left));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<MapInstance> BuildMapInstance(MapConfig* config) {
  if (config->crush != nullptr) return MapInstance{};  // MapLine uses the map
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      config->preset.empty()
          ? MakeAlgorithm(config->algorithm, config->params)
          : MakePreset(config->preset, config->preset_options);
  if (!made.ok()) return Invalid(std::string(made.status().message()));
  MapInstance instance;
  instance.algo = *std::move(made);
  ConsistentHash& algo = *instance.algo;
  if (absl::Status s = algo.Build(config->nodes); !s.ok()) {
    return Invalid(std::string(s.message()));
  }
  const size_t n = config->nodes.size();
  config->nodes.clear();
  config->nodes.shrink_to_fit();
  for (const std::string& name : config->remove) {
    if (absl::Status s = algo.RemoveNodeByName(name); !s.ok()) {
      return Invalid(absl::StrCat("--remove ", name, ": ", s.message()));
    }
  }
  // Owner names by id, read back from the instance (ids 0..n-1 after Build).
  instance.names.resize(n);
  for (NodeId id = 0; id < n; ++id) instance.names[id] = algo.NodeName(id);
  instance.stateful = algo.capabilities().stateful;
  return instance;
}

absl::Status MapLine(std::string_view line, uint64_t line_number,
                     const MapConfig& config, MapInstance& instance,
                     std::vector<NodeId>* owners, std::string* out) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (config.crush != nullptr) {
    return CrushMapLine(line, line_number, *config.crush, out);
  }
  ConsistentHash& algo = *instance.algo;
  const size_t n = instance.names.size();
  uint64_t key_hash;
  if (config.u64_keys) {
    if (!ParseDecimalU64(line, &key_hash)) {
      return Invalid(absl::StrCat(
          "line ", line_number, ": invalid u64 key '", Excerpt(line),
          "'; with --key-format u64 every line must be a decimal integer in "
          "0..18446744073709551615"));
    }
  } else {
    key_hash = algo.HashKey(line);
  }
  out->append(line);
  if (config.replicas == 1) {
    const NodeId id =
        instance.stateful ? algo.Place(key_hash) : algo.Lookup(key_hash);
    if (id >= n) {
      return absl::InternalError(absl::StrCat(
          "internal error: ", config.algorithm, " returned node id ", id,
          " for line ", line_number, "; valid ids: 0..", n - 1));
    }
    out->push_back('\t');
    out->append(instance.names[id]);
  } else {
    if (absl::Status s = algo.LookupReplicas(key_hash, config.replicas,
                                             config.distinct_zones, owners);
        !s.ok()) {
      return absl::InternalError(absl::StrCat(
          "internal error at line ", line_number, ": ", s.message()));
    }
    for (const NodeId id : *owners) {
      if (id >= n) {
        return absl::InternalError(absl::StrCat(
            "internal error: ", config.algorithm, " returned replica id ", id,
            " for line ", line_number, "; valid ids: 0..", n - 1));
      }
      out->push_back('\t');
      out->append(instance.names[id]);
    }
  }
  out->push_back('\n');
  return absl::OkStatus();
}

}  // namespace chbench::cli
