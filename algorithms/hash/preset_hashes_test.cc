// Copyright 2026 The chbench Authors.
//
// The presets' key hashes (hash/preset_hashes.h): pinned verification values,
// external vectors (Cassandra tokens recorded from npm cassandra-driver
// 4.10.0, ASCII and non-ASCII keys), agreement with the standard functions on
// ASCII input, and the signed-char quirks on bytes >= 0x80. The mappings
// built on them are checked against the real systems in
// presets/presets_test.cc.

#include "algorithms/hash/preset_hashes.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/hash_registry.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(PresetHashes, VerificationValuesArePinned) {
  ASSERT_EQ(PresetHashFunctions().size(), 7u);
  for (const HashInfo& info : PresetHashFunctions()) {
    EXPECT_EQ(VerificationValue(info.fn, info.bits), info.verification)
        << absl::StrFormat("%s: computed 0x%08X", info.name,
                           VerificationValue(info.fn, info.bits));
    EXPECT_EQ(FindHash(info.name), nullptr)
        << info.name << " must not be a generic algorithm hash";
  }
}

TEST(PresetHashes, CassandraTokensMatchTheDriver) {
  size_t checked = 0;
  for (const char* file : {"cassandra-m3p-tokens.tsv",
                           "cassandra-m3p-tokens-utf8.tsv"}) {
    std::ifstream in(absl::StrCat(CHBENCH_SOURCE_DIR,
                                  "/algorithms/presets/testdata/reference/",
                                  file));
    ASSERT_TRUE(in.good()) << file;
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      const size_t tab = line.rfind('\t');
      const std::string key = line.substr(0, tab);
      int64_t token = 0;
      ASSERT_TRUE(absl::SimpleAtoi(line.substr(tab + 1), &token)) << line;
      EXPECT_EQ(static_cast<int64_t>(
                    Murmur3Cassandra::Hash(key.data(), key.size(), 0)),
                token)
          << key;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 600u);
}

// On bytes < 0x80 the quirky variants equal the standard functions.
TEST(PresetHashes, AsciiInputMatchesStandardFunctions) {
  std::string s;
  for (int len = 0; len < 48; ++len) {
    EXPECT_EQ(Murmur3Cassandra::Hash(s.data(), s.size(), 0),
              Murmur3_128::Hash(s.data(), s.size(), 0))
        << len;
    uint32_t fnv = 0x84222325u;
    uint32_t oaat = 0;
    for (unsigned char c : s) {
      fnv = (fnv ^ c) * 0x1b3u;
      oaat += c;
      oaat += oaat << 10;
      oaat ^= oaat >> 6;
    }
    oaat += oaat << 3;
    oaat ^= oaat >> 11;
    oaat += oaat << 15;
    EXPECT_EQ(Fnv1a64Twemproxy::Hash(s.data(), s.size(), 0), fnv);
    EXPECT_EQ(OaatLibhashkit::Hash(s.data(), s.size(), 0), oaat);
    s.push_back(static_cast<char>('a' + len % 26));
  }
}

// Bytes >= 0x80: the signed-char functions differ from their unsigned forms,
// murmur3_cassandra from standard murmur3 when such a byte is in the tail.
TEST(PresetHashes, SignedCharQuirks) {
  const std::string k = "cl\xc3\xa9";  // "clé"
  uint32_t fnv_unsigned = 0x84222325u;
  for (unsigned char c : k) fnv_unsigned = (fnv_unsigned ^ c) * 0x1b3u;
  EXPECT_NE(Fnv1a64Twemproxy::Hash(k.data(), k.size(), 0), fnv_unsigned);
  EXPECT_NE(Murmur3Cassandra::Hash(k.data(), k.size(), 0),
            Murmur3_128::Hash(k.data(), k.size(), 0));
  // 16 non-ASCII bytes and no tail: the blocks are standard.
  const std::string block(16, '\xe9');
  EXPECT_EQ(Murmur3Cassandra::Hash(block.data(), block.size(), 0),
            Murmur3_128::Hash(block.data(), block.size(), 0));
}

TEST(PresetHashes, HaproxyComposition) {
  const std::string k = "key:17";
  const uint32_t sdbm = static_cast<uint32_t>(Sdbm::Hash(k.data(), k.size(), 0));
  uint32_t model = 0;
  for (unsigned char c : k) model = c + (model << 6) + (model << 16) - model;
  EXPECT_EQ(sdbm, model);
  EXPECT_EQ(SdbmAvalanche::Hash(k.data(), k.size(), 0), HaproxyFullHash(sdbm));
  EXPECT_NE(HaproxyFullHash(1), HaproxyFullHash(2));
}

TEST(PresetHashes, Md5Le32IsTheFirstDigestWordLittleEndian) {
  // md5("") = d41d8cd98f00b204e9800998ecf8427e (RFC 1321 appendix A.5).
  EXPECT_EQ(Md5Le32::Hash("", 0, 0), 0xd98c1dd4u);
  EXPECT_EQ(Md5::Hash("", 0, 0), 0xd41d8cd98f00b204ull);
}

}  // namespace
}  // namespace chbench
