// Copyright 2026 The chbench Authors.

#include "algorithms/hash/hash_registry.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/preset_hashes.h"

namespace chbench {
namespace {

template <typename H>
constexpr HashInfo Row(std::string_view description, uint32_t verification) {
  return HashInfo{H::kName,         description, H::kBits,
                  H::kReproducible, &H::Hash,    verification};
}

// One row per policy, in DispatchHash order. `verification` is
// VerificationValue(fn, bits) for our wrapper; hash_function_test.cc checks
// every row and prints fresh values when run with CHBENCH_UPDATE_GOLDEN=1.
// Where the wrapper is the plain function the value equals a published one:
// xxh64 0x024B7CF4 and fnv1a 0x103455FC ("FNV64") in rurban/smhasher,
// murmur3_32 0xB0F57EE3 and crc32 0x3719DB20 in aappleby/smhasher, xxh3
// 0x9A636405 in the Zig standard library (lib/std/hash/xxhash.zig, test
// "xxhash3 smhasher"; rurban/smhasher's 0x39CD9E4A predates XXH3's final
// 0.8.0 output). murmur3_128 (low 64 bits) 0x443D8C6D also matches the value
// pinned for "MurmurHash64-X64" by independent SMHasher-style tables. md5
// (first 8 bytes, big-endian, seed prefix) is our own definition. siphash
// 0x57B661ED is rurban/smhasher's current "SipHash" (SipHash 2-4) value; its
// older 0xC58D7F9C came from a wrapper that returned 0 for the empty key,
// which hash_function_test.cc reproduces too.
constexpr std::array<HashInfo, 9> kHashes = {
    Row<Md5>("MD5 (RFC 1321; chbench's implementation, tested equal to "
             "OpenSSL's), first 8 digest bytes big-endian; "
             "seed s != 0 prefixes its 8 little-endian bytes",
             0xA19209C5u),
    Row<Xxh64>("XXH64 (xxHash 0.8)", 0x024B7CF4u),
    Row<Xxh3>("XXH3_64bits_withSeed (xxHash 0.8)", 0x9A636405u),
    Row<Murmur3_128>("MurmurHash3_x64_128 (libmurmurhash), low 64 bits; "
                     "32-bit seed",
                     0x443D8C6Du),
    Row<Murmur3_32>("MurmurHash3_x86_32 (libmurmurhash); 32-bit seed",
                    0xB0F57EE3u),
    Row<Crc32>("CRC-32 IEEE 802.3 (reflected 0xEDB88320), zlib crc32(seed, "
               "data) semantics",
               0x3719DB20u),
    Row<Fnv1a>("FNV-1a 64-bit; seed xored into the offset basis", 0x103455FCu),
    Row<AbslHash>("absl::HashOf(seed, bytes); per-process seeded, latency "
                  "only",
                  0x00000000u),
    Row<SipHash>("SipHash-2-4 (Aumasson & Bernstein 2012), key (k0, k1) = "
                 "(seed, 0), as go-mpchash calls it",
                 0x57B661EDu),
};

// SMHasher's VerificationTest; `hash(key, len, seed, out)` writes `bytes`
// bytes to out.
// The presets' key hashes (hash/preset_hashes.h). Verification values are
// computed by VerificationValue(fn, bits) and pinned here; none of these
// functions has a published SMHasher value except crc32 (above).
constexpr std::array<HashInfo, 7> kPresetHashes = {
    Row<OaatLibhashkit>("Jenkins one-at-a-time as libmemcached 1.1.4's "
                        "libhashkit computes it (signed char input)",
                        0xB26A3C24u),
    Row<Md5Le32>("MD5 digest bytes 0..3 little-endian: the ketama key hash "
                 "(libmemcached, twemproxy md5, hashring, uhashring ketama)",
                 0xCE6800D4u),
    Row<Fnv1a64Twemproxy>("twemproxy 0.5.0 fnv1a_64: 32-bit FNV-1a with basis "
                          "0x84222325 and prime 0x1b3, signed chars",
                          0x150BD765u),
    Row<Sdbm>("sdbm as HAProxy 2.6 computes it (unsigned bytes)", 0x582AF769u),
    Row<Djb2>("djb2 as HAProxy 2.6 computes it (unsigned bytes)", 0x07B1631Fu),
    Row<SdbmAvalanche>("HAProxy 2.6 plain `hash-type consistent`: full_hash "
                       "(Jenkins 32-bit integer hash x 3221225473) of sdbm",
                       0x588AA946u),
    Row<Murmur3Cassandra>("Cassandra Murmur3Partitioner token: h1 of "
                          "MurmurHash3_x64_128, seed 0, sign-extended tail "
                          "bytes",
                          0x1D90FA4Cu),
};

template <typename HashBytes>
uint32_t Verify(HashBytes&& hash, size_t bytes) {
  unsigned char key[256] = {};
  std::vector<unsigned char> hashes(256 * bytes, 0);
  std::vector<unsigned char> final_hash(bytes, 0);
  for (int i = 0; i < 256; ++i) {
    key[i] = static_cast<unsigned char>(i);
    hash(key, static_cast<size_t>(i), static_cast<uint32_t>(256 - i),
         hashes.data() + static_cast<size_t>(i) * bytes);
  }
  hash(hashes.data(), hashes.size(), uint32_t{0}, final_hash.data());
  uint32_t v = 0;
  for (size_t i = 0; i < 4 && i < bytes; ++i) {
    v |= static_cast<uint32_t>(final_hash[i]) << (8 * i);
  }
  return v;
}

}  // namespace

std::span<const HashInfo> HashFunctions() { return kHashes; }

std::span<const HashInfo> PresetHashFunctions() { return kPresetHashes; }

const HashInfo* FindHash(std::string_view name) {
  for (const HashInfo& info : kHashes) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string HashNames() {
  std::string out;
  for (const HashInfo& info : kHashes) {
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

absl::Status UnknownHashError(std::string_view name) {
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown hash '", absl::string_view(name.data(), name.size()),
      "'; valid hashes: ", HashNames()));
}

uint32_t VerificationValue(RawHashFn hash_bytes, size_t bytes) {
  return Verify([hash_bytes](const void* data, size_t len, uint32_t seed,
                             void* out) { hash_bytes(data, len, seed, out); },
                bytes);
}

uint32_t VerificationValue(HashFn fn, int bits) {
  const size_t bytes = static_cast<size_t>(bits / 8);
  return Verify(
      [fn, bytes](const void* data, size_t len, uint32_t seed, void* out) {
        const uint64_t h = fn(data, len, seed);
        auto* o = static_cast<unsigned char*>(out);
        for (size_t i = 0; i < bytes; ++i) {
          o[i] = static_cast<unsigned char>(h >> (8 * i));
        }
      },
      bytes);
}

}  // namespace chbench
