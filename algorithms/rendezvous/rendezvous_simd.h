// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: rendezvous/rendezvous_simd.h
// -----------------------------------------------------------------------------
//
// AVX-512 loops for `Rendezvous<Xxh64>` (rendezvous.h): the register-only
// XXH64 pair score of rendezvous_internal::PairScorer<Xxh64>, eight nodes per
// 512-bit vector (AVX-512F for the rotates, shifts and unsigned compares,
// AVX-512DQ for the 64-bit multiplications).
//
//   ArgMaxXxh64Avx512(pk, pn, n)
//       The first index of the largest Score(pk, pn[i]), i in [0, n): the
//       unweighted owner. Four accumulators of eight lanes keep, per lane,
//       the best score and the block where it first appeared (strict >, so
//       the earlier block stays); the end reduces them to the largest score
//       and, among the lanes holding it, the smallest index.
//   ArgMax2RatioXxh64Avx512(pk, pn, w, n, &second)
//       The same with the keys Rendezvous<Xxh64>::RatioKey(score, w[i]),
//       and also the second largest key (with multiplicity): the weighted
//       lookup's ratio pass (few nodes).
//   ScanCandidatesXxh64Avx512(pk, pn, threshold, n, visit)
//       Calls visit(i) for i = 0 .. n-1 in ascending order where
//       Score(pk, pn[i]) >= threshold[i]: the weighted lookup's candidate
//       pass (hundreds to thousands of nodes).
//   ScoresXxh64Avx512(pk, pn, n, scores)
//       scores[i] = Score(pk, pn[i]) for i in [0, n): the replica lists'
//       score buffer.
//   FirstArgMaxAvx512(scores, n)
//       The first index of the largest of scores[0, n): one pass for the
//       maximum, one for its first position (replica lists: one per place).
//   ScanAtOrAboveXxh64Avx512(pk, pn, begin, n, floor, visit)
//       Calls visit(i, score) for i = begin .. n-1 in ascending order where
//       Score(pk, pn[i]) >= *floor, reading *floor again after every call
//       (visit may change it): the weighted loop's floor filter.
//
// Guarantees: each equals its scalar loop exactly (same index and second
// key, same calls in the same order); rendezvous_simd_test.cc compares them
// on random and tied inputs, on CPUs that have AVX-512F and AVX-512DQ.
//
// The functions carry the target attribute, so they compile in every build,
// the portable one included. They must run only on a CPU with AVX-512F and
// AVX-512DQ: Avx512KernelsAvailable() says whether this one has them (known
// at compile time in a build that targets AVX-512, such as the `native`
// flavor on such a CPU; asked of the CPU once otherwise), and
// `Rendezvous<Xxh64>` calls them only where it is true.
//
// Complexity: O(n) scores, n / 8 vector iterations; no allocation.

#ifndef CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_SIMD_H_
#define CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_SIMD_H_

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS 1
#define CHBENCH_AVX512_TARGET __attribute__((target("avx512f,avx512dq")))
#define CHBENCH_AVX512_INLINE \
  __attribute__((target("avx512f,avx512dq"), always_inline))
#else
#define CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS 0
#endif

// True where the build targets AVX-512F and AVX-512DQ, so no CPU check is
// needed.
#if defined(__AVX512F__) && defined(__AVX512DQ__) && \
    CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS
#define CHBENCH_RENDEZVOUS_USE_AVX512 1
#else
#define CHBENCH_RENDEZVOUS_USE_AVX512 0
#endif

namespace chbench::rendezvous_internal {

// True where the kernels below may run: the build targets AVX-512F and
// AVX-512DQ, or the CPU reports both (CPUID, read once).
inline bool Avx512KernelsAvailable() {
#if CHBENCH_RENDEZVOUS_USE_AVX512
  return true;
#elif CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS
  static const bool available = [] {
    __builtin_cpu_init();  // safe even before libgcc's own constructor ran
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512dq");
  }();
  return available;
#else
  return false;
#endif
}

}  // namespace chbench::rendezvous_internal

#if CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS

