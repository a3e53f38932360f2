// Copyright 2026 The chbench Authors.
//
// Tests for the hash policies (hash_function.h) and their registry
// (hash_registry.h): published SMHasher verification values of the underlying
// functions, the pinned verification value of every wrapper (a golden table
// with a regenerate switch, after absl/hash/internal/low_level_hash_test.cc),
// known test vectors, and the properties the algorithms rely on.
//
// Regenerate the pinned values after an intended change of a wrapper:
//
//   CHBENCH_UPDATE_GOLDEN=1 ./hash_test --gtest_filter='*Golden*'
//
// prints the current value of every row instead of failing; paste them into
// kHashes in hash_registry.cc.

#include "algorithms/hash/hash_function.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/hash/preset_hashes.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>

namespace chbench {
namespace {

using ::testing::HasSubstr;

// Every policy, in DispatchHash order.
using AllPolicies = std::tuple<Md5, Xxh64, Xxh3, Murmur3_128, Murmur3_32, Crc32,
                               Fnv1a, AbslHash, SipHash>;

template <typename F>
void ForEachPolicy(F&& f) {
  std::apply([&](auto... p) { (f.template operator()<decltype(p)>(), ...); },
             AllPolicies{});
}

bool UpdateGolden() {
  const char* v = std::getenv("CHBENCH_UPDATE_GOLDEN");
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

// --- Raw wrappers of the underlying functions, in SMHasher's form ----------

void RawMurmur3X86_32(const void* data, size_t len, uint32_t seed, void* out) {
  uint32_t h[1];
  lmmh_x86_32(data, static_cast<unsigned int>(len), seed, h);
  auto* o = static_cast<unsigned char*>(out);
  for (int i = 0; i < 4; ++i)
    o[i] = static_cast<unsigned char>(h[0] >> (8 * i));
}

void RawMurmur3X64_128(const void* data, size_t len, uint32_t seed, void* out) {
  uint64_t h[2];
  lmmh_x64_128(data, static_cast<unsigned int>(len), seed, h);
  auto* o = static_cast<unsigned char*>(out);
  for (int w = 0; w < 2; ++w) {
    for (int i = 0; i < 8; ++i) {
      o[8 * w + i] = static_cast<unsigned char>(h[w] >> (8 * i));
    }
  }
}

void StoreLe64(uint64_t h, void* out) {
  auto* o = static_cast<unsigned char*>(out);
  for (int i = 0; i < 8; ++i) o[i] = static_cast<unsigned char>(h >> (8 * i));
}

void RawXxh64(const void* data, size_t len, uint32_t seed, void* out) {
  StoreLe64(XXH64(data, len, seed), out);
}

void RawXxh3(const void* data, size_t len, uint32_t seed, void* out) {
  StoreLe64(XXH3_64bits_withSeed(data, len, seed), out);
}

// Bit-at-a-time CRC-32 with zlib's seed convention, independent of the
// slicing-by-8 tables under test.
uint32_t BitwiseCrc32(uint32_t crc, const void* data, size_t len) {
  const auto* p = static_cast<const unsigned char*>(data);
  crc = ~crc;
  for (size_t i = 0; i < len; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) {
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
  }
  return ~crc;
}

void RawBitwiseCrc32(const void* data, size_t len, uint32_t seed, void* out) {
  const uint32_t h = BitwiseCrc32(seed, data, len);
  auto* o = static_cast<unsigned char*>(out);
  for (int i = 0; i < 4; ++i) o[i] = static_cast<unsigned char>(h >> (8 * i));
}

// Older rurban/smhasher siphash_test (Hashes.cpp): the 32-bit seed fills the
// first 4 key bytes (k0 = seed, k1 = 0), and an empty key hashes to 0 (only
// 4 bytes are written; SMHasher zeroes the output buffer first).
void RawRurbanSipHash(const void* data, size_t len, uint32_t seed, void* out) {
  if (len == 0) {
    std::memset(out, 0, 4);
    return;
  }
  StoreLe64(SipHash24(seed, 0, data, len), out);
}

// --- SMHasher verification values ------------------------------------------

// Values from SMHasher's g_hashes[] (aappleby/smhasher main.cpp: Murmur3A,
// Murmur3F, crc32; rurban/smhasher main.cpp: xxHash64) and, for XXH3 0.8, the
// Zig standard library (lib/std/hash/xxhash.zig, test "xxhash3 smhasher";
// rurban/smhasher's 0x39CD9E4A belongs to a pre-0.8 xxh3.h). If one of these
// fails, VerificationValue does not follow KeysetTest.cpp's procedure.
TEST(VerificationValueTest, MatchesSmhasherPublishedValues) {
  EXPECT_EQ(VerificationValue(&RawMurmur3X86_32, 4), 0xB0F57EE3u);
  EXPECT_EQ(VerificationValue(&RawMurmur3X64_128, 16), 0x6384BA69u);
  EXPECT_EQ(VerificationValue(&RawXxh64, 8), 0x024B7CF4u);
  EXPECT_EQ(VerificationValue(&RawXxh3, 8), 0x9A636405u);
  EXPECT_EQ(VerificationValue(&RawBitwiseCrc32, 4), 0x3719DB20u);
  // Older rurban/smhasher main.cpp: siphash_test, "SipHash 2-4 - SSSE3
  // optimized" (empty key -> 0).
  EXPECT_EQ(VerificationValue(&RawRurbanSipHash, 8), 0xC58D7F9Cu);
}

// Where our wrapper is exactly a published function, its value must be the
// published one: the four above, and FNV-1a 64 with the seed xored into the
// offset basis ("FNV64", rurban/smhasher main.cpp: 0x103455FC).
TEST(VerificationValueTest, PlainWrappersMatchPublishedValues) {
  EXPECT_EQ(VerificationValue(&Xxh64::Hash, 64), 0x024B7CF4u);
  EXPECT_EQ(VerificationValue(&Xxh3::Hash, 64), 0x9A636405u);
  EXPECT_EQ(VerificationValue(&Murmur3_32::Hash, 32), 0xB0F57EE3u);
  EXPECT_EQ(VerificationValue(&Crc32::Hash, 32), 0x3719DB20u);
  EXPECT_EQ(VerificationValue(&Fnv1a::Hash, 64), 0x103455FCu);
  // SipHash-2-4 with k0 = seed, k1 = 0, empty key included: rurban/smhasher
  // main.cpp's current "SipHash" row ("SipHash 2-4").
  EXPECT_EQ(VerificationValue(&SipHash::Hash, 64), 0x57B661EDu);
}

TEST(VerificationValueTest, GoldenValuesOfEveryReproducibleRow) {
  const bool update = UpdateGolden();
  for (const HashInfo& info : HashFunctions()) {
    if (!info.reproducible) {
      EXPECT_EQ(info.verification, 0u) << info.name;
      continue;
    }
    const uint32_t v = VerificationValue(info.fn, info.bits);
    if (update) {
      std::printf("  %-12s 0x%08Xu\n", std::string(info.name).c_str(), v);
      continue;
    }
    EXPECT_NE(info.verification, 0u) << info.name << " is not pinned";
    EXPECT_EQ(v, info.verification)
        << info.name << ": got 0x" << std::hex << v
        << "; rerun with CHBENCH_UPDATE_GOLDEN=1 if the change is intended";
  }
  if (update) GTEST_SKIP() << "CHBENCH_UPDATE_GOLDEN set: values printed";
}

// The registry's function pointer is the policy's own Hash (so benchmarks,
// which instantiate the policy, and the runner, which may use the row, agree).
TEST(VerificationValueTest, PolicyAndRowAgree) {
  ForEachPolicy([]<typename H>() {
    const HashInfo* info = FindHash(H::kName);
    ASSERT_NE(info, nullptr) << H::kName;
    EXPECT_EQ(info->fn, &H::Hash) << H::kName;
    if (H::kReproducible) {
      EXPECT_EQ(VerificationValue(&H::Hash, H::kBits), info->verification)
          << H::kName;
    }
  });
}

// --- Known vectors ----------------------------------------------------------

// RFC 1321 appendix A.5 test suite; we keep the first 8 digest bytes,
// big-endian.
TEST(Md5Test, Rfc1321Vectors) {
  EXPECT_EQ(HashString<Md5>(""), 0xd41d8cd98f00b204u);  // d41d8cd98f00b204e98..
  EXPECT_EQ(HashString<Md5>("a"), 0x0cc175b9c0f1b6a8u);  // 0cc175b9c0f1b6a8..
  EXPECT_EQ(HashString<Md5>("abc"), 0x900150983cd24fb0u);
  EXPECT_EQ(HashString<Md5>("message digest"), 0xf96b697d7cb7938du);
  EXPECT_EQ(HashString<Md5>("abcdefghijklmnopqrstuvwxyz"), 0xc3fcd3d76192e400u);
}

// chbench's MD5 equals OpenSSL's at every length from 0 to 300 bytes (one
// to six blocks, with the padding in the last block or in a block of its
// own) and with the 8-byte seed prefix, on random bytes and on bytes with
// the high bit set.
TEST(Md5Test, EqualsOpenSslAtEveryLength) {
  SplitMix64 rng(55);
  for (int round = 0; round < 4; ++round) {
    unsigned char buf[300];
    for (unsigned char& c : buf) {
      c = static_cast<unsigned char>(round % 2 == 0 ? rng() : 0x80 | rng());
    }
    for (size_t total = 0; total <= sizeof(buf); ++total) {
      for (size_t prefix : {size_t{0}, size_t{8}}) {
        if (prefix > total) continue;
        unsigned char want[16];
        MD5(buf, total, want);
        const std::array<unsigned char, 16> got =
            md5_internal::Digest(buf, prefix, buf + prefix, total - prefix);
        ASSERT_TRUE(std::equal(got.begin(), got.end(), want))
            << "length " << total << " prefix " << prefix;
      }
    }
  }
  // Through Md5Digest, seeded and not.
  for (size_t len : {size_t{0}, size_t{47}, size_t{48}, size_t{55}, size_t{56},
                     size_t{64}, size_t{119}, size_t{120}}) {
    std::string s(len, 'k');
    for (size_t i = 0; i < len; ++i) s[i] = static_cast<char>(rng());
    unsigned char want[16];
    MD5(reinterpret_cast<const unsigned char*>(s.data()), len, want);
    const std::array<unsigned char, 16> got = Md5Digest(s.data(), len, 0);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), want)) << len;
    std::string prefixed = std::string("\x07\0\0\0\0\0\0\0", 8) + s;
    MD5(reinterpret_cast<const unsigned char*>(prefixed.data()),
        prefixed.size(), want);
    const std::array<unsigned char, 16> seeded = Md5Digest(s.data(), len, 7);
    EXPECT_TRUE(std::equal(seeded.begin(), seeded.end(), want)) << len;
  }
}

