// Copyright 2026 The chbench Authors.

#include "bench/timing.h"

#include <algorithm>
#include <chrono>
#include <memory>
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
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "algorithms/util/json.h"
#include "algorithms/util/random.h"
#include "bench/dispatch.h"
#include "bench/harness.h"
#include "bench/kernels.h"
#include "bench/peers/peers.h"
#include "bench/timing_members.h"
#include "benchmark/benchmark.h"
#include "workload/keyset.h"
#include "workload/removal.h"

namespace chbench {
namespace timing_internal {

absl::Status WrongConcreteType(const TimingMember& m) {
  return absl::InternalError(absl::StrCat(
      "factory of '", m.algorithm, "' with hash '", m.params.hash,
      "' did not return the concrete type DispatchConcrete chose"));
}

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeInstance(
    const TimingMember& m) {
  return FindPreset(m.algorithm) != nullptr
             ? MakePreset(m.algorithm, "")
             : MakeAlgorithm(m.algorithm, m.params);
}

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeReadyInstance(
    const TimingMember& m, uint32_t nodes, const std::vector<uint64_t>& placed,
    uint64_t seed) {
  absl::StatusOr<std::unique_ptr<ConsistentHash>> a = MakeInstance(m);
  if (!a.ok()) return a.status();
  // Presets are configured with servers "10.0.0.<i>:11211" (their point
  // names derive from host and port).
  const std::vector<NodeSpec> specs = FindPreset(m.algorithm) != nullptr
                                          ? PresetServers(nodes)
                                      : m.weighted ? WeightedNodeSpecs(nodes)
                                                   : NodeSpecs(nodes);
  if (absl::Status s = (*a)->Build(specs); !s.ok()) return s;
  if (!m.removal.empty()) {
    absl::StatusOr<std::vector<uint32_t>> order =
        RemovalSequence(m.removal, nodes, m.removed, seed);
    if (!order.ok()) return order.status();
    if (RebuildsSurvivors((*a)->capabilities(), *order)) {
      // The mapping depends only on the live set: build the survivors
      // (r O(N) removals would dominate a ring or Maglev at N = 10^5).
      if (absl::Status s = (*a)->Build(Survivors(specs, *order).nodes);
          !s.ok()) {
        return s;
      }
    } else {
      for (uint32_t id : *order) {
        if (absl::Status s = (*a)->RemoveNode(id); !s.ok()) return s;
      }
    }
  }
  if (!placed.empty()) {
    std::vector<NodeId> out(placed.size());
    (*a)->PlaceBatch(placed, out);
  }
  return a;
}

}  // namespace timing_internal

namespace {

using bench_internal::CyclicFold;
using bench_internal::PrefixSums;
using bench_internal::ThroughputLoop;
using timing_internal::AddKernel;
using timing_internal::AddMemberForHash;
using timing_internal::AddPresetMember;
using timing_internal::LookupState;

// Copies the harness values into the samples, adds ratios and group rows.
TimingGroupResult Collect(LookupState* st, const HarnessResult& h) {
  for (size_t j = 0; j < st->kernels.size(); ++j) {
    if (!st->sample_of_kernel[j]) continue;
    TimingSample& s = st->samples[*st->sample_of_kernel[j]];
    const KernelResult& k = h.kernels[j];
    s.values = k.ns_per_op;
    if (s.metric == "lookups_per_s" || s.metric == "batch_lookups_per_s") {
      for (double& v : s.values) v = v > 0 ? 1e9 / v : 0;
    }
    if (k.noisy) {
      s.noisy = true;
      s.note = absl::StrCat(
          "noisy: ", k.noise_reason, " after ", k.remeasured,
          k.remeasured == 1 ? " re-measurement" : " re-measurements",
          s.note.empty() ? "" : "; ", s.note);
    }
  }
  TimingGroupResult out;
  for (auto [ours, peer] : st->ratios) {
    const TimingSample& a = st->samples[ours];
    const TimingSample& b = st->samples[peer];
    TimingSample r = a;
    r.metric = absl::StrCat(a.metric, "_ratio_to_", b.algorithm);
    r.unit = "ratio";
    r.noisy = a.noisy || b.noisy;
    r.note = absl::StrCat(
        r.noisy ? "noisy: ratio of a noisy measurement; " : "", a.metric,
        " of ", a.algorithm, " / ", b.algorithm, " in the same round");
    for (size_t i = 0; i < r.values.size() && i < b.values.size(); ++i) {
      r.values[i] = b.values[i] > 0 ? a.values[i] / b.values[i] : 0;
    }
    out.samples.push_back(std::move(r));
  }
  for (auto [batched, single] : st->batch_ratios) {
    const TimingSample& a = st->samples[batched];
    const TimingSample& b = st->samples[single];
    TimingSample r = a;
    r.metric = "batch_lookup_ns_ratio_to_single";
    r.unit = "ratio";
    r.noisy = a.noisy || b.noisy;
    r.note =
        absl::StrCat(r.noisy ? "noisy: ratio of a noisy measurement; " : "",
                     "batch_lookup_ns / lookup_ns of ", a.algorithm, " (batch ",
                     a.batch, ") in the same round; < 1: batching is faster");
    for (size_t i = 0; i < r.values.size() && i < b.values.size(); ++i) {
      r.values[i] = b.values[i] > 0 ? a.values[i] / b.values[i] : 0;
    }
    out.samples.push_back(std::move(r));
  }
  for (TimingSample& s : st->samples) out.samples.push_back(std::move(s));
  out.load_avg_1m = h.load_avg_1m;
  out.steal_fraction = h.steal_fraction;
  out.sentinel_ns = h.sentinel_ns;
  out.sentinel_reference_ns = h.sentinel_reference_ns;
  out.slow_retries = h.slow_retries;
  out.slow_state = h.slow_state;
  out.slow_wait_s = h.slow_wait_s;
  out.retry_budget_spent = h.retry_budget_spent;
  return out;
}

HarnessOptions Options(const TimingGroup& g) {
  HarnessOptions o;
  o.rounds = g.rounds;
  o.min_time_s = g.min_time_s;
  o.seed = g.seed ^ (uint64_t{g.nodes} << 32);
  o.sentinel = SentinelOptions{.kernel = MachineSentinel(),
                               .reference = &ProcessSentinelReference()};
  return o;
}

// The group's string keys: GenerateKeys(keyset, num_keys, seed), non-empty.
absl::Status LoadStringKeys(const TimingGroup& g, LookupState* st) {
  absl::StatusOr<std::vector<std::string>> keys =
      GenerateKeys(g.keyset, g.num_keys, g.seed);
  if (!keys.ok()) return keys.status();
  if (keys->empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("key set '", g.keyset, "' produced no keys"));
  }
  st->strings = *std::move(keys);
  return absl::OkStatus();
}

// Adds every member's kernels (lookup, or with `build` build/add/remove),
// each through its hash policy's unit (AddMemberForHash<H>) or the presets'
// (AddPresetMember), then measures them all in the same rounds.
absl::StatusOr<TimingGroupResult> MeasureMembers(const TimingGroup& g,
                                                 LookupState* st, bool build) {
  for (size_t i = 0; i < g.members.size(); ++i) {
    const TimingMember& m = g.members[i];
    absl::Status inner = absl::OkStatus();
    if (FindPreset(m.algorithm) != nullptr) {
      inner = AddPresetMember(build, g, i, st);
    } else if (!DispatchHash(m.params.hash, [&]<typename H>() {
                 if constexpr (std::is_same_v<H, SipHash>) {
                   inner = absl::InvalidArgumentError(absl::StrCat(
                       "hash '", m.params.hash, "' in a ",
                       build ? "build" : "lookup",
                       " group: lookups are timed with ",
                       LookupTimedHashNames(), " only (bench/timing.h)"));
                 } else {
                   inner = AddMemberForHash<H>(build, g, i, st);
                 }
               })) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown hash '", m.params.hash,
          "'; valid hashes: ", dispatch_internal::JoinNames(kConcreteHashes)));
    }
    if (!inner.ok()) return inner;
  }
  absl::StatusOr<HarnessResult> h = RunInterleaved(st->kernels, Options(g));
  if (!h.ok()) return h.status();
  return Collect(st, *h);
}

