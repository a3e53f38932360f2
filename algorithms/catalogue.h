// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: catalogue.h
// -----------------------------------------------------------------------------
//
// The algorithm catalogue: the one list of chbench's algorithms. Each entry
// pairs an algorithm's class template (`Ring`, instantiated per hash policy
// as `Ring<Xxh64>`, ...) with its row (`AlgorithmInfo`, algorithms/
// registry.h): name, description, paper, capabilities, factory, parameters
// with their defaults, lookup complexity, conformance models and golden
// checksums. Everything else is derived from this list:
//
//   * the run-time registry (`Algorithms()`, `FindAlgorithm`, `chbench list`,
//     registry.json) is `CatalogueRows(kCatalogue)`;
//   * the timing dispatch (bench/dispatch.h) walks the entries and calls the
//     timing code with the concrete type, so timed loops are compiled for
//     every entry without a name list; entries with `hash_axis` are
//     compiled for every hash policy, the others for the default hash only;
//   * the conformance suite (algorithms/conformance_test.cc) runs every row
//     with its `conformance` models and checks its `goldens`;
//   * specs select algorithms from the rows (`algorithm = "all"`, by
//     capability or lookup class: experiments/spec.h), and the plots take
//     their order from registry.json.
//
// Adding an algorithm is a folder algorithms/<name>/ (the class template,
// its factory and capabilities, its tests and reference vectors) and one
// entry here; the README's checklist lists what a row needs, and
// algorithms/registry_test.cc fails when a row lacks it.
//
// Guarantees: names are unique (checked at compile time below); the rows
// keep the entries' order; an entry's factory returns its class template's
// instance for the requested hash (bench/timing_test.cc).
//
// Example (a test that adds an algorithm of its own, as
// algorithms/testing/toy_algorithm.h does):
//   inline constexpr auto kMyCatalogue =
//       std::tuple_cat(kCatalogue, std::make_tuple(Entry<Toy>{{...}}));
//   constexpr auto kRows = CatalogueRows(kMyCatalogue);

#ifndef CHBENCH_ALGORITHMS_CATALOGUE_H_
#define CHBENCH_ALGORITHMS_CATALOGUE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <utility>

#include "algorithms/anchor/anchor.h"
#include "algorithms/binomial/binomial.h"
#include "algorithms/bounded_load/bounded_load.h"
#include "algorithms/choosek/choosek.h"
#include "algorithms/crush/crush.h"
#include "algorithms/dx/dx.h"
#include "algorithms/flip/flip.h"
#include "algorithms/jump/jump.h"
#include "algorithms/jumpback/jumpback.h"
#include "algorithms/jumpbackanchor/jumpbackanchor.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/memento/memento.h"
#include "algorithms/modulo/modulo.h"
#include "algorithms/multiprobe/multiprobe.h"
#include "algorithms/power/power.h"
#include "algorithms/registry.h"
#include "algorithms/rendezvous/rendezvous.h"
#include "algorithms/ring/ring.h"

