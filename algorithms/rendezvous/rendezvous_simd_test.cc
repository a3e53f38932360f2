// Copyright 2026 The chbench Authors.

#include "algorithms/rendezvous/rendezvous_simd.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "algorithms/rendezvous/rendezvous.h"
#include "algorithms/util/random.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

#if CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS

using Scorer = rendezvous_internal::PairScorer<Xxh64>;

// The kernels are called directly, so they are tested in every build, but
// only on a CPU that can run them (the check Rendezvous<Xxh64> uses).
bool CpuHasAvx512() { return rendezvous_internal::Avx512KernelsAvailable(); }

// The scalar definition: the first index of the largest score.
size_t ScalarArgMax(uint64_t pk, const std::vector<uint64_t>& pn) {
  size_t best = 0;
  for (size_t i = 1; i < pn.size(); ++i) {
    if (Scorer::Score(pk, pn[i]) > Scorer::Score(pk, pn[best])) best = i;
  }
  return best;
}

std::vector<uint64_t> RandomNodes(size_t n, SplitMix64& rng) {
  std::vector<uint64_t> pn(n);
  for (uint64_t& x : pn) x = Scorer::PrepareNode(rng());
  return pn;
}

// Sizes around every boundary of the kernel: lanes (8), accumulators (32)
// and the masked tail.
std::vector<size_t> Sizes() {
  std::vector<size_t> sizes;
  for (size_t n = 1; n <= 100; ++n) sizes.push_back(n);
  for (size_t n : {127, 128, 129, 1000, 1031, 4096}) sizes.push_back(n);
  return sizes;
}

TEST(RendezvousAvx512Test, ArgMaxEqualsTheScalarLoop) {
  if (!CpuHasAvx512()) GTEST_SKIP() << "no AVX-512F/DQ on this CPU";
  SplitMix64 rng(71);
  for (size_t n : Sizes()) {
    const std::vector<uint64_t> pn = RandomNodes(n, rng);
    for (int k = 0; k < 50; ++k) {
      const uint64_t pk = Scorer::PrepareKey(rng());
      ASSERT_EQ(rendezvous_internal::ArgMaxXxh64Avx512(pk, pn.data(), n),
                ScalarArgMax(pk, pn))
          << "n " << n << " key " << k;
    }
  }
}

// Equal node values score equally: the first of them must win, wherever the
// copies sit (same lane, other accumulator, later block, tail).
TEST(RendezvousAvx512Test, ArgMaxTiesGoToTheFirstIndex) {
  if (!CpuHasAvx512()) GTEST_SKIP() << "no AVX-512F/DQ on this CPU";
  SplitMix64 rng(72);
  for (size_t n : Sizes()) {
    if (n < 2) continue;
    for (int k = 0; k < 20; ++k) {
      std::vector<uint64_t> pn = RandomNodes(n, rng);
      const uint64_t pk = Scorer::PrepareKey(rng());
      const size_t winner = ScalarArgMax(pk, pn);
      const size_t a = rng() % n;
      const size_t b = rng() % n;
      pn[a] = pn[winner];
      pn[b] = pn[winner];
      const size_t first = std::min({winner, a, b});
      ASSERT_EQ(ScalarArgMax(pk, pn), first);
      ASSERT_EQ(rendezvous_internal::ArgMaxXxh64Avx512(pk, pn.data(), n), first)
          << "n " << n << " copies at " << a << ", " << b;
    }
    // All nodes equal.
    const std::vector<uint64_t> same(n, Scorer::PrepareNode(rng()));
    ASSERT_EQ(rendezvous_internal::ArgMaxXxh64Avx512(Scorer::PrepareKey(1),
                                                     same.data(), n),
              0u);
  }
}

// The replica lists' buffer: every score as the scalar scorer computes it,
// nothing written past n; the first arg-max of a buffer as a scalar loop
// finds it, with ties (copies of the maximum) and zeros.
TEST(RendezvousAvx512Test, ScoreBufferAndFirstArgMaxEqualTheScalarLoops) {
  if (!CpuHasAvx512()) GTEST_SKIP() << "no AVX-512F/DQ on this CPU";
  SplitMix64 rng(73);
  for (size_t n : Sizes()) {
    const std::vector<uint64_t> pn = RandomNodes(n, rng);
    const uint64_t pk = Scorer::PrepareKey(rng());
    std::vector<uint64_t> scores(n + 1, 12345);
    rendezvous_internal::ScoresXxh64Avx512(pk, pn.data(), n, scores.data());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(scores[i], Scorer::Score(pk, pn[i])) << "n " << n;
    }
    ASSERT_EQ(scores[n], 12345u) << "written past n = " << n;
    scores.pop_back();
    auto first_max = [](const std::vector<uint64_t>& v) {
      return static_cast<size_t>(std::max_element(v.begin(), v.end()) -
                                 v.begin());  // the first of equal maxima
    };
    ASSERT_EQ(rendezvous_internal::FirstArgMaxAvx512(scores.data(), n),
              first_max(scores));
    if (n >= 2) {
      const size_t copy = rng() % n;
      scores[copy] = scores[first_max(scores)];
      ASSERT_EQ(rendezvous_internal::FirstArgMaxAvx512(scores.data(), n),
                first_max(scores));
    }
    std::vector<uint64_t> zeros(n, 0);
    ASSERT_EQ(rendezvous_internal::FirstArgMaxAvx512(zeros.data(), n), 0u);
  }
}

