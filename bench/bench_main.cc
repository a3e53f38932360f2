// Copyright 2026 The chbench Authors.
//
// build/bench/chbench_bench: the interactive Google Benchmark binary (the
// runner's timing cells use bench/timing.h instead). One family per
// (measurement, algorithm), each over N with ArgsProduct/ArgNames, e.g.
//
//   build/bench/chbench_bench --benchmark_filter=ring
//   build/bench/chbench_bench --benchmark_filter='lookup/jump/nodes:1000$'
//   build/bench/chbench_bench --chbench_hash=md5 --benchmark_filter=maglev
//
// Families (names are <measurement>/<algorithm>/nodes:<N>):
//   lookup/<algo>          throughput, prehashed keys (ns per lookup)
//   lookup_latency/<algo>  dependent chain, prehashed keys
//   build/<algo>           Build(N nodes) on a fresh instance (manual time)
// N in {10, 100, 1000, 10000, 100000}. Extra flags (after Google Benchmark's
// own): --chbench_hash=<name> (default xxh64), --chbench_keys=<count>
// (default 1048576 pre-hashed keys, SplitMix64 seed 1). Parameters are the
// registry defaults (vnodes 100, maglev M = smallest prime >= 100 N,
// bounded_load c = 1.25; bounded_load keys are placed before lookups).

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "algorithms/registry.h"
#include "bench/dispatch.h"
#include "bench/kernels.h"
#include "benchmark/benchmark.h"
#include "workload/keyset.h"

namespace chbench {
namespace {

struct Flags {
  std::string hash = "xxh64";
  size_t keys = size_t{1} << 20;
};

Flags& GetFlags() {
  static Flags* const flags = new Flags();
  return *flags;
}

const std::vector<uint64_t>& Keys() {
  static const std::vector<uint64_t>* const keys =
      new std::vector<uint64_t>(GenerateKeyHashes(GetFlags().keys, 1));
  return *keys;
}

std::vector<NodeSpec> Specs(int64_t n) {
  std::vector<NodeSpec> specs(n);
  for (int64_t i = 0; i < n; ++i) specs[i].name = absl::StrCat("node-", i);
  return specs;
}

template <typename A>
std::unique_ptr<A> Make(std::string_view algorithm) {
  AlgorithmParams params;
  params.hash = GetFlags().hash;
  absl::StatusOr<std::unique_ptr<ConsistentHash>> made =
      MakeAlgorithm(algorithm, params);
  if (!made.ok()) return nullptr;
  A* a = dynamic_cast<A*>(made->get());
  if (a == nullptr) return nullptr;
  made->release();
  return std::unique_ptr<A>(a);
}

// The instance built with n nodes (and, if stateful, all keys placed); the
// last one is cached per type, since Google Benchmark calls a benchmark
// function several times while it sizes the iteration count.
template <typename A>
const A* Built(std::string_view algorithm, int64_t n) {
  static std::unique_ptr<A>* const cached = new std::unique_ptr<A>();
  static int64_t cached_n = -1;
  if (cached_n != n || *cached == nullptr) {
    cached->reset();
    std::unique_ptr<A> a = Make<A>(algorithm);
    if (a == nullptr || !a->Build(Specs(n)).ok()) return nullptr;
    if (a->capabilities().stateful) {
      for (uint64_t k : Keys()) a->Place(k);
    }
    *cached = std::move(a);
    cached_n = n;
  }
  return cached->get();
}

template <typename A>
void Register(std::string algorithm) {
  const std::vector<std::vector<int64_t>> nodes = {
      {10, 100, 1000, 10000, 100000}};
  benchmark::RegisterBenchmark(
      absl::StrCat("lookup/", algorithm).c_str(),
      [algorithm](benchmark::State& st) {
        const A* a = Built<A>(algorithm, st.range(0));
        if (a == nullptr) return st.SkipWithError("cannot build");
        bench_internal::LookupThroughput<A>(st, *a, Keys());
      })
      ->ArgsProduct(nodes)
      ->ArgNames({"nodes"})
      ->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark(
      absl::StrCat("lookup_latency/", algorithm).c_str(),
      [algorithm](benchmark::State& st) {
        const A* a = Built<A>(algorithm, st.range(0));
        if (a == nullptr) return st.SkipWithError("cannot build");
        bench_internal::LookupLatency<A>(st, *a, Keys());
      })
      ->ArgsProduct(nodes)
      ->ArgNames({"nodes"})
      ->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark(
      absl::StrCat("build/", algorithm).c_str(),
      [algorithm](benchmark::State& st) {
        const std::vector<NodeSpec> specs = Specs(st.range(0));
        auto setup = [&] { return Make<A>(algorithm); };
        auto op = [&](A& a) { return a.Build(specs); };
        bench_internal::MutatingOp<A>(st, setup, op);
      })
      ->ArgsProduct(nodes)
      ->ArgNames({"nodes"})
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace
}  // namespace chbench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  chbench::Flags& flags = chbench::GetFlags();
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.rfind("--chbench_hash=", 0) == 0) {
      flags.hash = std::string(arg.substr(15));
    } else if (arg.rfind("--chbench_keys=", 0) == 0 &&
               absl::SimpleAtoi(std::string(arg.substr(15)), &flags.keys) &&
               flags.keys > 0) {
    } else {
      std::cerr << "chbench_bench: unknown argument '" << arg
                << "'; extra flags: --chbench_hash=<name>, "
                   "--chbench_keys=<count > 0>\n";
      return 2;
    }
  }
  for (std::string_view algorithm : chbench::kConcreteAlgorithms) {
    absl::Status s = chbench::DispatchConcrete(
        algorithm, flags.hash, [&]<typename A>() {
          chbench::Register<A>(std::string(algorithm));
        });
    if (!s.ok()) {
      std::cerr << "chbench_bench: " << s.message() << "\n";
      return 2;
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
