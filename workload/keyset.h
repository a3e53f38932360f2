// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: workload/keyset.h
// -----------------------------------------------------------------------------
//
// Key sets: the inputs of every experiment, generated deterministically from
// a seed (SplitMix64), so the same (name, count, seed) gives the same keys on
// every machine.
//
//   uniform     16 lower-case hex digits of a SplitMix64 output per key; its
//               pre-hashed form is the SplitMix64 output itself.
//   url         URL-like strings: "https://<host>/<path>/<id>" with hosts,
//               path words and ids drawn from the seed.
//   sequential  "key-0", "key-1", ... (the seed offsets the start): the hard
//               case for weak hashes.
//   words       /usr/share/dict/words (Debian's wamerican): a random subset
//               of the file's D distinct lines, drawn without replacement by
//               the seed (a partial Fisher-Yates shuffle), in random order;
//               at most D keys. Two seeds share about count/D of their keys,
//               so repetitions are nearly independent only while
//               count <= D/2; above that they reuse most keys (at count = D,
//               all of them: only the order differs) and the runner marks
//               the rows "n_eff = 1" (KeysOverlapAcrossSeeds).

#ifndef CHBENCH_WORKLOAD_KEYSET_H_
#define CHBENCH_WORKLOAD_KEYSET_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace chbench {

struct KeySetInfo {
  std::string_view name;
  std::string_view description;
};

std::span<const KeySetInfo> KeySets();
const KeySetInfo* FindKeySet(std::string_view name);
std::string KeySetNames();  // "uniform, url, sequential, words"

// Up to `count` keys of key set `name` (exactly `count` except for `words`,
// which stops at the file's size). Errors name the bad key set or file.
absl::StatusOr<std::vector<std::string>> GenerateKeys(std::string_view name,
                                                      size_t count,
                                                      uint64_t seed);

// The keys of GenerateKeys(name, count, seed), in order, passed one at a
// time to `f` without storing them: the view is valid during the call only.
// For consumers that hash each key once (a 10^6-key cell allocated 10^6
// strings otherwise). Same errors as GenerateKeys, before any call to `f`.
//
//   std::vector<uint64_t> d;
//   absl::Status s = ForEachKey("url", 1000, 0, [&](std::string_view k) {
//     d.push_back(algo.HashKey(k));
//   });
absl::Status ForEachKey(std::string_view name, size_t count, uint64_t seed,
                        absl::FunctionRef<void(std::string_view)> f);

// True when key sets of `count` keys drawn with different seeds share most
// of their keys, so repetitions over seeds are not independent: `words` with
// count > D/2 (D = the dictionary's distinct lines).
// False for the generated key sets (uniform, url, sequential), for
// count <= D/2, and when the dictionary cannot be read (GenerateKeys reports
// that error).
bool KeysOverlapAcrossSeeds(std::string_view name, size_t count);

// D for `words`: the dictionary's distinct non-empty lines, or an error
// naming the file.
absl::StatusOr<size_t> WordsDictionarySize();

// `count` pre-hashed 64-bit keys (SplitMix64(seed)), for measuring an
// algorithm alone.
std::vector<uint64_t> GenerateKeyHashes(size_t count, uint64_t seed);

}  // namespace chbench

#endif  // CHBENCH_WORKLOAD_KEYSET_H_
