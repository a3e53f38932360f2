// Copyright 2026 The chbench Authors.

#include "workload/keyset.h"

#include <cstdio>
#include <filesystem>
#include <set>

#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(KeySetTest, Registry) {
  EXPECT_EQ(KeySetNames(), "uniform, url, sequential, words");
  EXPECT_NE(FindKeySet("url"), nullptr);
  EXPECT_EQ(FindKeySet("zipf"), nullptr);
  absl::StatusOr<std::vector<std::string>> bad = GenerateKeys("zipf", 3, 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              ::testing::HasSubstr("unknown key set 'zipf'; valid key sets: "
                                   "uniform, url, sequential, words"));
}

TEST(KeySetTest, DeterministicAndSeeded) {
  for (const char* name : {"uniform", "url", "sequential"}) {
    const auto a = GenerateKeys(name, 1000, 7);
    const auto b = GenerateKeys(name, 1000, 7);
    const auto c = GenerateKeys(name, 1000, 8);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(a->size(), 1000u);
    EXPECT_EQ(*a, *b) << name;
    EXPECT_NE(*a, *c) << name;
    EXPECT_EQ(std::set<std::string>(a->begin(), a->end()).size(), 1000u)
        << name;
  }
}

TEST(KeySetTest, Formats) {
  const auto u = GenerateKeys("uniform", 2, 0);
  EXPECT_THAT((*u)[0], ::testing::MatchesRegex("[0-9a-f]{16}"));
  // SplitMix64(0)'s first output (Vigna's splitmix64.c).
  EXPECT_EQ((*u)[0], "e220a8397b1dcdaf");
  const auto s = GenerateKeys("sequential", 3, 0);
  EXPECT_EQ(*s, (std::vector<std::string>{"key-0", "key-1", "key-2"}));
  const auto url = GenerateKeys("url", 1, 0);
  EXPECT_THAT((*url)[0],
              ::testing::MatchesRegex("https://[a-z.]+/[a-z]+/[a-z]+/[0-9]+"));
  EXPECT_EQ(GenerateKeyHashes(2, 0)[0], 0xe220a8397b1dcdafULL);
}

// ForEachKey passes the keys of GenerateKeys, in order, for every key set
// (words where the dictionary is installed); an unknown key set is an error
// before any key.
TEST(KeySetTest, ForEachKeyStreamsTheSameKeys) {
  for (const char* name : {"uniform", "url", "sequential", "words"}) {
    const auto want = GenerateKeys(name, 2000, 3);
    std::vector<std::string> got;
    const absl::Status s = ForEachKey(
        name, 2000, 3, [&got](std::string_view k) { got.emplace_back(k); });
    ASSERT_EQ(s.ok(), want.ok()) << name;
    if (!want.ok()) continue;
    EXPECT_EQ(got, *want) << name;
  }
  int calls = 0;
  const absl::Status bad =
      ForEachKey("zipf", 3, 0, [&calls](std::string_view) { ++calls; });
  EXPECT_THAT(bad.message(), ::testing::HasSubstr("unknown key set 'zipf'"));
  EXPECT_EQ(calls, 0);
}

// A url key's last path segment is the decimal of the second SplitMix64
// draw modulo 10^12 (ids of every length follow each other; a key built in
// a reused buffer must not keep digits of a longer one).
TEST(KeySetTest, UrlIdIsTheSecondDraw) {
  const auto keys = GenerateKeys("url", 5000, 11);
  ASSERT_TRUE(keys.ok());
  SplitMix64 rng(11 ^ 0x75726c6b657973ULL);
  std::set<size_t> lengths;
  for (const std::string& key : *keys) {
    rng();
    const std::string id = std::to_string(rng() % 1000000000000ULL);
    ASSERT_EQ(key.substr(key.rfind('/') + 1), id);
    lengths.insert(id.size());
  }
  EXPECT_GT(lengths.size(), 1u);
}

// The hand-written hex matches printf's "%016llx" (leading zeros included:
// one output in 16 starts with a 0 digit).
TEST(KeySetTest, UniformIsZeroPaddedHex) {
  const auto u = GenerateKeys("uniform", 4096, 9);
  ASSERT_TRUE(u.ok());
  SplitMix64 rng(9);
  int leading_zero = 0;
  for (const std::string& key : *u) {
    char want[17];
    std::snprintf(want, sizeof(want), "%016llx",
                  static_cast<unsigned long long>(rng()));
    ASSERT_EQ(key, want);
    leading_zero += key[0] == '0';
  }
  EXPECT_GT(leading_zero, 0);
}

TEST(KeySetTest, Words) {
  if (!std::filesystem::exists("/usr/share/dict/words")) {
    const auto w = GenerateKeys("words", 10, 0);
    ASSERT_FALSE(w.ok());
    EXPECT_THAT(w.status().message(),
                ::testing::HasSubstr("/usr/share/dict/words"));
    return;
  }
  const auto w = GenerateKeys("words", 5000, 3);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->size(), 5000u);
  EXPECT_EQ(std::set<std::string>(w->begin(), w->end()).size(), 5000u);
  EXPECT_EQ(*w, *GenerateKeys("words", 5000, 3));
  // More than the dictionary: stops at its distinct lines.
  const auto all = GenerateKeys("words", 10000000, 0);
  ASSERT_TRUE(all.ok());
  EXPECT_LT(all->size(), 10000000u);
  EXPECT_GT(all->size(), 50000u);
  absl::StatusOr<size_t> d = WordsDictionarySize();
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(all->size(), *d);
}

size_t SharedKeys(const std::vector<std::string>& a,
                  const std::vector<std::string>& b) {
  const std::set<std::string> sa(a.begin(), a.end());
  size_t shared = 0;
  for (const std::string& k : b) shared += sa.count(k);
  return shared;
}

// Repetitions must not reuse the same dictionary keys.
// Up to half the dictionary, seeds draw different random subsets
// (expected overlap count/D); above half, the overlap predicate tells the
// runner to mark the rows n_eff = 1.
TEST(KeySetTest, WordsRepetitionsDifferUpToHalfTheDictionary) {
  absl::StatusOr<size_t> d = WordsDictionarySize();
  if (!d.ok()) GTEST_SKIP() << d.status();
  const size_t half = *d / 2;
  for (size_t count : {size_t{1000}, half}) {
    const auto a = GenerateKeys("words", count, 1);
    const auto b = GenerateKeys("words", count, 2);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->size(), count);
    const double shared =
        static_cast<double>(SharedKeys(*a, *b)) / static_cast<double>(count);
    // Expected count/D (2 % and 50 %); sd < 0.5 % at these sizes.
    EXPECT_LE(shared, 0.6) << count;
    EXPECT_NEAR(shared, static_cast<double>(count) / *d, 0.05) << count;
    EXPECT_FALSE(KeysOverlapAcrossSeeds("words", count)) << count;
  }
  EXPECT_TRUE(KeysOverlapAcrossSeeds("words", half + 1));
  EXPECT_TRUE(KeysOverlapAcrossSeeds("words", 10000000));
  // Above half: most keys shared (all of them at count = D).
  const auto x = GenerateKeys("words", *d, 1);
  const auto y = GenerateKeys("words", *d, 2);
  ASSERT_TRUE(x.ok() && y.ok());
  EXPECT_EQ(SharedKeys(*x, *y), *d);
  EXPECT_NE(*x, *y) << "the order still differs";
  for (const char* name : {"uniform", "url", "sequential"}) {
    EXPECT_FALSE(KeysOverlapAcrossSeeds(name, 100000000)) << name;
  }
}

}  // namespace
}  // namespace chbench