// GCC 12 reports the intrinsics' own _mm512_undefined_epi32() operand as
// possibly uninitialized where they inline (GCC bug 105593, fixed in 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace chbench::rendezvous_internal {

// Eight PairScorer<Xxh64>::Score(key, node): XXH64's last lane round and its
// avalanche (constants PRIME64_1 .. PRIME64_4 of xxhash.h).
CHBENCH_AVX512_INLINE inline __m512i ScoreXxh64x8(__m512i key, __m512i node) {
  __m512i h = _mm512_rol_epi64(_mm512_xor_si512(key, node), 27);
  h = _mm512_mullo_epi64(
      h, _mm512_set1_epi64(static_cast<int64_t>(0x9E3779B185EBCA87ULL)));
  h = _mm512_add_epi64(
      h, _mm512_set1_epi64(static_cast<int64_t>(0x85EBCA77C2B2AE63ULL)));
  h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
  h = _mm512_mullo_epi64(
      h, _mm512_set1_epi64(static_cast<int64_t>(0xC2B2AE3D27D4EB4FULL)));
  h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 29));
  h = _mm512_mullo_epi64(
      h, _mm512_set1_epi64(static_cast<int64_t>(0x165667B19E3779F9ULL)));
  return _mm512_xor_si512(h, _mm512_srli_epi64(h, 32));
}

// Eight Rendezvous<Xxh64>::RatioKey(score, w): the complement of
// (c + 0.5) / w's bits, c = ~score >> 12 (exact in a double: c < 2^52).
CHBENCH_AVX512_INLINE inline __m512i RatioKeyx8(__m512i score, __m512d w) {
  const __m512i ones = _mm512_set1_epi64(-1);
  const __m512i c = _mm512_srli_epi64(_mm512_xor_si512(score, ones), 12);
  const __m512d ratio = _mm512_div_pd(
      _mm512_add_pd(_mm512_cvtepu64_pd(c), _mm512_set1_pd(0.5)), w);
  return _mm512_xor_si512(_mm512_castpd_si512(ratio), ones);
}

