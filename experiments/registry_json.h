// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: registry_json.h
// -----------------------------------------------------------------------------
//
// RegistryJson: every registry of the suite as one JSON document, read at run
// time from the registries themselves (algorithms/registry.h,
// algorithms/hash/hash_registry.h, workload/keyset.h, spec.h's experiment
// names with the `description` of each experiments/<name>.toml,
// experiments/metric_registry.h, bench/peers/peers.h). `chbench list --json`
// prints it and `chbench run` writes it to <results-dir>/registry.json, so a
// result directory says what its names meant. Shape:
//
//   {"algorithms": [{"name", "description", "citation", "lookup_complexity",
//                    "lookup_class", "capabilities": {"arbitrary_removal",
//                    "minimal_disruption", "weights", "replicas",
//                    "stateful", "history_dependent"}, "parameters": [...],
//                    "golden": "0x..."}],
//    "hashes": [{"name", "description", "bits", "reproducible"}],
//    "keysets": [{"name", "description"}],
//    "experiments": [{"name", "description"}],
//    "metrics": [{"name", "unit", "better", "timing", "description"}],
//    "peers": [{"name", "base", "description", "source"}]}
//
// One array element per line, two-space indentation, keys in the order
// above, a final newline. Deterministic: the same build and spec files give
// the same bytes.

#ifndef CHBENCH_EXPERIMENTS_REGISTRY_JSON_H_
#define CHBENCH_EXPERIMENTS_REGISTRY_JSON_H_

#include <span>
#include <string>

#include "algorithms/registry.h"

namespace chbench {

// Experiment descriptions come from <spec_dir>/<name>.toml; a missing or
// unreadable spec gives an empty description. `algorithms`: the rows listed
// (the catalogue's; a test passes rows of its own).
std::string RegistryJson(const std::string& spec_dir,
                         std::span<const AlgorithmInfo> algorithms =
                             Algorithms());
// With DefaultSpecDir() (paths.h).
std::string RegistryJson();

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_REGISTRY_JSON_H_
