// Copyright 2026 The chbench Authors.
//
// Tests of the CRUSH core (crush_hash.h, crush_map.h, ceph_pool.h) and the
// `crush` algorithm (crush.h), bit-exact against every reference vector in
// testdata/: outputs of Ceph 16.2.15's libceph-common hash functions,
// `crushtool --test --show-mappings` and `osdmaptool --test-map-object`
// (Debian bookworm packages), recorded as the project's CRUSH design notes
// describe (§10-§13). Each crushtool file's `# command:` header says which
// map, rule, replica count and reweights produced it; the tests read them
// from there.

#include "algorithms/crush/crush.h"

#include <openssl/sha.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/crush/ceph_pool.h"
#include "algorithms/crush/crush_hash.h"
#include "algorithms/crush/crush_map.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/testing/conformance_util.h"
#include "algorithms/testing/vector_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::chbench::testing::AlgorithmTestdata;
using ::testing::HasSubstr;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) lines.push_back(line);
  return lines;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  out.push_back(cur);
  return out;
}

uint32_t U32(const std::string& s) {
  uint64_t v = 0;
  EXPECT_TRUE(absl::SimpleAtoi(s, &v)) << s;
  return static_cast<uint32_t>(v);
}

crush::CrushMap LoadMap(const std::string& name) {
  absl::StatusOr<crush::CrushMap> map = crush::ParseCrushText(
      ReadText(AlgorithmTestdata("crush", "maps/" + name + ".txt")));
  EXPECT_TRUE(map.ok()) << name << ": " << map.status();
  return map.ok() ? *std::move(map) : crush::CrushMap{};
}

std::string Sha256(const uint64_t* v, size_t n) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(v), n * sizeof(uint64_t),
         digest);  // little-endian int64 on this (x86-64) machine
  std::string hex;
  char buf[3];
  for (unsigned char c : digest) {
    std::snprintf(buf, sizeof(buf), "%02x", c);
    hex += buf;
  }
  return hex;
}

// -----------------------------------------------------------------------------
// Hashes and crush_ln
// -----------------------------------------------------------------------------

TEST(CrushHashTest, TablesAreTheShippedOnes) {
  // The SHA-256 the design notes give (§3.2, §3.3), of the bytes found in
  // Debian's libceph-common.so.2.
  EXPECT_EQ(Sha256(crush::kRhLh, 258),
            "304b097c8de73930d785af5802b1f6b4e9827a69175038f910f6120565e8364c");
  EXPECT_EQ(Sha256(crush::kLl, 256),
            "56fecbea65b1d35d0d20f0327d783a870652a56356e9a5326b6ab16d6c31b6ca");
}

// Every vector of hash-vectors.tsv (246 calls of the Debian library).
TEST(CrushHashTest, MatchesLibcephCommonOnEveryVector) {
  const std::vector<std::string> lines =
      Lines(ReadText(AlgorithmTestdata("crush", "hash-vectors.tsv")));
  size_t rows = 0, bad = 0;
  std::set<std::string> functions;
  for (const std::string& line : lines) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = Split(line, '\t');
    ASSERT_EQ(f.size(), 3u) << line;
    const uint32_t want = U32(f[2]);
    uint32_t got = 0;
    functions.insert(f[0]);
    if (f[0] == "ceph_str_hash_rjenkins" || f[0] == "ceph_str_hash_linux") {
      std::string bytes;
      ASSERT_EQ(f[1].size() % 2, 0u) << line;
      for (size_t i = 0; i < f[1].size(); i += 2) {
        bytes.push_back(
            static_cast<char>(std::stoul(f[1].substr(i, 2), nullptr, 16)));
      }
      got = f[0] == "ceph_str_hash_rjenkins" ? crush::StrHashRjenkins(bytes)
                                             : crush::StrHashLinux(bytes);
    } else {
      std::vector<uint32_t> a;
      for (const std::string& s : Split(f[1], ',')) a.push_back(U32(s));
      if (f[0] == "crush_hash32" && a.size() == 1) {
        got = crush::Hash32_1(a[0]);
      } else if (f[0] == "crush_hash32_2" && a.size() == 2) {
        got = crush::Hash32_2(a[0], a[1]);
      } else if (f[0] == "crush_hash32_3" && a.size() == 3) {
        got = crush::Hash32_3(a[0], a[1], a[2]);
      } else if (f[0] == "crush_hash32_4" && a.size() == 4) {
        got = crush::Hash32_4(a[0], a[1], a[2], a[3]);
      } else {
        ADD_FAILURE() << "unknown function or arity: " << line;
        continue;
      }
    }
    ++rows;
    if (got != want) {
      ++bad;
      ADD_FAILURE() << line << ": got " << got;
    }
  }
  EXPECT_EQ(rows, 246u);
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(functions.size(), 6u);
}

