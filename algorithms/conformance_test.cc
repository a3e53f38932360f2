// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: conformance_test.cc
// -----------------------------------------------------------------------------
//
// The conformance suite: ONE value-parameterized suite, instantiated for every
// row of the algorithm catalogue (algorithms/catalogue.h) x several hash
// functions, in the spirit of Abseil's
// absl/container/internal/unordered_set_lookup_test.h (one suite, many types).
// Everything goes through the type-erased interface (consistent_hash.h) and
// the row's factory, so a new catalogue row is covered with no edit here.
// The suite is also instantiated for a test-only catalogue with one more
// algorithm (algorithms/testing/toy_algorithm.h), which shows that the row
// alone brings an algorithm in.
//
// Expectations are chosen by capability flags (minimal_disruption,
// arbitrary_removal, weights, replicas, stateful) and by the row's
// `conformance` traits, which hold what no flag expresses: which statistical
// balance model applies, which reference model defines the mapping, the
// capacity a fixed-capacity algorithm is given, and whether AddNode by
// design does not undo a removal (then the tests that assume it are
// skipped, naming why). The row's `goldens` pin the mapping per hash.
//
// Statistical bounds (derivations in testing/conformance_util.h): a node's
// key count is Binomial(m, p), or Beta-binomial with variance
// m p (1-p) (V+m)/(V+1) when its share is made of V hashed ring points. Single
// quantities are allowed 5 sigma; the balance over all nodes is checked in
// aggregate (the loads' variance against the model, within 4 standard
// errors); the 4 weighted shares 6 sigma each. They apply only to hashes that
// are uniform; crc32 (linear over GF(2)) is instantiated for the structural
// properties only.
//
// Stateful algorithms (bounded_load) are driven through Place: Map() places
// the keys, so the disruption and liveness tests see it under load. It
// refuses 32-bit hashes (its placed keys are identified by digest), so it is
// instantiated with the 64-bit ones only.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/bounded_load/bounded_load.h"
#include "algorithms/checksum.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/registry.h"
#include "algorithms/ring/ring.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/reference_models.h"
#include "algorithms/testing/toy_algorithm.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::chbench::testing::CheckAggregateBalance;
using ::chbench::testing::CountSigma;
using ::chbench::testing::KeyDigests;
using ::chbench::testing::LiveNode;
using ::chbench::testing::LookupAll;
using ::chbench::testing::MakeReferenceModel;
using ::chbench::testing::Map;
using ::chbench::testing::Node;
using ::chbench::testing::ReferenceModel;
using ::chbench::testing::Specs;
using ::testing::HasSubstr;

// Multi-probe consistent hashing with k probes (multiprobe/multiprobe.h). A
// node's share s is a function of the gap before its point: with N nodes,
// x = N * gap ~ Exp(1) and k independent uniform probes, the winning
// distance is below d with probability 1 - e^(-N k d), and
//   N s = (k / (k - 1)) (1 - u),  u = e^(-(k - 1) x) ~ Beta(1 / (k - 1), 1),
// so E[u^r] = 1 / (1 + r (k - 1)): mean 1, peak k / (k - 1) (the paper's
// 1 + eps with k = 1 + 1 / eps), but a heavy lower tail (a point just after
// another gets little). For k = 21: Var(N s) = 0.0258 and kurtosis 19.5.
// Simulated (xxh64, 20000 keys, 50..20000 node sets per N, binomial noise
// removed): N^2 Var(s) = 0.042, 0.035, 0.029, 0.025 at N = 2, 3, 10, 50..1000;
// the factor N / (N - 1) on the asymptotic variance bounds these from above.
struct MultiProbeShare {
  double variance;  // of N s, with the finite-N factor
  double kurtosis;  // of N s
};
MultiProbeShare MultiProbeShareModel(double k, double nodes) {
  const double b = k - 1;
  const double e1 = 1 / (1 + b), e2 = 1 / (1 + 2 * b), e3 = 1 / (1 + 3 * b),
               e4 = 1 / (1 + 4 * b);
  const double mu2 = e2 - e1 * e1;
  const double mu4 =
      e4 - 4 * e1 * e3 + 6 * e1 * e1 * e2 - 3 * e1 * e1 * e1 * e1;
  const double a = k / b;
  return {a * a * mu2 * nodes / (nodes - 1), mu4 / (mu2 * mu2)};
}

// The hashes the suite runs with. `uniform`: statistical bounds apply.
struct HashCase {
  std::string_view name;
  bool uniform;
};
constexpr HashCase kHashes[] = {
    {"xxh64", true},
    {"md5", true},
    {"murmur3_32", true},  // 32-bit digests and ring points
    {"crc32", false},      // 32-bit, linear: structural properties only
};

struct Case {
  const AlgorithmInfo* info;  // a catalogue row
  std::string algorithm;      // info->name
  std::string hash;
  bool uniform;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.algorithm << "/" << c.hash;
}

// Every row of `rows` x every hash of kHashes that the row accepts.
std::vector<Case> CasesOf(std::span<const AlgorithmInfo> rows) {
  std::vector<Case> cases;
  for (const AlgorithmInfo& info : rows) {
    for (const HashCase& h : kHashes) {
      if (info.capabilities.stateful && FindHash(h.name)->bits < 64) {
        continue;  // refused: see BoundedLoadRefuses32BitHashes
      }
      cases.push_back(
          {&info, std::string(info.name), std::string(h.name), h.uniform});
    }
  }
  return cases;
}

// Sizes: the suite must stay well under a minute in Release and run under
// ASan/UBSan, so key counts are modest (20k keys give a binomial relative
// sigma of 2.2 % at N = 10).
constexpr size_t kKeys = 20000;
constexpr size_t kNodeCounts[] = {1, 2, 10, 50};
constexpr uint32_t kRingVnodes = 100;  // the default AlgorithmParams::vnodes

class ConformanceTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override { traits_ = &GetParam().info->conformance; }

  AlgorithmParams Params() const {
    AlgorithmParams params;
    params.hash = GetParam().hash;
    params.capacity = traits_->capacity;
    return params;
  }

  std::unique_ptr<ConsistentHash> Make(AlgorithmParams params) const {
    absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
        GetParam().info->make(params);
    EXPECT_TRUE(algo.ok()) << algo.status();
    return algo.ok() ? *std::move(algo) : nullptr;
  }
  std::unique_ptr<ConsistentHash> Make() const { return Make(Params()); }

  std::unique_ptr<ConsistentHash> MakeBuilt(size_t n,
                                            AlgorithmParams params) const {
    std::unique_ptr<ConsistentHash> algo = Make(params);
    if (algo == nullptr) return nullptr;
    absl::Status s = algo->Build(Specs(n));
    EXPECT_TRUE(s.ok()) << s;
    return algo;
  }
  std::unique_ptr<ConsistentHash> MakeBuilt(size_t n) const {
    return MakeBuilt(n, Params());
  }

  Capabilities caps() const { return GetParam().info->capabilities; }
  bool uniform() const { return GetParam().uniform; }

  // Ring points behind `total_weight` units of weight (0 = no ring:
  // binomial). bounded_load's Lookup with nothing placed is its ring's.
  // multiprobe: the V whose Beta-binomial share variance p (1 - p) / (V + 1)
  // equals MultiProbeShare's Var(N s) / N^2 at p = 1 / N nodes.
  double RingPoints(double total_weight) const {
    if (traits_->balance == BalanceModel::kMultiProbe) {
      const double n = total_weight;
      const double v = MultiProbeShareModel(Params().probes, n).variance;
      return std::max(0.0, (n - 1) * (n - 1) / (v * n) - 1);
    }
    return traits_->balance != BalanceModel::kBinomial
               ? kRingVnodes * total_weight
               : 0;
  }

  const ConformanceTraits* traits_ = nullptr;
};

