// Copyright 2026 The chbench Authors.
//
// The preset registry and the properties every preset must have: pinned
// golden checksums, names that never collide with algorithm names, option
// validation with one-line errors, and, through the ConsistentHash
// interface, determinism, live owners, "a change equals a fresh
// configuration of the live servers" (what every system here does), and
// minimal disruption where a preset claims it.

#include "algorithms/presets/registry.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/registry.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

std::unique_ptr<ConsistentHash> Make(const PresetInfo& info) {
  auto p = MakePreset(info.name, "");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *std::move(p) : nullptr;
}

TEST(PresetRegistry, GoldenChecksums) {
  for (const PresetInfo& info : Presets()) {
    auto p = Make(info);
    ASSERT_NE(p, nullptr);
    absl::StatusOr<uint64_t> sum = PresetChecksum(*p);
    ASSERT_TRUE(sum.ok()) << sum.status();
    EXPECT_EQ(*sum, info.golden) << absl::StrFormat(
        "%s: checksum 0x%016x != golden 0x%016x", info.name, *sum, info.golden);
    EXPECT_EQ(p->name(), info.name);
  }
}

TEST(PresetRegistry, NamesAreUniqueAndNotAlgorithmNames) {
  for (const PresetInfo& info : Presets()) {
    EXPECT_EQ(FindAlgorithm(info.name), nullptr) << info.name;
    EXPECT_EQ(FindPreset(info.name), &info);
    EXPECT_FALSE(info.system.empty());
    EXPECT_FALSE(info.version.empty());
    EXPECT_FALSE(info.source.empty());
    EXPECT_FALSE(info.verified.empty());
  }
}

TEST(PresetRegistry, ErrorsNameTheBadValueAndTheValidOnes) {
  struct Case {
    std::string preset, options, want1, want2;
  };
  const Case cases[] = {
      {"nope", "", "unknown preset 'nope'", "libmemcached_ketama"},
      {"twemproxy", "hash=crc9", "invalid hash 'crc9'", "fnv1a_64, md5"},
      {"twemproxy", "hsh=md5", "unknown option 'hsh'", "hash"},
      {"haproxy", "avalanche=2", "invalid avalanche '2'", "0, 1"},
      {"groupcache", "replicas=0", "invalid replicas '0'", "1..65536"},
      {"envoy_maglev", "table_size=65536", "invalid table_size '65536'",
       "prime"},
      {"cassandra", "tokens=random", "invalid tokens 'random'", "splitmix64"},
      {"nginx", "x", "is not name=value", ""},
      {"guava", "a=1", "unknown option 'a'", "(none)"},
  };
  for (const Case& c : cases) {
    auto p = MakePreset(c.preset, c.options);
    ASSERT_FALSE(p.ok()) << c.preset << " " << c.options;
    const std::string msg(p.status().message());
    EXPECT_NE(msg.find(c.want1), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.want2), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos);
  }
}

TEST(PresetRegistry, BadServersAreRejected) {
  auto p = MakePreset("libmemcached_ketama", "");
  ASSERT_TRUE(p.ok());
  std::vector<NodeSpec> no_port = {{"10.0.0.1", 1.0, ""}};
  EXPECT_NE(std::string((*p)->Build(no_port).message()).find("not host:port"),
            std::string::npos);
  std::vector<NodeSpec> dup = {{"a:1", 1.0, ""}, {"a:1", 1.0, ""}};
  EXPECT_NE(std::string((*p)->Build(dup).message()).find("duplicate"),
            std::string::npos);
  std::vector<NodeSpec> frac = {{"a:1", 1.5, ""}};
  EXPECT_NE(std::string((*p)->Build(frac).message()).find("weight 1.5"),
            std::string::npos);
  auto g = MakePreset("groupcache", "");
  std::vector<NodeSpec> weighted = {{"a", 2, ""}};
  EXPECT_NE(std::string((*g)->Build(weighted).message()).find("no weights"),
            std::string::npos);
  auto h = MakePreset("haproxy", "");
  std::vector<NodeSpec> heavy = {{"a:1", 257, ""}};
  EXPECT_NE(std::string((*h)->Build(heavy).message()).find("1..256"),
            std::string::npos);
}