// The design notes' crush_ln test values (§3.4) and straw2 worked example
// (§4): hash32_3(0, 0, 0) = 2050749362 -> u = 62386 -> draw -19068396.
TEST(CrushHashTest, CrushLnAndTheWorkedStraw2Draw) {
  EXPECT_EQ(crush::CrushLn(0x0000), 0x000000000000u);
  EXPECT_EQ(crush::CrushLn(0x0001), 0x100000000000u);
  EXPECT_EQ(crush::CrushLn(0x0002), 0x195c01a39fbdu);
  EXPECT_EQ(crush::CrushLn(0x00ff), 0x800000000000u);
  EXPECT_EQ(crush::CrushLn(0x0100), 0x80171e3b6d7au);
  EXPECT_EQ(crush::CrushLn(0x8000), 0xf0002e2a60a0u);
  EXPECT_EQ(crush::CrushLn(0xabcd), 0xf6cb4f87c148u);
  EXPECT_EQ(crush::CrushLn(0xfffe), 0xfffffd61ad10u);
  EXPECT_EQ(crush::CrushLn(0xffff), 0xfffff0000000u);
  const uint32_t u = crush::Hash32_3(0, 0, 0) & 0xFFFF;
  EXPECT_EQ(u, 62386u);
  EXPECT_EQ(crush::Straw2Quotient(u, 0x10000), 19068396u);
  // A weight that is not a power of two divides (truncating).
  EXPECT_EQ(crush::Straw2Quotient(u, 3 * 0x8000), 1249666456950u / 98304);
}

// Straw2Choose's blocks of kStraw2Block items (the oracle maps' buckets are
// smaller) against the definition taken one item at a time: 37 items (two
// blocks and a tail), weights with and without a power of two, a zero
// weight, ids negative and positive.
TEST(CrushHashTest, Straw2BlocksEqualTheItemByItemDefinition) {
  crush::Bucket b;
  for (int i = 0; i < 37; ++i) {
    b.items.push_back(i % 5 == 4 ? -2 - i : 3 * i);
    b.weights.push_back(i == 7 ? 0 : 0x8000u * (1 + i % 3) + (i % 4 == 1));
  }
  ASSERT_GT(b.items.size(), 2 * crush::kStraw2Block);
  for (uint32_t x = 0; x < 3000; ++x) {
    for (uint32_t r = 0; r < 3; ++r) {
      size_t best = 0;
      int64_t best_draw = 0;
      for (size_t i = 0; i < b.items.size(); ++i) {
        const uint32_t u =
            crush::Hash32_3(x, static_cast<uint32_t>(b.items[i]), r) & 0xFFFF;
        const int64_t draw = b.weights[i] == 0
                                 ? INT64_MIN
                                 : (static_cast<int64_t>(crush::CrushLn(u)) -
                                    (int64_t{1} << 48)) /
                                       static_cast<int64_t>(b.weights[i]);
        if (i == 0 || draw > best_draw) {
          best = i;
          best_draw = draw;
        }
      }
      ASSERT_EQ(crush::Straw2Choose(b, x, r), b.items[best])
          << "x=" << x << " r=" << r;
    }
  }
}