absl::StatusOr<TimingGroupResult> LookupGroup(const TimingGroup& g) {
  if (g.scenario != "prehashed" && g.scenario != "weighted" &&
      g.scenario != "string" && g.scenario != "replicas") {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown lookup scenario '", g.scenario,
        "'; valid scenarios: prehashed, weighted, string, replicas"));
  }
  if (g.scenario == "replicas") {
    for (const TimingMember& m : g.members) {
      const AlgorithmInfo* info = FindAlgorithm(m.algorithm);
      if (info == nullptr || !info->capabilities.replicas) {
        return absl::InvalidArgumentError(absl::StrCat(
            "algorithm '", m.algorithm,
            "' in a replicas lookup group: it has no replica lists; valid: ",
            ReplicaAlgorithmNames()));
      }
    }
  }
  if (g.scenario == "weighted") {
    TimingGroup weighted = g;
    for (TimingMember& m : weighted.members) {
      const AlgorithmInfo* info = FindAlgorithm(m.algorithm);
      if (info == nullptr || !info->capabilities.weights) {
        return absl::InvalidArgumentError(absl::StrCat(
            "algorithm '", m.algorithm,
            "' in a weighted lookup group: it does not accept node weights; "
            "valid: ",
            WeightedAlgorithmNames()));
      }
      m.weighted = true;
      m.multithread = false;
    }
    LookupState st;
    st.digests = GenerateKeyHashes(weighted.num_keys, weighted.seed);
    return MeasureMembers(weighted, &st, /*build=*/false);
  }
  LookupState st;
  if (g.scenario == "prehashed" || g.scenario == "replicas") {
    st.digests = GenerateKeyHashes(g.num_keys, g.seed);
  } else if (absl::Status s = LoadStringKeys(g, &st); !s.ok()) {
    return s;
  }
  return MeasureMembers(g, &st, /*build=*/false);
}