// Fails unless every owner is one of `algo`'s live nodes.
void ExpectAllLive(const ConsistentHash& algo,
                   const std::vector<NodeId>& owners) {
  const std::vector<NodeId> live = algo.LiveNodes();
  const std::set<NodeId> live_set(live.begin(), live.end());
  size_t bad = 0;
  NodeId example = kInvalidNode;
  for (NodeId o : owners) {
    if (live_set.count(o) == 0) {
      ++bad;
      example = o;
    }
  }
  EXPECT_EQ(bad, 0u) << bad << " keys map to a non-live node, e.g. id "
                     << example << "; live: " << live.size() << " nodes";
}

// -----------------------------------------------------------------------------
// Determinism and liveness
// -----------------------------------------------------------------------------

// DigestSpaceShares, where an algorithm gives it, is each live node's share
// of the digests Lookup answers: checked against 200,000 uniform digests of
// the policy's width (within 6 standard deviations of a binomial count), on
// 10 nodes and, with arbitrary removal, after removing one from the middle
// (ids no longer 0..N-1).
TEST_P(ConformanceTest, DigestSpaceSharesAreLookupsShares) {
  auto algo = MakeBuilt(10);
  ASSERT_TRUE(algo);
  if (caps().arbitrary_removal) {
    ASSERT_TRUE(algo->RemoveNode(3).ok());
  }
  const std::vector<double> shares = algo->DigestSpaceShares();
  if (shares.empty()) {
    EXPECT_EQ(algo->DigestShareSource(), ConsistentHash::ShareSource::kNone);
    GTEST_SKIP() << "no digest-space shares";
  }
  EXPECT_NE(algo->DigestShareSource(), ConsistentHash::ShareSource::kNone);
  const std::vector<NodeId> live = algo->LiveNodes();
  ASSERT_EQ(shares.size(), live.size());
  double sum = 0;
  for (double s : shares) sum += s;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  const HashInfo* h = FindHash(GetParam().hash);
  ASSERT_NE(h, nullptr);
  const uint64_t mask =
      h->bits == 64 ? ~uint64_t{0} : (uint64_t{1} << h->bits) - 1;
  constexpr int kDraws = 200000;
  std::map<NodeId, int> count;
  SplitMix64 rng(20261205);
  for (int i = 0; i < kDraws; ++i) ++count[algo->Lookup(rng() & mask)];
  for (size_t i = 0; i < live.size(); ++i) {
    const double p = shares[i];
    const double sd = std::sqrt(p * (1 - p) / kDraws);
    EXPECT_NEAR(static_cast<double>(count[live[i]]) / kDraws, p,
                6 * sd + 1e-9)
        << "node id " << live[i];
  }
}

TEST_P(ConformanceTest, TwoInstancesMapIdentically) {
  for (size_t n : {size_t{10}, size_t{50}}) {
    auto a = MakeBuilt(n);
    auto b = MakeBuilt(n);
    ASSERT_TRUE(a && b);
    const std::vector<uint64_t> keys = KeyDigests(*a, 10000, 1);
    EXPECT_EQ(keys, KeyDigests(*b, 10000, 1)) << "HashKey differs";
    EXPECT_TRUE(Map(*a, keys) == Map(*b, keys)) << "n=" << n;
  }
}

TEST_P(ConformanceTest, BuildEqualsSuccessiveAddNode) {
  if (!traits_->add_is_not_undo.empty()) {
    GTEST_SKIP() << traits_->add_is_not_undo;
  }
  const size_t n = 20;
  AlgorithmParams params = Params();
  params.table_size = 2003;  // maglev: M fixed for both paths
  auto built = MakeBuilt(n, params);
  auto grown = Make(params);
  ASSERT_TRUE(built && grown);
  const std::vector<NodeSpec> specs = Specs(n);
  for (size_t i = 0; i < n; ++i) {
    absl::StatusOr<NodeId> id = grown->AddNode(specs[i]);
    ASSERT_TRUE(id.ok()) << id.status();
    EXPECT_EQ(*id, i) << "ids are handed out 0, 1, 2, ...";
  }
  EXPECT_EQ(built->LiveNodes(), grown->LiveNodes());
  EXPECT_EQ(built->size(), n);
  const std::vector<uint64_t> keys = KeyDigests(*built, 10000, 2);
  EXPECT_TRUE(Map(*built, keys) == Map(*grown, keys));
}

// Build replaces the node set, whatever the instance went through: ids
// 0..n-1 and the mapping of a fresh instance; a Build that fails (a duplicate
// name within the batch) changes nothing.
TEST_P(ConformanceTest, BuildReplacesTheNodeSet) {
  AlgorithmParams params = Params();
  params.table_size = 1009;  // maglev: the same M for both instances
  params.capacity = 16;      // anchor, dx: room for the added node
  auto used = MakeBuilt(6, params);
  auto fresh = MakeBuilt(4, params);
  ASSERT_TRUE(used && fresh);
  ASSERT_TRUE(used->AddNode(Node("extra")).ok());
  ASSERT_TRUE(used->RemoveNode(used->LiveNodes().back()).ok());
  ASSERT_TRUE(used->RemoveNode(used->LiveNodes().back()).ok());
  const std::vector<uint64_t> keys = KeyDigests(*used, 5000, 3);
  const std::vector<NodeId> before = Map(*used, keys);
  const std::vector<NodeId> live_before = used->LiveNodes();
  std::vector<NodeSpec> dup = Specs(4);
  dup[2].name = "node-0";
  EXPECT_FALSE(used->Build(dup).ok());
  EXPECT_EQ(used->LiveNodes(), live_before);
  EXPECT_TRUE(Map(*used, keys) == before) << "a failed Build changed it";

  ASSERT_TRUE(used->Build(Specs(4)).ok());
  EXPECT_EQ(used->LiveNodes(), (std::vector<NodeId>{0, 1, 2, 3}));
  EXPECT_TRUE(Map(*used, keys) == Map(*fresh, keys));
  EXPECT_EQ(used->NodeName(3), "node-3");
}

