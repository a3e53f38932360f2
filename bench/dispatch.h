// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/dispatch.h
// -----------------------------------------------------------------------------
//
// DispatchConcrete: from run-time names (an algorithm registry name and a hash
// registry name) to the compile-time concrete type, so that benchmark loops
// are instantiated for `Ring<Xxh64>`, `Jump<Md5>`, ... and call the final,
// inlinable `Lookup` directly (no virtual call in the timed loop).
//
//   absl::Status s = DispatchConcrete("ring", "xxh64", [&]<typename A>() {
//     // A is Ring<Xxh64> here.
//   });
//
// The set of algorithms is the compile-time list below, and the set of hash
// policies is DispatchHash's (algorithms/hash/hash_function.h). Both must stay
// in step with the registries; bench/timing_test.cc checks that every
// registry algorithm x every registry hash dispatches to exactly the type the
// registry factory creates.

#ifndef CHBENCH_BENCH_DISPATCH_H_
#define CHBENCH_BENCH_DISPATCH_H_

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/anchor/anchor.h"
#include "algorithms/binomial/binomial.h"
#include "algorithms/bounded_load/bounded_load.h"
#include "algorithms/dx/dx.h"
#include "algorithms/flip/flip.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/jump/jump.h"
#include "algorithms/jumpback/jumpback.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/memento/memento.h"
#include "algorithms/modulo/modulo.h"
#include "algorithms/multiprobe/multiprobe.h"
#include "algorithms/power/power.h"
#include "algorithms/rendezvous/rendezvous.h"
#include "algorithms/presets/cassandra/cassandra.h"
#include "algorithms/presets/envoy/envoy.h"
#include "algorithms/presets/groupcache/groupcache.h"
#include "algorithms/presets/guava/guava.h"
#include "algorithms/presets/haproxy/haproxy.h"
#include "algorithms/presets/libmemcached/libmemcached.h"
#include "algorithms/presets/nginx/nginx.h"
#include "algorithms/presets/npm/npm_hashring.h"
#include "algorithms/presets/registry.h"
#include "algorithms/presets/twemproxy/twemproxy.h"
#include "algorithms/presets/uhashring/uhashring.h"
#include "algorithms/ring/ring.h"

namespace chbench {

// The algorithms DispatchConcrete knows, in registry order.
inline constexpr std::array<std::string_view, 14> kConcreteAlgorithms = {
    "modulo",   "ring",       "rendezvous", "jump",  "maglev",
    "bounded_load",           "multiprobe", "anchor", "memento", "dx",
    "jumpback", "flip",       "power",      "binomial"};

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

// Calls f.template operator()<Algo<H>>() for the algorithm named `algorithm`;
// false if the name is unknown. With kHashAxisOnly, only the first six
// (bench/timing.h's kHashAxisAlgorithms, the only ones timed with hashes
// other than the default) are known, so only they are instantiated.
template <typename H, bool kHashAxisOnly = false, typename F>
bool DispatchAlgorithm(std::string_view algorithm, F& f) {
  if (algorithm == "modulo") return f.template operator()<Modulo<H>>(), true;
  if (algorithm == "ring") return f.template operator()<Ring<H>>(), true;
  if (algorithm == "rendezvous") {
    return f.template operator()<Rendezvous<H>>(), true;
  }
  if (algorithm == "jump") return f.template operator()<Jump<H>>(), true;
  if (algorithm == "maglev") return f.template operator()<Maglev<H>>(), true;
  if (algorithm == "bounded_load") {
    return f.template operator()<BoundedLoad<H>>(), true;
  }
  if constexpr (kHashAxisOnly) return false;
  if (algorithm == "multiprobe") {
    return f.template operator()<MultiProbe<H>>(), true;
  }
  if (algorithm == "anchor") return f.template operator()<Anchor<H>>(), true;
  if (algorithm == "memento") return f.template operator()<Memento<H>>(), true;
  if (algorithm == "dx") return f.template operator()<Dx<H>>(), true;
  if (algorithm == "jumpback") {
    return f.template operator()<JumpBack<H>>(), true;
  }
  if (algorithm == "flip") return f.template operator()<Flip<H>>(), true;
  if (algorithm == "power") return f.template operator()<Power<H>>(), true;
  if (algorithm == "binomial") {
    return f.template operator()<Binomial<H>>(), true;
  }
  return false;
}

// Calls f.template operator()<P>() for the preset named `preset` (P its
// final class; the preset's options select behaviour at run time, not the
// type); false when `preset` is not a preset.
template <typename F>
bool DispatchPreset(std::string_view preset, F& f) {
  if (FindPreset(preset) == nullptr) return false;
  if (preset.substr(0, 13) == "libmemcached_") {
    return f.template operator()<LibmemcachedPreset>(), true;
  }
  if (preset == "twemproxy") return f.template operator()<TwemproxyPreset>(), true;
  if (preset.substr(0, 9) == "uhashring") {
    return f.template operator()<UhashringPreset>(), true;
  }
  if (preset.substr(0, 4) == "npm_") {
    return f.template operator()<NpmHashringPreset>(), true;
  }
  if (preset == "nginx") return f.template operator()<NginxPreset>(), true;
  if (preset == "haproxy") return f.template operator()<HaproxyPreset>(), true;
  if (preset == "groupcache") {
    return f.template operator()<GroupcachePreset>(), true;
  }
  if (preset == "envoy_ring_hash") {
    return f.template operator()<EnvoyRingHashPreset>(), true;
  }
  if (preset == "envoy_maglev") {
    return f.template operator()<EnvoyMaglevPreset>(), true;
  }
  if (preset == "cassandra") return f.template operator()<CassandraPreset>(), true;
  if (preset == "guava") return f.template operator()<GuavaPreset>(), true;
  return false;
}

}  // namespace dispatch_internal

// Calls `f.template operator()<A>()` once, where A is the concrete final type
// of algorithm `algorithm` with hash policy `hash` (e.g. Ring<Xxh64>).
// Returns InvalidArgument naming the valid algorithms (or hashes) when a name
// is unknown; f is not called then. A preset name (algorithms/presets/)
// dispatches to the preset's final class whatever `hash` is. f's return value is ignored: capture
// results by reference.
template <typename F>
absl::Status DispatchConcrete(std::string_view algorithm,
                              std::string_view hash, F&& f) {
  // A production preset (algorithms/presets/): its type fixes its hashes.
  if (dispatch_internal::DispatchPreset(algorithm, f)) return absl::OkStatus();
  if (std::find(kConcreteAlgorithms.begin(), kConcreteAlgorithms.end(),
                algorithm) == kConcreteAlgorithms.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", std::string(algorithm),
                     "'; valid algorithms: ",
                     dispatch_internal::JoinNames(kConcreteAlgorithms)));
  }
  const bool known_hash = DispatchHash(hash, [&]<typename H>() {
    dispatch_internal::DispatchAlgorithm<H>(algorithm, f);
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
