// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: cli/list_command.cc
// -----------------------------------------------------------------------------
//
// `chbench list`: what the suite knows, read from the registries at run time
// (algorithms/registry.h, algorithms/hash/hash_registry.h,
// workload/keyset.h), never from a copy, so the listing cannot drift from
// the code. Three sections with aligned columns:
//
//   Algorithms (6)
//     NAME        CAPABILITIES                 DESCRIPTION            CITATION
//     ring        minimal_disruption,weights,..hash ring with ...     Karger ...
//   Hash functions (8)
//     NAME        BITS  REPRODUCIBLE  DESCRIPTION
//   Key sets (4)
//     NAME        DESCRIPTION
//
// `chbench list --json` prints RegistryJson() (experiments/registry_json.h)
// instead: every registry, including the experiments, metrics and peers, in
// the JSON shape documented in experiments/registry_json.h.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/cli/cli_util.h"
#include "experiments/cli/commands.h"
#include "experiments/registry_json.h"
#include "workload/keyset.h"

namespace chbench {
namespace {

// "arbitrary_removal,minimal_disruption,weights,replicas,stateful" (the
// Capabilities field names that are true), or "-" for none.
std::string CapabilityText(const Capabilities& caps) {
  std::string text;
  auto add = [&text](bool on, const char* name) {
    if (!on) return;
    if (!text.empty()) text += ',';
    text += name;
  };
  add(caps.arbitrary_removal, "arbitrary_removal");
  add(caps.minimal_disruption, "minimal_disruption");
  add(caps.weights, "weights");
  add(caps.replicas, "replicas");
  add(caps.stateful, "stateful");
  add(caps.history_dependent, "history_dependent");
  return text.empty() ? "-" : text;
}

std::string ListingText() {
  std::string out;

  std::vector<std::vector<std::string>> rows;
  rows.push_back({"NAME", "CAPABILITIES", "DESCRIPTION", "CITATION"});
  for (const AlgorithmInfo& info : Algorithms()) {
    rows.push_back({std::string(info.name), CapabilityText(info.capabilities),
                    std::string(info.description),
                    std::string(info.citation)});
  }
  out += "Algorithms (" + std::to_string(rows.size() - 1) + ")\n";
  out += cli::FormatColumns(rows);

  rows.clear();
  rows.push_back({"NAME", "BITS", "REPRODUCIBLE", "DESCRIPTION"});
  for (const HashInfo& info : HashFunctions()) {
    rows.push_back({std::string(info.name), std::to_string(info.bits),
                    info.reproducible ? "yes" : "no (seeded per process)",
                    std::string(info.description)});
  }
  out += "\nHash functions (" + std::to_string(rows.size() - 1) + ")\n";
  out += cli::FormatColumns(rows);

  rows.clear();
  rows.push_back(
      {"NAME", "SYSTEM", "REPRODUCES", "SOURCE", "VERIFIED", "OPTIONS"});
  for (const PresetInfo& info : Presets()) {
    std::string options;
    for (const PresetOptionInfo& o : info.options) {
      if (!options.empty()) options += "; ";
      options += std::string(o.name) + "=" + std::string(o.valid) +
                 " (default " + std::string(o.default_value) + ")";
    }
    rows.push_back({std::string(info.name), std::string(info.system),
                    std::string(info.version), std::string(info.source),
                    std::string(info.verified),
                    options.empty() ? "-" : options});
  }
  out += "\nProduction presets (" + std::to_string(rows.size() - 1) +
         "; chbench map --preset NAME --servers host:port[:weight],...)\n";
  out += cli::FormatColumns(rows);

  rows.clear();
  rows.push_back({"NAME", "BITS", "VERIFICATION", "DESCRIPTION"});
  for (const HashInfo& info : PresetHashFunctions()) {
    char v[16];
    std::snprintf(v, sizeof(v), "0x%08X", info.verification);
    rows.push_back({std::string(info.name), std::to_string(info.bits), v,
                    std::string(info.description)});
  }
  out += "\nPreset key hashes (" + std::to_string(rows.size() - 1) + ")\n";
  out += cli::FormatColumns(rows);

  rows.clear();
  rows.push_back({"NAME", "DESCRIPTION"});
  for (const KeySetInfo& info : KeySets()) {
    rows.push_back({std::string(info.name), std::string(info.description)});
  }
  out += "\nKey sets (" + std::to_string(rows.size() - 1) + ")\n";
  out += cli::FormatColumns(rows);
  return out;
}

}  // namespace

void AddListCommand(CLI::App& app, int* exit_code) {
  CLI::App* list = app.add_subcommand(
      "list",
      "List the algorithms (name, capabilities, description, citation), the "
      "hash functions (name, output bits, reproducible or not, description) "
      "and the key sets (name, description), from the registries.");
  auto json = std::make_shared<bool>(false);
  list->add_flag("--json", *json,
                 "Print every registry (algorithms with lookup complexity and "
                 "parameters, hashes, key sets, experiments, metrics, peers) "
                 "as one JSON document instead");
  list->callback([exit_code, json] {
    const std::string text = *json ? RegistryJson() : ListingText();
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
        std::fflush(stdout) != 0) {
      std::fprintf(stderr, "chbench list: write error on stdout: %s\n",
                   std::strerror(errno));
      *exit_code = 1;
      return;
    }
    *exit_code = 0;
  });
}

}  // namespace chbench
