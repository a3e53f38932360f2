// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/timing_members.h
// -----------------------------------------------------------------------------
//
// Internal to bench/timing*.cc: how one member of a timing group becomes
// harness kernels (AddLookupMember, AddBuildMember), templated on the
// member's concrete type. Instantiating them for every algorithm x hash in
// one translation unit took most of the build (about 18 CPU-minutes under
// ASan), so the hash policies' instantiations live in their own units
// (AddMemberForHash<H>, explicitly instantiated there and declared extern
// here): the default hash in bench/timing_xxh64.cc, the other timed hashes
// (kLookupTimedHashes, bench/timing.h) in bench/timing_md5_xxh3_murmur3.cc
// and bench/timing_crc32_fnv1a_absl.cc, and the presets' in
// bench/timing_presets.cc; the units compile in parallel and bench/timing.cc
// only dispatches to them.
// Only the default hash's unit has every kernel; the others have the
// string-key lookups (FullKernelHash below).

#ifndef CHBENCH_BENCH_TIMING_MEMBERS_H_
#define CHBENCH_BENCH_TIMING_MEMBERS_H_

#include <algorithm>
#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/checksum.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "algorithms/util/random.h"
#include "bench/dispatch.h"
#include "bench/harness.h"
#include "bench/kernels.h"
#include "bench/peers/peers.h"
#include "bench/timing.h"
#include "benchmark/benchmark.h"
#include "workload/keyset.h"
#include "workload/node_names.h"
#include "workload/removal.h"

