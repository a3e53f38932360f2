// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: presets/ketama.h
// -----------------------------------------------------------------------------
//
// What the ketama family (libmemcached, twemproxy, npm hashring, uhashring's
// ketama mode) shares: point names `name-k`, four points per MD5 digest, and
// the share formulas that make their point counts differ. Sources: the
// headers of libmemcached/, twemproxy/, npm/ and uhashring/.

#ifndef CHBENCH_ALGORITHMS_PRESETS_KETAMA_H_
#define CHBENCH_ALGORITHMS_PRESETS_KETAMA_H_

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/hash/preset_hashes.h"
#include "algorithms/presets/preset.h"

namespace chbench::ketama {

// `prefix` + decimal(k): the name of point group k.
inline std::string_view PointName(std::string* buf, size_t prefix_len,
                                  uint64_t k) {
  buf->resize(prefix_len + 24);
  char* end = std::to_chars(buf->data() + prefix_len, buf->data() + buf->size(),
                            k)
                  .ptr;
  return std::string_view(buf->data(), static_cast<size_t>(end - buf->data()));
}

// Appends 4 points per digest md5(prefix + k), k = 0..digests-1, at
// le32(d, 0..3), tie rank rank_base + 4k + j.
inline void AppendMd5x4(std::string_view prefix, uint64_t digests,
                        NodeId owner, uint64_t rank_base,
                        std::vector<PresetPoint>* out) {
  std::string buf(prefix);
  for (uint64_t k = 0; k < digests; ++k) {
    const std::string_view name = PointName(&buf, prefix.size(), k);
    const auto d = Md5Digest(name.data(), name.size());
    for (int j = 0; j < 4; ++j) {
      out->push_back({DigestLe32(d, j), owner, rank_base + 4 * k + j});
    }
  }
}

// libmemcached 1.1.4 / twemproxy 0.5.0 digests per server:
// floor(float32(float32(float32(pct * 160) / 4) * N) + 1e-10), pct =
// float32(w) / float32(W), every step in float32 (no FMA contraction: each
// step is stored to a volatile float).
inline uint64_t Float32Digests(uint32_t weight, uint64_t total_weight,
                               uint64_t live) {
  volatile float pct =
      static_cast<float>(weight) / static_cast<float>(total_weight);
  volatile float a = pct * 160.0f;
  volatile float b = a / 4.0f;
  volatile float c = b * static_cast<float>(live);
  const double d = static_cast<double>(c) + 0.0000000001;
  return static_cast<uint64_t>(std::floor(static_cast<float>(d)));
}

// npm hashring 3.2.0: Math.floor(weight / totalWeight * vnodes * nServers)
// in IEEE doubles, left to right (vnodes = 40).
inline uint64_t DoubleDigests(uint32_t weight, uint64_t total_weight,
                              uint64_t live) {
  volatile double a = static_cast<double>(weight) /
                      static_cast<double>(total_weight);
  volatile double b = a * 40.0;
  volatile double c = b * static_cast<double>(live);
  return static_cast<uint64_t>(std::floor(c));
}

// The two digest counts above as Preset::CheckEveryServerGetsPoints takes
// them, (w, total) -> digests of a server of weight w at `live` servers,
// with the formula as its error message names it.
struct Float32DigestCount {
  static constexpr std::string_view kFormula =
      "4 x floor(w / sum * 40 * N) (float)";
  uint64_t live;
  uint64_t operator()(uint64_t w, uint64_t total) const {
    return Float32Digests(static_cast<uint32_t>(w), total, live);
  }
};
struct DoubleDigestCount {
  static constexpr std::string_view kFormula = "4 x floor(w / sum * 40 * N)";
  uint64_t live;
  uint64_t operator()(uint64_t w, uint64_t total) const {
    return DoubleDigests(static_cast<uint32_t>(w), total, live);
  }
};

}  // namespace chbench::ketama

#endif  // CHBENCH_ALGORITHMS_PRESETS_KETAMA_H_