absl::StatusOr<TimingGroupResult> BuildGroup(const TimingGroup& g) {
  LookupState st;
  return MeasureMembers(g, &st, /*build=*/true);
}

// ------------------------------------------------------------- hash speed
absl::StatusOr<TimingGroupResult> HashGroup(const TimingGroup& g) {
  LookupState st;
  if (absl::Status s = LoadStringKeys(g, &st); !s.ok()) return s;
  const std::span<const std::string> span(st.strings);
  for (size_t i = 0; i < g.hashes.size(); ++i) {
    const bool known = DispatchHash(g.hashes[i], [&]<typename H>() {
      auto hash = [](const std::string& s) -> uint64_t {
        return HashString<H>(s);
      };
      std::vector<uint64_t> d(span.size());
      for (size_t j = 0; j < span.size(); ++j) d[j] = hash(span[j]);
      auto prefix = std::make_shared<const std::vector<uint64_t>>(
          PrefixSums<uint64_t>(d));
      Kernel k{.label = g.hashes[i] + "/hash_ns",
               .run =
                   [hash, span](uint64_t it) {
                     return ThroughputLoop<std::string>(hash, span, it);
                   },
               .expected =
                   [prefix](uint64_t it) { return CyclicFold(*prefix, it); }};
      TimingSample s;
      s.member = i;
      s.scenario = "string";
      s.metric = "hash_ns";
      s.unit = "ns";
      s.keys = span.size();
      AddKernel(&st, std::move(k), s);
    });
    if (!known) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown hash '", g.hashes[i], "'"));
    }
  }
  absl::StatusOr<HarnessResult> h = RunInterleaved(st.kernels, Options(g));
  if (!h.ok()) return h.status();
  return Collect(&st, *h);
}

}  // namespace