namespace chbench {
namespace timing_internal {

using bench_internal::CyclicFold;
using bench_internal::LatencyLoop;
using bench_internal::MultiThreadFold;
using bench_internal::MultiThreadLoop;
using bench_internal::PrefixSums;
using bench_internal::ThroughputLoop;

inline constexpr uint64_t kChecksumMask = (uint64_t{1} << 52) - 1;
inline constexpr uint64_t kPlacedSalt = 0x706c61636564ULL;  // "placed"
inline constexpr uint64_t kProbeSalt = 0x70726f6265ULL;     // "probe"
inline constexpr size_t kProbeKeys = 64;

// Nodes first .. first + n - 1 at seed 0: "node-<i>" (workload/node_names.h).
inline std::vector<NodeSpec> NodeSpecs(uint32_t n, uint32_t first = 0) {
  std::vector<NodeSpec> specs(n);
  for (uint32_t i = 0; i < n; ++i) {
    specs[i].name = NodeName(first + i, 0);
  }
  return specs;
}

// NodeSpecs(n) with weights 1 + (i mod 4): four weight classes in equal
// numbers (the lookup experiment's "weighted" scenario).
inline std::vector<NodeSpec> WeightedNodeSpecs(uint32_t n) {
  std::vector<NodeSpec> specs = NodeSpecs(n);
  for (uint32_t i = 0; i < n; ++i) specs[i].weight = 1.0 + (i % 4);
  return specs;
}

// InternalError: the factory's type is not the one DispatchConcrete chose.
absl::Status WrongConcreteType(const TimingMember& m);

// A fresh, empty instance of the member's algorithm or preset from the
// registry factory (timing.cc).
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeInstance(
    const TimingMember& m);

// `made` as its concrete type A (InternalError when the factory returned
// another type than DispatchConcrete chose).
template <typename A>
absl::StatusOr<std::unique_ptr<A>> Downcast(
    const TimingMember& m,
    absl::StatusOr<std::unique_ptr<ConsistentHash>> made) {
  if (!made.ok()) return made.status();
  A* concrete = dynamic_cast<A*>(made->get());
  if (concrete == nullptr) return WrongConcreteType(m);
  made->release();
  return std::unique_ptr<A>(concrete);
}

// A fresh, empty instance of the concrete type A.
template <typename A>
absl::StatusOr<std::unique_ptr<A>> MakeConcrete(const TimingMember& m) {
  return Downcast<A>(m, MakeInstance(m));
}

// An instance built with N nodes, the member's removals done and, for a
// stateful algorithm, its keys placed (timing.cc). The setup goes through
// the interface: only the timed operations are compiled per concrete type.
absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeReadyInstance(
    const TimingMember& m, uint32_t nodes, const std::vector<uint64_t>& placed,
    uint64_t seed);

// The same as the concrete type A.
template <typename A>
absl::StatusOr<std::unique_ptr<A>> MakeReady(
    const TimingMember& m, uint32_t nodes, const std::vector<uint64_t>& placed,
    uint64_t seed = 0) {
  return Downcast<A>(m, MakeReadyInstance(m, nodes, placed, seed));
}

inline bool Stateful(std::string_view algorithm) {
  const AlgorithmInfo* info = FindAlgorithm(algorithm);
  return info != nullptr && info->capabilities.stateful;
}

inline bool LinearLookup(std::string_view algorithm) {
  const AlgorithmInfo* info = FindAlgorithm(algorithm);
  return info != nullptr && info->lookup_class == "linear";
}

// The keys a member cycles over: all, or a prefix for O(N) lookups.
inline size_t KeysFor(std::string_view algorithm, size_t num_keys,
                      uint32_t nodes) {
  if (!LinearLookup(algorithm)) return num_keys;
  return std::min(num_keys, std::max<size_t>(
                                4096, (size_t{1} << 26) / std::max(nodes, 1u)));
}

static_assert(kMaxLookupBatch == bench_internal::kMaxTimedBatch,
              "the spec's batch range is the batched kernel's");

// Everything a lookup group owns while it is measured.
struct LookupState {
  std::vector<uint64_t> digests;            // prehashed keys
  std::vector<std::string> strings;         // string keys
  std::vector<std::shared_ptr<void>> keep;  // instances, peers, key copies
  std::vector<Kernel> kernels;
  // Where each kernel's values go.
  std::vector<TimingSample> samples;
  std::vector<std::optional<size_t>> sample_of_kernel;
  // (member sample, peer sample) pairs for the ratio samples.
  std::vector<std::pair<size_t, size_t>> ratios;
  // (batched sample, single-key sample) pairs of one member:
  // batch_lookup_ns_ratio_to_single.
  std::vector<std::pair<size_t, size_t>> batch_ratios;
};

// Adds a kernel and the sample it fills; returns the kernel index.
inline size_t AddKernel(LookupState* st, Kernel k, TimingSample s) {
  st->kernels.push_back(std::move(k));
  st->samples.push_back(std::move(s));
  st->sample_of_kernel.push_back(st->samples.size() - 1);
  return st->kernels.size() - 1;
}

// Throughput + latency kernels of `op` over `keys` (owners folded); returns
// {throughput index, latency index}. `base` carries the sample's columns.
// `metric_prefix` names another operation's metrics (e.g. "replicas_":
// replicas_lookup_ns).
template <typename Key, typename Op>
std::pair<size_t, size_t> AddLookupPair(LookupState* st, std::string label,
                                        std::shared_ptr<const Op> op,
                                        std::span<const Key> keys,
                                        const TimingSample& base,
                                        std::string_view metric_prefix = "") {
  std::vector<uint64_t> owners(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) owners[i] = (*op)(keys[i]);
  auto prefix = std::make_shared<const std::vector<uint64_t>>(
      PrefixSums<uint64_t>(owners));
  auto expected = [prefix](uint64_t it) { return CyclicFold(*prefix, it); };
  Kernel tp{
      .label = label + "/lookup_ns",
      .run = [op,
              keys](uint64_t it) { return ThroughputLoop<Key>(*op, keys, it); },
      .expected = expected};
  Kernel lat{
      .label = label + "/lookup_latency_ns",
      .run = [op,
              keys](uint64_t it) { return LatencyLoop<Key>(*op, keys, it); },
      .expected = expected};
  TimingSample s = base;
  s.metric = std::string(metric_prefix) + "lookup_ns";
  s.unit = "ns";
  const size_t a = AddKernel(st, std::move(tp), s);
  s.metric = std::string(metric_prefix) + "lookup_latency_ns";
  const size_t b = AddKernel(st, std::move(lat), s);
  st->kernels[a].latency_of = b;
  st->kernels[a].partners.push_back(b);
  st->kernels[b].partners.push_back(a);
  return {a, b};
}

// A batched member's kernels (TimingMember::batch = B > 1): the single-key
// throughput of `op` (lookup_ns) and the batched throughput of `batch_op`
// over B keys per call (batch_lookup_ns, per key), partners measured in the
// same rounds, and their ratio. Both fold the same owners. Returns the
// batched kernel's index.
template <typename Key, typename Op, typename BatchOp>
size_t AddBatchPair(LookupState* st, const std::string& label,
                    std::shared_ptr<const Op> op,
                    std::shared_ptr<const BatchOp> batch_op,
                    std::span<const Key> keys, uint32_t batch,
                    const TimingSample& base) {
  std::vector<uint64_t> owners(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) owners[i] = (*op)(keys[i]);
  auto prefix = std::make_shared<const std::vector<uint64_t>>(
      PrefixSums<uint64_t>(owners));
  auto expected = [prefix](uint64_t it) { return CyclicFold(*prefix, it); };
  Kernel single{
      .label = label + "/lookup_ns",
      .run = [op,
              keys](uint64_t it) { return ThroughputLoop<Key>(*op, keys, it); },
      .expected = expected};
  Kernel batched{.label = label + "/batch_lookup_ns",
                 .run =
                     [batch_op, keys, batch](uint64_t it) {
                       return bench_internal::BatchThroughputLoop<Key>(
                           *batch_op, keys, batch, it);
                     },
                 .expected = expected};
  TimingSample s = base;
  s.unit = "ns";
  s.metric = "lookup_ns";
  const size_t a = AddKernel(st, std::move(single), s);
  s.metric = "batch_lookup_ns";
  const size_t b = AddKernel(st, std::move(batched), s);
  st->kernels[a].partners.push_back(b);
  st->kernels[b].partners.push_back(a);
  st->batch_ratios.emplace_back(*st->sample_of_kernel[b],
                                *st->sample_of_kernel[a]);
  return b;
}

// The multi-thread rates of one member: `metric` (1/s) with T = 1 ..
// hardware threads sharing the instance, kernel T running run_for(T) and
// folding MultiThreadFold(prefix) (MultiThreadLoop's fold, also its batched
// form's), all partners of one another. Labels are `label`/t<T>.
template <typename RunFor>
void AddThreadKernels(
    LookupState* st, const std::string& label, const char* metric,
    const std::shared_ptr<const std::vector<uint64_t>>& prefix,
    const TimingSample& base, const RunFor& run_for) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<size_t> mt;
  for (unsigned t = 1; t <= cores; ++t) {
    Kernel k{.label = absl::StrCat(label, "/t", t),
             .run = run_for(t),
             .expected =
                 [prefix, t](uint64_t it) {
                   return MultiThreadFold(*prefix, it, t);
                 },
             .ops_per_iteration = static_cast<double>(t)};
    TimingSample s = base;
    s.metric = metric;
    s.unit = "1/s";
    s.threads = t;
    mt.push_back(AddKernel(st, std::move(k), s));
  }
  for (size_t a : mt) {
    for (size_t b : mt) {
      if (a != b) st->kernels[a].partners.push_back(b);
    }
  }
}

// The batched form of the multi-thread rates (TimingMember::multithread on
// a batched member): batch_lookups_per_s with T = 1 .. hardware threads
// sharing the instance, each calling `batch_op` over B keys at a time from
// its own offset (BatchMultiThreadLoop; the fold is MultiThreadLoop's),
// partners of one another.
template <typename BatchOp>
void AddBatchThreads(LookupState* st, const std::string& label,
                     std::shared_ptr<const BatchOp> batch_op,
                     std::span<const uint64_t> keys,
                     std::span<const uint64_t> owners, uint32_t batch,
                     const TimingSample& base) {
  auto prefix = std::make_shared<const std::vector<uint64_t>>(
      PrefixSums<uint64_t>(owners));
  AddThreadKernels(st, label + "/batch_lookups_per_s", "batch_lookups_per_s",
                   prefix, base, [batch_op, keys, batch](unsigned t) {
                     return [batch_op, keys, batch, t](uint64_t it) {
                       return bench_internal::BatchMultiThreadLoop<uint64_t>(
                           *batch_op, keys, batch, it, t);
                     };
                   });
}

// The batched peers of a batched member (peers::ForEachBatchPeer): each
// peer's LookupBatch over the same keys, B per call, in the same rounds as
// the member's batched kernel `ours` (same fold), with
// batch_lookup_ns_ratio_to_<peer> on the member's row.
template <typename A>
absl::Status AddBatchPeers(const TimingGroup& g, const TimingMember& m,
                           const A& algo, std::span<const uint64_t> keys,
                           size_t ours, const TimingSample& base,
                           LookupState* st) {
  return peers::ForEachBatchPeer(
      algo, g.scenario, [&](std::string_view name, auto&& peer) {
        using P = std::decay_t<decltype(peer)>;
        auto p = std::make_shared<const P>(std::move(peer));
        st->keep.push_back(std::const_pointer_cast<P>(p));
        const peers::PeerInfo* info = peers::FindPeer(name);
        TimingSample s = base;
        s.algorithm = std::string(name);
        s.peer_of = m.algorithm;
        s.unit = "ns";
        s.metric = "batch_lookup_ns";
        s.note =
            absl::StrCat("peer of ", m.algorithm, ": ",
                         info != nullptr ? std::string(info->description) : "",
                         "; batch ", m.batch);
        auto op = [p](std::span<const uint64_t> k, std::span<NodeId> o) {
          p->LookupBatch(k, o);
        };
        auto shared_op = std::make_shared<const decltype(op)>(op);
        const uint32_t batch = m.batch;
        Kernel k{.label = absl::StrCat(std::string(name), "/batch", batch,
                                       "/batch_lookup_ns"),
                 .run =
                     [shared_op, keys, batch](uint64_t it) {
                       return bench_internal::BatchThroughputLoop<uint64_t>(
                           *shared_op, keys, batch, it);
                     },
                 .expected = st->kernels[ours].expected};
        const size_t theirs = AddKernel(st, std::move(k), s);
        st->kernels[ours].partners.push_back(theirs);
        st->kernels[theirs].partners.push_back(ours);
        st->ratios.emplace_back(*st->sample_of_kernel[ours],
                                *st->sample_of_kernel[theirs]);
      });
}

// The replicas scenario's second pair: LookupReplicas(key, kTimedReplicas)
// without zones, into one reused list (no allocation in the loop once it
// has grown); the fold mixes every node of the list, so no part of the work
// can be skipped. FailedPrecondition if the algorithm refuses the list.
template <typename A>
absl::Status AddReplicasPair(const std::shared_ptr<const A>& algo,
                             std::span<const uint64_t> keys,
                             const TimingSample& base, LookupState* st) {
  auto list = std::make_shared<std::vector<NodeId>>();
  list->reserve(kTimedReplicas);
  st->keep.push_back(list);
  if (keys.empty()) return absl::OkStatus();
  if (absl::Status s =
          algo->LookupReplicas(keys[0], kTimedReplicas,
                               /*distinct_zones=*/false, list.get());
      !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(base.algorithm, ": ", s.message()));
  }
  auto op = [algo, list](uint64_t h) -> uint64_t {
    // The status is OK for every key once it was for one (r <= N).
    (void)algo->LookupReplicas(h, kTimedReplicas, false, list.get());
    uint64_t fold = 0;
    for (NodeId n : *list) fold = fold * 0x9E3779B97F4A7C15ULL + n;
    return fold;
  };
  TimingSample s = base;
  s.replicas = kTimedReplicas;
  s.note = absl::StrCat("LookupReplicas, r = ", kTimedReplicas,
                        ", no zones; lookup_ns of the same member and "
                        "rounds is the single lookup");
  AddLookupPair<uint64_t>(st, base.algorithm + "/replicas",
                          std::make_shared<const decltype(op)>(op), keys, s,
                          "replicas_");
  return absl::OkStatus();
}