TEST(Md5Test, SeedPrefixesItsLittleEndianBytes) {
  const uint64_t seed = 0x0807060504030201u;
  const std::string prefixed =
      std::string("\x01\x02\x03\x04\x05\x06\x07\x08") + "key-42";
  EXPECT_EQ(HashString<Md5>("key-42", seed), HashString<Md5>(prefixed));
  // Seed 1 prefixes {1, 0, 0, 0, 0, 0, 0, 0}.
  EXPECT_EQ(HashString<Md5>("x", 1),
            HashString<Md5>(std::string_view("\x01\0\0\0\0\0\0\0x", 9)));
}

// CRC RevEng catalogue, CRC-32/ISO-HDLC: check = 0xCBF43926.
TEST(Crc32Test, CheckValueAndKnownVectors) {
  EXPECT_EQ(HashString<Crc32>("123456789"), 0xCBF43926u);
  EXPECT_EQ(HashString<Crc32>(""), 0u);
  // Widely quoted example (e.g. Wikipedia "Cyclic redundancy check").
  EXPECT_EQ(HashString<Crc32>("The quick brown fox jumps over the lazy dog"),
            0x414FA339u);
}

TEST(Crc32Test, SeedIsThePreviousCrcAsInZlib) {
  const std::string a = "consistent ", b = "hashing with a long tail";
  const uint64_t crc_a = HashString<Crc32>(a);
  EXPECT_EQ(HashString<Crc32>(b, crc_a), HashString<Crc32>(a + b));
  // The seed is truncated to 32 bits.
  EXPECT_EQ(HashString<Crc32>(b, crc_a | (uint64_t{0xABCD} << 32)),
            HashString<Crc32>(a + b));
}