TEST_P(ConformanceTest, EveryKeyMapsToALiveNode) {
  Sfc64 rng(0x11);
  for (size_t n : kNodeCounts) {
    auto algo = MakeBuilt(n);
    ASSERT_TRUE(algo);
    const std::vector<uint64_t> keys = KeyDigests(*algo, 2000, 3);
    ExpectAllLive(*algo, Map(*algo, keys));
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(algo->NodeName(static_cast<NodeId>(i)),
                absl::StrCat("node-", i));
    }
    // Remove about half of the nodes (any live node where allowed, else the
    // last), checking after every removal.
    for (size_t r = 0; r < n / 2; ++r) {
      const std::vector<NodeId> live = algo->LiveNodes();
      const NodeId victim =
          caps().arbitrary_removal ? live[rng.Below(live.size())] : live.back();
      ASSERT_TRUE(algo->RemoveNode(victim).ok());
      ASSERT_EQ(algo->size(), live.size() - 1);
      ExpectAllLive(*algo, Map(*algo, keys));
    }
  }
}

// -----------------------------------------------------------------------------
// Disruption
// -----------------------------------------------------------------------------

TEST_P(ConformanceTest, AddNodeMovesTheRightKeys) {
  for (size_t n : kNodeCounts) {
    SCOPED_TRACE(absl::StrCat("N=", n));
    auto algo = MakeBuilt(n);
    ASSERT_TRUE(algo);
    const std::vector<uint64_t> keys = KeyDigests(*algo, kKeys, 4);
    const std::vector<NodeId> before = Map(*algo, keys);
    absl::StatusOr<NodeId> added = algo->AddNode(Node("node-new"));
    ASSERT_TRUE(added.ok()) << added.status();
    EXPECT_EQ(*added, n) << "fresh id after ids 0.." << n - 1;
    const std::vector<NodeId> after = Map(*algo, keys);
    ExpectAllLive(*algo, after);

    size_t moved = 0, moved_elsewhere = 0, on_new = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (after[i] == *added) ++on_new;
      if (before[i] != after[i]) {
        ++moved;
        if (after[i] != *added) ++moved_elsewhere;
      }
    }
    const double m = static_cast<double>(keys.size());
    const double p = 1.0 / static_cast<double>(n + 1);
    if (caps().minimal_disruption) {
      EXPECT_EQ(moved_elsewhere, 0u) << "keys may move only to the new node";
    }
    if (!uniform()) continue;
    // Fraction moved. Minimal: the new node's share, Binomial(m, 1/(N+1)) or,
    // for a ring, Beta-binomial over its v of (N+1) v points; 5 sigma.
    // Modulo: a key stays iff h % N == h % (N+1), probability 1/(N+1), so
    // moved ~ Binomial(m, N/(N+1)); 5 sigma.
    const double sigma_new = CountSigma(m, p, RingPoints(n + 1.0));
    switch (traits_->churn) {
      case Churn::kMinimal:
        EXPECT_NEAR(moved, m * p, 5 * sigma_new)
            << "moved fraction " << moved / m << ", expected " << p;
        break;
      case Churn::kRehash:
        EXPECT_NEAR(moved, m * (1 - p), 5 * CountSigma(m, 1 - p, 0) + 1)
            << "moved fraction " << moved / m << ", expected " << 1 - p;
        break;
      case Churn::kBounded:
        // The new node takes a fair share (6 sigma + 1 % table quantization).
        EXPECT_NEAR(on_new, m * p, 6 * sigma_new + 0.01 * m * p + 1)
            << "new node's share " << on_new / m << ", expected " << p;
        EXPECT_GE(moved, on_new);
        break;
    }
  }
}

TEST_P(ConformanceTest, RemoveNodeMovesTheRightKeys) {
  for (size_t n : {size_t{2}, size_t{10}, size_t{50}}) {
    SCOPED_TRACE(absl::StrCat("N=", n));
    auto algo = MakeBuilt(n);
    ASSERT_TRUE(algo);
    const std::vector<uint64_t> keys = KeyDigests(*algo, kKeys, 5);
    const std::vector<NodeId> before = Map(*algo, keys);

    const NodeId middle = static_cast<NodeId>((n - 1) / 2);  // never the last
    const NodeId last = static_cast<NodeId>(n - 1);
    NodeId victim = middle;
    if (!caps().arbitrary_removal) {
      // Only the last node may leave; a middle one is refused, naming it,
      // and nothing changes.
      absl::Status s = algo->RemoveNode(middle);
      EXPECT_FALSE(s.ok());
      EXPECT_THAT(s.message(), HasSubstr(absl::StrCat(middle)));
      EXPECT_EQ(algo->size(), n);
      EXPECT_TRUE(Map(*algo, keys) == before) << "a refused removal changed "
                                                 "the mapping";
      victim = last;
    }
    ASSERT_TRUE(algo->RemoveNode(victim).ok());
    const std::vector<NodeId> after = Map(*algo, keys);
    ExpectAllLive(*algo, after);
    size_t moved = 0, moved_needlessly = 0, had_victim = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (before[i] == victim) ++had_victim;
      if (before[i] != after[i]) {
        ++moved;
        if (before[i] != victim) ++moved_needlessly;
      }
    }
    EXPECT_GE(moved, had_victim) << "every key of the removed node moves";
    if (caps().minimal_disruption) {
      EXPECT_EQ(moved_needlessly, 0u)
          << "only the removed node's keys may move";
    }
    if (traits_->churn == Churn::kRehash && uniform()) {
      // Removing a middle node shifts every later position: far more than
      // 1/N moves (at least the keys of the nodes after it, about half).
      EXPECT_GT(moved, keys.size() / 3) << "modulo: most keys move";
    }
  }
}

// -----------------------------------------------------------------------------
// Balance
// -----------------------------------------------------------------------------

