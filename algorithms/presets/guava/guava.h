// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/guava/guava.h
// -----------------------------------------------------------------------------
//
// Guava 31.1 (Debian libguava-java 31.1-1) `Hashing.consistentHash(HashCode,
// int)` over `Hashing.murmur3_128().hashString(key, UTF_8)` -> servers[bucket]
// (com/google/common/hash/Hashing.java; checked by make verify-presets):
//
//   * Key hash: h1 of MurmurHash3_x64_128, seed 0 (`padToLong` = the first 8
//     digest bytes little-endian = h1) -- the `murmur3_128` hash policy.
//   * Bucket: Guava's jump loop, in Java arithmetic: s <- 2862933555777941757
//     * s + 1 (mod 2^64); u = ((int)(s >>> 33) + 1) / 2^31 (the int sum wraps
//     to -2^31 when s >>> 33 = 2^31 - 1, making u negative); next = (int)
//     ((candidate + 1) / u) (Java's saturating double->int cast); continue
//     while 0 <= next < N. This is Lamping and Veach's jump hash, but the
//     division and the wrap differ from the paper's loop in rare cases, so it
//     is its own function, not `jump`.
//   * Servers are buckets 0..N-1 in order; only the last can be removed (as
//     jump), and no weights.
// Complexity: O(log N) expected iterations.

#ifndef CHBENCH_ALGORITHMS_PRESETS_GUAVA_GUAVA_H_
#define CHBENCH_ALGORITHMS_PRESETS_GUAVA_GUAVA_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/lookup_batch.h"
#include "algorithms/presets/preset.h"

namespace chbench {

// Guava's consistentHash(long input, int buckets), bit for bit.
inline int32_t GuavaConsistentHash(uint64_t input, int32_t buckets) {
  uint64_t state = input;
  int32_t candidate = 0;
  while (true) {
    state = 2862933555777941757ull * state + 1;
    const int32_t top = static_cast<int32_t>(state >> 33);
    // Java int addition wraps.
    const int32_t plus1 =
        static_cast<int32_t>(static_cast<uint32_t>(top) + 1u);
    const double u = static_cast<double>(plus1) / 2147483648.0;
    const double q = static_cast<double>(candidate + 1) / u;
    // Java (int) of a double: NaN -> 0, saturating at the int range.
    int32_t next;
    if (q != q) {
      next = 0;
    } else if (q >= 2147483647.0) {
      next = 2147483647;
    } else if (q <= -2147483648.0) {
      next = -2147483647 - 1;
    } else {
      next = static_cast<int32_t>(q);
    }
    if (next >= 0 && next < buckets) {
      candidate = next;
    } else {
      return candidate;
    }
  }
}

class GuavaPreset final : public Preset {
 public:
  GuavaPreset() : Preset("guava", /*max_weight=*/1, /*needs_port=*/false) {}

  Capabilities capabilities() const override {
    return {.arbitrary_removal = false, .minimal_disruption = true};
  }
  uint64_t HashKey(std::string_view key) const override {
    return Murmur3_128::Hash(key.data(), key.size(), 0);
  }
  NodeId Lookup(uint64_t h) const override {
    return bucket_owner_[GuavaConsistentHash(h, buckets_)];
  }
  // The plain loop (LookupEach): Guava's consistentHash is arithmetic.
  void LookupBatch(std::span<const uint64_t> key_hashes,
                   std::span<NodeId> out) const override {
    LookupEach(*this, key_hashes, out);
  }
  size_t MemoryBytes() const override {
    return bucket_owner_.capacity() * sizeof(NodeId);
  }

 private:
  absl::Status CheckRemovable(NodeId id) const override {
    const std::vector<NodeId> live = LiveNodes();
    if (id != live.back()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "guava: consistentHash can remove only the last bucket (node ",
          live.back(), " '", servers_[live.back()].name, "'), not node ", id,
          " '", servers_[id].name, "'"));
    }
    return absl::OkStatus();
  }
  absl::Status Rebuild() override {
    bucket_owner_ = LiveNodes();
    buckets_ = static_cast<int32_t>(bucket_owner_.size());
    if (bucket_owner_.size() > 2147483647u) {
      return absl::InvalidArgumentError("guava: at most 2^31 - 1 buckets");
    }
    return absl::OkStatus();
  }

  std::vector<NodeId> bucket_owner_;
  int32_t buckets_ = 0;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_PRESETS_GUAVA_GUAVA_H_