// The lookup kernels of one member (and its peers) of a lookup group. With
// kStringOnly, only the string scenario's kernels are compiled (the other
// hash policies' instantiations: see AddMemberForHash).
template <typename A, bool kStringOnly = false>
absl::Status AddLookupMember(const TimingGroup& g, size_t index,
                             LookupState* st) {
  static_assert(kDefinesLookupBatch<A>,
                "every concrete type defines its own LookupBatch "
                "(algorithms/lookup_batch.h)");
  const TimingMember& m = g.members[index];
  if (m.batch == 0 || m.batch > bench_internal::kMaxTimedBatch) {
    return absl::InvalidArgumentError(absl::StrCat(
        m.algorithm, ": batch ", m.batch, " out of range; valid: 1..",
        bench_internal::kMaxTimedBatch));
  }
  const bool stateful = Stateful(m.algorithm);
  std::vector<uint64_t> placed;
  if (stateful && m.placed_keys_per_node > 0) {
    placed =
        GenerateKeyHashes(static_cast<size_t>(m.placed_keys_per_node) * g.nodes,
                          g.seed ^ kPlacedSalt);
  }
  absl::StatusOr<std::unique_ptr<A>> made =
      MakeReady<A>(m, g.nodes, placed, g.seed);
  if (!made.ok()) return made.status();
  std::shared_ptr<const A> algo(std::move(*made));
  st->keep.push_back(std::const_pointer_cast<A>(algo));

  TimingSample base;
  base.member = index;
  base.algorithm = m.algorithm;
  base.scenario = g.scenario;
  base.placed_keys = placed.size();
  if constexpr (requires(const A& a) { a.table_size(); }) {
    base.table_size = algo->table_size();
  }
  const size_t nkeys =
      KeysFor(m.algorithm,
              g.scenario == "string" ? st->strings.size() : st->digests.size(),
              g.nodes);
  base.keys = nkeys;

  // The member's routing operation on a digest: for a stateful algorithm the
  // route of a fresh key (no placed-key probe), else Lookup.
  auto route = [algo](uint64_t h) -> uint64_t {
    if constexpr (requires(const A& a) { a.LookupUnplaced(h); }) {
      return algo->LookupUnplaced(h);
    } else {
      return algo->Lookup(h);
    }
  };
  if (stateful) {
    base.note = absl::StrCat(
        placed.size(), " keys placed (", m.placed_keys_per_node,
        " per node); lookups route fresh keys (ring successor, then past "
        "full nodes) without the placed-key map");
  }
  std::pair<size_t, size_t> ours;
  if constexpr (kStringOnly) {
    if (g.scenario != "string") {
      return absl::InternalError("string-only kernels given a " + g.scenario +
                                 " group");
    }
  }
  if (m.batch > 1) {
    if (g.scenario == "replicas") {
      return absl::InvalidArgumentError(absl::StrCat(
          m.algorithm, ": batch ", m.batch,
          " with scenario replicas; batched lookups are timed in the "
          "prehashed, weighted and string scenarios"));
    }
    // The batched form of `route`; the batched peers are timed beside it
    // (the single-key peers: beside the batch-1 member).
    auto route_batch = [algo](std::span<const uint64_t> k,
                              std::span<NodeId> o) {
      if constexpr (requires(const A& a) { a.LookupUnplacedBatch(k, o); }) {
        algo->LookupUnplacedBatch(k, o);
      } else {
        algo->LookupBatch(k, o);
      }
    };
    base.batch = m.batch;
    absl::StrAppend(&base.note, base.note.empty() ? "" : "; ", "batch ",
                    m.batch, ": batch_lookup_ns is LookupBatch over ", m.batch,
                    " keys per call, per key; lookup_ns the single-key "
                    "throughput in the same rounds");
    const std::string label = absl::StrCat(m.algorithm, "/batch", m.batch);
    if (g.scenario == "string") {
      auto op = [algo, route](const std::string& s) -> uint64_t {
        return route(algo->HashKey(s));
      };
      // A group of keys hashed, then routed (HashAndLookupBatch's order).
      auto batch_op = [algo, route_batch](std::span<const std::string> k,
                                          std::span<NodeId> o) {
        uint64_t digests[kLookupGroup];
        for (size_t i = 0; i < k.size(); i += kLookupGroup) {
          const size_t n = std::min(kLookupGroup, k.size() - i);
          for (size_t j = 0; j < n; ++j) digests[j] = algo->HashKey(k[i + j]);
          route_batch(std::span<const uint64_t>(digests, n), o.subspan(i, n));
        }
      };
      AddBatchPair<std::string>(
          st, label, std::make_shared<const decltype(op)>(op),
          std::make_shared<const decltype(batch_op)>(batch_op),
          std::span<const std::string>(st->strings.data(), nkeys), m.batch,
          base);
    } else if constexpr (!kStringOnly) {
      const std::span<const uint64_t> keys(st->digests.data(), nkeys);
      auto batch_op =
          std::make_shared<const decltype(route_batch)>(route_batch);
      const size_t ours = AddBatchPair<uint64_t>(
          st, label, std::make_shared<const decltype(route)>(route), batch_op,
          keys, m.batch, base);
      if (m.multithread) {
        std::vector<uint64_t> owners(keys.size());
        for (size_t i = 0; i < keys.size(); ++i) owners[i] = route(keys[i]);
        AddBatchThreads(st, label, batch_op, keys, owners, m.batch, base);
      }
      if (g.peers) {
        return AddBatchPeers(g, m, *algo, keys, ours, base, st);
      }
    }
    return absl::OkStatus();
  }
  if constexpr (!kStringOnly) {
    if (g.scenario != "string") {  // prehashed or weighted
      const std::span<const uint64_t> keys(st->digests.data(), nkeys);
      auto op = std::make_shared<const decltype(route)>(route);
      ours = AddLookupPair<uint64_t>(st, m.algorithm, op, keys, base);
      if (m.multithread) {
        std::vector<uint64_t> owners(keys.size());
        for (size_t i = 0; i < keys.size(); ++i) owners[i] = route(keys[i]);
        auto prefix = std::make_shared<const std::vector<uint64_t>>(
            PrefixSums<uint64_t>(owners));
        AddThreadKernels(st, m.algorithm + "/lookups_per_s", "lookups_per_s",
                         prefix, base, [op, keys](unsigned t) {
                           return [op, keys, t](uint64_t it) {
                             return MultiThreadLoop<uint64_t>(*op, keys, it, t);
                           };
                         });
      }
      if (g.scenario == "replicas") {
        if constexpr (kDefinesReplicas<A>) {
          if (absl::Status s = AddReplicasPair(algo, keys, base, st); !s.ok()) {
            return s;
          }
        } else {
          return absl::FailedPreconditionError(
              absl::StrCat(m.algorithm, ": no replica lists to time"));
        }
      }
      if (stateful && !placed.empty()) {
        auto placed_keys =
            std::make_shared<const std::vector<uint64_t>>(std::move(placed));
        st->keep.push_back(
            std::const_pointer_cast<std::vector<uint64_t>>(placed_keys));
        auto probe = [algo](uint64_t h) -> uint64_t { return algo->Lookup(h); };
        TimingSample s = base;
        s.scenario = "placed";
        s.keys = placed_keys->size();
        s.note = absl::StrCat(placed_keys->size(),
                              " keys placed; Lookup of those keys: the "
                              "placed-key hash-map probe");
        AddLookupPair<uint64_t>(st, m.algorithm + "/placed",
                                std::make_shared<const decltype(probe)>(probe),
                                std::span<const uint64_t>(*placed_keys), s);
      }
    }
  }
  if (g.scenario == "string") {
    const std::span<const std::string> keys(st->strings.data(), nkeys);
    auto op = [algo, route](const std::string& s) -> uint64_t {
      return route(algo->HashKey(s));
    };
    ours = AddLookupPair<std::string>(
        st, m.algorithm, std::make_shared<const decltype(op)>(op), keys, base);
    auto hash = [algo](const std::string& s) -> uint64_t {
      return algo->HashKey(s);
    };
    // A cache-resident slice (bench_internal::kHashTimedKeys); the row's
    // `keys` says how many.
    const std::span<const std::string> hashed =
        keys.first(std::min(keys.size(), bench_internal::kHashTimedKeys));
    std::vector<uint64_t> digests(hashed.size());
    for (size_t i = 0; i < hashed.size(); ++i) digests[i] = hash(hashed[i]);
    auto prefix = std::make_shared<const std::vector<uint64_t>>(
        PrefixSums<uint64_t>(digests));
    Kernel k{
        .label = m.algorithm + "/hash_ns",
        .run =
            [hash, hashed](uint64_t it) {
              return ThroughputLoop<std::string>(hash, hashed, it);
            },
        .expected = [prefix](uint64_t it) { return CyclicFold(*prefix, it); }};
    TimingSample s = base;
    s.metric = "hash_ns";
    s.unit = "ns";
    s.keys = hashed.size();
    s.note.clear();
    AddKernel(st, std::move(k), s);
  }

  // Peers, measured over the same keys in the same rounds.
  if (g.peers) {
    const uint32_t vnodes = m.params.vnodes;
    absl::Status built_peers = peers::ForEachPeer(
        *algo, g.scenario, g.nodes, vnodes,
        [&](std::string_view name, auto&& peer) {
          using P = std::decay_t<decltype(peer)>;
          auto p = std::make_shared<const P>(std::move(peer));
          st->keep.push_back(std::const_pointer_cast<P>(p));
          const peers::PeerInfo* info = peers::FindPeer(name);
          TimingSample s = base;
          s.algorithm = std::string(name);
          s.peer_of = m.algorithm;
          s.note = absl::StrCat(
              "peer of ", m.algorithm, ": ",
              info != nullptr ? std::string(info->description) : "");
          // Where the peer's memory sits, read back (the huge-page peer).
          if constexpr (requires(const P& q) {
                          { q.PlacementNote() } -> std::same_as<std::string>;
                        }) {
            absl::StrAppend(&s.note, "; ", p->PlacementNote());
          }
          std::pair<size_t, size_t> theirs;
          if constexpr (kStringOnly && requires(const P& q, uint64_t h) {
                          { q.Lookup(h) } -> std::same_as<NodeId>;
                        }) {
            return;  // a prehashed peer: not in a string group
          } else if constexpr (requires(const P& q, uint64_t h) {
                                 { q.Lookup(h) } -> std::same_as<NodeId>;
                               }) {
            auto op = [p](uint64_t h) -> uint64_t { return p->Lookup(h); };
            theirs = AddLookupPair<uint64_t>(
                st, s.algorithm, std::make_shared<const decltype(op)>(op),
                std::span<const uint64_t>(st->digests.data(), nkeys), s);
          } else {
            auto op = [p](const std::string& k) -> uint64_t {
              return p->Lookup(std::string_view(k));
            };
            theirs = AddLookupPair<std::string>(
                st, s.algorithm, std::make_shared<const decltype(op)>(op),
                std::span<const std::string>(st->strings.data(), nkeys), s);
          }
          for (auto [a, b] : {std::pair{ours.first, theirs.first},
                              std::pair{ours.second, theirs.second}}) {
            st->kernels[a].partners.push_back(b);
            st->kernels[b].partners.push_back(a);
            st->ratios.emplace_back(*st->sample_of_kernel[a],
                                    *st->sample_of_kernel[b]);
          }
        });
    if (!built_peers.ok()) return built_peers;
  }

  // The reproducible checksum row.
  {
    const size_t folded = ChecksumKeyCount(
        g.scenario == "string" ? st->strings.size() : st->digests.size(),
        g.nodes);
    uint64_t sum = kChecksumInit;
    for (size_t i = 0; i < folded; ++i) {
      const uint64_t h = g.scenario == "string" ? algo->HashKey(st->strings[i])
                                                : st->digests[i];
      sum = FoldChecksum(sum, static_cast<NodeId>(route(h)));
    }
    TimingSample s = base;
    s.metric = "checksum";
    s.unit = "id-fold";
    s.values = {static_cast<double>(sum & kChecksumMask)};
    s.keys = g.scenario == "string" ? st->strings.size() : st->digests.size();
    if (folded != s.keys) {
      absl::StrAppend(&s.note, s.note.empty() ? "" : "; ", "folded the first ",
                      folded, " of ", s.keys, " keys");
    }
    const HashInfo* hash_info = FindHash(m.params.hash);
    if (hash_info != nullptr && !hash_info->reproducible) {
      absl::StrAppend(&s.note, s.note.empty() ? "" : "; ",
                      "not reproducible: ", std::string(hash_info->name),
                      " is seeded per process, so this checksum differs "
                      "between runs");
    }
    st->samples.push_back(std::move(s));
  }
  return absl::OkStatus();
}

