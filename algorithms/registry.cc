// Copyright 2026 The chbench Authors.

#include "algorithms/registry.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "algorithms/anchor/anchor.h"
#include "algorithms/binomial/binomial.h"
#include "algorithms/bounded_load/bounded_load.h"
#include "algorithms/dx/dx.h"
#include "algorithms/flip/flip.h"
#include "algorithms/jump/jump.h"
#include "algorithms/jumpback/jumpback.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/memento/memento.h"
#include "algorithms/modulo/modulo.h"
#include "algorithms/multiprobe/multiprobe.h"
#include "algorithms/power/power.h"
#include "algorithms/rendezvous/rendezvous.h"
#include "algorithms/ring/ring.h"

namespace chbench {
namespace {

// The AlgorithmParams fields each factory reads.
constexpr std::string_view kHashOnly[] = {"hash"};
constexpr std::string_view kRingParams[] = {"hash", "vnodes"};
constexpr std::string_view kMaglevParams[] = {"hash", "table_size"};
constexpr std::string_view kBoundedLoadParams[] = {"hash", "vnodes",
                                                   "load_factor"};
constexpr std::string_view kCapacityParams[] = {"hash", "capacity"};
constexpr std::string_view kMultiProbeParams[] = {"hash", "probes"};

// The golden column is MappingChecksum (algorithms/checksum.h) with default
// parameters and xxh64; regenerate with
//   CHBENCH_REGENERATE_GOLDEN=1 build/algorithms/algorithms_test
//       --gtest_filter='RegistryTest.*'
constexpr std::array<AlgorithmInfo, 14> kAlgorithms = {{
    {"modulo", "hash mod N: the baseline; almost every key moves when N changes",
     "(folklore; see Karger et al., STOC 1997, for why it fails)",
     kModuloCapabilities, &MakeModulo,
     0x21f8ff53d10a3e5fULL, "O(1)", "constant", kHashOnly},
    {"ring",
     "hash ring with virtual nodes: first point clockwise; weights, replicas",
     "Karger et al., \"Consistent Hashing and Random Trees\", STOC 1997; "
     "DeCandia et al., \"Dynamo\", SOSP 2007",
     kRingCapabilities, &MakeRing,
     0xf29c6ebb5d8df8feULL, "O(1) expected, O(log P) worst", "constant",
     kRingParams},
    {"rendezvous",
     "rendezvous / highest random weight: argmax of h(key, node); O(N) lookup",
     "Thaler & Ravishankar, \"Using Name-Based Mappings to Increase Hit "
     "Rates\", IEEE/ACM ToN 1998",
     kRendezvousCapabilities, &MakeRendezvous,
     0x367595fa6d45bb39ULL, "O(N)", "linear", kHashOnly},
    {"jump", "jump consistent hash: no state; only the last node can leave",
     "Lamping & Veach, \"A Fast, Minimal Memory, Consistent Hash Algorithm\", "
     "arXiv:1406.2294, 2014",
     kJumpCapabilities, &MakeJump,
     0xcbf9168c99a8b5feULL, "O(log N)", "logarithmic", kHashOnly},
    {"maglev", "Maglev lookup table of prime size M filled by permutations",
     "Eisenbud et al., \"Maglev: A Fast and Reliable Software Network Load "
     "Balancer\", NSDI 2016",
     kMaglevCapabilities, &MakeMaglev,
     0xcec43cea916e2167ULL, "O(1)", "constant", kMaglevParams},
    {"bounded_load",
     "consistent hashing with bounded loads: ring order, capacity ceil(c*m/n)",
     "Mirrokni, Thorup & Zadimoghaddam, \"Consistent Hashing with Bounded "
     "Loads\", SODA 2018",
     kBoundedLoadCapabilities, &MakeBoundedLoad,
     0xe408b9c67c0147aaULL,
     "O(1) expected + walk past full nodes", "constant", kBoundedLoadParams},
    {"multiprobe",
     "multi-probe consistent hashing: one point per node, k probes, closest "
     "successor wins; bit-exact with go-mpchash@7382f34 with hash=siphash",
     "Appleton & O'Reilly, \"Multi-probe consistent hashing\", "
     "arXiv:1505.00062, 2015",
     kMultiProbeCapabilities, &MakeMultiProbe,
     0xcd30b9c949e146f6ULL, "O(1) expected (k probes), O(k log N) worst",
     "constant",
     kMultiProbeParams},
    {"anchor",
     "AnchorHash: fixed anchor of a buckets (capacity), arbitrary removal, "
     "LIFO re-add; bit-exact with cpp-anchorhash AnchorHashQre, key2 = 0",
     "Mendelson et al., \"AnchorHash: A Scalable Consistent Hash\", "
     "IEEE/ACM ToN 2021, arXiv:1812.09674",
     kAnchorCapabilities, &MakeAnchor,
     0x175137b9df061b40ULL,
     "O(1) expected for a fixed a/w: 1 + ln(a/w) rounds", "constant",
     kCapacityParams},
    {"memento",
     "MementoHash: Jump plus a table of removed buckets, arbitrary removal, "
     "LIFO re-add; bit-exact relative to the C++ port's crc32c path",
     "Coluzzi et al., \"MementoHash: A Stateful, Minimal Memory, Best "
     "Performing Consistent Hash Algorithm\", IEEE/ACM ToN 2024, "
     "arXiv:2306.09783",
     kMementoCapabilities, &MakeMemento,
     0x8619dce2249f8df2ULL, "O(log N) Jump + replacement walk", "logarithmic",
     kHashOnly},
    {"dx",
     "DxHash: probe a pseudo-random slot sequence for an active node; "
     "bit-exact with ChaosD/DxHash on the low 32 bits of the digest",
     "Dong & Wang, \"DxHash: A Scalable Consistent Hash Based on the "
     "Pseudo-Random Sequence\", arXiv:2107.07930, 2021",
     kDxCapabilities, &MakeDx,
     0x6d66a779017f4da6ULL, "O(1) expected: size/N probes", "constant",
     kCapacityParams},
    {"jumpback",
     "JumpBackHash: jump hash walked backwards, O(1); only the last node can "
     "leave; bit-exact with hash4j's jumpBackHash (SplitMix64)",
     "Ertl, \"JumpBackHash: Say Goodbye to the Modulo Operation to "
     "Distribute Keys Uniformly to Buckets\", arXiv:2403.18682, Software: "
     "Practice and Experience 2025; dynatrace-oss/hash4j",
     kJumpBackCapabilities, &MakeJumpBack,
     0x8a09fc2b23d9f009ULL, "O(1) expected", "constant", kHashOnly},
    {"flip",
     "FlipHash: power-of-two ranges with flipped bits, O(1); only the last "
     "node can leave; bit-exact with DataDog/fliphash-rs fliphash_64",
     "Masson & Lee, \"FlipHash: A Constant-Time Consistent Range-Hashing "
     "Algorithm\", arXiv:2402.17549, 2024; DataDog/fliphash-rs",
     kFlipCapabilities, &MakeFlip,
     0xc85cdbbc12f14d20ULL, "O(1) expected", "constant", kHashOnly},
    {"power",
     "PowerCH: f over power-of-two ranges plus a jump walk, O(1); only the "
     "last node can leave; bit-exactness is relative to SUPSI's Java "
     "PowerEngine with XXHash32 (the paper has no code)",
     "Leu, \"Power Consistent Hashing\", arXiv:2307.12448, 2023; "
     "SUPSI-DTI-ISIN/java-consistent-hashing-algorithms PowerEngine",
     kPowerCapabilities, &MakePower,
     0xc3f88e4fc219a5a4ULL, "O(1) expected", "constant", kHashOnly},
    {"binomial",
     "BinomialHash: binary-tree levels with relocation, O(1) worst case; "
     "only the last node can leave; bit-exact with SUPSI's Java "
     "BinomialEngine",
     "Coluzzi, Brocco, Antonucci & Leidi, \"BinomialHash: A Constant Time, "
     "Minimal Memory Consistent Hash Algorithm\", arXiv:2406.19836, 2024; "
     "SUPSI-DTI-ISIN/java-consistent-hashing-algorithms BinomialEngine",
     kBinomialCapabilities, &MakeBinomial,
     0xb7bc96a1e5326e8fULL, "O(1)", "constant", kHashOnly},
}};

}  // namespace

std::span<const AlgorithmInfo> Algorithms() { return kAlgorithms; }

const AlgorithmInfo* FindAlgorithm(std::string_view name) {
  for (const AlgorithmInfo& info : kAlgorithms) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string AlgorithmNames() {
  return absl::StrJoin(kAlgorithms, ", ",
                       [](std::string* out, const AlgorithmInfo& info) {
                         out->append(info.name);
                       });
}

std::string WeightedAlgorithmNames() {
  std::string out;
  for (const AlgorithmInfo& info : kAlgorithms) {
    if (!info.capabilities.weights) continue;
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeAlgorithm(
    std::string_view name, const AlgorithmParams& params) {
  const AlgorithmInfo* info = FindAlgorithm(name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown algorithm '", std::string(name), "'; valid algorithms: ", AlgorithmNames()));
  }
  return info->make(params);
}

}  // namespace chbench
