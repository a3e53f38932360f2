// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: hash/hash_registry.h
// -----------------------------------------------------------------------------
//
// The runtime table of hash functions (one row per policy in
// hash_function.h), in the style of SMHasher's `g_hashes[]`: name, one-line
// description, output width, whether the output reproduces across processes,
// a function pointer to the seeded hash, and `verification`, the pinned
// SMHasher verification value of the wrapper (see VerificationValue).

#ifndef CHBENCH_ALGORITHMS_HASH_HASH_REGISTRY_H_
#define CHBENCH_ALGORITHMS_HASH_HASH_REGISTRY_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace chbench {

using HashFn = uint64_t (*)(const void* data, size_t len, uint64_t seed);

struct HashInfo {
  std::string_view name;
  std::string_view description;
  int bits;            // output width: 32 or 64
  bool reproducible;   // false only for absl_hash
  HashFn fn;
  uint32_t verification;  // pinned VerificationValue(fn, bits); 0 if
                          // !reproducible
};

// Every row, in the order of DispatchHash (hash_function.h).
std::span<const HashInfo> HashFunctions();
// The key hashes of the production presets (hash/preset_hashes.h), with
// their own pinned verification values. They are not in HashFunctions(): the
// generic algorithms do not offer them; each preset uses its system's.
std::span<const HashInfo> PresetHashFunctions();
// The row named exactly `name` (names are lower case), or nullptr.
const HashInfo* FindHash(std::string_view name);
// "md5, xxh64, xxh3, murmur3_128, murmur3_32, crc32, fnv1a, absl_hash,
// siphash"
std::string HashNames();
// InvalidArgument "unknown hash 'x'; valid hashes: md5, xxh64, ..."
absl::Status UnknownHashError(std::string_view name);

// SMHasher's VerificationTest (aappleby/smhasher KeysetTest.cpp): for
// i = 0..255 hash the key of length i holding the bytes 0, 1, ..., i-1 (so
// {}, {0}, {0,1}, ..., {0..254}) with seed 256 - i (256, 255, ..., 1), write
// each output as `bytes` bytes at offset i * bytes of one 256 * bytes buffer,
// hash that buffer with seed 0 and return the first 4 bytes of the result read
// little-endian. `hash_bytes(data, len, seed, out)` writes `bytes` output
// bytes to out (SMHasher writes native, i.e. little-endian, words).
//
// Published values (SMHasher main.cpp g_hashes[]): MurmurHash3_x86_32
// 0xB0F57EE3, MurmurHash3_x64_128 (16 bytes) 0x6384BA69, crc32 0x3719DB20;
// rurban/smhasher: XXH64 0x024B7CF4, FNV-1a 64 0x103455FC; Zig std
// (lib/std/hash/xxhash.zig): XXH3_64bits_withSeed 0x9A636405.
using RawHashFn = void (*)(const void* data, size_t len, uint32_t seed,
                           void* out);
uint32_t VerificationValue(RawHashFn hash_bytes, size_t bytes);

// The same procedure for a policy's seeded hash `fn` of width `bits` (32 or
// 64): each output is written as bits / 8 little-endian bytes. This is the
// value pinned in HashInfo::verification.
uint32_t VerificationValue(HashFn fn, int bits);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_HASH_HASH_REGISTRY_H_
