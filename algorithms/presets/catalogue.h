// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/catalogue.h
// -----------------------------------------------------------------------------
//
// The preset classes: the final class of every production preset, in one
// list. A preset's row (algorithms/presets/registry.cc) names its class by
// `PresetClassIndex<Class>`, so the timing dispatch (bench/dispatch.h) finds
// a preset's concrete type from its row alone; several rows may share a
// class (libmemcached's three modes), each selecting its behaviour through
// the row's factory at run time.
//
// Adding a preset is a folder algorithms/presets/<system>/ with its class, a
// row in presets/registry.cc and, for a new class, an entry here.
//
// Example:
//   constexpr size_t i = PresetClassIndex<NginxPreset>;  // its position

#ifndef CHBENCH_ALGORITHMS_PRESETS_CATALOGUE_H_
#define CHBENCH_ALGORITHMS_PRESETS_CATALOGUE_H_

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "algorithms/presets/cassandra/cassandra.h"
#include "algorithms/presets/envoy/envoy.h"
#include "algorithms/presets/groupcache/groupcache.h"
#include "algorithms/presets/guava/guava.h"
#include "algorithms/presets/haproxy/haproxy.h"
#include "algorithms/presets/libmemcached/libmemcached.h"
#include "algorithms/presets/nginx/nginx.h"
#include "algorithms/presets/npm/npm_hashring.h"
#include "algorithms/presets/twemproxy/twemproxy.h"
#include "algorithms/presets/uhashring/uhashring.h"

namespace chbench {

// The classes, as pointer types (a tuple of values would construct them).
using PresetClasses =
    std::tuple<LibmemcachedPreset*, TwemproxyPreset*, UhashringPreset*,
               NpmHashringPreset*, NginxPreset*, HaproxyPreset*,
               GroupcachePreset*, EnvoyRingHashPreset*, EnvoyMaglevPreset*,
               CassandraPreset*, GuavaPreset*>;

namespace presets_internal {

template <typename P, size_t I = 0>
constexpr size_t IndexOfClass() {
  static_assert(I < std::tuple_size_v<PresetClasses>,
                "class is not in PresetClasses (presets/catalogue.h)");
  if constexpr (std::is_same_v<std::tuple_element_t<I, PresetClasses>, P*>) {
    return I;
  } else {
    return IndexOfClass<P, I + 1>();
  }
}

}  // namespace presets_internal

// The position of class P in PresetClasses (a compile error if absent).
template <typename P>
inline constexpr size_t PresetClassIndex = presets_internal::IndexOfClass<P>();

// Calls `f.template operator()<P>()` for the class at position `index`;
// false when `index` is out of range.
template <typename F>
bool DispatchPresetClass(size_t index, F& f) {
  return [&]<size_t... I>(std::index_sequence<I...>) {
    return ((index == I
                 ? (f.template operator()<std::remove_pointer_t<
                        std::tuple_element_t<I, PresetClasses>>>(),
                    true)
                 : false) ||
            ...);
  }(std::make_index_sequence<std::tuple_size_v<PresetClasses>>());
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_CATALOGUE_H_
