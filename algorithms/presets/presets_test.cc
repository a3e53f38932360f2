// Copyright 2026 The chbench Authors.
//
// The presets against the real systems: every row of verify/configs.tsv whose
// real output is committed (testdata/<stem>.tsv, written by make
// verify-presets from the real implementation on all 6,300 keys), the shared
// reference vectors (testdata/reference/: the first 300 keys of each
// configuration, recorded by the design's author from the same systems), and
// Envoy's own unit-test expectations (testdata/reference/envoy-test-vectors.tsv).

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/presets/registry.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

std::string Testdata(std::string_view file) {
  return absl::StrCat(CHBENCH_SOURCE_DIR, "/algorithms/presets/",
                      std::string(file));
}

struct Config {
  std::string stem, system, preset, options;
  std::vector<NodeSpec> servers;
};

// host:port[:weight] -> spec; anything else is a whole name.
NodeSpec ParseSpec(std::string_view item) {
  NodeSpec spec;
  std::vector<std::string> f = absl::StrSplit(std::string(item), ':');
  uint32_t w = 0;
  uint32_t port = 0;
  if (f.size() == 3 && absl::SimpleAtoi(f[1], &port) &&
      absl::SimpleAtoi(f[2], &w)) {
    spec.name = f[0] + ":" + f[1];
    spec.weight = w;
  } else {
    spec.name = std::string(item);
  }
  return spec;
}

std::vector<Config> ReadConfigs() {
  std::ifstream in(Testdata("verify/configs.tsv"));
  EXPECT_TRUE(in.good());
  std::vector<Config> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("stem\t", 0) == 0) {
      continue;
    }
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    EXPECT_EQ(f.size(), 5u) << line;
    if (f.size() != 5) continue;
    Config c{f[0], f[1], f[2], f[3], {}};
    for (const std::string& s :
         std::vector<std::string>(absl::StrSplit(f[4], ','))) {
      c.servers.push_back(ParseSpec(s));
    }
    out.push_back(std::move(c));
  }
  return out;
}

// key -> server lines of a vector file (header lines skipped).
std::vector<std::pair<std::string, std::string>> ReadMapping(
    const std::string& path) {
  std::ifstream in(path);
  std::vector<std::pair<std::string, std::string>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.rfind('\t');
    out.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return out;
}

// Maps every key with the preset and counts disagreements.
void ExpectMapping(const Config& c, const std::string& path,
                   size_t min_rows) {
  SCOPED_TRACE(absl::StrCat(c.stem, " vs ", path));
  const auto rows = ReadMapping(path);
  ASSERT_GE(rows.size(), min_rows);
  auto made = MakePreset(c.preset, c.options);
  ASSERT_TRUE(made.ok()) << made.status();
  ConsistentHash& p = **made;
  ASSERT_TRUE(p.Build(c.servers).ok());
  size_t bad = 0;
  std::string first;
  for (const auto& [key, server] : rows) {
    const std::string& got = p.NodeName(p.Lookup(p.HashKey(key)));
    if (got != server) {
      if (bad++ == 0) first = absl::StrCat(key, ": expected ", server, " got ", got);
    }
  }
  EXPECT_EQ(bad, 0u) << bad << " of " << rows.size() << " keys differ; first "
                     << first;
}

// The shared reference file of a configs.tsv stem (first 300 keys), or "".
std::string SharedName(const std::string& stem) {
  static const std::map<std::string, std::string> kPrefix = {
      {"libmemcached_ketama-", "libmemcached-ketama-md5-"},
      {"libmemcached_weighted-", "libmemcached-ketama-weighted-"},
      {"libmemcached_default-", "libmemcached-ketama-oaat-"},
      {"twemproxy-md5-", "twemproxy-ketama-md5-"},
      {"twemproxy-fnv1a_64-", "twemproxy-ketama-fnv1a64-"},
      {"uhashring-", "uhashring-default-"},
      {"uhashring_ketama-", "uhashring-ketama-"},
      {"npm_hashring-", "npm-hashring-"},
      {"npm_memcached-", "npm-memcached-client-"},
      {"nginx-", "nginx-chash-"},
      {"haproxy-", "haproxy-chash-"},
      {"groupcache-", "groupcache-r50-"},
      {"guava-", "guava-jump-murmur3-"},
      {"cassandra-t1-", "cassandra-m3p-t1-"},
      {"cassandra-t16-", "cassandra-m3p-t16-"},
  };
  for (const auto& [from, to] : kPrefix) {
    if (stem.rfind(from, 0) == 0) return to + stem.substr(from.size());
  }
  return "";
}