TEST(Crc32Test, SlicingMatchesBitwiseAtEveryLengthAndAlignment) {
  Sfc64 rng(2026);
  std::vector<unsigned char> buf(300);
  for (auto& c : buf) c = static_cast<unsigned char>(rng());
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t len = 0; len + offset <= 200; ++len) {
      const uint32_t seed = static_cast<uint32_t>(rng());
      ASSERT_EQ(Crc32::Hash(buf.data() + offset, len, seed),
                BitwiseCrc32(seed, buf.data() + offset, len))
          << "offset " << offset << " len " << len;
    }
  }
}

// FNV reference values (Landon Curt Noll, test_fnv.c; also
// draft-eastlake-fnv).
TEST(Fnv1aTest, ReferenceVectors) {
  EXPECT_EQ(HashString<Fnv1a>(""), 0xcbf29ce484222325u);
  EXPECT_EQ(HashString<Fnv1a>("a"), 0xaf63dc4c8601ec8cu);
  EXPECT_EQ(HashString<Fnv1a>("foobar"), 0x85944171f73967e8u);
}

TEST(Fnv1aTest, SeedIsXoredIntoTheOffsetBasis) {
  EXPECT_EQ(HashString<Fnv1a>("", 0x1234), 0xcbf29ce484222325u ^ 0x1234u);
  // Seed == offset basis starts the state at 0: h = ('a' ^ 0) * prime.
  EXPECT_EQ(HashString<Fnv1a>("a", 0xcbf29ce484222325u),
            uint64_t{'a'} * 1099511628211u);
}

