// Copyright 2026 The chbench Authors.
//
// Replica preference lists of the presets against the real systems:
//   * the shared reference vectors (testdata/reference/replicas/: the first
//     200 lines of each, recorded from npm hashring 3.2.0 range(), Debian
//     python3-uhashring 2.1-3 range() and npm cassandra-driver 4.10.0
//     Metadata.getReplicas(), each file's header says how);
//   * the real systems' output on all testdata/keys.txt keys, written by
//     make verify-presets (verify/replicas.tsv rows, committed as
//     testdata/<stem>.tsv).
// Cassandra NetworkTopologyStrategy follows the 4.x server
// (NetworkTopologyStrategy.java calculateNaturalReplicas); where the driver's
// rule (lib/metadata/schema-parser.js getTokenToReplicaNetworkMapper)
// differs, the tests check that difference instead of equality.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/presets/cassandra/cassandra.h"
#include "algorithms/presets/registry.h"
#include "algorithms/topology.h"
#include "gtest/gtest.h"

namespace chbench {
namespace preset_replicas_test {

std::string PresetsDir(std::string_view file) {
  return absl::StrCat(CHBENCH_SOURCE_DIR, "/algorithms/presets/",
                      std::string(file));
}

std::string ReferenceFile(std::string_view stem) {
  return PresetsDir(
      absl::StrCat("testdata/reference/replicas/", std::string(stem), ".tsv"));
}

// A vector line: the key (or token) and the owners in the file's order.
struct Row {
  std::string key;
  std::vector<std::string> owners;
};

// Data lines of a vector file; `sep` separates owners (',' in the shared
// vectors, '\t' in chbench map's format). Header lines go to *headers.
std::vector<Row> ReadRows(const std::string& path, char sep,
                          std::vector<std::string>* headers = nullptr) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (headers != nullptr) headers->push_back(line);
      continue;
    }
    const size_t tab = line.find('\t');
    Row row{line.substr(0, tab), {}};
    if (tab != std::string::npos) {
      row.owners = absl::StrSplit(line.substr(tab + 1), sep);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// 10.0.0.1:<port> .. 10.0.0.n:<port>, or the 1,1,2,4 weighted four.
std::vector<NodeSpec> RingServers(std::string_view config, int port) {
  if (config == "w1124") {
    std::vector<NodeSpec> out = PresetServers(4, port);
    const double w[] = {1, 1, 2, 4};
    for (size_t i = 0; i < 4; ++i) out[i].weight = w[i];
    return out;
  }
  int n = 0;
  EXPECT_TRUE(absl::SimpleAtoi(std::string(config.substr(1)), &n)) << config;
  return PresetServers(n, port);
}

std::vector<std::string> Names(const ConsistentHash& algo,
                               const std::vector<NodeId>& ids) {
  std::vector<std::string> out;
  for (NodeId id : ids) out.push_back(algo.NodeName(id));
  return out;
}

// Every line's list must equal LookupReplicas(HashKey(key), r) exactly.
void ExpectExactLists(ConsistentHash& algo, const std::vector<Row>& rows,
                      size_t r, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_FALSE(rows.empty());
  size_t bad = 0;
  std::string first;
  std::vector<NodeId> out;
  for (const Row& row : rows) {
    ASSERT_EQ(row.owners.size(), r) << row.key;
    ASSERT_TRUE(
        algo.LookupReplicas(algo.HashKey(row.key), r, false, &out).ok());
    const std::vector<std::string> got = Names(algo, out);
    if (got != row.owners && bad++ == 0) {
      first =
          absl::StrCat(row.key, ": expected ", absl::StrJoin(row.owners, ","),
                       " got ", absl::StrJoin(got, ","));
    }
  }
  EXPECT_EQ(bad, 0u) << bad << " of " << rows.size() << " lines differ; first "
                     << first;
}

// npm hashring 3.2.0 range(key, 3, true) and uhashring 2.1 range(key, 3,
// unique=True), on the regular keys and on the edge keys (the point names,
// where >= and > part).
TEST(PresetReplicaVectors, RingLibrariesUniqueRange) {
  struct Case {
    std::string file_prefix, preset;
  };
  const Case cases[] = {{"hashring", "npm_hashring"},
                        {"uhashring-default", "uhashring"},
                        {"uhashring-ketama", "uhashring_ketama"}};
  size_t files = 0;
  for (const Case& c : cases) {
    for (const std::string config : {"n10", "w1124"}) {
      for (const std::string suffix : {"", "-edge"}) {
        const std::string stem =
            absl::StrCat(c.file_prefix, "-", config, "-size3-unique", suffix);
        auto made = MakePreset(c.preset, "");
        ASSERT_TRUE(made.ok()) << made.status();
        ASSERT_TRUE((*made)->Build(RingServers(config, 11211)).ok());
        ExpectExactLists(**made, ReadRows(ReferenceFile(stem), ','), 3, stem);
        ++files;
      }
    }
  }
  EXPECT_EQ(files, 12u);
}

// The non-unique walks repeat servers; the unique list is their walk with
// repeats dropped, so its first entry is the first point's server, and the
// distinct servers of the non-unique list are a prefix of the unique walk.
TEST(PresetReplicaVectors, NonUniqueListsArePrefixesOfTheUniqueWalk) {
  const std::pair<std::string, std::string> cases[] = {
      {"hashring-n10-size3-nonunique", "npm_hashring"},
      {"hashring-w1124-size3-nonunique", "npm_hashring"},
      {"uhashring-default-n10-size3-nonunique", "uhashring"},
      {"uhashring-ketama-n10-size3-nonunique", "uhashring_ketama"}};
  size_t with_repeats = 0;
  for (const auto& [stem, preset] : cases) {
    SCOPED_TRACE(stem);
    auto made = MakePreset(preset, "");
    ASSERT_TRUE(made.ok());
    ConsistentHash& p = **made;
    ASSERT_TRUE(
        p.Build(RingServers(
                    stem.find("w1124") != std::string::npos ? "w1124" : "n10",
                    11211))
            .ok());
    std::vector<NodeId> out;
    for (const Row& row : ReadRows(ReferenceFile(stem), ',')) {
      std::vector<std::string> distinct;
      for (const std::string& s : row.owners) {
        if (std::find(distinct.begin(), distinct.end(), s) == distinct.end()) {
          distinct.push_back(s);
        }
      }
      with_repeats += distinct.size() < row.owners.size();
      ASSERT_TRUE(
          p.LookupReplicas(p.HashKey(row.key), distinct.size(), false, &out)
              .ok());
      EXPECT_EQ(Names(p, out), distinct) << row.key;
    }
  }
  EXPECT_GT(with_repeats, 0u);
}

// A Cassandra configuration of the reference vectors, read from a file's
// headers: hosts with dc, rack and tokens, and the replication options.
struct CassandraConfig {
  std::vector<NodeSpec> hosts;               // all hosts, in index order
  std::vector<std::vector<int64_t>> tokens;  // per host, from the header
  std::string replication;                   // the header's JSON object
};

CassandraConfig ReadCassandraConfig(const std::string& stem) {
  std::vector<std::string> headers;
  ReadRows(ReferenceFile(stem), ',', &headers);
  CassandraConfig c;
  for (const std::string& h : headers) {
    if (h.rfind("# hosts: ", 0) == 0) {
      for (const std::string& host :
           std::vector<std::string>(absl::StrSplit(h.substr(9), "; "))) {
        std::vector<std::string> f = absl::StrSplit(host, ' ');
        EXPECT_EQ(f.size(), 4u) << host;
        if (f.size() != 4) continue;
        NodeSpec spec;
        spec.name = f[0];
        spec.zone = absl::StrCat(f[1].substr(3), "/", f[2].substr(5));
        std::vector<int64_t> t;
        for (const std::string& tok :
             std::vector<std::string>(absl::StrSplit(f[3].substr(7), '|'))) {
          int64_t v = 0;
          EXPECT_TRUE(absl::SimpleAtoi(tok, &v)) << tok;
          t.push_back(v);
        }
        c.hosts.push_back(spec);
        c.tokens.push_back(std::move(t));
      }
    }
    const size_t rep = h.find("replication {");
    if (h.rfind("# config: ", 0) == 0 && rep != std::string::npos) {
      c.replication = h.substr(rep + 12);
    }
  }
  return c;
}

// {"dc1":"3","dc2":"2"} -> strategy=nts,rf=dc1:3/dc2:2;
// {"replication_factor":"3"} -> "" and *rf = 3.
std::string CassandraStrategyOptions(const std::string& json, size_t* r) {
  std::vector<std::string> items;
  *r = 0;
  bool simple = false;
  for (const std::string& pair : std::vector<std::string>(
           absl::StrSplit(json.substr(1, json.find('}') - 1), ','))) {
    std::vector<std::string> kv = absl::StrSplit(pair, ':');
    EXPECT_EQ(kv.size(), 2u) << json;
    const std::string k = kv[0].substr(1, kv[0].size() - 2);
    const std::string v = kv[1].substr(1, kv[1].size() - 2);
    size_t n = 0;
    EXPECT_TRUE(absl::SimpleAtoi(v, &n)) << json;
    *r += n;
    if (k == "replication_factor") {
      simple = true;
    } else {
      items.push_back(absl::StrCat(k, ":", v));
    }
  }
  return simple ? std::string()
                : absl::StrCat(",strategy=nts,rf=", absl::StrJoin(items, "/"));
}

// How chbench's list relates to the driver's.
enum class Relation {
  kSameList,       // SimpleStrategy; NTS with racks >= RF in every DC
  kSameSet,        // one rack repeat per key: the driver defers it
  kDriverRepeats,  // the driver's two fill-in defects: where it lists a host
                   // twice the sets differ, elsewhere they are equal
};

struct CassandraCase {
  std::string stem;
  std::string tokens;  // the token option of the stem's rule
  Relation relation;
};

// Checks one cassandra-*.tsv vector file (its -minus4 and -edge variants
// share the base configuration).
void CheckCassandraFile(const CassandraCase& c, const std::string& variant) {
  const std::string file = c.stem + variant;
  SCOPED_TRACE(file);
  const CassandraConfig base = ReadCassandraConfig(c.stem);
  ASSERT_FALSE(base.hosts.empty());
  size_t r = 0;
  const std::string options = absl::StrCat(
      "tokens=", c.tokens, CassandraStrategyOptions(base.replication, &r));
  auto made = MakePreset("cassandra", options);
  ASSERT_TRUE(made.ok()) << made.status();
  auto* p = dynamic_cast<CassandraPreset*>(made->get());
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->Build(base.hosts).ok());
  // The token rule reproduces the tokens the driver was given.
  for (NodeId id = 0; id < base.hosts.size(); ++id) {
    ASSERT_EQ(p->tokens(id), base.tokens[id]) << base.hosts[id].name;
  }
  if (variant == "-minus4") {
    ASSERT_TRUE(p->RemoveNodeByName("10.0.0.4:9042").ok());
  }
  const bool edge = variant == "-edge";
  const std::vector<Row> rows = ReadRows(ReferenceFile(file), ',');
  ASSERT_GE(rows.size(), 30u);
  size_t same_list = 0, same_set = 0, driver_repeats = 0;
  std::vector<NodeId> out;
  for (const Row& row : rows) {
    uint64_t h = 0;
    if (edge) {
      int64_t token = 0;
      ASSERT_TRUE(absl::SimpleAtoi(row.key, &token)) << row.key;
      h = static_cast<uint64_t>(token) ^ CassandraPreset::kBias;
    } else {
      h = p->HashKey(row.key);
    }
    ASSERT_TRUE(p->LookupReplicas(h, r, false, &out).ok()) << row.key;
    const std::vector<std::string> got = Names(*p, out);
    // chbench never lists a host twice, and fills every DC here.
    ASSERT_EQ(std::set<std::string>(got.begin(), got.end()).size(), r)
        << row.key;
    const std::set<std::string> driver_set(row.owners.begin(),
                                           row.owners.end());
    const bool repeats = driver_set.size() < row.owners.size();
    driver_repeats += repeats;
    same_list += got == row.owners;
    same_set += std::set<std::string>(got.begin(), got.end()) == driver_set;
    switch (c.relation) {
      case Relation::kSameList:
        EXPECT_EQ(got, row.owners) << row.key;
        break;
      case Relation::kSameSet:
        EXPECT_FALSE(repeats) << row.key;
        EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), driver_set)
            << row.key;
        break;
      case Relation::kDriverRepeats:
        if (!repeats) {
          EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), driver_set)
              << row.key;
        } else {
          // The driver's hosts are among the server's.
          for (const std::string& s : driver_set) {
            EXPECT_NE(std::find(got.begin(), got.end(), s), got.end())
                << row.key << ": driver host " << s;
          }
        }
        break;
    }
  }
  // The differences are present in these lines (the test can fail).
  if (c.relation == Relation::kSameSet) {
    EXPECT_GT(same_list, 0u);
    EXPECT_LT(same_list, rows.size()) << "the driver's deferred repeat";
  }
  if (c.relation == Relation::kDriverRepeats) {
    EXPECT_GT(driver_repeats, 0u) << "the driver's repeated host";
    EXPECT_EQ(same_set, rows.size() - driver_repeats);
  }
}