// ------------------------------------------------------------------ build
template <typename A>
struct MaglevHashOf;
template <typename H>
struct MaglevHashOf<Maglev<H>> {
  using type = H;
};

// The Katran-style table fill (bench/peers/maglev_katran.h) beside Maglev's
// Build (kernel `ours`), when all weights are 1: same table size, same
// probe-key fold, ratio build_ns_ratio_to_maglev_katran_build.
template <typename A>
void AddMaglevBuildPeer(const A& built,
                        std::shared_ptr<const std::vector<NodeSpec>> specs,
                        std::shared_ptr<const std::vector<uint64_t>> probes,
                        uint64_t want, size_t ours, const TimingSample& base,
                        LookupState* st) {
  for (const NodeSpec& spec : *specs) {
    if (spec.weight != 1.0) return;
  }
  using Peer = peers::MaglevKatranBuild<typename MaglevHashOf<A>::type>;
  const uint64_t m = built.table_size();
  const peers::PeerInfo* info = peers::FindPeer("maglev_katran_build");
  TimingSample s = base;
  s.algorithm = "maglev_katran_build";
  s.peer_of = "maglev";
  s.metric = "build_ns";
  s.note = absl::StrCat("peer of maglev: ", std::string(info->description));
  Kernel k{.label = "maglev_katran_build/build_ns",
           .run =
               [specs, probes, m](uint64_t it) {
                 Measurement total;
                 for (uint64_t i = 0; i < it; ++i) {
                   const auto t0 = std::chrono::steady_clock::now();
                   const std::vector<int> table = Peer::Table(*specs, m);
                   total.seconds += std::chrono::duration<double>(
                                        std::chrono::steady_clock::now() - t0)
                                        .count();
                   uint64_t f = 0;
                   for (uint64_t h : *probes)
                     f += static_cast<NodeId>(table[h % m]);
                   total.fold += f;
                 }
                 return total;
               },
           .expected = [want](uint64_t it) { return it * want; },
           .max_iterations = st->kernels[ours].max_iterations};
  const size_t theirs = AddKernel(st, std::move(k), s);
  st->kernels[ours].partners.push_back(theirs);
  st->kernels[theirs].partners.push_back(ours);
  st->ratios.emplace_back(*st->sample_of_kernel[ours],
                          *st->sample_of_kernel[theirs]);
}