TEST(PresetVectors, EveryConfigHasAPreset) {
  const std::vector<Config> configs = ReadConfigs();
  ASSERT_GE(configs.size(), 50u);
  for (const Config& c : configs) {
    EXPECT_NE(FindPreset(c.preset), nullptr) << c.stem;
  }
}

TEST(PresetVectors, MatchSharedReferenceVectors) {
  size_t checked = 0;
  for (const Config& c : ReadConfigs()) {
    const std::string shared = SharedName(c.stem);
    for (const std::string& suffix : {std::string(""), std::string("-utf8")}) {
      const std::string path =
          Testdata(absl::StrCat("testdata/reference/", shared, suffix, ".tsv"));
      if (shared.empty() || !std::filesystem::exists(path)) continue;
      ExpectMapping(c, path, 300);
      ++checked;
    }
  }
  EXPECT_GE(checked, 45u);
}

TEST(PresetVectors, MatchVerifiedRealSystemOutput) {
  size_t checked = 0;
  for (const Config& c : ReadConfigs()) {
    const std::string path = Testdata(absl::StrCat("testdata/", c.stem, ".tsv"));
    if (!std::filesystem::exists(path)) continue;
    ExpectMapping(c, path, 6300);
    ++checked;
  }
  // Every configuration's real output is committed.
  EXPECT_EQ(checked, ReadConfigs().size());
}

// Envoy: the model files (from the design's model, which reproduces Envoy's
// unit tests) on the preset keys.
TEST(PresetVectors, EnvoyModelFiles) {
  for (const std::string kind : {"ringhash", "maglev"}) {
    for (const std::string cfg : {"n3", "n10", "n50", "w1124"}) {
      Config c;
      c.stem = absl::StrCat("envoy-", kind, "-", cfg);
      c.preset = kind == "ringhash" ? "envoy_ring_hash" : "envoy_maglev";
      if (cfg == "w1124") {
        for (const char* s : {"10.0.0.1:11211:1", "10.0.0.2:11211:1",
                              "10.0.0.3:11211:2", "10.0.0.4:11211:4"}) {
          c.servers.push_back(ParseSpec(s));
        }
      } else {
        int n = 0;
        ASSERT_TRUE(absl::SimpleAtoi(cfg.substr(1), &n));
        c.servers = PresetServers(n);
      }
      ExpectMapping(c,
                    Testdata(absl::StrCat("testdata/reference/envoy-model-",
                                          kind, "-", cfg, ".tsv")),
                    300);
    }
  }
}