TEST_P(ConformanceTest, LoadIsBalanced) {
  if (!uniform()) GTEST_SKIP() << GetParam().hash << " is not a uniform hash";
  for (size_t n : {size_t{2}, size_t{10}, size_t{50}, size_t{200}}) {
    SCOPED_TRACE(absl::StrCat("N=", n));
    AlgorithmParams params = Params();
    auto algo = MakeBuilt(n, params);
    ASSERT_TRUE(algo);
    const std::vector<uint64_t> keys = KeyDigests(*algo, kKeys, 6);
    std::vector<size_t> count(n, 0);
    if (traits_->balance == BalanceModel::kCapacity) {
      // Every Place respects the capacity ceil(c k / n) for the k keys
      // placed so far (Mirrokni et al. 2018, §2), computed as
      // ceil(ceil(c k) / n) in integers, which equals ceil(c k / n).
      const auto capacity = [&](size_t placed, size_t nodes) {
        const uint64_t ck = static_cast<uint64_t>(
            std::ceil(params.load_factor * static_cast<double>(placed)));
        return (ck + nodes - 1) / nodes;
      };
      size_t violations = 0;
      for (size_t k = 0; k < keys.size(); ++k) {
        const NodeId owner = algo->Place(keys[k]);
        ASSERT_LT(owner, n);
        if (++count[owner] > capacity(k + 1, n)) ++violations;
      }
      EXPECT_EQ(violations, 0u) << "placements over ceil(c k / n)";
      // Placed keys stay where they were placed.
      std::vector<size_t> recount(n, 0);
      for (uint64_t key : keys) ++recount[algo->Lookup(key)];
      EXPECT_EQ(recount, count) << "Lookup disagrees with Place";
      // After a node change the bound holds for the new node count.
      for (int change = 0; change < 2; ++change) {
        if (change == 0) {
          ASSERT_TRUE(algo->AddNode(Node("node-extra")).ok());
        } else {
          ASSERT_TRUE(algo->RemoveNode(0).ok());
        }
        std::map<NodeId, size_t> load;
        for (uint64_t key : keys) ++load[algo->Lookup(key)];
        for (const auto& [id, keys_on] : load) {
          EXPECT_LE(keys_on, capacity(keys.size(), algo->size()))
              << "node " << id << " after change " << change;
        }
      }
      continue;
    }
    for (uint64_t key : keys) ++count[algo->Lookup(key)];
    const double m = static_cast<double>(keys.size());
    const double p = 1.0 / static_cast<double>(n);
    const double sigma = CountSigma(m, p, RingPoints(n));
    // The spread of all loads against the model (conformance_util.h):
    // within 4 standard errors of its expectation. Not at N = 2, where the
    // statistic has one degree of freedom (chi-squared_1: a 4 SE band would
    // still be crossed 5 % of the time). At N = 10 the exact chi-squared_9
    // tail beyond +4 SE is 0.4 %; at N >= 50 the band is near-normal.
    const auto agg = CheckAggregateBalance(count, sigma * sigma);
    // The band is 4 standard errors of T. agg.se assumes near-normal loads
    // (kurtosis 3); multiprobe's loads have a heavy lower tail, and the
    // standard error of a variance is sqrt((kurtosis - 1) / N): the band
    // widens by that over agg.se (kurtosis of the load: the share's, mixed
    // with the binomial noise's 3).
    double z_limit = 4;
    if (traits_->balance == BalanceModel::kMultiProbe) {
      const MultiProbeShare share = MultiProbeShareModel(params.probes, n);
      const double vs = (m * p) * (m * p) * share.variance;
      const double vb = m * p * (1 - p);
      const double kurtosis =
          (share.kurtosis * vs * vs + 3 * vb * vb + 6 * vs * vb) /
          ((vs + vb) * (vs + vb));
      z_limit = 4 * std::sqrt((kurtosis - 1) / static_cast<double>(n)) / agg.se;
    }
    if (n >= 10) {
      EXPECT_LE(std::abs(agg.z), z_limit)
          << "loads' variance / model variance = " << agg.t
          << " (expected 1 +- " << agg.se << "; band " << z_limit << " SE)";
    }
    // And no node is empty or beyond 10 sigma (gross errors).
    for (size_t i = 0; i < n; ++i) {
      EXPECT_NEAR(count[i], m * p, 10 * sigma) << "node " << i;
    }
  }
}

// The aggregate check fails when one node of 10 gets 1.5x its share on a
// 100-vnode ring (a per-node 6-sigma tolerance would allow +-59 %), and
// passes loads drawn from the model.
TEST(AggregateBalanceTest, CatchesOneNodeAtOneAndAHalfShares) {
  const size_t n = 10;
  const double m = 20000;
  const double sigma = CountSigma(m, 0.1, 100.0 * n);
  // Loads at +-1 sigma around the mean (T = 1): passes.
  std::vector<size_t> typical(n);
  for (size_t i = 0; i < n; ++i) {
    typical[i] = static_cast<size_t>(2000 + (i % 2 ? sigma : -sigma));
  }
  EXPECT_LE(std::abs(CheckAggregateBalance(typical, sigma * sigma).z), 4);
  // One node at 3000 (1.5x), the other nine give up 1000 between them.
  std::vector<size_t> skewed = typical;
  skewed[0] = 3000;
  size_t others = 0;
  for (size_t i = 1; i + 1 < n; ++i) {
    skewed[i] = static_cast<size_t>(typical[i] - 1000.0 / 9);
    others += skewed[i];
  }
  skewed[n - 1] = 20000 - 3000 - others;
  const auto agg = CheckAggregateBalance(skewed, sigma * sigma);
  EXPECT_GT(agg.z, 4) << "T = " << agg.t;
  // Loads that are too even (T = 0: e.g. a fixed-share model where the
  // algorithm claims a ring) fail at larger n.
  std::vector<size_t> even(200, 100);
  EXPECT_LT(CheckAggregateBalance(even, CountSigma(20000, 0.005, 20000) *
                                            CountSigma(20000, 0.005, 20000))
                .z,
            -4);
}

// -----------------------------------------------------------------------------
// Weights
// -----------------------------------------------------------------------------

TEST_P(ConformanceTest, WeightsShapeShares) {
  auto algo = Make();
  ASSERT_TRUE(algo);
  std::vector<NodeSpec> specs = Specs(4);
  const double weights[] = {1, 1, 2, 4};
  for (int i = 0; i < 4; ++i) specs[i].weight = weights[i];
  absl::Status s = algo->Build(specs);
  if (!caps().weights) {
    EXPECT_FALSE(s.ok());
    EXPECT_THAT(s.message(), HasSubstr("weight 2"));
    const NodeSpec heavy = Node("heavy", 2.5);
    ASSERT_TRUE(algo->Build(Specs(3)).ok());
    absl::StatusOr<NodeId> id = algo->AddNode(heavy);
    EXPECT_FALSE(id.ok());
    EXPECT_THAT(id.status().message(), HasSubstr("2.5"));
    EXPECT_EQ(algo->size(), 3u);
    return;
  }
  ASSERT_TRUE(s.ok()) << s;
  if (!uniform()) return;
  const std::vector<uint64_t> keys = KeyDigests(*algo, kKeys, 7);
  std::vector<size_t> count(4, 0);
  for (uint64_t key : keys) ++count[algo->Lookup(key)];
  const double m = static_cast<double>(keys.size());
  for (int i = 0; i < 4; ++i) {
    const double p = weights[i] / 8.0;
    // A ring node of weight w has round(v w) of the v * 8 points.
    const double sigma = CountSigma(m, p, RingPoints(8));
    EXPECT_NEAR(count[i], m * p, 6 * sigma + 0.01 * m * p + 1)
        << "node " << i << " weight " << weights[i] << " share " << count[i] / m
        << ", expected " << p;
  }
}

TEST_P(ConformanceTest, InvalidWeightsAreRejected) {
  auto algo = MakeBuilt(3);
  ASSERT_TRUE(algo);
  for (double w : {0.0, -1.0, std::nan("")}) {
    absl::StatusOr<NodeId> id = algo->AddNode(Node("bad", w));
    EXPECT_FALSE(id.ok()) << "weight " << w;
  }
  EXPECT_EQ(algo->size(), 3u);
}

// -----------------------------------------------------------------------------
// Replicas
// -----------------------------------------------------------------------------