const CassandraCase kCassandraCases[] = {
    {"cassandra-simple-rf3-t1-n10", "even", Relation::kSameList},
    {"cassandra-simple-rf3-t16-n10", "splitmix64:16", Relation::kSameList},
    {"cassandra-nts-dc1rf3-dc2rf2-t8-n12", "splitmix64:8", Relation::kSameList},
    {"cassandra-nts-dc1rf3-2racks-t8-n6", "splitmix64:8", Relation::kSameSet},
    {"cassandra-nts-dc1rf4-2racks-t8-n6", "splitmix64:8",
     Relation::kDriverRepeats},
    {"cassandra-nts-dc1rf3-dc2rf3-2racks-t8-n12", "splitmix64:8",
     Relation::kDriverRepeats},
};

TEST(PresetReplicaVectors, Cassandra) {
  size_t files = 0;
  for (const CassandraCase& c : kCassandraCases) {
    for (const std::string variant : {"", "-minus4", "-edge"}) {
      if (!std::filesystem::exists(ReferenceFile(c.stem + variant))) continue;
      CheckCassandraFile(c, variant);
      ++files;
    }
  }
  EXPECT_EQ(files, 14u);
}

// The first replica is the primary, which the preset's single-owner vectors
// already pin: LookupReplicas(h, r)[0] == Lookup(h) on every kind.
TEST(PresetReplicas, FirstReplicaIsLookup) {
  const std::pair<std::string, std::string> cases[] = {
      {"npm_hashring", ""},
      {"uhashring", ""},
      {"uhashring_ketama", ""},
      {"cassandra", "tokens=splitmix64:4"}};
  for (const auto& [preset, options] : cases) {
    auto made = MakePreset(preset, options);
    ASSERT_TRUE(made.ok());
    ConsistentHash& p = **made;
    ASSERT_TRUE(p.Build(PresetServers(7)).ok());
    std::vector<NodeId> out;
    for (int i = 0; i < 500; ++i) {
      const uint64_t h = p.HashKey(absl::StrCat("key:", i));
      ASSERT_TRUE(p.LookupReplicas(h, 7, false, &out).ok());
      ASSERT_EQ(out.size(), 7u);
      EXPECT_EQ(out[0], p.Lookup(h)) << preset;
      EXPECT_EQ(std::set<NodeId>(out.begin(), out.end()).size(), 7u);
    }
    EXPECT_FALSE(p.LookupReplicas(1, 0, false, &out).ok());
    EXPECT_FALSE(p.LookupReplicas(1, 8, false, &out).ok());
  }
}

