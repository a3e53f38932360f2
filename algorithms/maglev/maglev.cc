// Copyright 2026 The chbench Authors.
//
// Maglev's out-of-line parts: the populate loop (Eisenbud et al.,
// NSDI 2016, Pseudocode 1, extended with weighted rounds as documented in
// maglev.h) and the factory.

#include "algorithms/maglev/maglev.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/make_with_hash.h"

namespace chbench {
namespace maglev_internal {

uint64_t DivisionPaysFrom() {
  static const uint64_t kBytes = [] {
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    const uint64_t cache =
        l2 > 0 ? static_cast<uint64_t>(l2) : uint64_t{2} << 20;
    return std::max(cache + cache / 2, uint64_t{8} << 20);
  }();
  return kBytes;
}

namespace {

// Where a node is in its permutation: `pos` is the next slot it prefers
// (offset + next * skip mod M in the paper's notation), kept incrementally so
// that no permutation is ever materialized.
struct Cursor {
  uint32_t pos;
  uint32_t skip;
};

// One turn (the body of Pseudocode 1's inner loop): take the node's next
// preferred empty slot and return it. Occupancy lives in an M-bit bitmap
// (M / 8 bytes, in cache for M up to ~10^7), so failed probes never touch the
// 4M-byte table. Terminates while the table has an empty slot: M is prime and
// 1 <= skip < M, so the permutation visits every slot.
inline uint64_t TakeTurn(Cursor& cursor, uint64_t m, uint64_t* bits) {
  uint64_t c = cursor.pos;
  while ((bits[c >> 6] >> (c & 63)) & 1) {
    c += cursor.skip;
    if (c >= m) c -= m;
  }
  bits[c >> 6] |= uint64_t{1} << (c & 63);
  uint64_t next = c + cursor.skip;
  if (next >= m) next -= m;
  cursor.pos = static_cast<uint32_t>(next);
  return c;
}

// The weighted-turn rule of maglev.h: node i takes a turn in round r only if
// filled_i < r * ratio_i. Every strategy evaluates exactly this expression.
inline bool Eligible(uint64_t filled, uint64_t round, double ratio) {
  return static_cast<double>(filled) < static_cast<double>(round) * ratio;
}

// The smallest round r > after in which a node with `filled` slots and
// `ratio` is eligible, or `cap` if that is >= cap.
uint64_t NextRound(uint64_t filled, double ratio, uint64_t after,
                   uint64_t cap) {
  if (!(ratio > 0)) return cap;  // w_i / w_max underflowed: never eligible
  const double guess = std::floor(static_cast<double>(filled) / ratio) + 1;
  uint64_t r = guess >= static_cast<double>(cap)
                   ? cap
                   : std::max(after + 1, static_cast<uint64_t>(guess));
  while (r > after + 1 && Eligible(filled, r - 1, ratio)) --r;
  while (r < cap && !Eligible(filled, r, ratio)) ++r;
  return r;
}

}  // namespace

absl::Status ValidateTableSize(uint64_t table_size) {
  if (table_size == 0) return absl::OkStatus();
  if (table_size < 2 || table_size > kMaxTableSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "maglev: table size ", table_size,
        " is out of range; valid: 0 (default: smallest prime ≥ 100 × nodes) "
        "or a prime in [2, ",
        kMaxTableSize, "]"));
  }
  if (!IsPrime(table_size)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "maglev: table size ", table_size, " is not prime; next prime ≥ ",
        table_size, " is ", NextPrime(table_size)));
  }
  return absl::OkStatus();
}