TEST_P(ConformanceTest, Replicas) {
  const size_t n = 9;
  auto algo = Make();
  ASSERT_TRUE(algo);
  std::vector<NodeSpec> specs = Specs(n);
  for (size_t i = 0; i < n; ++i) specs[i].zone = absl::StrCat("zone-", i % 3);
  ASSERT_TRUE(algo->Build(specs).ok());
  const std::vector<uint64_t> keys = KeyDigests(*algo, 2000, 8);
  std::vector<NodeId> out;
  if (!caps().replicas) {
    EXPECT_FALSE(algo->LookupReplicas(keys[0], 2, false, &out).ok());
    return;
  }
  for (size_t r : {size_t{1}, size_t{2}, size_t{3}, n}) {
    for (uint64_t key : keys) {
      ASSERT_TRUE(algo->LookupReplicas(key, r, false, &out).ok());
      ASSERT_EQ(out.size(), r);
      EXPECT_EQ(out[0], algo->Lookup(key));
      EXPECT_EQ(std::set<NodeId>(out.begin(), out.end()).size(), r)
          << "replicas must be distinct";
      for (NodeId id : out) ASSERT_LT(id, n);
    }
  }
  // Prefix: raising r only appends (the list for r is the first r of the
  // list for all n), also with distinct zones.
  std::vector<NodeId> all;
  for (bool zones : {false, true}) {
    for (size_t k = 0; k < keys.size(); k += 8) {
      ASSERT_TRUE(algo->LookupReplicas(keys[k], n, zones, &all).ok());
      for (size_t r = 1; r <= all.size(); ++r) {
        ASSERT_TRUE(algo->LookupReplicas(keys[k], r, zones, &out).ok());
        ASSERT_EQ(out, std::vector<NodeId>(all.begin(), all.begin() + r))
            << "r = " << r << (zones ? " with distinct zones" : "")
            << ": not a prefix of the longer list";
      }
    }
  }
  // Distinct zones: 3 zones, so the first min(r, 3) replicas are in
  // distinct zones; past them (r = 5) the list goes on with other nodes, so
  // it always has r distinct nodes.
  for (size_t r : {size_t{2}, size_t{3}, size_t{5}}) {
    for (size_t k = 0; k < keys.size(); k += 4) {
      ASSERT_TRUE(algo->LookupReplicas(keys[k], r, true, &out).ok());
      ASSERT_EQ(out.size(), r);
      EXPECT_EQ(out[0], algo->Lookup(keys[k]));
      EXPECT_EQ(std::set<NodeId>(out.begin(), out.end()).size(), r);
      std::set<std::string> zones;
      for (size_t i = 0; i < std::min<size_t>(r, 3); ++i) {
        zones.insert(specs[out[i]].zone);
      }
      EXPECT_EQ(zones.size(), std::min<size_t>(r, 3))
          << "the first replicas must be in distinct zones";
    }
  }
  // More replicas than live nodes: an error.
  EXPECT_FALSE(algo->LookupReplicas(keys[0], n + 1, false, &out).ok());
  // After a removal replicas are live (the removed node is avoided), still
  // distinct and led by the owner, also for every live node (r = n - 1).
  if (caps().arbitrary_removal) {
    ASSERT_TRUE(algo->RemoveNode(4).ok());
    const std::vector<NodeId> live = algo->LiveNodes();
    const std::set<NodeId> live_set(live.begin(), live.end());
    for (size_t k = 0; k < keys.size(); k += 4) {
      ASSERT_TRUE(algo->LookupReplicas(keys[k], 3, false, &out).ok());
      EXPECT_EQ(std::count(out.begin(), out.end(), NodeId{4}), 0);
      ASSERT_TRUE(algo->LookupReplicas(keys[k], n - 1, false, &out).ok());
      EXPECT_EQ(std::set<NodeId>(out.begin(), out.end()), live_set);
      EXPECT_EQ(out[0], algo->Lookup(keys[k]));
    }
  }
}

// -----------------------------------------------------------------------------
// Random add/remove sequences against a reference
// -----------------------------------------------------------------------------

// Builds a fresh instance from the live node set and maps a key to the
// incremental instance's id (fresh ids are 0..k-1 in live order).
struct FreshInstance {
  std::unique_ptr<ConsistentHash> algo;
  std::vector<NodeId> ids;  // fresh id -> id in the instance under test
};

TEST_P(ConformanceTest, RandomChurnMatchesReference) {
  AlgorithmParams params = Params();
  params.vnodes = 20;        // ring: keep the model small
  params.table_size = 1009;  // maglev: a fixed M for incremental and fresh
  auto algo = Make(params);
  ASSERT_TRUE(algo);
  std::unique_ptr<ReferenceModel> model =
      MakeReferenceModel(GetParam().algorithm, params);
  const bool stateful = caps().stateful;
  ASSERT_EQ(model != nullptr, traits_->reference_model);

  // History-dependent algorithms: the model replays the same calls, and no
  // fresh instance is built (Capabilities::history_dependent).
  const bool replay = caps().history_dependent;
  ASSERT_TRUE(!replay || model != nullptr)
      << "a history-dependent algorithm needs a replaying reference model";

  Sfc64 rng(0xc0ffee);
  std::vector<NodeSpec> specs;  // by id
  std::vector<std::string> removed_names;
  auto add = [&](NodeSpec spec) {
    absl::StatusOr<NodeId> id = algo->AddNode(spec);
    ASSERT_TRUE(id.ok()) << id.status();
    ASSERT_EQ(*id, specs.size());
    specs.push_back(spec);
    if (replay) model->Added(*id, spec);
  };
  int next_name = 0;
  for (int i = 0; i < 6; ++i) add(Node(absl::StrCat("n", next_name++)));

  const std::vector<uint64_t> keys = KeyDigests(*algo, 400, 9);
  if (stateful) {
    // The model places the same keys on the same initial nodes.
    std::vector<LiveNode> initial;
    for (NodeId id : algo->LiveNodes()) initial.push_back({id, specs[id]});
    model->Rebuild(initial);
    for (uint64_t key : keys) {
      ASSERT_EQ(algo->Place(key), model->Place(key));
    }
  }
  constexpr int kSteps = 200;
  for (int step = 0; step < kSteps; ++step) {
    const std::vector<NodeId> live = algo->LiveNodes();
    const bool do_add =
        live.size() <= 1 || (live.size() < 24 && rng.Below(2) == 0);
    if (do_add) {
      NodeSpec spec;
      if (!removed_names.empty() && rng.Below(4) == 0) {
        // Reuse a removed name: a fresh id, the same points/scores.
        const size_t j = rng.Below(removed_names.size());
        spec.name = removed_names[j];
        removed_names.erase(removed_names.begin() + j);
      } else {
        spec.name = absl::StrCat("n", next_name++);
      }
      if (caps().weights && rng.Below(3) == 0) {
        spec.weight = rng.Below(2) == 0 ? 2.0 : 0.5;
      }
      add(spec);
    } else {
      const NodeId victim =
          caps().arbitrary_removal ? live[rng.Below(live.size())] : live.back();
      ASSERT_TRUE(algo->RemoveNode(victim).ok());
      removed_names.push_back(specs[victim].name);
      if (replay) model->Removed(victim);
    }
    ASSERT_FALSE(HasFailure()) << "step " << step;
    if (replay) {
      size_t model_mismatch = 0;
      for (uint64_t key : keys) {
        if (model->Lookup(key) != algo->Lookup(key)) ++model_mismatch;
      }
      ASSERT_EQ(model_mismatch, 0u)
          << "step " << step << ": differs from the replaying reference model";
      continue;
    }

    const std::vector<NodeId> now = algo->LiveNodes();
    std::vector<LiveNode> live_nodes;
    std::vector<NodeSpec> live_specs;
    for (NodeId id : now) {
      live_nodes.push_back({id, specs[id]});
      live_specs.push_back(specs[id]);
    }
    // The incremental instance equals a fresh instance built from the live
    // node set (for a stateful one: that also placed the same keys in the
    // same order), mapped back to ids through the live order.
    auto fresh = Make(params);
    ASSERT_TRUE(fresh);
    ASSERT_TRUE(fresh->Build(live_specs).ok());
    if (model) model->Rebuild(live_nodes);
    if (stateful) {
      // A fresh stateful instance and the incremental one, both placing the
      // keys now, in the same order, choose the same nodes; and so does the
      // independent model, which replays its own placements on the new node
      // set. Unplaced keys too (where Place would put them now).
      for (uint64_t key : keys) {
        const NodeId f = fresh->Place(key);
        const NodeId a = algo->Lookup(key);
        ASSERT_EQ(now[f], a) << "step " << step;
        ASSERT_EQ(model->Lookup(key), a)
            << "step " << step << ": differs from the reference model";
      }
      for (uint64_t key : KeyDigests(*algo, 50, 1000 + step)) {
        ASSERT_EQ(model->Lookup(key), algo->Lookup(key))
            << "step " << step << ": unplaced key";
      }
      continue;
    }
    size_t fresh_mismatch = 0, model_mismatch = 0;
    for (uint64_t key : keys) {
      const NodeId a = algo->Lookup(key);
      if (now[fresh->Lookup(key)] != a) ++fresh_mismatch;
      if (model && model->Lookup(key) != a) ++model_mismatch;
    }
    ASSERT_EQ(fresh_mismatch, 0u)
        << "step " << step << ": incremental != rebuilt from the live set";
    ASSERT_EQ(model_mismatch, 0u)
        << "step " << step << ": differs from the reference model";
  }
}

