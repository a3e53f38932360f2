// Copyright 2026 The chbench Authors.

#include "algorithms/util/prime.h"

namespace chbench {
namespace {

uint64_t PowMod(uint64_t base, uint64_t exp, uint64_t m) {
  uint64_t result = 1 % m;
  base %= m;
  while (exp != 0) {
    if (exp & 1) result = MulMod(result, base, m);
    base = MulMod(base, base, m);
    exp >>= 1;
  }
  return result;
}

}  // namespace

bool IsPrime(uint64_t n) {
  static constexpr uint64_t kBases[] = {2,  3,  5,  7,  11, 13,
                                        17, 19, 23, 29, 31, 37};
  if (n < 2) return false;
  for (uint64_t p : kBases) {
    if (n % p == 0) return n == p;
  }
  uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) {
    d >>= 1;
    ++s;
  }
  for (uint64_t a : kBases) {
    uint64_t x = PowMod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool witness = true;
    for (int r = 1; r < s && witness; ++r) {
      x = MulMod(x, x, n);
      if (x == n - 1) witness = false;
    }
    if (witness) return false;
  }
  return true;
}

uint64_t NextPrime(uint64_t n) {
  if (n <= 2) return 2;
  if ((n & 1) == 0) ++n;
  for (;; n += 2) {
    if (IsPrime(n)) return n;
    if (n > ~uint64_t{0} - 2) return 0;
  }
}

}  // namespace chbench