// Exactly the presets whose systems define preference lists have replicas.
TEST(PresetReplicas, Capability) {
  const std::set<std::string> with = {"cassandra", "npm_hashring", "uhashring",
                                      "uhashring_ketama"};
  for (const PresetInfo& info : Presets()) {
    auto made = info.make({});
    ASSERT_TRUE(made.ok()) << info.name;
    EXPECT_EQ((*made)->capabilities().replicas,
              with.count(std::string(info.name)) == 1)
        << info.name;
    if (!(*made)->capabilities().replicas) {
      std::vector<NodeId> out;
      ASSERT_TRUE((*made)->Build(PresetServers(3)).ok()) << info.name;
      EXPECT_FALSE((*made)->LookupReplicas(1, 2, false, &out).ok())
          << info.name;
    }
  }
}

// NetworkTopologyStrategy on a hand-made ring: node i owns token i * 100;
// locations decide.
TEST(PresetReplicas, NetworkTopologyServerRule) {
  // Ring order 0..5: a1 (dc1/r1), a2 (dc1/r1), b1 (dc2/r1), a3 (dc1/r2),
  // a4 (dc1/r1), b2 (dc2/r2).
  const char* const kHosts[][2] = {{"a1", "dc1/r1"}, {"a2", "dc1/r1"},
                                   {"b1", "dc2/r1"}, {"a3", "dc1/r2"},
                                   {"a4", "dc1/r1"}, {"b2", "dc2/r2"}};
  std::vector<NodeSpec> hosts;
  for (const auto& h : kHosts) hosts.push_back({h[0], 1, h[1]});
  const std::string list = "list:0/100/200/300/400/500";
  auto lookup = [&](const std::string& rf, uint64_t token, size_t r) {
    auto made = MakePreset(
        "cassandra", absl::StrCat("tokens=", list, ",strategy=nts,rf=", rf));
    EXPECT_TRUE(made.ok()) << made.status();
    EXPECT_TRUE((*made)->Build(hosts).ok());
    std::vector<NodeId> out;
    const absl::Status s =
        (*made)->LookupReplicas(token ^ CassandraPreset::kBias, r, false, &out);
    EXPECT_TRUE(s.ok()) << s;
    return Names(**made, out);
  };
  using V = std::vector<std::string>;
  // dc1 has 2 racks; RF 2: one per rack, so a2 is passed over for a3.
  EXPECT_EQ(lookup("dc1:2", 0, 2), (V{"a1", "a3"}));
  // RF 3 > 2 racks: one repeat is accepted where the walk meets it (a2),
  // not deferred until r2 is used (the driver would give a1, a3, a2).
  EXPECT_EQ(lookup("dc1:3", 0, 3), (V{"a1", "a2", "a3"}));
  // Two DCs interleave in walk order; dc2's two racks are b1, b2.
  EXPECT_EQ(lookup("dc1:2/dc2:2", 0, 4), (V{"a1", "b1", "a3", "b2"}));
  // Starting at token 350 (owner a4, token 400) and wrapping past 500:
  // a1 and a2 repeat rack r1 of dc1, which has no repeat to spare.
  EXPECT_EQ(lookup("dc1:2/dc2:1", 350, 3), (V{"a4", "b2", "a3"}));
  // A DC left out of rf is skipped, so the first replica need not be the
  // primary.
  EXPECT_EQ(lookup("dc2:1", 0, 1), (V{"b1"}));
  // RF above the DC's host count: all of its hosts.
  EXPECT_EQ(lookup("dc2:5", 0, 5), (V{"b1", "b2"}));
}