TEST(CephPoolTest, MasksAndTheDesignNotesExample) {
  EXPECT_EQ(crush::PgMask(100), 127u);
  EXPECT_EQ(crush::PgMask(128), 127u);
  EXPECT_EQ(crush::PgMask(64), 63u);
  EXPECT_EQ(crush::PgMask(1), 0u);
  const crush::CephPool pool{.id = 1, .pg_num = 100, .pgp_num = 100};
  EXPECT_EQ(crush::StrHashRjenkins("obj-0"), 2145114217u);
  const uint32_t pg = crush::PgOfObject(pool, "obj-0");
  EXPECT_EQ(crush::PgName(pool, pg), "1.29");
  EXPECT_EQ(crush::PlacementSeed(pool, pg), 3291767667u);
}

// -----------------------------------------------------------------------------
// crushtool --test oracles
// -----------------------------------------------------------------------------

// One crushtool oracle file: its header's command, parsed.
struct Oracle {
  std::string map;  // maps/<map>.txt
  int rule = -1;
  int num_rep = 0;
  std::map<int, double> reweights;  // --weight d f
  std::vector<std::pair<uint32_t, std::vector<int32_t>>> rows;
};

Oracle ReadOracle(const std::string& file) {
  Oracle o;
  for (const std::string& line :
       Lines(ReadText(AlgorithmTestdata("crush", file)))) {
    if (line.rfind("# command: crushtool ", 0) == 0) {
      const std::vector<std::string> t =
          absl::StrSplit(line.substr(11), ' ', absl::SkipEmpty());
      for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == "-i") o.map = t[i + 1].substr(0, t[i + 1].size() - 4);
        if (t[i] == "--rule") o.rule = std::stoi(t[i + 1]);
        if (t[i] == "--num-rep") o.num_rep = std::stoi(t[i + 1]);
        if (t[i] == "--weight") {
          o.reweights[std::stoi(t[i + 1])] = std::stod(t[i + 2]);
        }
      }
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = Split(line, '\t');
    EXPECT_EQ(f.size(), 2u) << file << ": " << line;
    std::vector<int32_t> osds;
    if (!f[1].empty()) {
      for (const std::string& s : Split(f[1], ',')) {
        osds.push_back(static_cast<int32_t>(U32(s)));
      }
    }
    o.rows.emplace_back(U32(f[0]), osds);
  }
  EXPECT_FALSE(o.map.empty()) << file << ": no '# command:' header";
  return o;
}

// crushtool --test's weight vector (design notes §10): 0x10000 for a device
// in some bucket, else 0; --weight d f overrides with (int)(f * 0x10000)
// clamped to 0..0x10000.
std::vector<uint32_t> TesterWeights(const crush::CrushMap& map,
                                    const std::map<int, double>& reweights) {
  std::vector<uint32_t> w(map.max_devices, 0);
  for (const crush::Bucket& b : map.buckets) {
    for (int32_t item : b.items) {
      if (item >= 0) w[item] = crush::kWeightOne;
    }
  }
  for (const auto& [d, f] : reweights) {
    const int v = static_cast<int>(f * 0x10000);
    w[d] = static_cast<uint32_t>(std::clamp(v, 0, 0x10000));
  }
  return w;
}

class CrushtoolOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CrushtoolOracleTest, EveryRowMatches) {
  const Oracle o = ReadOracle(GetParam());
  ASSERT_GE(o.rows.size(), 200u);
  const crush::CrushMap map = LoadMap(o.map);
  const crush::Rule* rule = map.FindRule(std::to_string(o.rule));
  ASSERT_NE(rule, nullptr) << o.rule;
  const std::vector<uint32_t> w = TesterWeights(map, o.reweights);
  std::vector<int32_t> result(o.num_rep), work(3 * o.num_rep);
  size_t bad = 0;
  for (const auto& [x, want] : o.rows) {
    const int got = crush::DoRule(map, *rule, x, result.data(), o.num_rep,
                                  w.data(), w.size(), work.data());
    const std::vector<int32_t> have(result.begin(), result.begin() + got);
    if (have != want && ++bad <= 5) {
      ADD_FAILURE() << GetParam() << " x=" << x << ": got "
                    << ::testing::PrintToString(have) << ", want "
                    << ::testing::PrintToString(want);
    }
  }
  EXPECT_EQ(bad, 0u) << bad << " of " << o.rows.size() << " rows differ";
}

INSTANTIATE_TEST_SUITE_P(
    AllFiles, CrushtoolOracleTest,
    ::testing::Values("flat10-r3.tsv", "flat10w-r3.tsv", "flat11-r3.tsv",
                      "flat10-minus3-r3.tsv", "flat10-out3-r3.tsv",
                      "flat10-half3-r3.tsv", "hier24-rack-r3.tsv",
                      "hier24-host-r3.tsv", "hier24-host-reweight-r3.tsv",
                      "hier24-host-indep-r4.tsv", "hier24-rack-indep-r4.tsv",
                      "hier24-rack2host2-r4.tsv", "uneven16-host-r3.tsv",
                      "uneven16-rack-r3.tsv"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name = info.param.substr(0, info.param.size() - 4);
      for (char& c : name) {
        if (c == '-') c = '_';
      }
      return name;
    });

// The oracle set's own properties the design notes state (§8, §12), which
// the rows above pin: indep over 3 racks for 4 positions leaves exactly one
// hole per row; 5 rows of uneven16-rack have 2 OSDs.
TEST(CrushtoolOracleFactsTest, HolesAndShortRowsAreWhereTheNotesSay) {
  for (const auto& [x, osds] : ReadOracle("hier24-rack-indep-r4.tsv").rows) {
    EXPECT_EQ(std::count(osds.begin(), osds.end(), crush::kItemNone), 1)
        << "x=" << x;
  }
  const crush::CrushMap map = LoadMap("uneven16");
  const crush::Rule* rule = map.FindRule("rack_firstn");
  ASSERT_NE(rule, nullptr);
  const std::vector<uint32_t> w = TesterWeights(map, {});
  int32_t result[3], work[9];
  int short_rows = 0;
  for (uint32_t x = 0; x < 5000; ++x) {
    if (crush::DoRule(map, *rule, x, result, 3, w.data(), w.size(), work) < 3) {
      ++short_rows;
    }
  }
  EXPECT_EQ(short_rows, 5);
}

// -----------------------------------------------------------------------------
// osdmaptool --test-map-object oracles
// -----------------------------------------------------------------------------

class OsdmapOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OsdmapOracleTest, EveryObjectMatches) {
  const crush::CrushMap map = LoadMap(GetParam());
  const crush::Rule* rule = map.FindRule("0");
  ASSERT_NE(rule, nullptr);
  // osdmaptool --createsimple 25: 25 OSDs, all marked up and in.
  const std::vector<uint32_t> in(25, crush::kWeightOne);
  const crush::CephPool pool{.id = 1, .pg_num = 100, .pgp_num = 100};
  size_t rows = 0, bad = 0;
  for (const std::string& line : Lines(ReadText(AlgorithmTestdata(
           "crush", "osdmap-" + GetParam() + "-pg100-objects.tsv")))) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = Split(line, '\t');
    ASSERT_EQ(f.size(), 3u) << line;
    const uint32_t pg = crush::PgOfObject(pool, f[0]);
    int32_t result[3], work[9];
    const int got = crush::DoRule(map, *rule, crush::PlacementSeed(pool, pg),
                                  result, 3, in.data(), in.size(), work);
    std::string osds;
    for (int i = 0; i < got; ++i) {
      osds += (i ? "," : "") + std::to_string(result[i]);
    }
    ++rows;
    if (crush::PgName(pool, pg) != f[1] || osds != f[2]) {
      ++bad;
      ADD_FAILURE() << line << ": got " << crush::PgName(pool, pg) << " "
                    << osds;
    }
  }
  EXPECT_EQ(rows, 50u);
  EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(BothMaps, OsdmapOracleTest,
                         ::testing::Values("flat10", "hier24"));