// Precondition: n >= 1. The key of node i is its score, or with kRatio
// RatioKeyx8(score, w[i]). With kSecond, *second receives the second
// largest key counted with multiplicity (equal to the largest where two
// nodes tie on it; 0 where n == 1).
template <bool kSecond, bool kRatio>
CHBENCH_AVX512_TARGET inline size_t ArgMaxXxh64Avx512Impl(uint64_t pk,
                                                          const uint64_t* pn,
                                                          const double* w,
                                                          size_t n,
                                                          uint64_t* second) {
  constexpr size_t kBlock = 32;  // 4 accumulators x 8 lanes
  const __m512i key = _mm512_set1_epi64(static_cast<int64_t>(pk));
  // best[j] lane l: the largest score seen at index 32 b + 8 j + l;
  // at[j] lane l: the first such block b (all ones while none beat 0).
  // runner[j] lane l (kSecond): the second largest score seen there.
  __m512i best[4];
  __m512i at[4];
  __m512i runner[4];
  for (int j = 0; j < 4; ++j) {
    best[j] = _mm512_setzero_si512();
    at[j] = _mm512_set1_epi64(-1);
    runner[j] = _mm512_setzero_si512();
  }
  __m512i block = _mm512_setzero_si512();
  const __m512i one = _mm512_set1_epi64(1);
  const size_t full = n / kBlock;
  for (size_t b = 0; b < full; ++b) {
    const uint64_t* p = pn + b * kBlock;
    for (int j = 0; j < 4; ++j) {
      __m512i s = ScoreXxh64x8(key, _mm512_loadu_si512(p + 8 * j));
      if constexpr (kRatio) {
        s = RatioKeyx8(s, _mm512_loadu_pd(w + b * kBlock + 8 * j));
      }
      const __mmask8 better = _mm512_cmpgt_epu64_mask(s, best[j]);
      if constexpr (kSecond) {
        runner[j] = _mm512_max_epu64(runner[j], _mm512_min_epu64(best[j], s));
      }
      best[j] = _mm512_max_epu64(best[j], s);
      at[j] = _mm512_mask_mov_epi64(at[j], better, block);
    }
    block = _mm512_add_epi64(block, one);
  }
  if (const size_t rest = n - full * kBlock; rest != 0) {
    const uint64_t* p = pn + full * kBlock;
    for (size_t j = 0; j < 4 && 8 * j < rest; ++j) {
      const size_t lanes = rest - 8 * j < 8 ? rest - 8 * j : 8;
      const __mmask8 live = static_cast<__mmask8>((1u << lanes) - 1);
      __m512i s = ScoreXxh64x8(key, _mm512_maskz_loadu_epi64(live, p + 8 * j));
      if constexpr (kRatio) {
        s = RatioKeyx8(s,
                       _mm512_maskz_loadu_pd(live, w + full * kBlock + 8 * j));
      }
      const __mmask8 better = _mm512_mask_cmpgt_epu64_mask(live, s, best[j]);
      if constexpr (kSecond) {
        runner[j] = _mm512_mask_max_epu64(runner[j], live, runner[j],
                                          _mm512_min_epu64(best[j], s));
      }
      best[j] = _mm512_mask_mov_epi64(best[j], better, s);
      at[j] = _mm512_mask_mov_epi64(at[j], better, block);
    }
  }
  const uint64_t top = _mm512_reduce_max_epu64(_mm512_max_epu64(
      _mm512_max_epu64(best[0], best[1]), _mm512_max_epu64(best[2], best[3])));
  const __m512i top_v = _mm512_set1_epi64(static_cast<int64_t>(top));
  if constexpr (kSecond) {
    // The second largest: the lanes' runners-up, the other lanes' best, and
    // the maximum again where two lanes hold it.
    __m512i rest = _mm512_setzero_si512();
    int holders = 0;
    for (int j = 0; j < 4; ++j) {
      const __mmask8 holds = _mm512_cmpeq_epu64_mask(best[j], top_v);
      holders += __builtin_popcount(holds);
      rest = _mm512_max_epu64(rest, runner[j]);
      rest = _mm512_mask_max_epu64(rest, static_cast<__mmask8>(~holds), rest,
                                   best[j]);
    }
    *second = holders > 1 ? top : _mm512_reduce_max_epu64(rest);
  }
  if (top == 0) return 0;  // every score is 0: the first index holds it
  const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  __m512i first = _mm512_set1_epi64(-1);
  for (int j = 0; j < 4; ++j) {
    // index = 32 * block + 8 * j + lane, for the lanes holding the maximum
    // (their block is set: a lane at 0 never holds top > 0).
    const __m512i index =
        _mm512_add_epi64(_mm512_slli_epi64(at[j], 5),
                         _mm512_add_epi64(lane, _mm512_set1_epi64(8 * j)));
    const __mmask8 holds = _mm512_cmpeq_epu64_mask(best[j], top_v);
    first = _mm512_mask_min_epu64(first, holds, first, index);
  }
  return static_cast<size_t>(_mm512_reduce_min_epu64(first));
}

// Precondition: n >= 1.
CHBENCH_AVX512_TARGET inline size_t ArgMaxXxh64Avx512(uint64_t pk,
                                                      const uint64_t* pn,
                                                      size_t n) {
  return ArgMaxXxh64Avx512Impl<false, false>(pk, pn, nullptr, n, nullptr);
}

CHBENCH_AVX512_TARGET inline void ScoresXxh64Avx512(uint64_t pk,
                                                   const uint64_t* pn, size_t n,
                                                   uint64_t* scores) {
  const __m512i key = _mm512_set1_epi64(static_cast<int64_t>(pk));
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    _mm512_storeu_si512(scores + i,
                        ScoreXxh64x8(key, _mm512_loadu_si512(pn + i)));
  }
  if (i < n) {
    const __mmask8 live = static_cast<__mmask8>((1u << (n - i)) - 1);
    _mm512_mask_storeu_epi64(
        scores + i, live,
        ScoreXxh64x8(key, _mm512_maskz_loadu_epi64(live, pn + i)));
  }
}