TEST(PresetReplicas, NetworkTopologyErrors) {
  std::vector<NodeSpec> hosts = {
      {"a", 1, "dc1/r1"}, {"b", 1, "dc1/r2"}, {"c", 1, "dc2/r1"}};
  auto made = MakePreset("cassandra", "strategy=nts,rf=dc1:2/dc2:1");
  ASSERT_TRUE(made.ok()) << made.status();
  ASSERT_TRUE((*made)->Build(hosts).ok());
  std::vector<NodeId> out;
  const absl::Status wrong = (*made)->LookupReplicas(1, 2, false, &out);
  EXPECT_FALSE(wrong.ok());
  EXPECT_NE(wrong.message().find("rf=dc1:2/dc2:1 = 3"), std::string::npos)
      << wrong;
  EXPECT_FALSE((*made)->LookupReplicas(1, 3, true, &out).ok());
  EXPECT_TRUE((*made)->LookupReplicas(1, 3, false, &out).ok());
  // A server without a location.
  hosts.push_back({"d", 1, ""});
  const absl::Status no_location = (*made)->Build(hosts);
  EXPECT_FALSE(no_location.ok());
  EXPECT_NE(no_location.message().find("'d'"), std::string::npos)
      << no_location;
  // Option errors name the bad value and the valid ones.
  for (const auto& [options, bad] :
       std::vector<std::pair<std::string, std::string>>{
           {"strategy=ring", "'ring'"},
           {"strategy=nts", "needs option rf"},
           {"strategy=nts,rf=dc1", "'dc1'"},
           {"strategy=nts,rf=dc1:3/dc1:2", "twice"},
           {"strategy=nts,rf=dc1:0", "'dc1:0'"},
           {"strategy=nts,rf=dc1:256", "'dc1:256'"},
           {"rf=dc1:3", "strategy=nts only"}}) {
    auto m = MakePreset("cassandra", options);
    ASSERT_FALSE(m.ok()) << options;
    EXPECT_NE(m.status().message().find(bad), std::string::npos)
        << options << ": " << m.status();
  }
}