namespace chbench {

// One catalogue entry: the class template `A` (A<H> for hash policy H) and
// its row.
template <template <typename> class A>
struct Entry {
  template <typename H>
  using Type = A<H>;
  AlgorithmInfo info;
};

// The parameters each factory reads, with their defaults (the defaults
// themselves are AlgorithmParams' in algorithms/consistent_hash.h, or the
// algorithm's rule as a function of N).
inline constexpr ParamInfo kHashOnlyParams[] = {{"hash"}};
inline constexpr ParamInfo kVnodesParams[] = {{"hash"}, {"vnodes"}};
inline constexpr ParamInfo kMaglevParams[] = {
    {"hash"}, {"table_size", &MaglevDefaultTableSize}};
inline constexpr ParamInfo kBoundedLoadParams[] = {
    {"hash"},
    {"vnodes", nullptr, bounded_load_internal::kMaxVnodes},
    {"load_factor"}};
inline constexpr ParamInfo kCapacityParams[] = {{"hash"}, {"capacity"}};
inline constexpr ParamInfo kMultiProbeParams[] = {{"hash"}, {"probes"}};

// MappingChecksum (algorithms/checksum.h) with default parameters except
// the hash. MappingChecksum feeds pre-hashed SplitMix64 digests, so an
// algorithm that hashes nothing but the key (modulo, jump, ...) has one
// value for every hash. bounded_load refuses 32-bit hashes. Regenerate with
//   CHBENCH_REGENERATE_GOLDEN=1 build/algorithms/algorithms_test
//       --gtest_filter='*GoldenChecksum*'
// (one command) and paste the printed rows.
// GOLDEN-TABLE-BEGIN
inline constexpr HashGolden kModuloGoldens[] = {
    {"xxh64", 0x21f8ff53d10a3e5fULL},
    {"md5", 0x21f8ff53d10a3e5fULL},
    {"murmur3_32", 0x21f8ff53d10a3e5fULL},
    {"crc32", 0x21f8ff53d10a3e5fULL},
};
inline constexpr HashGolden kRingGoldens[] = {
    {"xxh64", 0xf29c6ebb5d8df8feULL},
    {"md5", 0x111a34864ac9589fULL},
    {"murmur3_32", 0xa2f504713482ca9bULL},
    {"crc32", 0xa27816c09a47d4adULL},
};
inline constexpr HashGolden kRendezvousGoldens[] = {
    {"xxh64", 0x367595fa6d45bb39ULL},
    {"md5", 0x3d08d181ee151c08ULL},
    {"murmur3_32", 0x7cbf7d5d3aef7004ULL},
    {"crc32", 0x3b64d6da46dfe4b6ULL},
};
inline constexpr HashGolden kJumpGoldens[] = {
    {"xxh64", 0xcbf9168c99a8b5feULL},
    {"md5", 0xcbf9168c99a8b5feULL},
    {"murmur3_32", 0xcbf9168c99a8b5feULL},
    {"crc32", 0xcbf9168c99a8b5feULL},
};
inline constexpr HashGolden kMaglevGoldens[] = {
    {"xxh64", 0xcec43cea916e2167ULL},
    {"md5", 0xac0940636f58d6e6ULL},
    {"murmur3_32", 0x6a125638f9d5faa5ULL},
    {"crc32", 0xaa228813454868f4ULL},
};
inline constexpr HashGolden kBoundedLoadGoldens[] = {
    {"xxh64", 0xe408b9c67c0147aaULL},
    {"md5", 0x9014b7837f6778eeULL},
};
inline constexpr HashGolden kMultiProbeGoldens[] = {
    {"xxh64", 0xcd30b9c949e146f6ULL},
    {"md5", 0xbcd266a6fefff28bULL},
    {"murmur3_32", 0xfe063af8f6a78851ULL},
    {"crc32", 0xab239c1c9d4c2fa7ULL},
};
inline constexpr HashGolden kAnchorGoldens[] = {
    {"xxh64", 0x175137b9df061b40ULL},
    {"md5", 0x175137b9df061b40ULL},
    {"murmur3_32", 0x175137b9df061b40ULL},
    {"crc32", 0x175137b9df061b40ULL},
};
inline constexpr HashGolden kMementoGoldens[] = {
    {"xxh64", 0x8619dce2249f8df2ULL},
    {"md5", 0x8619dce2249f8df2ULL},
    {"murmur3_32", 0x8619dce2249f8df2ULL},
    {"crc32", 0x8619dce2249f8df2ULL},
};
inline constexpr HashGolden kDxGoldens[] = {
    {"xxh64", 0x6d66a779017f4da6ULL},
    {"md5", 0x6d66a779017f4da6ULL},
    {"murmur3_32", 0x6d66a779017f4da6ULL},
    {"crc32", 0x6d66a779017f4da6ULL},
};
inline constexpr HashGolden kJumpBackGoldens[] = {
    {"xxh64", 0x8a09fc2b23d9f009ULL},
    {"md5", 0x8a09fc2b23d9f009ULL},
    {"murmur3_32", 0x8a09fc2b23d9f009ULL},
    {"crc32", 0x8a09fc2b23d9f009ULL},
};
inline constexpr HashGolden kFlipGoldens[] = {
    {"xxh64", 0xc85cdbbc12f14d20ULL},
    {"md5", 0xc85cdbbc12f14d20ULL},
    {"murmur3_32", 0xc85cdbbc12f14d20ULL},
    {"crc32", 0xc85cdbbc12f14d20ULL},
};
inline constexpr HashGolden kPowerGoldens[] = {
    {"xxh64", 0xc3f88e4fc219a5a4ULL},
    {"md5", 0xc3f88e4fc219a5a4ULL},
    {"murmur3_32", 0xc3f88e4fc219a5a4ULL},
    {"crc32", 0xc3f88e4fc219a5a4ULL},
};
inline constexpr HashGolden kCrushGoldens[] = {
    {"xxh64", 0x95cbad4cc60cc897ULL},
    {"md5", 0x95cbad4cc60cc897ULL},
    {"murmur3_32", 0x95cbad4cc60cc897ULL},
    {"crc32", 0x95cbad4cc60cc897ULL},
};
inline constexpr HashGolden kBinomialGoldens[] = {
    {"xxh64", 0xb7bc96a1e5326e8fULL},
    {"md5", 0xb7bc96a1e5326e8fULL},
    {"murmur3_32", 0xb7bc96a1e5326e8fULL},
    {"crc32", 0xb7bc96a1e5326e8fULL},
};
inline constexpr HashGolden kChooseKGoldens[] = {
    {"xxh64", 0xea4d96ba884e8b5fULL},
    {"md5", 0xea4d96ba884e8b5fULL},
    {"murmur3_32", 0xea4d96ba884e8b5fULL},
    {"crc32", 0xea4d96ba884e8b5fULL},
};
inline constexpr HashGolden kJumpBackAnchorGoldens[] = {
    {"xxh64", 0x8a09fc2b23d9f009ULL},
    {"md5", 0x8a09fc2b23d9f009ULL},
    {"murmur3_32", 0x8a09fc2b23d9f009ULL},
    {"crc32", 0x8a09fc2b23d9f009ULL},
};// GOLDEN-TABLE-END

// The catalogue, in the order the CLI, the specs' "all" and the reports list
// the algorithms.
inline constexpr auto kCatalogue = std::make_tuple(
    Entry<Modulo>{{
        .name = "modulo",
        .description =
            "hash mod N: the baseline; almost every key moves when N changes",
        .citation =
            "(folklore; see Karger et al., STOC 1997, for why it fails)",
        .capabilities = kModuloCapabilities,
        .make = &MakeModulo,
        .goldens = kModuloGoldens,
        .lookup_complexity = "O(1)",
        .lookup_class = "constant",
        .parameters = kHashOnlyParams,
        .hash_axis = true,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kRehash,
                        .reference_model = true},
    }},
    Entry<Ring>{{
        .name = "ring",
        .description =
            "hash ring with virtual nodes: first point clockwise; weights, replicas",
        .citation =
            "Karger et al., \"Consistent Hashing and Random Trees\", STOC 1997; "
            "DeCandia et al., \"Dynamo\", SOSP 2007",
        .capabilities = kRingCapabilities,
        .make = &MakeRing,
        .goldens = kRingGoldens,
        .lookup_complexity = "O(1) expected, O(log P) worst",
        .lookup_class = "constant",
        .parameters = kVnodesParams,
        .hash_axis = true,
        .conformance = {.balance = BalanceModel::kRingPoints,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Rendezvous>{{
        .name = "rendezvous",
        .description =
            "rendezvous / highest random weight: argmax of h(key, node); O(N) lookup",
        .citation =
            "Thaler & Ravishankar, \"Using Name-Based Mappings to Increase Hit "
            "Rates\", IEEE/ACM ToN 1998",
        .capabilities = kRendezvousCapabilities,
        .make = &MakeRendezvous,
        .goldens = kRendezvousGoldens,
        .lookup_complexity = "O(N)",
        .lookup_class = "linear",
        .parameters = kHashOnlyParams,
        .hash_axis = true,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Jump>{{
        .name = "jump",
        .description =
            "jump consistent hash: no state; only the last node can leave",
        .citation =
            "Lamping & Veach, \"A Fast, Minimal Memory, Consistent Hash Algorithm\", "
            "arXiv:1406.2294, 2014",
        .capabilities = kJumpCapabilities,
        .make = &MakeJump,
        .goldens = kJumpGoldens,
        .lookup_complexity = "O(log N)",
        .lookup_class = "logarithmic",
        .parameters = kHashOnlyParams,
        .hash_axis = true,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Maglev>{{
        .name = "maglev",
        .description =
            "Maglev lookup table of prime size M filled by permutations",
        .citation =
            "Eisenbud et al., \"Maglev: A Fast and Reliable Software Network Load "
            "Balancer\", NSDI 2016",
        .capabilities = kMaglevCapabilities,
        .make = &MakeMaglev,
        .goldens = kMaglevGoldens,
        .lookup_complexity = "O(1)",
        .lookup_class = "constant",
        .parameters = kMaglevParams,
        .hash_axis = true,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kBounded,
                        .reference_model = false},
    }},
    Entry<BoundedLoad>{{
        .name = "bounded_load",
        .description =
            "consistent hashing with bounded loads: ring order, capacity ceil(c*m/n)",
        .citation =
            "Mirrokni, Thorup & Zadimoghaddam, \"Consistent Hashing with Bounded "
            "Loads\", SODA 2018",
        .capabilities = kBoundedLoadCapabilities,
        .make = &MakeBoundedLoad,
        .goldens = kBoundedLoadGoldens,
        .lookup_complexity = "O(1) expected + walk past full nodes",
        .lookup_class = "constant",
        .parameters = kBoundedLoadParams,
        .hash_axis = true,
        .bounds_loads_of = "ring",
        .conformance = {.balance = BalanceModel::kCapacity,
                        .churn = Churn::kBounded,
                        .reference_model = true},
    }},
    Entry<MultiProbe>{{
        .name = "multiprobe",
        .description =
            "multi-probe consistent hashing: one point per node, k probes, closest "
            "successor wins; bit-exact with go-mpchash@7382f34 with hash=siphash",
        .citation =
            "Appleton & O'Reilly, \"Multi-probe consistent hashing\", "
            "arXiv:1505.00062, 2015",
        .capabilities = kMultiProbeCapabilities,
        .make = &MakeMultiProbe,
        .goldens = kMultiProbeGoldens,
        .lookup_complexity = "O(1) expected (k probes), O(k log N) worst",
        .lookup_class = "constant",
        .parameters = kMultiProbeParams,
        .conformance = {.balance = BalanceModel::kMultiProbe,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Anchor>{{
        .name = "anchor",
        .description =
            "AnchorHash: fixed anchor of a buckets (capacity), arbitrary removal, "
            "LIFO re-add; bit-exact with cpp-anchorhash AnchorHashQre, key2 = 0",
        .citation =
            "Mendelson et al., \"AnchorHash: A Scalable Consistent Hash\", "
            "IEEE/ACM ToN 2021, arXiv:1812.09674",
        .capabilities = kAnchorCapabilities,
        .make = &MakeAnchor,
        .goldens = kAnchorGoldens,
        .lookup_complexity = "O(1) expected for a fixed a/w: 1 + ln(a/w) rounds",
        .lookup_class = "constant",
        .parameters = kCapacityParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true,
                        .capacity = 256},
    }},
    Entry<Memento>{{
        .name = "memento",
        .description =
            "MementoHash: Jump plus a table of removed buckets, arbitrary removal, "
            "LIFO re-add; bit-exact relative to the C++ port's crc32c path",
        .citation =
            "Coluzzi et al., \"MementoHash: A Stateful, Minimal Memory, Best "
            "Performing Consistent Hash Algorithm\", IEEE/ACM ToN 2024, "
            "arXiv:2306.09783",
        .capabilities = kMementoCapabilities,
        .make = &MakeMemento,
        .goldens = kMementoGoldens,
        .lookup_complexity = "O(log N) Jump + replacement walk",
        .lookup_class = "logarithmic",
        .parameters = kHashOnlyParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Dx>{{
        .name = "dx",
        .description =
            "DxHash: probe a pseudo-random slot sequence for an active node; "
            "bit-exact with ChaosD/DxHash on the low 32 bits of the digest",
        .citation =
            "Dong & Wang, \"DxHash: A Scalable Consistent Hash Based on the "
            "Pseudo-Random Sequence\", arXiv:2107.07930, 2021",
        .capabilities = kDxCapabilities,
        .make = &MakeDx,
        .goldens = kDxGoldens,
        .lookup_complexity = "O(1) expected: size/N probes",
        .lookup_class = "constant",
        .parameters = kCapacityParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kBounded,
                        .reference_model = true,
                        .add_is_not_undo =
                    "dx: Build(n) activates slots 0..n-1 (the reference "
                     "constructor) while AddNode activates the first "
                     "inactive slot on key 1228's probe sequence (the "
                     "reference updateAddition), not the last removed one; "
                     "dx/dx_test.cc tests that add rule"},
    }},
    Entry<JumpBack>{{
        .name = "jumpback",
        .description =
            "JumpBackHash: jump hash walked backwards, O(1); only the last node can "
            "leave; bit-exact with hash4j's jumpBackHash (SplitMix64)",
        .citation =
            "Ertl, \"JumpBackHash: Say Goodbye to the Modulo Operation to "
            "Distribute Keys Uniformly to Buckets\", arXiv:2403.18682, Software: "
            "Practice and Experience 2025; dynatrace-oss/hash4j",
        .capabilities = kJumpBackCapabilities,
        .make = &MakeJumpBack,
        .goldens = kJumpBackGoldens,
        .lookup_complexity = "O(1) expected",
        .lookup_class = "constant",
        .parameters = kHashOnlyParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Flip>{{
        .name = "flip",
        .description =
            "FlipHash: power-of-two ranges with flipped bits, O(1); only the last "
            "node can leave; bit-exact with DataDog/fliphash-rs fliphash_64",
        .citation =
            "Masson & Lee, \"FlipHash: A Constant-Time Consistent Range-Hashing "
            "Algorithm\", arXiv:2402.17549, 2024; DataDog/fliphash-rs",
        .capabilities = kFlipCapabilities,
        .make = &MakeFlip,
        .goldens = kFlipGoldens,
        .lookup_complexity = "O(1) expected",
        .lookup_class = "constant",
        .parameters = kHashOnlyParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Power>{{
        .name = "power",
        .description =
            "PowerCH: f over power-of-two ranges plus a jump walk, O(1); only the "
            "last node can leave; bit-exactness is relative to SUPSI's Java "
            "PowerEngine with XXHash32 (the paper has no code)",
        .citation =
            "Leu, \"Power Consistent Hashing\", arXiv:2307.12448, 2023; "
            "SUPSI-DTI-ISIN/java-consistent-hashing-algorithms PowerEngine",
        .capabilities = kPowerCapabilities,
        .make = &MakePower,
        .goldens = kPowerGoldens,
        .lookup_complexity = "O(1) expected",
        .lookup_class = "constant",
        .parameters = kHashOnlyParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Binomial>{{
        .name = "binomial",
        .description =
            "BinomialHash: binary-tree levels with relocation, O(1) worst case; "
            "only the last node can leave; bit-exact with SUPSI's Java "
            "BinomialEngine",
        .citation =
            "Coluzzi, Brocco, Antonucci & Leidi, \"BinomialHash: A Constant Time, "
            "Minimal Memory Consistent Hash Algorithm\", arXiv:2406.19836, 2024; "
            "SUPSI-DTI-ISIN/java-consistent-hashing-algorithms BinomialEngine",
        .capabilities = kBinomialCapabilities,
        .make = &MakeBinomial,
        .goldens = kBinomialGoldens,
        .lookup_complexity = "O(1)",
        .lookup_class = "constant",
        .parameters = kHashOnlyParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<ChooseK>{{
        .name = "choosek",
        .description =
            "ConsistentChooseK node map: a consistent, ranked k-subset of "
            "slots (the first live one owns the key), deleted slots for "
            "arbitrary removal; bit-exact with rust-gems consistent-choose-k "
            "(SipHash-1-3 keyed by the digest)",
        .citation =
            "github/rust-gems crates/consistent-choose-k "
            "(ConsistentChooseKHasher, ConsistentNodeMap; no paper: the "
            "crate's README relates it to reservoir sampling)",
        .capabilities = kChooseKCapabilities,
        .make = &MakeChooseK,
        .goldens = kChooseKGoldens,
        .lookup_complexity =
            "O(1) expected with no deleted slot; O((1 + ln(T/N))^2) sample "
            "calls with T slots",
        .lookup_class = "constant",
        .parameters = kHashOnlyParams,
        .in_sweeps = false,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<JumpBackAnchor>{{
        .name = "jumpbackanchor",
        .description =
            "JumpBackAnchorHash: AnchorHash's removal over JumpBackHash of the "
            "historic maximum, no capacity, LIFO re-add; bit-exact with "
            "hash4j's jumpBackAnchorHash (SplitMix64)",
        .citation =
            "Ertl, dynatrace-oss/hash4j ConsistentHashing.jumpBackAnchorHash, "
            "2025, after Mendelson et al., \"AnchorHash: A Scalable Consistent "
            "Hash\", IEEE/ACM ToN 2021, and Ertl, \"JumpBackHash\", Software: "
            "Practice and Experience 2025",
        .capabilities = kJumpBackAnchorCapabilities,
        .make = &MakeJumpBackAnchor,
        .goldens = kJumpBackAnchorGoldens,
        .lookup_complexity =
            "O(1) expected; O(1 + ln^2(a/w)) for keys of removed buckets",
        .lookup_class = "constant",
        .parameters = kHashOnlyParams,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kMinimal,
                        .reference_model = true},
    }},
    Entry<Crush>{{
        .name = "crush",
        .description =
            "Ceph CRUSH with straw2 buckets: a root of OSDs (or root -> zones "
            "-> OSDs), x = low 32 bits of the key hash; bit-exact with Ceph "
            "16.2 crushtool",
        .citation =
            "Weil, Brandt, Miller & Maltzahn, \"CRUSH: Controlled, Scalable, "
            "Decentralized Placement of Replicated Data\", SC 2006; straw2: "
            "Ceph Hammer (2015), src/crush/mapper.c",
        .capabilities = kCrushCapabilities,
        .make = &MakeCrush,
        .goldens = kCrushGoldens,
        .lookup_complexity = "O(N) straw2 draws (O(Z + N/Z) with Z zones)",
        .lookup_class = "linear",
        .parameters = kHashOnlyParams,
        .in_sweeps = false,
        .accepts_crush_map = true,
        .conformance = {.balance = BalanceModel::kBinomial,
                        .churn = Churn::kBounded,
                        .reference_model = true,
                        .add_is_not_undo =
                            "crush: an OSD's draws mix its id, and a re-added "
                            "node gets a fresh id (osd.N for a new N), so it "
                            "does not get its old keys back; Build(n) equals "
                            "n AddNode calls (crush_test.cc tests both)"},
    }});

// The rows of `catalogue`, in order.
template <typename... E>
constexpr std::array<AlgorithmInfo, sizeof...(E)> CatalogueRows(
    const std::tuple<E...>& catalogue) {
  return std::apply(
      [](const auto&... entry) {
        return std::array<AlgorithmInfo, sizeof...(E)>{entry.info...};
      },
      catalogue);
}

// Calls `f.template operator()<Entry>(info)` for each entry of `kCat` whose
// name is `name` (at most one); false if none. With `kHashAxisOnly`, only
// the entries with `hash_axis` are candidates, and the others are not
// instantiated.
template <const auto& kCat, bool kHashAxisOnly = false, typename F>
bool ForEntryNamed(std::string_view name, F& f) {
  return [&]<size_t... I>(std::index_sequence<I...>) {
    bool found = false;
    (
        [&] {
          constexpr const auto& entry = std::get<I>(kCat);
          if constexpr (!kHashAxisOnly || entry.info.hash_axis) {
            if (!found && entry.info.name == name) {
              found = true;
              f.template operator()<std::remove_cvref_t<decltype(entry)>>();
            }
          }
        }(),
        ...);
    return found;
  }(std::make_index_sequence<std::tuple_size_v<
             std::remove_cvref_t<decltype(kCat)>>>());
}

namespace catalogue_internal {

template <size_t kN>
constexpr bool NamesAreUnique(const std::array<AlgorithmInfo, kN>& rows) {
  for (size_t i = 0; i < kN; ++i) {
    for (size_t j = i + 1; j < kN; ++j) {
      if (rows[i].name == rows[j].name) return false;
    }
  }
  return true;
}

}  // namespace catalogue_internal

static_assert(catalogue_internal::NamesAreUnique(CatalogueRows(kCatalogue)),
              "two catalogue entries share a name");

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_CATALOGUE_H_