// -----------------------------------------------------------------------------
// The text-map parser
// -----------------------------------------------------------------------------

TEST(CrushParserTest, ReadsTheHierarchyAndDefaults) {
  const crush::CrushMap map = LoadMap("hier24");
  EXPECT_EQ(map.max_devices, 24);
  EXPECT_EQ(map.tunables.choose_total_tries, 50u);
  EXPECT_EQ(map.tunables.chooseleaf_stable, 1u);
  const crush::Bucket* rack0 = map.bucket(-2);
  ASSERT_NE(rack0, nullptr);
  EXPECT_EQ(rack0->name, "rack0");
  EXPECT_EQ(rack0->type, 3);
  // `item host0` without a weight takes the host's (the sum, 2.0).
  EXPECT_THAT(rack0->weights,
              ::testing::ElementsAre(0x20000, 0x20000, 0x20000, 0x20000));
  EXPECT_EQ(map.bucket(-1)->weight, 24u * 0x10000);
  EXPECT_EQ(map.FindRule("rack2_host2"), map.FindRule("4"));
  EXPECT_EQ(map.FindRule("nope"), nullptr);
  EXPECT_EQ(map.RuleList(),
            "0 rack_firstn, 1 host_firstn, 2 host_indep, 3 rack_indep_ec, 4 "
            "rack2_host2");
}

// A map with one line replaced fails with a one-line message naming the
// line, the bad value and the valid ones.
TEST(CrushParserTest, ErrorsNameTheLineAndTheValidValues) {
  const std::string good =
      ReadText(AlgorithmTestdata("crush", "maps/flat10.txt"));
  ASSERT_TRUE(crush::ParseCrushText(good).ok());
  struct Case {
    std::string from, to, want;
  };
  const Case cases[] = {
      {"alg straw2", "alg straw",
       "unsupported bucket algorithm 'straw' in "
       "bucket 'default'; supported: straw2"},
      {"hash 0", "hash 1", "unsupported hash '1'"},
      {"item osd.3 weight 1.000", "item osd.33 weight 1.000",
       "unknown item 'osd.33'"},
      {"item osd.3 weight 1.000", "item osd.3 weight -1",
       "invalid weight '-1'; expected a decimal in 0..65535.99998"},
      {"step choose firstn 0 type osd", "step choose firstn 0 type disk",
       "unknown type 'disk'; declared types: osd, host, chassis, rack"},
      {"step choose firstn 0 type osd", "step choose first 0 type osd",
       "expected 'step choose firstn|indep N type TYPE'"},
      {"step emit", "step emitt",
       "unknown step 'emitt'; valid: take, "
       "choose, chooseleaf, emit, set_choose_tries"},
      {"step take default", "step take default class hdd",
       "device classes are not supported"},
      {"tunable chooseleaf_stable 1", "tunable chooseleaf_stabel 1",
       "unknown tunable 'chooseleaf_stabel'; valid: choose_local_tries,"},
      {"tunable choose_local_fallback_tries 0", "",
       "tunable choose_local_fallback_tries is 5 (the legacy default: the map "
       "does not set it); supported: 0"},
      {"root default {", "rooot default {", "unknown bucket type 'rooot'"},
      {"type replicated", "type msr_firstn",
       "unknown rule type 'msr_firstn'; valid: replicated, erasure"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.to);
    std::string text = good;
    const size_t at = text.find(c.from);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, c.from.size(), c.to);
    absl::StatusOr<crush::CrushMap> map = crush::ParseCrushText(text);
    ASSERT_FALSE(map.ok());
    const std::string msg(map.status().message());
    EXPECT_THAT(msg, HasSubstr(c.want));
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line";
    if (c.to.empty()) continue;  // a map-wide error, not a line's
    // The line number is the replaced line's.
    const size_t line_no =
        static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n')) +
        1;
    EXPECT_THAT(msg, HasSubstr("line " + std::to_string(line_no) + ": "));
  }
  EXPECT_THAT(
      std::string(
          crush::ParseCrushText("root r {\n id -1\n").status().message()),
      HasSubstr("unknown bucket type 'root'"));
  EXPECT_THAT(std::string(crush::ParseCrushText("").status().message()),
              HasSubstr("no rule"));
}