template <typename T>
void PopulateTable(uint64_t M,
                   std::span<const std::pair<uint64_t, uint64_t>> offset_skip,
                   std::span<const double> weights,
                   std::span<const uint32_t> labels, std::span<T> out,
                   PopulateStrategy strategy) {
  const size_t n = offset_skip.size();
  if (n == 0) {
    std::fill(out.begin(), out.end(), static_cast<T>(~T{0}));
    return;
  }
  std::vector<Cursor> cursors(n);
  for (size_t i = 0; i < n; ++i) {
    cursors[i] = {static_cast<uint32_t>(offset_skip[i].first),
                  static_cast<uint32_t>(offset_skip[i].second)};
  }
  std::vector<uint64_t> bitmap((M + 63) / 64, 0);
  uint64_t* const bits = bitmap.data();

  // ratio_i = w_i / w_max; the heaviest node gets exactly 1.
  std::vector<double> ratio;
  bool equal = true;
  if (!weights.empty()) {
    const double w_max = *std::max_element(weights.begin(), weights.end());
    ratio.resize(n);
    for (size_t i = 0; i < n; ++i) {
      ratio[i] = weights[i] / w_max;
      equal = equal && ratio[i] == 1.0;
    }
  }
  if (strategy == PopulateStrategy::kAuto) {
    if (equal) {
      strategy = PopulateStrategy::kEqual;
    } else {
      // A pass over all nodes per round wastes the turns of ineligible
      // nodes: about n * M / sum(ratio) iterations in all. Bound the waste to
      // 4x the M useful turns, otherwise use the calendar queue.
      double sum = 0;
      for (double r : ratio) sum += r;
      strategy = sum * 4 >= static_cast<double>(n)
                     ? PopulateStrategy::kRounds
                     : PopulateStrategy::kCalendar;
    }
  }
  if (ratio.empty()) ratio.assign(n, 1.0);

  uint64_t filled = 0;
  switch (strategy) {
    case PopulateStrategy::kAuto:
    case PopulateStrategy::kEqual:
      // Pseudocode 1 verbatim: every node takes a turn, in order, until full.
      for (;;) {
        for (size_t i = 0; i < n; ++i) {
          out[TakeTurn(cursors[i], M, bits)] = static_cast<T>(labels[i]);
          if (++filled == M) return;
        }
      }
    case PopulateStrategy::kRounds: {
      std::vector<uint64_t> count(n, 0);
      for (uint64_t round = 1;; ++round) {
        for (size_t i = 0; i < n; ++i) {
          if (!Eligible(count[i], round, ratio[i])) continue;
          out[TakeTurn(cursors[i], M, bits)] = static_cast<T>(labels[i]);
          ++count[i];
          if (++filled == M) return;
        }
      }
    }
    case PopulateStrategy::kCalendar: {
      // Visits exactly the turns of kRounds, in the same order (by round,
      // then ascending index), without scanning ineligible nodes: after each
      // turn a node is filed under the next round in which it is eligible.
      // Rounds less than kWindow ahead go to a ring of buckets (a calendar
      // queue), later ones to a min-heap that feeds the bucket of a round when
      // the round comes up; a bucket is sorted by index before its round runs.
      // The heaviest node is eligible every round, so every round has a turn
      // and the table is full by round M; a node whose next round would be
      // later than M is dropped.
      constexpr uint64_t kWindow = 1024;
      const uint64_t cap = M + 1;
      std::vector<std::vector<uint32_t>> buckets(kWindow);
      using Turn = std::pair<uint64_t, uint32_t>;
      std::priority_queue<Turn, std::vector<Turn>, std::greater<Turn>> later;
      std::vector<uint64_t> count(n, 0);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t first =
            NextRound(0, ratio[i], 0, cap);  // 1 if ratio > 0
        if (first < kWindow) {
          buckets[first].push_back(static_cast<uint32_t>(i));
        } else if (first < cap) {
          later.push({first, static_cast<uint32_t>(i)});
        }
      }
      for (uint64_t round = 1;; ++round) {
        std::vector<uint32_t>& bucket = buckets[round % kWindow];
        bool sorted = true;
        while (!later.empty() && later.top().first == round) {
          bucket.push_back(later.top().second);
          later.pop();
          sorted = false;
        }
        if (!sorted || !std::is_sorted(bucket.begin(), bucket.end())) {
          std::sort(bucket.begin(), bucket.end());
        }
        for (const uint32_t i : bucket) {
          out[TakeTurn(cursors[i], M, bits)] = static_cast<T>(labels[i]);
          ++count[i];
          if (++filled == M) return;
          const uint64_t next = NextRound(count[i], ratio[i], round, cap);
          if (next >= cap) continue;
          if (next - round < kWindow) {
            buckets[next % kWindow].push_back(i);  // never the current one
          } else {
            later.push({next, i});
          }
        }
        bucket.clear();
      }
    }
  }
}

template void PopulateTable<uint16_t>(
    uint64_t, std::span<const std::pair<uint64_t, uint64_t>>,
    std::span<const double>, std::span<const uint32_t>, std::span<uint16_t>,
    PopulateStrategy);
template void PopulateTable<uint32_t>(
    uint64_t, std::span<const std::pair<uint64_t, uint64_t>>,
    std::span<const double>, std::span<const uint32_t>, std::span<uint32_t>,
    PopulateStrategy);

}  // namespace maglev_internal

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeMaglev(
    const AlgorithmParams& params) {
  if (absl::Status s = maglev_internal::ValidateTableSize(params.table_size);
      !s.ok()) {
    return s;
  }
  return MakeWithHash<Maglev>(params, params.table_size);
}

}  // namespace chbench