// The real systems' outputs of make verify-presets (verify/replicas.tsv),
// committed as testdata/<stem>.tsv in chbench map's format.
struct ReplicaRow {
  std::string stem, system, preset, options, check, remove, servers;
  size_t replicas = 0;
};

std::vector<ReplicaRow> ReadReplicaRows() {
  std::ifstream in(PresetsDir("verify/replicas.tsv"));
  EXPECT_TRUE(in.good());
  std::vector<ReplicaRow> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("stem\t", 0) == 0) {
      continue;
    }
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    EXPECT_EQ(f.size(), 8u) << line;
    if (f.size() != 8) continue;
    ReplicaRow r{f[0], f[1], f[2], f[3], f[5], f[6], f[7]};
    EXPECT_TRUE(absl::SimpleAtoi(f[4], &r.replicas)) << line;
    out.push_back(std::move(r));
  }
  return out;
}

// servers: host:port[:weight],... or topology:<file> (verify/topologies/).
std::vector<NodeSpec> ReplicaRowServers(const ReplicaRow& row) {
  if (row.servers.rfind("topology:", 0) == 0) {
    absl::StatusOr<std::vector<NodeSpec>> nodes = ReadTopologyFile(
        PresetsDir(absl::StrCat("verify/topologies/", row.servers.substr(9))));
    EXPECT_TRUE(nodes.ok()) << nodes.status();
    return nodes.ok() ? *nodes : std::vector<NodeSpec>{};
  }
  std::vector<NodeSpec> out;
  for (const std::string& item :
       std::vector<std::string>(absl::StrSplit(row.servers, ','))) {
    std::vector<std::string> f = absl::StrSplit(item, ':');
    NodeSpec spec;
    spec.name = item;
    if (f.size() == 3) {
      spec.name = f[0] + ":" + f[1];
      EXPECT_TRUE(absl::SimpleAtod(f[2], &spec.weight)) << item;
    }
    out.push_back(spec);
  }
  return out;
}