// Precondition: n >= 1.
CHBENCH_AVX512_TARGET inline size_t FirstArgMaxAvx512(const uint64_t* scores,
                                                      size_t n) {
  // Four accumulators: the maxima of one step do not wait for each other.
  __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(),
                    _mm512_setzero_si512(), _mm512_setzero_si512()};
  size_t i = 0;
  for (; n - i >= 32; i += 32) {
    for (int j = 0; j < 4; ++j) {
      acc[j] = _mm512_max_epu64(acc[j], _mm512_loadu_si512(scores + i + 8 * j));
    }
  }
  __m512i top = _mm512_max_epu64(_mm512_max_epu64(acc[0], acc[1]),
                                 _mm512_max_epu64(acc[2], acc[3]));
  for (; n - i >= 8; i += 8) {
    top = _mm512_max_epu64(top, _mm512_loadu_si512(scores + i));
  }
  const __mmask8 live = static_cast<__mmask8>((1u << (n - i)) - 1);
  if (i < n) {
    top = _mm512_max_epu64(top, _mm512_maskz_loadu_epi64(live, scores + i));
  }
  const __m512i m = _mm512_set1_epi64(
      static_cast<int64_t>(_mm512_reduce_max_epu64(top)));
  for (i = 0; n - i >= 8; i += 8) {
    const __mmask8 at =
        _mm512_cmpeq_epu64_mask(_mm512_loadu_si512(scores + i), m);
    if (at != 0) return i + static_cast<size_t>(__builtin_ctz(at));
  }
  const __mmask8 at = _mm512_mask_cmpeq_epu64_mask(
      live, _mm512_maskz_loadu_epi64(live, scores + i), m);
  return i + static_cast<size_t>(__builtin_ctz(at));
}

// Precondition: n >= 1. The first index of the largest key, the key of node
// i being RatioKeyx8(score, w[i]); in *second the second largest key
// with multiplicity (the largest again where two nodes hold it; 0 where
// n == 1).
CHBENCH_AVX512_TARGET inline size_t ArgMax2RatioXxh64Avx512(uint64_t pk,
                                                            const uint64_t* pn,
                                                            const double* w,
                                                            size_t n,
                                                            uint64_t* second) {
  return ArgMaxXxh64Avx512Impl<true, true>(pk, pn, w, n, second);
}

// Precondition: `visit` is callable as visit(size_t). Calls visit(i) for
// i = 0 .. n-1 in ascending order where Score(pk, pn[i]) >= threshold[i]:
// the weighted lookup's candidate pass. The pass itself has no
// data-dependent branch: each block of 32 nodes appends its hit mask to a
// list only by advancing the list's end, and the visits follow the pass.
template <typename Visit>
CHBENCH_AVX512_TARGET inline void ScanCandidatesXxh64Avx512(
    uint64_t pk, const uint64_t* pn, const uint64_t* threshold, size_t n,
    Visit&& visit) {
  constexpr size_t kList = 64;  // blocks with hits held before visiting
  uint32_t block_of[kList + 1];
  uint32_t hits_of[kList + 1];
  size_t listed = 0;
  const auto visit_listed = [&] {
    for (size_t k = 0; k < listed; ++k) {
      const size_t base = size_t{block_of[k]} * 32;
      uint32_t hits = hits_of[k];
      do {
        visit(base + static_cast<size_t>(__builtin_ctz(hits)));
        hits &= hits - 1;
      } while (hits != 0);
    }
    listed = 0;
  };
  const __m512i key = _mm512_set1_epi64(static_cast<int64_t>(pk));
  const size_t full = n / 32;
  for (size_t b = 0; b < full; ++b) {
    const size_t i = 32 * b;
    uint32_t hits = 0;
    for (int j = 0; j < 4; ++j) {
      const __m512i s = ScoreXxh64x8(key, _mm512_loadu_si512(pn + i + 8 * j));
      hits |= uint32_t{_mm512_cmpge_epu64_mask(
                  s, _mm512_loadu_si512(threshold + i + 8 * j))}
              << (8 * j);
    }
    block_of[listed] = static_cast<uint32_t>(b);
    hits_of[listed] = hits;
    listed += hits != 0;
    if (listed == kList) [[unlikely]]
      visit_listed();
  }
  if (const size_t rest = n - 32 * full; rest != 0) {
    const size_t i = 32 * full;
    uint32_t hits = 0;
    for (size_t j = 0; j < 4 && 8 * j < rest; ++j) {
      const size_t lanes = rest - 8 * j < 8 ? rest - 8 * j : 8;
      const __mmask8 live = static_cast<__mmask8>((1u << lanes) - 1);
      const __m512i s =
          ScoreXxh64x8(key, _mm512_maskz_loadu_epi64(live, pn + i + 8 * j));
      hits |=
          uint32_t{_mm512_mask_cmpge_epu64_mask(
              live, s, _mm512_maskz_loadu_epi64(live, threshold + i + 8 * j))}
          << (8 * j);
    }
    block_of[listed] = static_cast<uint32_t>(full);
    hits_of[listed] = hits;
    listed += hits != 0;
  }
  visit_listed();
}