template <typename A>
absl::Status AddBuildMember(const TimingGroup& g, size_t index,
                            LookupState* st) {
  using Clock = std::chrono::steady_clock;
  const TimingMember& m = g.members[index];
  auto placed = std::make_shared<std::vector<uint64_t>>();
  if (Stateful(m.algorithm) && m.placed_keys_per_node > 0) {
    *placed =
        GenerateKeyHashes(static_cast<size_t>(m.placed_keys_per_node) * g.nodes,
                          g.seed ^ kPlacedSalt);
  }
  st->keep.push_back(placed);
  auto probes = std::make_shared<const std::vector<uint64_t>>(
      GenerateKeyHashes(kProbeKeys, g.seed ^ kProbeSalt));
  auto specs =
      std::make_shared<const std::vector<NodeSpec>>(NodeSpecs(g.nodes));
  auto extra = std::make_shared<NodeSpec>();
  extra->name = absl::StrCat("node-", g.nodes);

  absl::StatusOr<std::unique_ptr<A>> probe = MakeReady<A>(m, g.nodes, *placed);
  if (!probe.ok()) return probe.status();
  const bool last_only = !(*probe)->capabilities().arbitrary_removal;
  const NodeId victim = last_only
                            ? g.nodes - 1
                            : static_cast<NodeId>(Sfc64(g.seed).Below(g.nodes));

  TimingSample base;
  base.member = index;
  base.algorithm = m.algorithm;
  base.unit = "ns";
  base.placed_keys = placed->size();
  if constexpr (requires(const A& a) { a.table_size(); }) {
    base.table_size = (*probe)->table_size();
  }
  if (!placed->empty()) {
    base.note =
        absl::StrCat(placed->size(), " keys placed (", m.placed_keys_per_node,
                     " per node) before the operation; a change "
                     "replays them");
  }
  // The fold of the probe keys' owners after an operation.
  auto probe_fold = [probes](const A& a) {
    uint64_t f = 0;
    for (uint64_t h : *probes) f += a.Lookup(h);
    return f;
  };
  // op: 0 = build, 1 = add, 2 = remove, 3 = place (stateful algorithms
  // with keys to place: PlaceBatch of the m fresh keys on a built instance,
  // reported per key).
  const int ops = placed->empty() ? 3 : 4;
  for (int op = 0; op < ops; ++op) {
    static constexpr const char* kMetric[] = {"build_ns", "add_node_ns",
                                              "remove_node_ns", "place_ns"};
    TimingSample s = base;
    s.metric = kMetric[op];
    if (op == 3) {
      s.note = absl::StrCat(placed->size(), " fresh keys placed (",
                            m.placed_keys_per_node,
                            " per node) on a built instance with none; ns "
                            "per key");
    }
    // A built instance with no keys placed (the place op's starting state).
    auto make_built = [m, specs]() -> absl::StatusOr<std::unique_ptr<A>> {
      absl::StatusOr<std::unique_ptr<A>> a = MakeConcrete<A>(m);
      if (!a.ok()) return a.status();
      if (absl::Status b = (*a)->Build(*specs); !b.ok()) return b;
      return a;
    };
    // Untimed reference: the operation once, its status and probe fold.
    absl::StatusOr<std::unique_ptr<A>> ref =
        op == 0   ? MakeConcrete<A>(m)
        : op == 3 ? make_built()
                  : MakeReady<A>(m, g.nodes, *placed);
    if (!ref.ok()) return ref.status();
    const Clock::time_point w0 = Clock::now();
    absl::Status status;
    if (op == 3) {
      std::vector<NodeId> out(placed->size());
      (*ref)->PlaceBatch(*placed, out);
    } else if (op == 0) {
      status = (*ref)->Build(*specs);
      if (status.ok() && !placed->empty()) {
        std::vector<NodeId> out(placed->size());
        (*ref)->PlaceBatch(*placed, out);
      }
    } else if (op == 1) {
      status = (*ref)->AddNode(*extra).status();
    } else {
      status = (*ref)->RemoveNode(victim);
    }
    const double wall =
        std::chrono::duration<double>(Clock::now() - w0).count();
    if (!status.ok()) {
      s.note = absl::StrCat("not applicable: ", status.message());
      st->samples.push_back(std::move(s));
      continue;
    }
    const uint64_t want = probe_fold(**ref);
    auto setup = [m, g, placed, op, make_built]() -> std::unique_ptr<A> {
      absl::StatusOr<std::unique_ptr<A>> a =
          op == 0   ? MakeConcrete<A>(m)
          : op == 3 ? make_built()
                    : MakeReady<A>(m, g.nodes, *placed);
      return a.ok() ? *std::move(a) : nullptr;
    };
    Kernel k{
        .label = absl::StrCat(m.algorithm, "/", kMetric[op]),
        .run =
            [setup, op, specs, extra, victim, placed, probe_fold](uint64_t it) {
              Measurement total;
              for (uint64_t i = 0; i < it; ++i) {
                std::unique_ptr<A> a = setup();
                if (a == nullptr) return Measurement{0, ~uint64_t{0}};
                std::vector<NodeId> out(op == 3 ? placed->size() : 0);
                // The steady clock (a vDSO read, ~25 ns): the thread CPU
                // clock is a system call costing ~1 us here, which would
                // dominate O(1) operations.
                const Clock::time_point t0 = Clock::now();
                absl::Status st;
                if (op == 3) {
                  a->PlaceBatch(*placed, out);
                } else if (op == 0) {
                  st = a->Build(*specs);
                  // A build of a stateful algorithm includes placing its
                  // keys: that is the state a restart must rebuild.
                  if (st.ok() && !placed->empty()) {
                    std::vector<NodeId> out(placed->size());
                    a->PlaceBatch(*placed, out);
                  }
                } else if (op == 1) {
                  st = a->AddNode(*extra).status();
                } else {
                  st = a->RemoveNode(victim);
                }
                total.seconds +=
                    std::chrono::duration<double>(Clock::now() - t0).count();
                benchmark::DoNotOptimize(st);
                total.fold += st.ok() ? probe_fold(*a) : ~uint64_t{0};
              }
              return total;
            },
        .expected = [want](uint64_t it) { return it * want; },
        .ops_per_iteration =
            op == 3 ? static_cast<double>(placed->size()) : 1.0};
    // Each iteration also pays an untimed setup (a fresh instance, built and
    // loaded for add/remove): cap the iterations so that a measurement, with
    // its setups, stays within the wall budget.
    const Clock::time_point s0 = Clock::now();
    std::unique_ptr<A> probe_setup = setup();
    const double setup_s =
        std::chrono::duration<double>(Clock::now() - s0).count();
    probe_setup.reset();
    k.max_iterations = static_cast<uint64_t>(
        std::max(1.0, g.build_wall_budget_s / std::max(wall + setup_s, 1e-9)));
    const size_t ours = AddKernel(st, std::move(k), s);
    if constexpr (peers::peers_internal::Concrete<A>::kMaglev) {
      if (op == 0 && g.peers) {
        AddMaglevBuildPeer<A>(**ref, specs, probes, want, ours, base, st);
      }
    }
  }
  return absl::OkStatus();
}