// LookupBatch equals Lookup for every preset, in batches of 1, 7, 16, 64
// and 1000 keys (the ring presets' prefetched successor search under each
// search rule, Envoy Maglev's prefetched table), on 200 servers and after
// removing a tenth of them; and the string path equals Lookup(HashKey).
TEST(PresetRegistry, LookupBatchEqualsLookup) {
  std::vector<uint64_t> keys;
  std::vector<std::string> strings;
  for (int i = 0; i < 3000; ++i) {
    strings.push_back(absl::StrCat("k", i));
  }
  std::vector<std::string_view> views(strings.begin(), strings.end());
  for (const PresetInfo& info : Presets()) {
    auto p = Make(info);
    ASSERT_NE(p, nullptr);
    std::vector<NodeSpec> servers;
    for (int i = 0; i < 200; ++i) {
      servers.push_back(
          {absl::StrCat("10.0.", i / 100, ".", i % 100, ":11211"), 1.0, ""});
    }
    ASSERT_TRUE(p->Build(servers).ok()) << info.name;
    for (int state = 0; state < 2; ++state) {
      if (state == 1) {
        for (int r = 0; r < 20; ++r) {
          const std::vector<NodeId> live = p->LiveNodes();
          // The last live server, which every preset can remove, and every
          // other one where the preset allows it.
          const NodeId victim = p->capabilities().arbitrary_removal
                                    ? live[(r * 7) % live.size()]
                                    : live.back();
          ASSERT_TRUE(p->RemoveNode(victim).ok()) << info.name;
        }
      }
      keys.clear();
      for (const std::string& k : strings) keys.push_back(p->HashKey(k));
      for (size_t size : {1, 7, 16, 64, 1000}) {
        std::vector<NodeId> got(keys.size()), got_strings(keys.size());
        for (size_t i = 0; i < keys.size(); i += size) {
          const size_t m = std::min(size, keys.size() - i);
          p->LookupBatch(std::span<const uint64_t>(keys).subspan(i, m),
                         std::span<NodeId>(got).subspan(i, m));
          p->LookupBatch(std::span<const std::string_view>(views).subspan(i, m),
                         std::span<NodeId>(got_strings).subspan(i, m));
        }
        size_t bad = 0;
        for (size_t i = 0; i < keys.size(); ++i) {
          const NodeId want = p->Lookup(keys[i]);
          bad += (got[i] != want) + (got_strings[i] != want);
        }
        EXPECT_EQ(bad, 0u) << info.name << ", state " << state
                           << ", batches of " << size;
      }
    }
  }
}

// Lookups of 20,000 keys.
std::vector<NodeId> Owners(ConsistentHash& p) {
  std::vector<NodeId> out;
  for (int i = 0; i < 20000; ++i) {
    out.push_back(p.Lookup(p.HashKey(absl::StrCat("k", i))));
  }
  return out;
}

TEST(PresetProperties, DeterministicLiveAndBalancedEnough) {
  for (const PresetInfo& info : Presets()) {
    SCOPED_TRACE(info.name);
    auto a = Make(info);
    auto b = Make(info);
    ASSERT_TRUE(a->Build(PresetServers(7)).ok());
    ASSERT_TRUE(b->Build(PresetServers(7)).ok());
    const std::vector<NodeId> oa = Owners(*a);
    EXPECT_EQ(oa, Owners(*b));
    std::vector<int> count(7, 0);
    for (NodeId id : oa) {
      ASSERT_LT(id, 7u);
      ++count[id];
    }
    for (int c : count) EXPECT_GT(c, 0);  // every server owns keys
  }
}

// Removing a server and adding one equal a fresh configuration of the live
// servers in order (the systems rebuild their continuum), except where a
// server's identity is its id rather than its name: HAProxy (puid = id + 1,
// kept across changes) and Cassandra (tokens fixed when a node joins), which
// say so with history_dependent.
TEST(PresetProperties, ChangesEqualAFreshConfiguration) {
  for (const PresetInfo& info : Presets()) {
    SCOPED_TRACE(info.name);
    auto p = Make(info);
    if (p->capabilities().history_dependent) continue;
    std::vector<NodeSpec> servers = PresetServers(9);
    ASSERT_TRUE(p->Build(servers).ok());
    const NodeId victim = p->capabilities().arbitrary_removal ? 3 : 8;
    ASSERT_TRUE(p->RemoveNode(victim).ok());
    NodeSpec extra;
    extra.name = "10.0.0.99:11211";
    ASSERT_TRUE(p->AddNode(extra).ok());
    std::vector<NodeSpec> live;
    for (NodeId id : p->LiveNodes()) live.push_back({p->NodeName(id), 1.0, ""});
    auto fresh = Make(info);
    ASSERT_TRUE(fresh->Build(live).ok());
    const std::vector<NodeId> a = Owners(*p);
    const std::vector<NodeId> b = Owners(*fresh);
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(p->NodeName(a[i]), fresh->NodeName(b[i])) << i;
    }
  }
}