// xxHash's own sanity values (xxhash tests/sanity_test_vectors.h, XXH64 and
// XXH3_64bits of the empty input with seed 0).
TEST(XxhTest, EmptyInput) {
  EXPECT_EQ(Xxh64::Hash(nullptr, 0, 0), 0xEF46DB3751D8E999u);
  EXPECT_EQ(Xxh3::Hash(nullptr, 0, 0), 0x2D06800538D394C2u);
  EXPECT_EQ(Xxh3::Hash("abc", 3, 0), XXH3_64bits("abc", 3));
}

// MurmurHash3_x86_32 test vectors: empty input with seeds 0, 1 and
// 0xFFFFFFFF (Stack Overflow 14747343, "MurmurHash3 test vectors"), and
// "hello"/"foo" with seed 0 as in the README of the Python mmh3 package.
TEST(Murmur3Test, X86_32Vectors) {
  EXPECT_EQ(Murmur3_32::Hash(nullptr, 0, 0), 0u);
  EXPECT_EQ(Murmur3_32::Hash(nullptr, 0, 1), 0x514E28B7u);
  EXPECT_EQ(Murmur3_32::Hash(nullptr, 0, 0xFFFFFFFFu), 0x81F16F39u);
  EXPECT_EQ(HashString<Murmur3_32>("hello"), 613153351u);
  EXPECT_EQ(HashString<Murmur3_32>("foo"), static_cast<uint32_t>(-156908512));
}

TEST(Murmur3Test, X64_128KeepsTheFirstWordAndA32BitSeed) {
  uint64_t out[2];
  lmmh_x64_128("key-7", 5, 3, out);
  EXPECT_EQ(HashString<Murmur3_128>("key-7", 3), out[0]);
  EXPECT_EQ(HashString<Murmur3_128>("key-7", (uint64_t{1} << 32) | 3), out[0]);
  EXPECT_EQ(HashString<Murmur3_32>("key-7", (uint64_t{1} << 32) | 3),
            HashString<Murmur3_32>("key-7", 3));
}