// The weighted loop's filter: the same visits, in the same order, as the
// scalar loop, while the visitor moves the floor up, down, to 0 and to the
// top.
TEST(RendezvousAvx512Test, ScanVisitsWhatTheScalarLoopVisits) {
  if (!CpuHasAvx512()) GTEST_SKIP() << "no AVX-512F/DQ on this CPU";
  SplitMix64 rng(73);
  for (size_t n : Sizes()) {
    const std::vector<uint64_t> pn = RandomNodes(n, rng);
    for (int k = 0; k < 20; ++k) {
      const uint64_t pk = Scorer::PrepareKey(rng());
      const uint64_t seed = rng();
      const size_t begin = k % 3 == 0 ? 0 : (k % 3 == 1 ? 1 : n / 2);
      // The floor after each visit depends only on the visits so far.
      auto next_floor = [](SplitMix64& r) -> uint64_t {
        switch (r() % 5) {
          case 0:
            return 0;
          case 1:
            return ~uint64_t{0};
          case 2:
            return r() >> 1;
          default:
            return ~uint64_t{0} - (r() >> 3);  // a few visits per lookup
        }
      };
      std::vector<std::pair<size_t, uint64_t>> want;
      {
        SplitMix64 r(seed);
        uint64_t floor = ~uint64_t{0} - (r() >> 2);
        for (size_t i = begin; i < n; ++i) {
          const uint64_t s = Scorer::Score(pk, pn[i]);
          if (s >= floor) {
            want.push_back({i, s});
            floor = next_floor(r);
          }
        }
      }
      std::vector<std::pair<size_t, uint64_t>> got;
      SplitMix64 r(seed);
      uint64_t floor = ~uint64_t{0} - (r() >> 2);
      rendezvous_internal::ScanAtOrAboveXxh64Avx512(
          pk, pn.data(), begin, n, &floor, [&](size_t i, uint64_t s) {
            got.push_back({i, s});
            floor = next_floor(r);
          });
      ASSERT_EQ(got, want) << "n " << n << " begin " << begin;
    }
  }
}

// The ratio pass: the first index of the largest RatioKey and the second
// largest key with multiplicity, as the scalar definition computes them,
// for random weights and for repeated nodes and weights (ties: the first
// index wins and the second key equals the first).
TEST(RendezvousAvx512Test, RatioArgMax2EqualsTheScalarDefinition) {
  if (!CpuHasAvx512()) GTEST_SKIP() << "no AVX-512F/DQ on this CPU";
  SplitMix64 rng(79);
  for (size_t n : Sizes()) {
    for (int ties = 0; ties < 2; ++ties) {
      std::vector<uint64_t> pn = RandomNodes(n, rng);
      std::vector<double> w(n);
      for (double& x : w) x = 0.25 + (rng() % 1000) / 100.0;
      if (ties == 1) {  // every node a copy of one of three
        for (size_t i = 3; i < n; ++i) {
          pn[i] = pn[i % 3];
          w[i] = w[i % 3];
        }
      }
      for (int k = 0; k < 20; ++k) {
        const uint64_t pk = Scorer::PrepareKey(rng());
        size_t want = 0;
        uint64_t top = 0;
        uint64_t want_second = 0;
        for (size_t i = 0; i < n; ++i) {
          const uint64_t key =
              Rendezvous<Xxh64>::RatioKey(Scorer::Score(pk, pn[i]), w[i]);
          if (i == 0 || key > top) {
            want_second = i == 0 ? 0 : top;
            top = key;
            want = i;
          } else {
            want_second = std::max(want_second, key);
          }
        }
        uint64_t second = 1;
        ASSERT_EQ(rendezvous_internal::ArgMax2RatioXxh64Avx512(
                      pk, pn.data(), w.data(), n, &second),
                  want)
            << "n " << n << " ties " << ties;
        ASSERT_EQ(second, want_second) << "n " << n << " ties " << ties;
      }
    }
  }
}

// The candidate pass: visit(i) for exactly the nodes whose score reaches
// their threshold, in ascending order, for thresholds that take none, a
// few, every node, and many (more blocks with hits than the kernel lists
// before visiting).
TEST(RendezvousAvx512Test, ScanCandidatesEqualsTheScalarDefinition) {
  if (!CpuHasAvx512()) GTEST_SKIP() << "no AVX-512F/DQ on this CPU";
  SplitMix64 rng(83);
  for (size_t n : Sizes()) {
    const std::vector<uint64_t> pn = RandomNodes(n, rng);
    for (int kind = 0; kind < 5; ++kind) {
      std::vector<uint64_t> threshold(n);
      for (uint64_t& t : threshold) {
        switch (kind) {
          case 0:
            t = ~uint64_t{0};  // a score of 2^64 - 1 only
            break;
          case 1:
            t = ~uint64_t{0} - (rng() >> 4);  // a few per scan
            break;
          case 2:
            t = 0;  // every node
            break;
          case 3:
            t = rng() >> 1;  // about three in four
            break;
          default:
            t = rng() % 2 == 0 ? 0 : ~uint64_t{0};  // half, mixed
        }
      }
      for (int k = 0; k < 20; ++k) {
        const uint64_t pk = Scorer::PrepareKey(rng());
        std::vector<size_t> want;
        for (size_t i = 0; i < n; ++i) {
          if (Scorer::Score(pk, pn[i]) >= threshold[i]) want.push_back(i);
        }
        std::vector<size_t> got;
        rendezvous_internal::ScanCandidatesXxh64Avx512(
            pk, pn.data(), threshold.data(), n,
            [&](size_t i) { got.push_back(i); });
        ASSERT_EQ(got, want) << "n " << n << " kind " << kind;
      }
    }
  }
}

#endif  // CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS

}  // namespace
}  // namespace chbench