// -----------------------------------------------------------------------------
// The `crush` algorithm
// -----------------------------------------------------------------------------

std::vector<NodeSpec> WeightedSpecs(const std::vector<double>& weights) {
  std::vector<NodeSpec> specs = ::chbench::testing::Specs(weights.size());
  for (size_t i = 0; i < weights.size(); ++i) specs[i].weight = weights[i];
  return specs;
}

// The algorithm against crushtool: node i is osd.i, Lookup(x) is the first
// OSD and LookupReplicas(x, 3) the row, for x as the key hash's low 32
// bits (the high bits are ignored).
void ExpectMatchesOracle(const Crush<Xxh64>& algo, const std::string& file) {
  const Oracle o = ReadOracle(file);
  ASSERT_EQ(o.num_rep, 3);
  ASSERT_TRUE(o.reweights.empty());
  std::vector<NodeId> out;
  size_t bad = 0;
  for (const auto& [x, want] : o.rows) {
    const uint64_t key = (uint64_t{0x9E3779B9} << 32) | x;
    ASSERT_TRUE(algo.LookupReplicas(key, 3, false, &out).ok());
    const std::vector<int32_t> have(out.begin(), out.end());
    if (have != want || algo.Lookup(key) != static_cast<NodeId>(want[0])) {
      if (++bad <= 5) {
        ADD_FAILURE() << file << " x=" << x << ": got "
                      << ::testing::PrintToString(have);
      }
    }
  }
  EXPECT_EQ(bad, 0u) << file;
}

TEST(CrushAlgorithmTest, BuildMatchesCrushtoolOnTheFlatMaps) {
  Crush<Xxh64> flat10;
  ASSERT_TRUE(flat10.Build(::chbench::testing::Specs(10)).ok());
  ExpectMatchesOracle(flat10, "flat10-r3.tsv");
  Crush<Xxh64> flat10w;
  ASSERT_TRUE(
      flat10w.Build(WeightedSpecs({1, 1, 1, 1, 2, 2, 2, 4, 4, 8})).ok());
  ExpectMatchesOracle(flat10w, "flat10w-r3.tsv");
}

TEST(CrushAlgorithmTest, AddAndRemoveMatchCrushtool) {
  Crush<Xxh64> algo;
  ASSERT_TRUE(algo.Build(::chbench::testing::Specs(10)).ok());
  ASSERT_EQ(algo.AddNode(::chbench::testing::Node("node-10")).value(), 10u);
  ExpectMatchesOracle(algo, "flat11-r3.tsv");
  Crush<Xxh64> minus3;
  ASSERT_TRUE(minus3.Build(::chbench::testing::Specs(10)).ok());
  ASSERT_TRUE(minus3.RemoveNode(3).ok());
  ExpectMatchesOracle(minus3, "flat10-minus3-r3.tsv");
}