// The hash policy whose instantiations cover every kernel (the default
// hash, AlgorithmParams{}.hash). Prehashed lookups do not hash keys, and
// builds are timed with the default hash (experiments/spec.h rejects other
// hashes there), so the other policies need only the string-key lookup
// kernels: compiling all kernels for all nine policies was most of the
// build.
using FullKernelHash = Xxh64;
inline constexpr std::string_view kFullKernelHashName = "xxh64";

// Adds member `index` of `g` (its algorithm with hash policy H) to `st`:
// lookup kernels, or with `build` the build/add/remove kernels.
// InvalidArgument naming the valid algorithms for an unknown algorithm, and
// for a build or prehashed group with a hash other than FullKernelHash.
template <typename H>
absl::Status AddMemberForHash(bool build, const TimingGroup& g, size_t index,
                              LookupState* st) {
  constexpr bool kFull = std::is_same_v<H, FullKernelHash>;
  if (!kFull && (build || g.scenario != "string")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "hash '", g.members[index].params.hash, "' in a ",
        build ? "build" : absl::StrCat(g.scenario, " lookup"),
        " group: timed with hash '", std::string(kFullKernelHashName),
        "' only (prehashed lookups hash no key; other hashes are timed on "
        "string keys)"));
  }
  absl::Status inner = absl::OkStatus();
  auto add = [&]<typename A>() {
    if constexpr (kFull) {
      inner = build ? AddBuildMember<A>(g, index, st)
                    : AddLookupMember<A>(g, index, st);
    } else {
      inner = AddLookupMember<A, /*kStringOnly=*/true>(g, index, st);
    }
  };
  const std::string& name = g.members[index].algorithm;
  bool known;
  if constexpr (kFull) {
    known = dispatch_internal::DispatchAlgorithm<H>(name, add);
  } else {
    known = dispatch_internal::DispatchAlgorithm<H, /*kHashAxisOnly=*/true>(
        name, add);
    if (!known && FindAlgorithm(name) != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "hash '", g.members[index].params.hash, "' with algorithm '", name,
          "': string-key lookups with hashes other than '",
          std::string(kFullKernelHashName), "' are timed for ",
          HashAxisAlgorithmNames(), " only"));
    }
  }
  if (!known) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", name,
                     "'; valid algorithms: ", AlgorithmNames()));
  }
  return inner;
}