TEST(PresetReplicaVectors, MatchVerifiedRealSystemOutput) {
  const std::vector<ReplicaRow> rows = ReadReplicaRows();
  ASSERT_GE(rows.size(), 10u);
  size_t checked = 0;
  for (const ReplicaRow& row : rows) {
    SCOPED_TRACE(row.stem);
    const std::string path =
        PresetsDir(absl::StrCat("testdata/", row.stem, ".tsv"));
    ASSERT_TRUE(std::filesystem::exists(path)) << "no committed " << path;
    auto made = MakePreset(row.preset, row.options);
    ASSERT_TRUE(made.ok()) << made.status();
    ConsistentHash& p = **made;
    ASSERT_TRUE(p.Build(ReplicaRowServers(row)).ok());
    if (!row.remove.empty()) {
      ASSERT_TRUE(p.RemoveNodeByName(row.remove).ok());
    }
    const std::vector<Row> expected = ReadRows(path, '\t');
    ASSERT_EQ(expected.size(), 6300u);
    size_t bad = 0, repeats = 0;
    std::string first;
    std::vector<NodeId> out;
    for (const Row& e : expected) {
      ASSERT_TRUE(
          p.LookupReplicas(p.HashKey(e.key), row.replicas, false, &out).ok());
      const std::vector<std::string> got = Names(p, out);
      const std::set<std::string> want_set(e.owners.begin(), e.owners.end());
      const std::set<std::string> got_set(got.begin(), got.end());
      bool ok = false;
      if (row.check == "exact") {
        ok = got == e.owners;
      } else if (row.check == "set") {
        ok = want_set.size() == e.owners.size() && got_set == want_set;
      } else {
        ASSERT_EQ(row.check, "driver-repeats");
        const bool rep = want_set.size() < e.owners.size();
        repeats += rep;
        ok = rep ? std::includes(got_set.begin(), got_set.end(),
                                 want_set.begin(), want_set.end())
                 : got_set == want_set;
      }
      if (!ok && bad++ == 0) {
        first = absl::StrCat(e.key, ": expected ", absl::StrJoin(e.owners, ","),
                             " got ", absl::StrJoin(got, ","));
      }
    }
    EXPECT_EQ(bad, 0u) << bad << " of 6300 keys differ; first " << first;
    if (row.check == "driver-repeats") {
      EXPECT_GT(repeats, 0u);
    }
    ++checked;
  }
  EXPECT_EQ(checked, rows.size());
}

}  // namespace preset_replicas_test
}  // namespace chbench