// With zones the map is root -> zone buckets -> OSDs; it equals the text map
// of that hierarchy, and distinct-zone replicas are its chooseleaf rule.
TEST(CrushAlgorithmTest, ZonesAreAZoneLevelOfTheMap) {
  std::vector<NodeSpec> specs = ::chbench::testing::Specs(9);
  const char* zones[] = {"a", "b", "c", "a", "b", "c", "c", "c", "a"};
  for (size_t i = 0; i < 9; ++i) specs[i].zone = zones[i];
  specs[4].weight = 2;
  Crush<Xxh64> algo;
  ASSERT_TRUE(algo.Build(specs).ok());
  std::string text =
      "tunable choose_local_tries 0\ntunable choose_local_fallback_tries 0\n"
      "tunable choose_total_tries 50\ntunable chooseleaf_descend_once 1\n"
      "tunable chooseleaf_vary_r 1\ntunable chooseleaf_stable 1\n"
      "type 0 osd\ntype 9 zone\ntype 11 root\n";
  for (int i = 0; i < 9; ++i) {
    text += "device " + std::to_string(i) + " osd." + std::to_string(i) + "\n";
  }
  text +=
      "zone a {\n id -2\n alg straw2\n hash 0\n item osd.0 weight 1\n item "
      "osd.3 weight 1\n item osd.8 weight 1\n}\n"
      "zone b {\n id -3\n alg straw2\n hash 0\n item osd.1 weight 1\n item "
      "osd.4 weight 2\n}\n"
      "zone c {\n id -4\n alg straw2\n hash 0\n item osd.2\n item osd.5\n "
      "item osd.6\n item osd.7\n}\n"
      "root default {\n id -1\n alg straw2\n hash 0\n item a\n item b\n item "
      "c\n}\n"
      "rule any {\n id 0\n type replicated\n step take default\n step choose "
      "firstn 0 type osd\n step emit\n}\n"
      "rule zones {\n id 1\n type replicated\n step take default\n step "
      "chooseleaf firstn 0 type zone\n step emit\n}\n";
  absl::StatusOr<crush::CrushMap> map = crush::ParseCrushText(text);
  ASSERT_TRUE(map.ok()) << map.status();
  std::vector<NodeId> out;
  int32_t result[3], work[9];
  for (uint32_t x = 0; x < 2000; ++x) {
    for (int rule = 0; rule < 2; ++rule) {
      const int got =
          crush::DoRule(*map, map->rules[rule], x, result, 3, nullptr, 0, work);
      ASSERT_TRUE(algo.LookupReplicas(x, 3, rule == 1, &out).ok());
      ASSERT_EQ(std::vector<int32_t>(out.begin(), out.end()),
                std::vector<int32_t>(result, result + got))
          << "x=" << x << " rule " << rule;
      ASSERT_EQ(algo.Lookup(x), out[0]);
    }
  }
}

// Build(n) equals n AddNode calls (ids 0..n-1 in order, the same buckets);
// a node removed and added back gets a fresh id, hence other draws (the
// reason for the catalogue row's add_is_not_undo).
TEST(CrushAlgorithmTest, BuildEqualsAddNodesAndReAddingIsANewOsd) {
  std::vector<NodeSpec> specs = WeightedSpecs({1, 2, 1, 0.5, 3, 1});
  specs[2].zone = "z1";
  Crush<Xxh64> built, grown;
  ASSERT_TRUE(built.Build(specs).ok());
  for (const NodeSpec& s : specs) ASSERT_TRUE(grown.AddNode(s).ok());
  // Zones from the third node on: the first two moved into zone "".
  std::vector<NodeId> a, b;
  for (uint64_t k = 0; k < 3000; ++k) {
    const uint64_t key = k * 0x9E3779B97F4A7C15ULL;
    ASSERT_EQ(built.Lookup(key), grown.Lookup(key));
    ASSERT_TRUE(built.LookupReplicas(key, 3, true, &a).ok());
    ASSERT_TRUE(grown.LookupReplicas(key, 3, true, &b).ok());
    ASSERT_EQ(a, b);
  }
  Crush<Xxh64> flat;
  ASSERT_TRUE(flat.Build(::chbench::testing::Specs(5)).ok());
  std::vector<NodeId> before;
  for (uint64_t k = 0; k < 3000; ++k) before.push_back(flat.Lookup(k));
  ASSERT_TRUE(flat.RemoveNode(4).ok());
  ASSERT_EQ(flat.AddNode(::chbench::testing::Node("node-4")).value(), 5u);
  size_t differ = 0;
  for (uint64_t k = 0; k < 3000; ++k) {
    const NodeId now = flat.Lookup(k);
    if (before[k] != 4 && now != 5) {
      EXPECT_EQ(now, before[k]) << "key " << k << ": minimal disruption";
    }
    differ += (before[k] == 4) != (now == 5);
  }
  EXPECT_GT(differ, 0u) << "osd.5 draws differently from osd.4";
}

