// Copyright 2026 The chbench Authors.
//
// Key set generators (see keyset.h). Every generator draws from SplitMix64 or
// Sfc64 (algorithms/util/random.h) seeded with the caller's seed, so the same
// (name, count, seed) gives the same keys on every machine.

#include "workload/keyset.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "algorithms/util/random.h"

namespace chbench {
namespace {

// Debian's wamerican word list.
constexpr char kWordsPath[] = "/usr/share/dict/words";

constexpr std::array<KeySetInfo, 4> kKeySets = {{
    {"uniform", "16 hex digits of a SplitMix64 output per key"},
    {"url", "URL-like strings https://<host>/<section>/<slug>/<id>"},
    {"sequential", "key-<i> for consecutive i: the hard case for weak hashes"},
    {"words", "/usr/share/dict/words (wamerican): a seeded random subset; "
              "repetitions are independent only up to half the dictionary"},
}};

// Word lists for URL-like keys (invented, no source).
constexpr std::array<std::string_view, 16> kHosts = {
    "www.example.com", "shop.example.org",  "blog.example.net",
    "news.example.com", "api.example.io",   "static.example.com",
    "wiki.example.org", "docs.example.dev", "mail.example.com",
    "cdn.example.net",  "m.example.com",    "forum.example.org",
    "img.example.com",  "video.example.tv", "store.example.co.uk",
    "login.example.com"};
constexpr std::array<std::string_view, 16> kSections = {
    "articles", "products", "users",   "search", "images",  "category",
    "posts",    "tags",     "archive", "news",   "reviews", "help",
    "download", "events",   "videos",  "pages"};
constexpr std::array<std::string_view, 16> kSlugs = {
    "index",  "travel", "sports", "music",  "garden", "kitchen",
    "books",  "health", "cars",   "movies", "money",  "science",
    "family", "games",  "style",  "weather"};

// The distinct non-empty lines of the word list, in file order; read once.
absl::StatusOr<const std::vector<std::string>*> Words() {
  static std::mutex mu;
  static std::vector<std::string>* words = nullptr;
  std::lock_guard<std::mutex> lock(mu);
  if (words != nullptr) return words;
  std::ifstream in(kWordsPath);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("key set 'words' needs ", kWordsPath,
                     ", which cannot be read; install Debian's wamerican "
                     "package (apt-get install wamerican)"));
  }
  auto* list = new std::vector<std::string>();
  std::unordered_set<std::string> seen;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (seen.insert(line).second) list->push_back(line);
  }
  words = list;
  return words;
}

}  // namespace

std::span<const KeySetInfo> KeySets() { return kKeySets; }

const KeySetInfo* FindKeySet(std::string_view name) {
  for (const KeySetInfo& info : kKeySets) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string KeySetNames() {
  return absl::StrJoin(kKeySets, ", ",
                       [](std::string* out, const KeySetInfo& info) {
                         absl::StrAppend(out, std::string(info.name));
                       });
}

absl::Status ForEachKey(std::string_view name, size_t count, uint64_t seed,
                        absl::FunctionRef<void(std::string_view)> f) {
  if (name == "uniform") {
    SplitMix64 rng(seed);
    // 16 lowercase hex digits, zero-padded (printf's "%016llx"), written
    // by hand: snprintf was a tenth of a 10^6-key cell.
    constexpr char kHex[] = "0123456789abcdef";
    char buf[16];
    for (size_t i = 0; i < count; ++i) {
      uint64_t r = rng();
      for (int j = 15; j >= 0; --j, r >>= 4) buf[j] = kHex[r & 0xf];
      f(std::string_view(buf, 16));
    }
  } else if (name == "url") {
    SplitMix64 rng(seed ^ 0x75726c6b657973ULL);  // "urlkeys"
    std::string key;
    for (size_t i = 0; i < count; ++i) {
      const uint64_t r = rng();
      // Disjoint bit fields of one draw choose host, section and slug; a
      // second draw gives a 12-digit id.
      const uint64_t id = rng() % 1000000000000ULL;
      key.assign("https://");
      key.append(kHosts[r & 15]).append("/");
      key.append(kSections[(r >> 4) & 15]).append("/");
      key.append(kSlugs[(r >> 8) & 15]).append("/");
      absl::StrAppend(&key, id);
      f(key);
    }
  } else if (name == "sequential") {
    // Seed s starts at s * count, so repetitions use disjoint key ranges.
    const uint64_t start = seed * static_cast<uint64_t>(count);
    std::string key;
    for (size_t i = 0; i < count; ++i) {
      key.assign("key-");
      absl::StrAppend(&key, start + i);
      f(key);
    }
  } else if (name == "words") {
    absl::StatusOr<const std::vector<std::string>*> words = Words();
    if (!words.ok()) return words.status();
    std::vector<uint32_t> order((*words)->size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    // Partial Fisher-Yates shuffle: the first `take` positions.
    Sfc64 rng(seed ^ 0x776f726473ULL);  // "words"
    const size_t take = std::min(count, order.size());
    for (size_t i = 0; i < take; ++i) {
      const size_t j = i + rng.Below(order.size() - i);
      std::swap(order[i], order[j]);
    }
    for (size_t i = 0; i < take; ++i) f((**words)[order[i]]);
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown key set '", std::string(name), "'; valid key sets: ", KeySetNames()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> GenerateKeys(std::string_view name,
                                                      size_t count,
                                                      uint64_t seed) {
  std::vector<std::string> keys;
  keys.reserve(name == "words" ? 0 : count);
  absl::Status s = ForEachKey(name, count, seed, [&keys](std::string_view k) {
    keys.emplace_back(k);
  });
  if (!s.ok()) return s;
  return keys;
}

bool KeysOverlapAcrossSeeds(std::string_view name, size_t count) {
  if (name != "words") return false;
  absl::StatusOr<size_t> d = WordsDictionarySize();
  return d.ok() && count > *d / 2;
}

absl::StatusOr<size_t> WordsDictionarySize() {
  absl::StatusOr<const std::vector<std::string>*> words = Words();
  if (!words.ok()) return words.status();
  return (*words)->size();
}

std::vector<uint64_t> GenerateKeyHashes(size_t count, uint64_t seed) {
  std::vector<uint64_t> out(count);
  SplitMix64 rng(seed);
  for (uint64_t& h : out) h = rng();
  return out;
}

}  // namespace chbench