// The SipHash reference implementation's test vectors (veorq/SipHash
// vectors.h, vectors_sip64; also the paper's appendix A for 15 bytes): key
// 00 01 .. 0f, message i = the i bytes 00 01 .. (i-1), i = 0..63; each
// 8-byte output read little-endian.
constexpr uint64_t kSipHash24Vectors[64] = {
    0x726fdb47dd0e0e31, 0x74f839c593dc67fd, 0x0d6c8009d9a94f5a,
    0x85676696d7fb7e2d, 0xcf2794e0277187b7, 0x18765564cd99a68d,
    0xcbc9466e58fee3ce, 0xab0200f58b01d137, 0x93f5f5799a932462,
    0x9e0082df0ba9e4b0, 0x7a5dbbc594ddb9f3, 0xf4b32f46226bada7,
    0x751e8fbc860ee5fb, 0x14ea5627c0843d90, 0xf723ca908e7af2ee,
    0xa129ca6149be45e5, 0x3f2acc7f57c29bdb, 0x699ae9f52cbe4794,
    0x4bc1b3f0968dd39c, 0xbb6dc91da77961bd, 0xbed65cf21aa2ee98,
    0xd0f2cbb02e3b67c7, 0x93536795e3a33e88, 0xa80c038ccd5ccec8,
    0xb8ad50c6f649af94, 0xbce192de8a85b8ea, 0x17d835b85bbb15f3,
    0x2f2e6163076bcfad, 0xde4daaaca71dc9a5, 0xa6a2506687956571,
    0xad87a3535c49ef28, 0x32d892fad841c342, 0x7127512f72f27cce,
    0xa7f32346f95978e3, 0x12e0b01abb051238, 0x15e034d40fa197ae,
    0x314dffbe0815a3b4, 0x027990f029623981, 0xcadcd4e59ef40c4d,
    0x9abfd8766a33735c, 0x0e3ea96b5304a7d0, 0xad0c42d6fc585992,
    0x187306c89bc215a9, 0xd4a60abcf3792b95, 0xf935451de4f21df2,
    0xa9538f0419755787, 0xdb9acddff56ca510, 0xd06c98cd5c0975eb,
    0xe612a3cb9ecba951, 0xc766e62cfcadaf96, 0xee64435a9752fe72,
    0xa192d576b245165a, 0x0a8787bf8ecb74b2, 0x81b3e73d20b49b6f,
    0x7fa8220ba3b2ecea, 0x245731c13ca42499, 0xb78dbfaf3a8d83bd,
    0xea1ad565322a1a0b, 0x60e61c23a3795013, 0x6606d7e446282b93,
    0x6ca4ecb15c5f91e1, 0x9f626da15c9625f3, 0xe51b38608ef25f57,
    0x958a324ceb064572,
};

TEST(SipHashTest, ReferenceVectors) {
  const uint64_t k0 = 0x0706050403020100u;  // key bytes 00..07, little-endian
  const uint64_t k1 = 0x0f0e0d0c0b0a0908u;  // key bytes 08..0f
  unsigned char msg[64];
  for (int i = 0; i < 64; ++i) msg[i] = static_cast<unsigned char>(i);
  for (size_t len = 0; len < 64; ++len) {
    EXPECT_EQ(SipHash24(k0, k1, msg, len), kSipHash24Vectors[len])
        << "length " << len;
  }
  EXPECT_EQ(SipHash24(k0, k1, nullptr, 0), kSipHash24Vectors[0]);
}

// Every length and alignment agrees with the aligned copy (the word loads
// must not depend on alignment), and the policy is SipHash24(seed, 0, ..).
TEST(SipHashTest, PolicyIsKeySeedZeroAtEveryAlignment) {
  Sfc64 rng(9);
  std::vector<unsigned char> buf(100);
  for (auto& c : buf) c = static_cast<unsigned char>(rng());
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t len = 0; len + offset <= 80; ++len) {
      std::vector<unsigned char> copy(buf.begin() + offset,
                                      buf.begin() + offset + len);
      const uint64_t seed = rng();
      ASSERT_EQ(SipHash::Hash(buf.data() + offset, len, seed),
                SipHash24(seed, 0, copy.data(), len))
          << "offset " << offset << " len " << len;
    }
  }
  // k1 matters: the policy fixes it to 0.
  EXPECT_NE(SipHash24(1, 0, "abc", 3), SipHash24(1, 1, "abc", 3));
  EXPECT_EQ(HashString<SipHash>("abc", 1), SipHash24(1, 0, "abc", 3));
}

// --- Properties -------------------------------------------------------------

std::vector<std::string> Keys(int n) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(absl::StrCat("key-", i));
  return keys;
}

TEST(HashPolicyTest, DeterministicWithinAProcessAndNullSafeWhenEmpty) {
  ForEachPolicy([]<typename H>() {
    for (const std::string& k : Keys(50)) {
      EXPECT_EQ(HashString<H>(k, 7), H::Hash(k.data(), k.size(), 7))
          << H::kName;
      const std::string copy = k;
      EXPECT_EQ(HashString<H>(copy, 7), HashString<H>(k, 7)) << H::kName;
    }
    const char empty[1] = {'z'};
    EXPECT_EQ(H::Hash(nullptr, 0, 5), H::Hash(empty, 0, 5)) << H::kName;
  });
}

