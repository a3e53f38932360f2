// Copyright 2026 The chbench Authors.
//
// Explicit, portable pseudo-random generators. Every random choice in chbench
// (keys, node salts, removal order) comes from these with a recorded seed, so
// every non-timing number is identical across runs and machines.
// Never use absl::BitGen or std::random_device where results must reproduce.

#ifndef CHBENCH_ALGORITHMS_UTIL_RANDOM_H_
#define CHBENCH_ALGORITHMS_UTIL_RANDOM_H_

#include <cstdint>

namespace chbench {

// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014; constants as in Vigna's reference splitmix64.c).
class SplitMix64 {
 public:
  explicit constexpr SplitMix64(uint64_t seed) : state_(seed) {}
  constexpr uint64_t operator()() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

// sfc64 (Chris Doty-Humphrey's Small Fast Chaotic PRNG, PractRand 0.94),
// seeded from splitmix64 and warmed up 12 rounds as in the reference.
class Sfc64 {
 public:
  using result_type = uint64_t;
  explicit constexpr Sfc64(uint64_t seed) {
    SplitMix64 sm(seed);
    a_ = sm();
    b_ = sm();
    c_ = sm();
    counter_ = 1;
    for (int i = 0; i < 12; ++i) (*this)();
  }
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t{0}; }
  constexpr uint64_t operator()() {
    const uint64_t tmp = a_ + b_ + counter_++;
    a_ = b_ ^ (b_ >> 11);
    b_ = c_ + (c_ << 3);
    c_ = ((c_ << 24) | (c_ >> 40)) + tmp;
    return tmp;
  }
  // Uniform integer in [0, bound) without modulo bias (Lemire's method,
  // "Fast Random Integer Generation in an Interval", TOMACS 2019).
  uint64_t Below(uint64_t bound) {
    unsigned __int128 m = static_cast<unsigned __int128>((*this)()) * bound;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < bound) {
      const uint64_t threshold = -bound % bound;
      while (low < threshold) {
        m = static_cast<unsigned __int128>((*this)()) * bound;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

 private:
  uint64_t a_ = 0, b_ = 0, c_ = 0, counter_ = 0;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_UTIL_RANDOM_H_
