// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/registry.h
// -----------------------------------------------------------------------------
//
// The preset registry: one row per production configuration chbench
// re-creates exactly (presets/preset.h), in the order the CLI and the report
// list them. Each row names the system, the version and the source files it
// was read from, how it is verified (`make verify-presets` against the real
// system, or Envoy's unit-test expectations), its options with defaults, and
// `golden`: PresetChecksum of the default configuration, pinned so that a
// silent change fails presets/registry_test.cc.
//
// Presets and algorithms share one namespace of names (a preset name is
// never an algorithm name; tested), so a CSV row's `algorithm` column can
// carry either.
//
// Example:
//   absl::StatusOr<std::unique_ptr<ConsistentHash>> p =
//       MakePreset("libmemcached_ketama", "");
//   (*p)->Build(servers).IgnoreError();

#ifndef CHBENCH_ALGORITHMS_PRESETS_REGISTRY_H_
#define CHBENCH_ALGORITHMS_PRESETS_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/presets/preset.h"

namespace chbench {

struct PresetOptionInfo {
  std::string_view name;
  std::string_view default_value;
  std::string_view valid;  // e.g. "fnv1a_64 | md5"
};

struct PresetInfo {
  std::string_view name;         // e.g. "libmemcached_ketama"
  std::string_view system;       // e.g. "libmemcached"
  std::string_view version;      // the version reproduced, with its package
  std::string_view source;       // source files the mapping was read from
  std::string_view description;  // the mapping in one line
  std::string_view verified;     // how chbench checks it
  std::string_view key_hash;     // preset-hash or hash registry name
  std::string_view search;       // ">=", ">", "closest", "table", "jump"
  std::span<const PresetOptionInfo> options;
  uint32_t max_servers;  // the real system's limit, 0 = none known
  // Validated options -> an empty instance (servers come with Build).
  absl::StatusOr<std::unique_ptr<ConsistentHash>> (*make)(
      const PresetOptions& options);
  uint64_t golden;
  // The preset's final class: its position in PresetClasses
  // (algorithms/presets/catalogue.h, PresetClassIndex<Class>).
  size_t class_index;
};

std::span<const PresetInfo> Presets();
const PresetInfo* FindPreset(std::string_view name);
// "libmemcached_ketama, libmemcached_weighted, ..."
std::string PresetNames();
// FindPreset + option parsing and validation; errors name the bad value and
// the valid ones.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakePreset(
    std::string_view name, std::string_view options);

// The servers the checksum and the experiments use: "10.0.0.<i+1>:<port>",
// i = 0..n-1.
std::vector<NodeSpec> PresetServers(size_t n, int port = 11211);

// FNV-style fold of Lookup(HashKey("key:<i>")) for i < 10^4 over
// PresetServers(10): the registry's golden value.
absl::StatusOr<uint64_t> PresetChecksum(ConsistentHash& preset);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_REGISTRY_H_