// -----------------------------------------------------------------------------
// Errors
// -----------------------------------------------------------------------------

TEST_P(ConformanceTest, RemovingUnknownOrRemovedIdsFails) {
  auto algo = MakeBuilt(5);
  ASSERT_TRUE(algo);
  const std::vector<uint64_t> keys = KeyDigests(*algo, 1000, 10);
  const std::vector<NodeId> before = Map(*algo, keys);
  for (NodeId bad : {NodeId{5}, NodeId{999}, kInvalidNode}) {
    absl::Status s = algo->RemoveNode(bad);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_THAT(s.message(), HasSubstr(absl::StrCat(bad)));
  }
  EXPECT_TRUE(Map(*algo, keys) == before);
  ASSERT_TRUE(algo->RemoveNode(4).ok());  // the last: allowed everywhere
  absl::Status again = algo->RemoveNode(4);
  EXPECT_FALSE(again.ok());
  EXPECT_THAT(again.message(), HasSubstr("4"));
  EXPECT_EQ(algo->size(), 4u);
  // A removed name can come back, with a fresh id.
  absl::StatusOr<NodeId> back = algo->AddNode(Node("node-4"));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, 5u);
  if (!traits_->add_is_not_undo.empty()) {
    ExpectAllLive(*algo, Map(*algo, keys));
    GTEST_SKIP() << "re-adding does not restore the keys: "
                 << traits_->add_is_not_undo;
  }
  EXPECT_TRUE(Map(*algo, keys) == [&] {
    std::vector<NodeId> v = before;
    for (NodeId& o : v) o = o == 4 ? 5 : o;
    return v;
  }()) << "re-adding a name restores its keys under the fresh id";
}

TEST_P(ConformanceTest, BadNamesAreRejected) {
  auto algo = Make();
  ASSERT_TRUE(algo);
  std::vector<NodeSpec> dup = Specs(4);
  dup[3].name = "node-1";
  absl::Status s = algo->Build(dup);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("node-1"));
  std::vector<NodeSpec> empty = Specs(3);
  empty[1].name = "";
  EXPECT_FALSE(algo->Build(empty).ok());

  ASSERT_TRUE(algo->Build(Specs(3)).ok());
  const std::vector<uint64_t> keys = KeyDigests(*algo, 1000, 11);
  const std::vector<NodeId> before = Map(*algo, keys);
  absl::StatusOr<NodeId> d = algo->AddNode(Node("node-2"));
  EXPECT_FALSE(d.ok());
  EXPECT_THAT(d.status().message(), HasSubstr("node-2"));
  EXPECT_FALSE(algo->AddNode(Node("")).ok());
  EXPECT_EQ(algo->size(), 3u);
  EXPECT_TRUE(Map(*algo, keys) == before) << "failed adds changed the mapping";
  // The next good add still gets the next id.
  absl::StatusOr<NodeId> ok = algo->AddNode(Node("node-3"));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 3u);
}

TEST_P(ConformanceTest, StatefulPlacementIsDeterministic) {
  auto a = MakeBuilt(10);
  auto b = MakeBuilt(10);
  ASSERT_TRUE(a && b);
  const std::vector<uint64_t> keys = KeyDigests(*a, 5000, 12);
  for (uint64_t key : keys) ASSERT_EQ(a->Place(key), b->Place(key));
  if (!caps().stateful) {
    // Place is Lookup for a stateless algorithm.
    for (uint64_t key : keys) ASSERT_EQ(a->Place(key), a->Lookup(key));
  }
}

// PlaceBatch is Place in order, duplicates included, on a fresh instance and
// on one that already holds placements, and leaves the same state behind.
TEST_P(ConformanceTest, PlaceBatchEqualsPlaceInOrder) {
  auto a = MakeBuilt(20);
  auto b = MakeBuilt(20);
  ASSERT_TRUE(a && b);
  std::vector<uint64_t> keys = KeyDigests(*a, 3000, 21);
  for (size_t i = 0; i < 300; ++i) keys.push_back(keys[i * 7]);  // repeats
  for (int round = 0; round < 2; ++round) {
    std::vector<NodeId> batch(keys.size(), kInvalidNode);
    a->PlaceBatch(keys, batch);
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_EQ(batch[i], b->Place(keys[i]))
          << "round " << round << " key " << i;
    }
    for (uint64_t key : KeyDigests(*a, 500, 22 + round)) {
      ASSERT_EQ(a->Lookup(key), b->Lookup(key));
    }
    keys = KeyDigests(*a, 1000, 30 + round);  // then more keys on top
  }
}

// -----------------------------------------------------------------------------
// Batched lookups
// -----------------------------------------------------------------------------