size_t ChecksumKeyCount(size_t num_keys, uint32_t nodes) {
  const size_t by_cost =
      std::max<size_t>(4096, (size_t{1} << 28) / std::max<uint32_t>(nodes, 1));
  return std::min(num_keys, by_cost);
}

absl::StatusOr<TimingGroupResult> RunTimingGroup(const TimingGroup& g) {
  if (g.rounds == 0) {
    return absl::InvalidArgumentError("timing group: rounds must be >= 1");
  }
  if (g.kind == "hash_speed") {
    if (g.num_keys == 0) {
      return absl::InvalidArgumentError("timing group: num_keys must be >= 1");
    }
    return HashGroup(g);
  }
  if (g.nodes == 0) {
    return absl::InvalidArgumentError(
        "timing group: nodes must be >= 1, got 0");
  }
  if (g.kind == "lookup") {
    if (g.num_keys == 0) {
      return absl::InvalidArgumentError(
          "timing group: num_keys must be >= 1, got 0");
    }
    return LookupGroup(g);
  }
  if (g.kind == "build") return BuildGroup(g);
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown timing kind '", g.kind, "'; valid: lookup, build, hash_speed"));
}

std::string TimingPolicyJson() {
  const HarnessOptions o = Options(TimingGroup{});
  const SentinelOptions& sentinel = *o.sentinel;
  const std::optional<double> budget = ProcessSentinelReference().RetryBudget();
  return absl::StrCat(
      "{\"cv_threshold\": ", absl::StrFormat("%g", o.cv_threshold),
      ", \"pair_tolerance\": ", absl::StrFormat("%g", o.pair_tolerance),
      ", \"max_remeasure\": ", o.max_remeasure, ", \"slices\": ", o.slices,
      ", \"sentinel\": {\"slow_threshold\": ",
      absl::StrFormat("%g", sentinel.slow_threshold),
      ", \"max_slow_retries\": ", sentinel.max_slow_retries,
      ", \"max_wait_s\": ", absl::StrFormat("%g", sentinel.max_wait_s),
      ", \"retry_budget_s\": ",
      budget ? absl::StrFormat("%g", *budget) : std::string("null"), "}}");
}

std::string BenchmarkContextJson() {
  const benchmark::CPUInfo& cpu = benchmark::CPUInfo::Get();
  const benchmark::SystemInfo& sys = benchmark::SystemInfo::Get();
  std::string scaling = "null";
  if (cpu.scaling == benchmark::CPUInfo::ENABLED) scaling = "true";
  if (cpu.scaling == benchmark::CPUInfo::DISABLED) scaling = "false";
  std::vector<std::string> caches;
  for (const benchmark::CPUInfo::CacheInfo& c : cpu.caches) {
    caches.push_back(absl::StrCat(
        "{\"type\": ", JsonString(c.type), ", \"level\": ", c.level,
        ", \"size\": ", c.size, ", \"num_sharing\": ", c.num_sharing, "}"));
  }
  std::vector<std::string> load;
  for (double l : cpu.load_avg) load.push_back(absl::StrFormat("%.2f", l));
#ifdef CHBENCH_BENCHMARK_VERSION
  const char* version = CHBENCH_BENCHMARK_VERSION;
#else
  const char* version = "";
#endif
  return absl::StrCat("{\"host_name\": ", JsonString(sys.name),
                      ", \"num_cpus\": ", cpu.num_cpus, ", \"mhz_per_cpu\": ",
                      absl::StrFormat("%.0f", cpu.cycles_per_second / 1e6),
                      ", \"cpu_scaling_enabled\": ", scaling, ", \"caches\": [",
                      absl::StrJoin(caches, ", "), "], \"load_avg\": [",
                      absl::StrJoin(load, ", "),
                      "], \"benchmark_version\": ", JsonString(version), "}");
}

}  // namespace chbench