// Envoy's own unit-test expectations: ring points, lookups by hash value, and
// Maglev table entries.
TEST(PresetVectors, EnvoyUnitTestExpectations) {
  std::ifstream in(Testdata("testdata/reference/envoy-test-vectors.tsv"));
  ASSERT_TRUE(in.good());
  std::string line;
  size_t checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    ASSERT_EQ(f.size(), 5u) << line;
    const std::string& kind = f[0];
    const std::string& cfg = f[1];
    if (cfg.find("murmur2") != std::string::npos) continue;  // not offered
    std::map<std::string, std::string> kv;
    for (const std::string& part :
         std::vector<std::string>(absl::StrSplit(cfg, "; "))) {
      const size_t eq = part.find('=');
      if (eq != std::string::npos) {
        kv[part.substr(0, eq)] = part.substr(eq + 1);
      }
    }
    std::vector<NodeSpec> hosts;
    for (const std::string& h :
         std::vector<std::string>(absl::StrSplit(kv["hosts"], ','))) {
      NodeSpec spec;
      spec.name = h;
      hosts.push_back(spec);
    }
    if (kv.count("weights")) {
      std::vector<std::string> w = absl::StrSplit(kv["weights"], ',');
      for (size_t i = 0; i < w.size(); ++i) {
        ASSERT_TRUE(absl::SimpleAtod(w[i], &hosts[i].weight));
      }
    }
    uint64_t input = 0;
    ASSERT_TRUE(absl::SimpleAtoi(f[2], &input)) << line;
    SCOPED_TRACE(line);
    if (kind == "maglev_entry") {
      auto p = MakePreset("envoy_maglev",
                          absl::StrCat("table_size=", kv["table_size"]));
      ASSERT_TRUE(p.ok()) << p.status();
      ASSERT_TRUE((*p)->Build(hosts).ok());
      // Slot i is what a hash equal to i (< M) reads.
      EXPECT_EQ((*p)->NodeName((*p)->Lookup(input)), f[4]);
    } else {
      auto p = MakePreset("envoy_ring_hash",
                          absl::StrCat("min_ring_size=", kv["min_ring_size"]));
      ASSERT_TRUE(p.ok()) << p.status();
      ASSERT_TRUE((*p)->Build(hosts).ok());
      if (kind == "ring_point") {
        // The point at position `input` of the sorted ring.
        uint64_t pos = 0;
        ASSERT_TRUE(absl::SimpleAtoi(f[3], &pos));
        EXPECT_EQ((*p)->NodeName((*p)->Lookup(pos)), f[4]);
      } else {
        EXPECT_EQ((*p)->NodeName((*p)->Lookup(input)), f[4]);
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 50u);
}

}  // namespace
}  // namespace chbench

namespace chbench {
namespace {

// The presets whose point formula can give a light server no point refuse
// it (Build and AddNode), naming the smallest weight that gets one: that
// weight builds, one less does not. The other weighted presets give every
// integer weight points (nginx 160 w, haproxy 16 w) or a table slot.
TEST(PresetWeights, AServerWithoutAPointIsAnErrorNamingTheSmallestWeight) {
  struct Case {
    std::string preset, options;
    std::vector<uint32_t> weights;  // the last server gets no point
  };
  const std::vector<Case> cases = {
      {"libmemcached_weighted", "", {1u << 20, 1}},
      {"twemproxy", "", {1u << 20, 1}},
      {"npm_hashring", "", {1u << 20, 1}},
      {"npm_memcached", "", {1u << 20, 1}},
      {"uhashring_ketama", "", {1u << 16, 1}},
      {"envoy_ring_hash", "max_ring_size=64", {100, 100, 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.preset);
    std::vector<NodeSpec> servers = PresetServers(c.weights.size());
    for (size_t i = 0; i < servers.size(); ++i) {
      servers[i].weight = c.weights[i];
    }
    auto p = MakePreset(c.preset, c.options);
    ASSERT_TRUE(p.ok()) << p.status();
    const absl::Status s = (*p)->Build(servers);
    ASSERT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    const std::string msg(s.message());
    EXPECT_NE(msg.find(absl::StrCat("server '", servers.back().name,
                                    "' weight 1 gets ")),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find(" = 0 points"), std::string::npos) << msg;
    const size_t at = msg.rfind(" is ");
    ASSERT_NE(at, std::string::npos) << msg;
    uint32_t least = 0;
    ASSERT_TRUE(absl::SimpleAtoi(msg.substr(at + 4), &least)) << msg;
    ASSERT_GT(least, 1u);
    servers.back().weight = least;
    EXPECT_TRUE((*p)->Build(servers).ok()) << least;
    servers.back().weight = least - 1;
    EXPECT_FALSE((*p)->Build(servers).ok()) << least - 1;
    // AddNode refuses the light server and keeps the others.
    servers.pop_back();
    ASSERT_TRUE((*p)->Build(servers).ok());
    NodeSpec light = PresetServers(c.weights.size()).back();
    light.weight = 1;
    EXPECT_FALSE((*p)->AddNode(light).ok());
    EXPECT_EQ((*p)->size(), servers.size());
  }
}

}  // namespace
}  // namespace chbench