// Precondition: begin <= n. `visit` is callable as visit(size_t, uint64_t).
template <typename Visit>
CHBENCH_AVX512_TARGET inline void ScanAtOrAboveXxh64Avx512(
    uint64_t pk, const uint64_t* pn, size_t begin, size_t n,
    const uint64_t* floor, Visit&& visit) {
  const __m512i key = _mm512_set1_epi64(static_cast<int64_t>(pk));
  size_t i = begin;
  // Two vectors per step: one predicted branch per 16 nodes.
  for (; n - i >= 16; i += 16) {
    const __m512i s0 = ScoreXxh64x8(key, _mm512_loadu_si512(pn + i));
    const __m512i s1 = ScoreXxh64x8(key, _mm512_loadu_si512(pn + i + 8));
    __m512i f = _mm512_set1_epi64(static_cast<int64_t>(*floor));
    uint32_t hits = _mm512_cmpge_epu64_mask(s0, f) |
                    (uint32_t{_mm512_cmpge_epu64_mask(s1, f)} << 8);
    if (hits != 0) [[unlikely]] {
      alignas(64) uint64_t scores[16];
      _mm512_store_si512(scores, s0);
      _mm512_store_si512(scores + 8, s1);
      while (hits != 0) {
        const int j = __builtin_ctz(hits);
        visit(i + static_cast<size_t>(j), scores[j]);
        f = _mm512_set1_epi64(static_cast<int64_t>(*floor));
        const uint32_t again = _mm512_cmpge_epu64_mask(s0, f) |
                               (uint32_t{_mm512_cmpge_epu64_mask(s1, f)} << 8);
        hits = again & (0xFFFEu << j);  // the lanes after j
      }
    }
  }
  for (; i < n; i += 8) {
    const size_t lanes = n - i < 8 ? n - i : 8;
    const __mmask8 live = static_cast<__mmask8>((1u << lanes) - 1);
    const __m512i s = ScoreXxh64x8(key, _mm512_maskz_loadu_epi64(live, pn + i));
    uint32_t hits = _mm512_mask_cmpge_epu64_mask(
        live, s, _mm512_set1_epi64(static_cast<int64_t>(*floor)));
    if (hits == 0) continue;
    alignas(64) uint64_t scores[8];
    _mm512_store_si512(scores, s);
    while (hits != 0) {
      const int j = __builtin_ctz(hits);
      visit(i + static_cast<size_t>(j), scores[j]);
      hits = _mm512_mask_cmpge_epu64_mask(
                 live, s, _mm512_set1_epi64(static_cast<int64_t>(*floor))) &
             (0xFEu << j);
    }
  }
}

}  // namespace chbench::rendezvous_internal

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // CHBENCH_RENDEZVOUS_HAS_AVX512_KERNELS

#endif  // CHBENCH_ALGORITHMS_RENDEZVOUS_RENDEZVOUS_SIMD_H_