// Presets that claim minimal disruption: adding a server moves keys only to
// it; removing one moves only its keys.
TEST(PresetProperties, MinimalDisruptionWhereClaimed) {
  for (const PresetInfo& info : Presets()) {
    auto p = Make(info);
    if (!p->capabilities().minimal_disruption) continue;
    SCOPED_TRACE(info.name);
    ASSERT_TRUE(p->Build(PresetServers(8)).ok());
    const std::vector<NodeId> before = Owners(*p);
    NodeSpec extra;
    extra.name = "10.0.0.9:11211";
    absl::StatusOr<NodeId> added = p->AddNode(extra);
    ASSERT_TRUE(added.ok());
    const std::vector<NodeId> after = Owners(*p);
    for (size_t i = 0; i < before.size(); ++i) {
      if (after[i] != before[i]) {
        ASSERT_EQ(after[i], *added) << i;
      }
    }
    const NodeId victim = p->capabilities().arbitrary_removal ? 2 : *added;
    ASSERT_TRUE(p->RemoveNode(victim).ok());
    const std::vector<NodeId> removed = Owners(*p);
    for (size_t i = 0; i < after.size(); ++i) {
      if (removed[i] != after[i]) {
        ASSERT_EQ(after[i], victim) << i;
      }
    }
  }
}

// Regression (fuzz/ops_fuzzer.cc): presets that identify a server by its id
// (HAProxy's puid, every Cassandra token rule) map differently from a fresh
// configuration of the live servers after a removal and an addition, and
// say so: history_dependent (HAProxy and Cassandra's splitmix64 and list
// rules claimed false).
TEST(PresetProperties, IdIdentifiedPresetsAreHistoryDependent) {
  const std::pair<std::string, std::string> cases[] = {
      {"haproxy", ""},
      {"cassandra", ""},
      {"cassandra", "tokens=splitmix64:4"},
      {"cassandra",
       "tokens=list:-9000000000000000000/-4000000000000000000/0/"
       "4000000000000000000/8000000000000000000/100"}};
  for (const auto& [name, options] : cases) {
    SCOPED_TRACE(absl::StrCat(name, " ", options));
    absl::StatusOr<std::unique_ptr<ConsistentHash>> p =
        MakePreset(name, options);
    absl::StatusOr<std::unique_ptr<ConsistentHash>> fresh =
        MakePreset(name, options);
    ASSERT_TRUE(p.ok() && fresh.ok()) << p.status() << fresh.status();
    ASSERT_TRUE((*p)->Build(PresetServers(5)).ok());
    ASSERT_TRUE((*p)->RemoveNode(1).ok());
    NodeSpec extra;
    extra.name = "10.0.0.99:11211";
    ASSERT_TRUE((*p)->AddNode(extra).ok());
    std::vector<NodeSpec> live;
    for (NodeId id : (*p)->LiveNodes()) {
      live.emplace_back();
      live.back().name = (*p)->NodeName(id);
    }
    ASSERT_TRUE((*fresh)->Build(live).ok());
    const std::vector<NodeId> a = Owners(**p);
    const std::vector<NodeId> b = Owners(**fresh);
    size_t differ = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      differ += (*p)->NodeName(a[i]) != (*fresh)->NodeName(b[i]);
    }
    EXPECT_GT(differ, 0u);
    EXPECT_TRUE((*p)->capabilities().history_dependent);
  }
}

