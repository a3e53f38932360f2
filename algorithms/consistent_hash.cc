// Copyright 2026 The chbench Authors.

#include "algorithms/consistent_hash.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/lookup_batch.h"

namespace chbench {

void ConsistentHash::LookupBatch(std::span<const std::string_view> keys,
                                 std::span<NodeId> out) const {
  HashAndLookupBatch(*this, keys, out);
}

std::vector<double> ResidueShares(uint64_t m, int bits) {
  if (m == 0) return {};
  // 2^bits = q m + r, in 64-bit arithmetic also for bits = 64.
  uint64_t q, r;
  if (bits >= 64) {
    const uint64_t max = std::numeric_limits<uint64_t>::max();  // 2^64 - 1
    q = max / m;
    r = max % m + 1;
    if (r == m) {
      ++q;
      r = 0;
    }
  } else {
    const uint64_t space = uint64_t{1} << bits;
    q = space / m;
    r = space % m;
  }
  const double space = std::ldexp(1.0, bits);
  std::vector<double> shares(m);
  for (uint64_t s = 0; s < m; ++s) {
    shares[s] = static_cast<double>(q + (s < r ? 1 : 0)) / space;
  }
  return shares;
}

std::vector<double> UniformShares(size_t n) {
  return std::vector<double>(n, n ? 1.0 / static_cast<double>(n) : 0.0);
}

}  // namespace chbench