// A weight must survive the 16.16 conversion; errors name the node and the
// range, and change nothing.
TEST(CrushAlgorithmTest, WeightsOutsideSixteenDotSixteenAreRejected) {
  Crush<Xxh64> algo;
  ASSERT_TRUE(algo.Build(::chbench::testing::Specs(3)).ok());
  for (double w : {1e-6, 65536.0, 1e9}) {
    absl::StatusOr<NodeId> id = algo.AddNode(::chbench::testing::Node("x", w));
    ASSERT_FALSE(id.ok()) << w;
    EXPECT_THAT(std::string(id.status().message()),
                HasSubstr("valid: 0.0000153 (1/65536) .. 65535.99998"));
    EXPECT_THAT(std::string(id.status().message()), HasSubstr("'x'"));
  }
  EXPECT_EQ(algo.size(), 3u);
  EXPECT_FALSE(algo.Build(WeightedSpecs({1, 1e-7})).ok());
  EXPECT_EQ(algo.size(), 3u);
}

// r = n with n = 9: CRUSH alone drops the last replica for some keys (51
// attempts at 1/9 each); the fill completes them, after CRUSH's own.
TEST(CrushAlgorithmTest, ReplicasAreCompletedAfterCrushsOwn) {
  Crush<Xxh64> algo;
  ASSERT_TRUE(algo.Build(::chbench::testing::Specs(9)).ok());
  // CRUSH's own rule on a text map of the same 9 OSDs.
  std::string text =
      "tunable choose_local_tries 0\ntunable choose_local_fallback_tries 0\n"
      "tunable choose_total_tries 50\ntunable chooseleaf_descend_once 1\n"
      "tunable chooseleaf_vary_r 1\ntunable chooseleaf_stable 1\n"
      "type 0 osd\ntype 11 root\n";
  for (int i = 0; i < 9; ++i) {
    text += "device " + std::to_string(i) + " osd." + std::to_string(i) + "\n";
  }
  text += "root default {\n id -1\n alg straw2\n hash 0\n";
  for (int i = 0; i < 9; ++i) text += " item osd." + std::to_string(i) + "\n";
  text +=
      "}\nrule r {\n id 0\n type replicated\n step take default\n step choose "
      "firstn 0 type osd\n step emit\n}\n";
  absl::StatusOr<crush::CrushMap> map = crush::ParseCrushText(text);
  ASSERT_TRUE(map.ok()) << map.status();
  int32_t result[9], work[27];
  std::vector<NodeId> out;
  int filled = 0;
  for (uint32_t x = 0; x < 3000; ++x) {
    const int got =
        crush::DoRule(*map, map->rules[0], x, result, 9, nullptr, 0, work);
    ASSERT_TRUE(algo.LookupReplicas(x, 9, false, &out).ok());
    ASSERT_EQ(out.size(), 9u);
    ASSERT_EQ(std::set<NodeId>(out.begin(), out.end()).size(), 9u);
    EXPECT_EQ(std::vector<int32_t>(out.begin(), out.begin() + got),
              std::vector<int32_t>(result, result + got))
        << "CRUSH's own replicas come first, x=" << x;
    if (got < 9) ++filled;
  }
  EXPECT_GT(filled, 0) << "no key needed the fill: the test proves nothing";
}

}  // namespace
}  // namespace chbench