// The batch sizes LookupBatch is checked at: one key, a partial group, one
// group (kLookupGroup = 16), a group and a partial one (GroupedLookup starts
// the partial group while finishing the first), several groups, and many
// groups with a tail.
constexpr size_t kBatchSizes[] = {1, 7, 16, 24, 64, 1000};

// Fails unless LookupBatch over `keys`, cut into batches of every size of
// kBatchSizes, returns Lookup's owner for every key; and the same for the
// string path over `strings` (LookupBatch of strings against
// Lookup(HashKey)). `when` names the state in the message.
void ExpectBatchesEqualLookup(const ConsistentHash& algo,
                              const std::vector<uint64_t>& keys,
                              const std::vector<std::string>& strings,
                              const std::string& when) {
  const std::vector<NodeId> want = LookupAll(algo, keys);
  for (size_t size : kBatchSizes) {
    std::vector<NodeId> got(keys.size(), kInvalidNode);
    for (size_t i = 0; i < keys.size(); i += size) {
      const size_t m = std::min(size, keys.size() - i);
      algo.LookupBatch(std::span<const uint64_t>(keys).subspan(i, m),
                       std::span<NodeId>(got).subspan(i, m));
    }
    size_t bad = 0;
    size_t first = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (got[i] != want[i] && bad++ == 0) first = i;
    }
    EXPECT_EQ(bad, 0u) << when << ", batches of " << size << ": " << bad
                       << " of " << keys.size() << " keys differ, first key "
                       << first << " (digest " << keys[first]
                       << "): LookupBatch " << got[first] << ", Lookup "
                       << want[first];
  }
  std::vector<std::string_view> views(strings.begin(), strings.end());
  std::vector<NodeId> got(views.size(), kInvalidNode);
  for (size_t size : kBatchSizes) {
    for (size_t i = 0; i < views.size(); i += size) {
      const size_t m = std::min(size, views.size() - i);
      algo.LookupBatch(std::span<const std::string_view>(views).subspan(i, m),
                       std::span<NodeId>(got).subspan(i, m));
    }
    size_t bad = 0;
    for (size_t i = 0; i < views.size(); ++i) {
      bad += got[i] != algo.Lookup(algo.HashKey(views[i]));
    }
    EXPECT_EQ(bad, 0u) << when << ", string batches of " << size << ": " << bad
                       << " of " << views.size() << " keys differ";
  }
}

// LookupBatch equals Lookup on every key, for every batch size, on fresh
// instances of several sizes and after removals and additions (the states
// where anchor, dx and memento take their rehash, walk and replacement
// paths); a stateful algorithm with some keys placed (placed keys answer
// from the map, the others route) and an empty batch writes nothing.
TEST_P(ConformanceTest, LookupBatchEqualsLookup) {
  Sfc64 rng(0xba7c4);
  for (size_t n : {size_t{1}, size_t{10}, size_t{50}}) {
    auto algo = MakeBuilt(n);
    ASSERT_TRUE(algo);
    std::vector<uint64_t> keys = KeyDigests(*algo, 3000, 41);
    keys.push_back(0);
    keys.push_back(~uint64_t{0});
    std::vector<std::string> strings;
    for (size_t i = 0; i < 1000; ++i) {
      strings.push_back(absl::StrCat("batch-", i));
    }
    if (caps().stateful) {
      for (size_t i = 0; i < keys.size(); i += 3) algo->Place(keys[i]);
    }
    ExpectBatchesEqualLookup(*algo, keys, strings,
                             absl::StrCat("N = ", n, ", built"));
    if (n == 1) continue;
    // Remove 40 % (any live node where allowed, else the last), then add
    // back all but one (re-adds where the algorithm keeps removed buckets).
    const size_t removals = n * 2 / 5;
    for (size_t r = 0; r < removals; ++r) {
      const std::vector<NodeId> live = algo->LiveNodes();
      const NodeId victim =
          caps().arbitrary_removal ? live[rng.Below(live.size())] : live.back();
      ASSERT_TRUE(algo->RemoveNode(victim).ok());
    }
    ExpectBatchesEqualLookup(
        *algo, keys, strings,
        absl::StrCat("N = ", n, ", after ", removals, " removals"));
    for (size_t a = 0; a + 1 < removals; ++a) {
      ASSERT_TRUE(algo->AddNode(Node(absl::StrCat("extra-", a))).ok());
    }
    ExpectBatchesEqualLookup(
        *algo, keys, strings,
        absl::StrCat("N = ", n, ", after ", removals, " removals and ",
                     removals - 1, " additions"));
  }
  auto algo = MakeBuilt(5);
  ASSERT_TRUE(algo);
  std::vector<NodeId> untouched = {kInvalidNode};
  algo->LookupBatch(std::span<const uint64_t>(),
                    std::span<NodeId>(untouched).subspan(0, 0));
  EXPECT_EQ(untouched[0], kInvalidNode);
}

// The specialized LookupBatch paths at the sizes where they take their
// non-trivial branches: a ring of 6 * 10^5 points in both line layouts
// (compact by default there; crowded buckets and fingerprint ties take the
// binary search), Maglev at M = 5000011 (Envoy's largest table: 10 MB,
// prefetched) and at M = 1000003 (2 MB: the plain loop),
// anchor, dx and memento with 30 % of 10^5 nodes removed (rehash rounds,
// sequence walks, replacement walks), multiprobe at 10^5 nodes and
// bounded_load with its nodes full (the walk past full nodes), batched both
// as Lookup and as LookupUnplaced.
std::vector<uint64_t> RandomDigests(size_t count, uint64_t seed) {
  Sfc64 rng(seed);
  std::vector<uint64_t> keys(count);
  for (uint64_t& k : keys) k = rng();
  return keys;
}

void ExpectBatchEqualsLookupAtScale(const ConsistentHash& algo,
                                    const std::string& when) {
  const std::vector<uint64_t> keys = RandomDigests(50000, 0x5ca1e);
  ExpectBatchesEqualLookup(algo, keys, {}, when);
}

std::unique_ptr<ConsistentHash> MakeLarge(std::string_view name,
                                          AlgorithmParams params, size_t n,
                                          double removed_fraction) {
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
      MakeAlgorithm(name, params);
  EXPECT_TRUE(algo.ok()) << algo.status();
  if (!algo.ok()) return nullptr;
  EXPECT_TRUE((*algo)->Build(Specs(n)).ok());
  Sfc64 rng(0x7e57);
  const size_t removals = static_cast<size_t>(removed_fraction * n);
  std::vector<NodeId> live = (*algo)->LiveNodes();
  for (size_t r = 0; r < removals; ++r) {
    const size_t at = rng.Below(live.size());
    EXPECT_TRUE((*algo)->RemoveNode(live[at]).ok());
    live[at] = live.back();
    live.pop_back();
  }
  return *std::move(algo);
}