// Regression (fuzz/ops_fuzzer.cc): a live server of weight > 1 switches
// libmemcached's unweighted modes to the weighted point formula, whose point
// counts depend on N, so adding a server moves keys between the others;
// minimal_disruption is claimed only while every live server has weight 1.
TEST(PresetProperties, LibmemcachedMinimalDisruptionOnlyWithUnitWeights) {
  for (const char* name : {"libmemcached_ketama", "libmemcached_default"}) {
    SCOPED_TRACE(name);
    absl::StatusOr<std::unique_ptr<ConsistentHash>> made = MakePreset(name, "");
    ASSERT_TRUE(made.ok()) << made.status();
    ConsistentHash& p = **made;
    EXPECT_TRUE(p.capabilities().minimal_disruption);  // `chbench list`
    std::vector<NodeSpec> servers(2);
    servers[0].name = "10.0.0.72:11211";
    servers[0].weight = 3;
    servers[1].name = "10.0.0.60:11211";
    ASSERT_TRUE(p.Build(servers).ok());
    EXPECT_FALSE(p.capabilities().minimal_disruption);
    const std::vector<NodeId> before = Owners(p);
    NodeSpec extra;
    extra.name = "10.0.0.0:11211";
    absl::StatusOr<NodeId> added = p.AddNode(extra);
    ASSERT_TRUE(added.ok()) << added.status();
    const std::vector<NodeId> after = Owners(p);
    size_t moved_elsewhere = 0;
    for (size_t i = 0; i < before.size(); ++i) {
      moved_elsewhere += after[i] != before[i] && after[i] != *added;
    }
    EXPECT_GT(moved_elsewhere, 0u);
    servers[0].weight = 1;
    ASSERT_TRUE(p.Build(servers).ok());
    EXPECT_TRUE(p.capabilities().minimal_disruption);
  }
}

// HAProxy: a server keeps its id, so removing one moves only its keys, and
// the others' points do not move (its ring depends on ids, not addresses).
TEST(PresetProperties, HaproxyServersKeepTheirIds) {
  auto p = MakePreset("haproxy", "");
  ASSERT_TRUE((*p)->Build(PresetServers(6)).ok());
  auto renamed = MakePreset("haproxy", "");
  std::vector<NodeSpec> other = PresetServers(6, 8080);
  ASSERT_TRUE((*renamed)->Build(other).ok());
  EXPECT_EQ(Owners(**p), Owners(**renamed));  // addresses do not matter
}

TEST(PresetProperties, GuavaRemovesOnlyTheLastBucket) {
  auto p = MakePreset("guava", "");
  ASSERT_TRUE((*p)->Build(PresetServers(4)).ok());
  const absl::Status s = (*p)->RemoveNode(1);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("only the last bucket"),
            std::string::npos);
  EXPECT_TRUE((*p)->RemoveNode(3).ok());
}

// Cassandra `even`: Build gives i * floor(2^64 / N) - 2^63; a joining node
// takes the midpoint of the largest range and no token moves.
// tokens=list: explicit initial_token groups map like the same tokens
// computed by tokens=even, and a server beyond the list is refused.
TEST(PresetProperties, CassandraExplicitTokenLists) {
  auto even = MakePreset("cassandra", "");
  auto list = MakePreset(
      "cassandra",
      "tokens=list:-9223372036854775808/-3074457345618258603/"
      "3074457345618258602");
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_TRUE((*even)->Build(PresetServers(3, 9042)).ok());
  ASSERT_TRUE((*list)->Build(PresetServers(3, 9042)).ok());
  EXPECT_EQ(Owners(**even), Owners(**list));
  const absl::Status s = (*list)->Build(PresetServers(4, 9042));
  EXPECT_NE(std::string(s.message()).find("has no token in tokens=list"),
            std::string::npos)
      << s;
  auto bad = MakePreset("cassandra", "tokens=list:1|x");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("invalid token 'x'"),
            std::string::npos);
}

TEST(PresetProperties, CassandraEvenTokens) {
  auto p = MakePreset("cassandra", "");
  ASSERT_TRUE((*p)->Build(PresetServers(3, 9042)).ok());
  const std::vector<NodeId> before = Owners(**p);
  NodeSpec extra;
  extra.name = "10.0.0.4:9042";
  ASSERT_TRUE((*p)->AddNode(extra).ok());
  const std::vector<NodeId> after = Owners(**p);
  size_t moved = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    if (after[i] != before[i]) {
      ++moved;
      ASSERT_EQ(after[i], 3u);
    }
  }
  // The new node halves one third of the ring: about 1/6 of the keys.
  EXPECT_NEAR(static_cast<double>(moved) / before.size(), 1.0 / 6, 0.02);
}

}  // namespace
}  // namespace chbench
