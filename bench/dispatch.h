// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/dispatch.h
// -----------------------------------------------------------------------------
//
// DispatchConcrete: from run-time names (an algorithm catalogue name and a
// hash registry name) to the compile-time concrete type, so that benchmark
// loops are instantiated for `Ring<Xxh64>`, `Jump<Md5>`, ... and call the
// final, inlinable `Lookup` directly (no virtual call in the timed loop).
//
//   absl::Status s = DispatchConcrete("ring", "xxh64", [&]<typename A>() {
//     // A is Ring<Xxh64> here.
//   });
//
// The algorithms are the entries of the catalogue (algorithms/catalogue.h),
// the presets' classes those of algorithms/presets/catalogue.h (found from
// the preset's row), and the hash policies DispatchHash's
// (algorithms/hash/hash_function.h); nothing here names an algorithm.
// bench/timing_test.cc checks that every registry algorithm x every registry
// hash dispatches to exactly the type the registry factory creates.

#ifndef CHBENCH_BENCH_DISPATCH_H_
#define CHBENCH_BENCH_DISPATCH_H_

#include <array>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/catalogue.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/presets/catalogue.h"
#include "algorithms/presets/registry.h"

namespace chbench {

// The hash policies DispatchHash knows, in registry order.
inline constexpr std::array<std::string_view, 9> kConcreteHashes = {
    Md5::kName,        Xxh64::kName, Xxh3::kName,  Murmur3_128::kName,
    Murmur3_32::kName, Crc32::kName, Fnv1a::kName, AbslHash::kName,
    SipHash::kName};

namespace dispatch_internal {

// "a, b, c". (absl 20220623 here has its own string_view type, so std::
// string_view is joined by hand.)
template <size_t kN>
std::string JoinNames(const std::array<std::string_view, kN>& names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

// The names of the rows of `kCat`, "a, b, c".
template <const auto& kCat>
std::string CatalogueNames() {
  std::string out;
  for (const AlgorithmInfo& info : CatalogueRows(kCat)) {
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

// Calls f.template operator()<A<H>>() for the catalogue entry named
// `algorithm`; false if the name is unknown. With kHashAxisOnly, only the
// entries with `hash_axis` (the only ones timed with hashes other than the
// default) are known, so only they are instantiated.
template <typename H, bool kHashAxisOnly = false,
          const auto& kCat = kCatalogue, typename F>
bool DispatchAlgorithm(std::string_view algorithm, F& f) {
  auto call = [&]<typename E>() {
    f.template operator()<typename E::template Type<H>>();
  };
  return ForEntryNamed<kCat, kHashAxisOnly>(algorithm, call);
}

// Calls f.template operator()<P>() for the preset named `preset` (P its
// final class, from its row; the preset's options select behaviour at run
// time, not the type); false when `preset` is not a preset.
template <typename F>
bool DispatchPreset(std::string_view preset, F& f) {
  const PresetInfo* info = FindPreset(preset);
  return info != nullptr && DispatchPresetClass(info->class_index, f);
}

}  // namespace dispatch_internal

// Calls `f.template operator()<A>()` once, where A is the concrete final type
// of algorithm `algorithm` with hash policy `hash` (e.g. Ring<Xxh64>).
// Returns InvalidArgument naming the valid algorithms (or hashes) when a name
// is unknown; f is not called then. A preset name (algorithms/presets/)
// dispatches to the preset's final class whatever `hash` is. f's return
// value is ignored: capture results by reference. `kCat` is the catalogue
// (a test passes one with an algorithm of its own).
template <const auto& kCat = kCatalogue, typename F>
absl::Status DispatchConcrete(std::string_view algorithm,
                              std::string_view hash, F&& f) {
  // A production preset (algorithms/presets/): its type fixes its hashes.
  if (dispatch_internal::DispatchPreset(algorithm, f)) return absl::OkStatus();
  bool known_algorithm = false;
  for (const AlgorithmInfo& info : CatalogueRows(kCat)) {
    known_algorithm = known_algorithm || info.name == algorithm;
  }
  if (!known_algorithm) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown algorithm '", std::string(algorithm), "'; valid algorithms: ",
        dispatch_internal::CatalogueNames<kCat>()));
  }
  const bool known_hash = DispatchHash(hash, [&]<typename H>() {
    dispatch_internal::DispatchAlgorithm<H, false, kCat>(algorithm, f);
  });
  if (!known_hash) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown hash '", std::string(hash),
                     "'; valid hashes: ",
                     dispatch_internal::JoinNames(kConcreteHashes)));
  }
  return absl::OkStatus();
}

}  // namespace chbench

#endif  // CHBENCH_BENCH_DISPATCH_H_