// One explicit instantiation per hash policy, in the bench/timing_*.cc units
// named by their policies.
extern template absl::Status AddMemberForHash<Md5>(bool, const TimingGroup&,
                                                   size_t, LookupState*);
extern template absl::Status AddMemberForHash<Xxh64>(bool, const TimingGroup&,
                                                     size_t, LookupState*);
extern template absl::Status AddMemberForHash<Xxh3>(bool, const TimingGroup&,
                                                    size_t, LookupState*);
extern template absl::Status AddMemberForHash<Murmur3_128>(bool,
                                                           const TimingGroup&,
                                                           size_t,
                                                           LookupState*);
extern template absl::Status AddMemberForHash<Murmur3_32>(bool,
                                                          const TimingGroup&,
                                                          size_t, LookupState*);
extern template absl::Status AddMemberForHash<Crc32>(bool, const TimingGroup&,
                                                     size_t, LookupState*);
extern template absl::Status AddMemberForHash<Fnv1a>(bool, const TimingGroup&,
                                                     size_t, LookupState*);
extern template absl::Status AddMemberForHash<AbslHash>(bool,
                                                        const TimingGroup&,
                                                        size_t, LookupState*);

// The same for a production preset (bench/timing_presets.cc).
absl::Status AddPresetMember(bool build, const TimingGroup& g, size_t index,
                             LookupState* st);

}  // namespace timing_internal
}  // namespace chbench

#endif  // CHBENCH_BENCH_TIMING_MEMBERS_H_