TEST(LookupBatchAtScaleTest, RingBothLayouts) {
  // 6 * 10^5 points: 2^16 compact lines (4 MiB), or 2^17 wide ones, both
  // at least kPrefetchPaysFromBytes, so that LookupBatch prefetches.
  auto ring = std::make_unique<Ring<Xxh64>>(100);
  ASSERT_TRUE(ring->Build(Specs(6000)).ok());
  ASSERT_TRUE(ring->compact_lines());
  ExpectBatchEqualsLookupAtScale(*ring, "ring, 6 * 10^5 points, compact");
  ring->SetLineLayoutForTesting(Ring<Xxh64>::LineLayout::kWide);
  ASSERT_FALSE(ring->compact_lines());
  ExpectBatchEqualsLookupAtScale(*ring, "ring, 6 * 10^5 points, wide");
  Ring<Murmur3_32> ring32(100);
  ASSERT_TRUE(ring32.Build(Specs(6000)).ok());
  ExpectBatchEqualsLookupAtScale(ring32, "ring, 32-bit, 6 * 10^5 points");
}

TEST(LookupBatchAtScaleTest, MaglevLargeTables) {
  for (uint64_t m : {uint64_t{1000003}, uint64_t{5000011}}) {
    AlgorithmParams params;
    params.table_size = m;
    auto algo = MakeLarge("maglev", params, 1000, 0.1);
    ASSERT_TRUE(algo);
    ExpectBatchEqualsLookupAtScale(*algo, absl::StrCat("maglev, M = ", m));
  }
}

TEST(LookupBatchAtScaleTest, TableAlgorithmsWithRemovedBuckets) {
  for (std::string name : {"anchor", "dx", "memento", "multiprobe"}) {
    AlgorithmParams params;
    params.capacity = name == "anchor" ? 150000 : 0;
    auto algo = MakeLarge(name, params, 100000, name == "multiprobe" ? 0 : 0.3);
    ASSERT_TRUE(algo);
    ExpectBatchEqualsLookupAtScale(
        *algo, absl::StrCat(name, ", 10^5 nodes, 30 % removed"));
  }
}

TEST(LookupBatchAtScaleTest, BoundedLoadFullNodes) {
  // 100 points per node: ring lines under kPrefetchPaysFromBytes (the plain
  // loops); 1200: 6 * 10^5 points, whose lines the batches prefetch.
  for (uint32_t vnodes : {100u, 1200u}) {
    SCOPED_TRACE(absl::StrCat(vnodes, " points per node"));
    BoundedLoad<Xxh64> algo(vnodes, 1.1);
    ASSERT_TRUE(algo.Build(Specs(500)).ok());
    // 99,800 keys: the capacity ceil(1.1 (m + 1) / 500) is 220 for the last
    // placements and the next one, so nodes that reached it are full.
    const std::vector<uint64_t> placed = RandomDigests(99800, 0x91ace);
    std::vector<NodeId> sink(placed.size());
    algo.PlaceBatch(placed, sink);
    ExpectBatchEqualsLookupAtScale(algo, "bounded_load, 500 nodes, full");
    std::vector<uint64_t> keys = RandomDigests(20000, 0xf4e5);
    keys.insert(keys.end(), placed.begin(), placed.begin() + 5000);
    std::vector<NodeId> got(keys.size());
    for (size_t size : kBatchSizes) {
      for (size_t i = 0; i < keys.size(); i += size) {
        const size_t m = std::min(size, keys.size() - i);
        algo.LookupUnplacedBatch(
            std::span<const uint64_t>(keys).subspan(i, m),
            std::span<NodeId>(got).subspan(i, m));
      }
      size_t bad = 0;
      for (size_t i = 0; i < keys.size(); ++i) {
        const NodeId want = algo.LookupUnplaced(keys[i]);
        bad += got[i] != want;
      }
      EXPECT_EQ(bad, 0u) << "LookupUnplacedBatch, batches of " << size;
    }
    // The walk past full nodes is taken: some fresh keys route away from
    // their ring successor's node.
    const std::span<const uint64_t> points = algo.ring_points();
    size_t walked = 0;
    for (size_t i = 0; i < 20000; ++i) {
      size_t at = static_cast<size_t>(
          std::upper_bound(points.begin(), points.end(), keys[i]) -
          points.begin());
      if (at == points.size()) at = 0;
      walked += algo.LookupUnplaced(keys[i]) != algo.ring_owners()[at];
    }
    EXPECT_GT(walked, 0u);
  }
}

// -----------------------------------------------------------------------------
// Golden checksums per algorithm x hash
// -----------------------------------------------------------------------------

TEST_P(ConformanceTest, GoldenChecksum) {
  AlgorithmParams params;  // defaults except the hash (no Traits::capacity)
  params.hash = GetParam().hash;
  auto algo = Make(params);
  ASSERT_TRUE(algo);
  absl::StatusOr<uint64_t> sum = MappingChecksum(*algo);
  ASSERT_TRUE(sum.ok()) << sum.status();
  if (::chbench::testing::RegenerateGolden()) {
    std::printf("%s: {\"%s\", 0x%016llxULL},\n",
                GetParam().algorithm.c_str(), GetParam().hash.c_str(),
                static_cast<unsigned long long>(*sum));
    return;
  }
  for (const HashGolden& g : GetParam().info->goldens) {
    if (g.hash == GetParam().hash) {
      EXPECT_EQ(*sum, g.checksum) << absl::StrFormat(
          "mapping changed: got 0x%016x; if intended, regenerate with "
          "CHBENCH_REGENERATE_GOLDEN=1",
          *sum);
      return;
    }
  }
  ADD_FAILURE() << absl::StrFormat(
      "the catalogue row has no golden for %s/%s (got 0x%016x); regenerate "
      "with CHBENCH_REGENERATE_GOLDEN=1",
      GetParam().algorithm, GetParam().hash, *sum);
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  return absl::StrCat(info.param.algorithm, "_", info.param.hash);
}

INSTANTIATE_TEST_SUITE_P(AllAlgorithms, ConformanceTest,
                         ::testing::ValuesIn(CasesOf(Algorithms())), CaseName);

// A catalogue with one more, test-only, algorithm: its row alone brings it
// into the suite (only the new row is instantiated here; the others are
// the AllAlgorithms cases).
constexpr auto kToyRows = CatalogueRows(kToyCatalogue);
INSTANTIATE_TEST_SUITE_P(
    TestOnlyCatalogue, ConformanceTest,
    ::testing::ValuesIn(CasesOf(std::span<const AlgorithmInfo>(kToyRows)
                                    .subspan(Algorithms().size()))),
    CaseName);

// bounded_load identifies placed keys by digest; with 32-bit digests distinct
// keys would merge, so its factory refuses them.
TEST(BoundedLoadHashTest, Refuses32BitHashes) {
  for (const HashInfo& h : HashFunctions()) {
    AlgorithmParams params;
    params.hash = std::string(h.name);
    absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
        MakeAlgorithm("bounded_load", params);
    EXPECT_EQ(algo.ok(), h.bits == 64) << h.name;
    if (!algo.ok()) {
      EXPECT_THAT(algo.status().message(), HasSubstr("32-bit digests"));
    }
  }
}

}  // namespace
}  // namespace chbench
