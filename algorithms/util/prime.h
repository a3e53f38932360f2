// Copyright 2026 The chbench Authors.
//
// Primality for Maglev's table size, shared by the algorithm, the experiment
// spec validation and the `chbench map` flag check, so that all three agree.

#ifndef CHBENCH_ALGORITHMS_UTIL_PRIME_H_
#define CHBENCH_ALGORITHMS_UTIL_PRIME_H_

#include <cstdint>

namespace chbench {

// (a * b) mod m without overflow.
inline uint64_t MulMod(uint64_t a, uint64_t b, uint64_t m) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b % m);
}

// Deterministic primality test for every 64-bit n: Miller-Rabin with the
// first twelve primes as bases, which has no strong pseudoprime below
// 3.3 * 10^24 (Sorenson and Webster, "Strong pseudoprimes to twelve prime
// bases", Math. Comp. 86, 2017), hence none below 2^64.
bool IsPrime(uint64_t n);

// The smallest prime >= n, or 0 if there is none below 2^64.
uint64_t NextPrime(uint64_t n);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_UTIL_PRIME_H_