TEST(HashPolicyTest, SeededFormsDiffer) {
  ForEachPolicy([]<typename H>() {
    for (const std::string& k : Keys(200)) {
      const uint64_t h0 = HashString<H>(k, 0);
      const uint64_t h1 = HashString<H>(k, 1);
      const uint64_t h2 = HashString<H>(k, 2);
      EXPECT_NE(h0, h1) << H::kName << " " << k;
      EXPECT_NE(h0, h2) << H::kName << " " << k;
      EXPECT_NE(h1, h2) << H::kName << " " << k;
    }
  });
}

// Maglev draws offset and skip from seeds 0 and 1, so their bits should be
// uncorrelated: each output bit agrees between the two seeds for about half
// the keys (n = 4096, sd = 0.0078; bound 0.05 is over 6 sd).
TEST(HashPolicyTest, SeededFormsAreBitwiseUncorrelated) {
  const std::vector<std::string> keys = Keys(4096);
  ForEachPolicy([&keys]<typename H>() {
    if constexpr (std::is_same_v<H, Crc32> || std::is_same_v<H, Fnv1a>) {
      return;  // documented weak seeding; see the two tests below
    } else {
      for (int bit = 0; bit < H::kBits; ++bit) {
        int agree = 0;
        for (const std::string& k : keys) {
          agree +=
              ((HashString<H>(k, 0) ^ HashString<H>(k, 1)) >> bit & 1) == 0;
        }
        const double frac = static_cast<double>(agree) / keys.size();
        EXPECT_NEAR(frac, 0.5, 0.05) << H::kName << " bit " << bit;
      }
    }
  });
}

// CRC is affine over GF(2): for keys of one length the seeded forms differ
// by a constant xor. Documented in hash_function.h; a caller needing
// independent seeded functions (Maglev) gets correlated ones from crc32.
TEST(HashPolicyTest, Crc32IsLinearInTheSeed) {
  const uint64_t d =
      HashString<Crc32>("key-1000", 1) ^ HashString<Crc32>("key-1000", 0);
  for (int i = 1000; i < 1100; ++i) {
    const std::string k = absl::StrCat("key-", i);
    EXPECT_EQ(HashString<Crc32>(k, 1) ^ HashString<Crc32>(k, 0), d) << k;
  }
}

// FNV-1a: multiplication by an odd prime carries differences only upwards,
// so bit 0 of the state difference (seed 0 vs 1) survives every byte.
TEST(HashPolicyTest, Fnv1aSeedsShareTheirLowBits) {
  for (const std::string& k : Keys(500)) {
    EXPECT_EQ((HashString<Fnv1a>(k, 0) ^ HashString<Fnv1a>(k, 1)) & 1, 1u) << k;
  }
}

TEST(HashPolicyTest, ThirtyTwoBitPoliciesStayBelow2To32) {
  ForEachPolicy([]<typename H>() {
    if constexpr (H::kBits == 32) {
      for (uint64_t seed :
           {uint64_t{0}, uint64_t{1}, uint64_t{0xFFFFFFFF}, ~uint64_t{0}}) {
        for (const std::string& k : Keys(1000)) {
          EXPECT_LT(HashString<H>(k, seed), uint64_t{1} << 32) << H::kName;
        }
      }
    }
  });
}

TEST(HashPolicyTest, SixtyFourBitPoliciesUseTheHighHalf) {
  ForEachPolicy([]<typename H>() {
    if constexpr (H::kBits == 64) {
      int high = 0;
      for (const std::string& k : Keys(64)) {
        high += HashString<H>(k) >= (uint64_t{1} << 32);
      }
      EXPECT_GT(high, 56) << H::kName;  // all but ~2^-32 of outputs
    }
  });
}

TEST(HashPairTest, HashesSixteenLittleEndianBytes) {
  const uint64_t a = 0x0102030405060708u, b = 0x1112131415161718u;
  const unsigned char bytes[16] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03,
                                   0x02, 0x01, 0x18, 0x17, 0x16, 0x15,
                                   0x14, 0x13, 0x12, 0x11};
  ForEachPolicy([&]<typename H>() {
    EXPECT_EQ(HashPair<H>(a, b), H::Hash(bytes, 16, 0)) << H::kName;
    EXPECT_NE(HashPair<H>(a, b), HashPair<H>(b, a)) << H::kName;
    EXPECT_NE(HashPair<H>(0, 1), HashPair<H>(1, 0)) << H::kName;
  });
}

TEST(ToUnitIntervalTest, OpenIntervalAtTheExtremes) {
  ForEachPolicy([]<typename H>() {
    const uint64_t max = H::kBits == 64 ? ~uint64_t{0} : 0xFFFFFFFFu;
    const double lo = ToUnitInterval<H>(0);
    const double hi = ToUnitInterval<H>(max);
    EXPECT_GT(lo, 0.0) << H::kName;
    EXPECT_LT(hi, 1.0) << H::kName;
    EXPECT_TRUE(std::isfinite(std::log(lo))) << H::kName;
    EXPECT_LT(std::log(hi), 0.0) << H::kName;
    EXPECT_LT(lo, ToUnitInterval<H>(max / 2)) << H::kName;
    EXPECT_LT(ToUnitInterval<H>(max / 2), hi) << H::kName;
  });
  // 64-bit: (top 52 bits + 0.5) / 2^52, exact at both ends.
  EXPECT_EQ(ToUnitInterval<Xxh64>(0), 0x1p-53);
  EXPECT_EQ(ToUnitInterval<Xxh64>(~uint64_t{0}), 1.0 - 0x1p-53);
  EXPECT_EQ(ToUnitInterval<Xxh64>(uint64_t{1} << 63), 0.5 + 0x1p-53);
  EXPECT_EQ(ToUnitInterval<Crc32>(0), 0x1p-33);
  EXPECT_EQ(ToUnitInterval<Crc32>(0xFFFFFFFFu), 1.0 - 0x1p-33);
}

// --- Registry and dispatch --------------------------------------------------

TEST(HashRegistryTest, ListsExactlyThePoliciesOfDispatchHash) {
  std::vector<std::string_view> policy_names;
  ForEachPolicy([&]<typename H>() { policy_names.push_back(H::kName); });
  std::vector<std::string_view> row_names;
  for (const HashInfo& info : HashFunctions()) row_names.push_back(info.name);
  EXPECT_EQ(row_names, policy_names);
  EXPECT_EQ(
      std::set<std::string_view>(row_names.begin(), row_names.end()).size(),
      row_names.size());
}

TEST(HashRegistryTest, DispatchFindsEveryRowWithMatchingTraits) {
  for (const HashInfo& info : HashFunctions()) {
    bool called = false;
    const bool found = DispatchHash(info.name, [&]<typename H>() {
      called = true;
      EXPECT_EQ(H::kName, info.name);
      EXPECT_EQ(H::kBits, info.bits) << info.name;
      EXPECT_EQ(H::kReproducible, info.reproducible) << info.name;
      EXPECT_EQ(&H::Hash, info.fn) << info.name;
    });
    EXPECT_TRUE(found) << info.name;
    EXPECT_TRUE(called) << info.name;
    EXPECT_TRUE(info.bits == 32 || info.bits == 64) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
  }
}

TEST(HashRegistryTest, DispatchRejectsUnknownNames) {
  for (std::string_view name : {"", "MD5", "xxh", "md5 ", "sha1", "crc32c"}) {
    bool called = false;
    EXPECT_FALSE(DispatchHash(name, [&]<typename H>() { called = true; }))
        << name;
    EXPECT_FALSE(called) << name;
    EXPECT_EQ(FindHash(name), nullptr) << name;
  }
}

TEST(HashRegistryTest, OnlyAbslHashIsNotReproducible) {
  for (const HashInfo& info : HashFunctions()) {
    EXPECT_EQ(info.reproducible, info.name != "absl_hash") << info.name;
  }
}

TEST(HashRegistryTest, NamesAndErrors) {
  EXPECT_EQ(HashNames(),
            "md5, xxh64, xxh3, murmur3_128, murmur3_32, crc32, fnv1a, "
            "absl_hash, siphash");
  ASSERT_NE(FindHash("xxh3"), nullptr);
  EXPECT_EQ(FindHash("xxh3")->name, "xxh3");
  const absl::Status s = UnknownHashError("sha1");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "unknown hash 'sha1'; valid hashes: md5, xxh64, xxh3, "
            "murmur3_128, murmur3_32, crc32, fnv1a, absl_hash, siphash");
  for (const HashInfo& info : HashFunctions()) {
    EXPECT_THAT(std::string(s.message()), HasSubstr(std::string(info.name)));
  }
}

}  // namespace
}  // namespace chbench
