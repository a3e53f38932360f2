// Copyright 2026 The chbench Authors.

#include "algorithms/presets/registry.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "algorithms/checksum.h"
#include "algorithms/maglev/maglev.h"
#include "algorithms/presets/catalogue.h"
#include "algorithms/presets/cassandra/cassandra.h"
#include "algorithms/presets/envoy/envoy.h"
#include "algorithms/presets/groupcache/groupcache.h"
#include "algorithms/presets/guava/guava.h"
#include "algorithms/presets/haproxy/haproxy.h"
#include "algorithms/presets/libmemcached/libmemcached.h"
#include "algorithms/presets/nginx/nginx.h"
#include "algorithms/presets/npm/npm_hashring.h"
#include "algorithms/presets/twemproxy/twemproxy.h"
#include "algorithms/presets/uhashring/uhashring.h"
#include "algorithms/util/prime.h"

namespace chbench {
namespace {

using Made = absl::StatusOr<std::unique_ptr<ConsistentHash>>;

absl::Status BadOption(const std::string& preset, const std::string& option,
                       const std::string& value, const std::string& valid) {
  return absl::InvalidArgumentError(
      absl::StrCat(preset, ": invalid ", option, " '", value, "'; valid: ",
                   valid));
}

// Unknown option names for `preset` (whose options are `known`).
absl::Status CheckOptionNames(const std::string& preset,
                              const PresetOptions& options,
                              std::span<const PresetOptionInfo> known) {
  for (const auto& [key, value] : options) {
    bool ok = false;
    for (const PresetOptionInfo& k : known) ok |= k.name == key;
    if (!ok) {
      std::vector<std::string> names;
      for (const PresetOptionInfo& k : known) names.emplace_back(k.name);
      return absl::InvalidArgumentError(absl::StrCat(
          preset, ": unknown option '", key, "'; valid options: ",
          names.empty() ? std::string("(none)") : absl::StrJoin(names, ", ")));
    }
  }
  return absl::OkStatus();
}

std::string Option(const PresetOptions& options, std::string_view name,
                   std::string_view fallback) {
  auto it = options.find(std::string(name));
  return it == options.end() ? std::string(fallback) : it->second;
}

absl::StatusOr<uint64_t> UintOption(const std::string& preset,
                                    const PresetOptions& options,
                                    const std::string& name,
                                    std::string_view fallback, uint64_t lo,
                                    uint64_t hi) {
  const std::string text = Option(options, name, fallback);
  uint64_t v = 0;
  if (!absl::SimpleAtoi(text, &v) || v < lo || v > hi) {
    return BadOption(preset, name, text, absl::StrCat("integers ", lo, "..", hi));
  }
  return v;
}

constexpr PresetOptionInfo kNoOptions[] = {{"", "", ""}};
constexpr std::span<const PresetOptionInfo> None() { return {kNoOptions, 0}; }

constexpr PresetOptionInfo kTwemproxyOptions[] = {
    {"hash", "fnv1a_64", "fnv1a_64 | md5"}};
constexpr PresetOptionInfo kHaproxyOptions[] = {
    {"hash", "sdbm", "sdbm | djb2 | crc32"},
    {"avalanche", "1 with no hash option, else 0", "0 | 1"}};
constexpr PresetOptionInfo kGroupcacheOptions[] = {
    {"replicas", "50", "1..65536"}};
constexpr PresetOptionInfo kEnvoyRingOptions[] = {
    {"min_ring_size", "1024", "1..8388608"},
    {"max_ring_size", "8388608", "1..8388608"}};
constexpr PresetOptionInfo kEnvoyMaglevOptions[] = {
    {"table_size", "65537", "a prime 2..5000011"}};
constexpr PresetOptionInfo kCassandraOptions[] = {
    {"tokens", "even",
     "even | splitmix64:T (T = 1..256) | list:T|T/T|T/... (server i owns "
     "the i-th group)"},
    {"strategy", "simple",
     "simple (SimpleStrategy, RF = --replicas) | nts "
     "(NetworkTopologyStrategy; needs rf and dc/rack locations)"},
    {"rf", "(none)",
     "strategy=nts: DC:N/DC:N/... replication factors, N = 0..255 (e.g. "
     "dc1:3/dc2:2)"}};

// strategy and rf of the cassandra preset.
absl::StatusOr<CassandraReplication> CassandraReplicationOptions(
    const PresetOptions& o) {
  CassandraReplication out;
  const std::string strategy = Option(o, "strategy", "simple");
  if (strategy != "simple" && strategy != "nts") {
    return BadOption("cassandra", "strategy", strategy, "simple, nts");
  }
  out.nts = strategy == "nts";
  const bool has_rf = o.count("rf") != 0;
  if (!out.nts) {
    if (has_rf) {
      return absl::InvalidArgumentError(
          "cassandra: option rf applies to strategy=nts only; SimpleStrategy "
          "takes its replication factor from the replica count (--replicas)");
    }
    return out;
  }
  constexpr char kRfValid[] =
      "DC:N/DC:N/... with distinct DC names and N = 0..255, sum >= 1 (e.g. "
      "dc1:3/dc2:2)";
  if (!has_rf) {
    return absl::InvalidArgumentError(
        absl::StrCat("cassandra: strategy=nts needs option rf=", kRfValid));
  }
  out.rf_text = Option(o, "rf", "");
  uint32_t sum = 0;
  for (const std::string& item :
       std::vector<std::string>(absl::StrSplit(out.rf_text, '/'))) {
    const size_t colon = item.rfind(':');
    uint32_t n = 0;
    if (colon == std::string::npos || colon == 0 ||
        !absl::SimpleAtoi(item.substr(colon + 1), &n) || n > 255) {
      return BadOption("cassandra", "rf item", item, std::string(kRfValid));
    }
    const std::string dc = item.substr(0, colon);
    for (const auto& [seen, unused] : out.rf) {
      if (seen == dc) {
        return BadOption("cassandra", "rf", out.rf_text,
                         absl::StrCat(kRfValid, "; '", dc, "' is twice"));
      }
    }
    out.rf.emplace_back(dc, n);
    sum += n;
  }
  if (sum == 0) {
    return BadOption("cassandra", "rf", out.rf_text, std::string(kRfValid));
  }
  return out;
}

// The cassandra preset with the token rule of option `tokens`.
absl::StatusOr<std::unique_ptr<CassandraPreset>> MakeCassandraTokens(
    const PresetOptions& o) {
  const std::string t = Option(o, "tokens", "even");
  if (t == "even") return std::make_unique<CassandraPreset>(0);
  constexpr std::string_view kPrefix = "splitmix64:";
  uint32_t n = 0;
  if (t.rfind(kPrefix, 0) == 0 &&
      absl::SimpleAtoi(t.substr(kPrefix.size()), &n) && n >= 1 && n <= 256) {
    return std::make_unique<CassandraPreset>(n);
  }
  if (t.rfind("list:", 0) == 0) {
    std::vector<std::vector<int64_t>> groups;
    for (const std::string& g :
         std::vector<std::string>(absl::StrSplit(t.substr(5), '/'))) {
      std::vector<int64_t> tokens;
      for (const std::string& tok :
           std::vector<std::string>(absl::StrSplit(g, '|'))) {
        int64_t v = 0;
        if (!absl::SimpleAtoi(tok, &v)) {
          return BadOption("cassandra", "token", tok, "signed 64-bit integers");
        }
        tokens.push_back(v);
      }
      groups.push_back(std::move(tokens));
    }
    return std::make_unique<CassandraPreset>(std::move(groups));
  }
  return BadOption("cassandra", "tokens", t,
                   "even, splitmix64:T with T = 1..256, list:T|T/T/...");
}

template <typename Make>
Made Checked(const std::string& preset, const PresetOptions& options,
             std::span<const PresetOptionInfo> known, Make&& make) {
  if (absl::Status s = CheckOptionNames(preset, options, known); !s.ok()) {
    return s;
  }
  return make();
}

Made MakeLibmemcached(LibmemcachedPreset::Mode mode, const std::string& name,
                      const PresetOptions& o) {
  return Checked(name, o, None(), [&]() -> Made {
    return std::make_unique<LibmemcachedPreset>(mode);
  });
}

constexpr std::string_view kOneToOne = "exact: every make verify-presets key";

constexpr PresetInfo kPresets[] = {
    {"libmemcached_ketama", "libmemcached",
     "libmemcached 1.1.4 (Debian libmemcached-dev 1.1.4-1)",
     "src/libmemcached/hosts.cc update_continuum, hash.cc",
     "HASH=MD5 + DISTRIBUTION=CONSISTENT_KETAMA: 100 points per server at "
     "le32(md5(\"host-k\")) (\"host:port-k\" off port 11211); Debian's build "
     "aborts above 100 servers",
     "make verify-presets against Debian libmemcached", "md5_le32", ">=",
     None(), 100,
     [](const PresetOptions& o) {
       return MakeLibmemcached(LibmemcachedPreset::Mode::kKetama,
                               "libmemcached_ketama", o);
     },
     0xa3be84fbd7daf30full, PresetClassIndex<LibmemcachedPreset>},
    {"libmemcached_weighted", "libmemcached",
     "libmemcached 1.1.4 (Debian libmemcached-dev 1.1.4-1)",
     "src/libmemcached/hosts.cc update_continuum",
     "BEHAVIOR_KETAMA_WEIGHTED (= PHP libketama-compatible = twemproxy md5): "
     "4 * floor(float32(w/W*160/4*N)) points, 4 per md5(\"host-k\") digest; "
     "156 instead of 160 at N = 25, 47, 50, ...; aborts above 100 servers",
     "make verify-presets against Debian libmemcached", "md5_le32", ">=",
     None(), 100,
     [](const PresetOptions& o) {
       return MakeLibmemcached(LibmemcachedPreset::Mode::kWeighted,
                               "libmemcached_weighted", o);
     },
     0xbb6cebea2061dafaull, PresetClassIndex<LibmemcachedPreset>},
    {"libmemcached_default", "libmemcached",
     "libmemcached 1.1.4 (Debian libmemcached-dev 1.1.4-1)",
     "src/libmemcached/hosts.cc, libhashkit/one_at_a_time.cc",
     "BEHAVIOR_KETAMA alone: keys and 100 points per server hashed with "
     "libhashkit one-at-a-time (signed chars); 1.1.4 does not switch to MD5",
     "make verify-presets against Debian libmemcached", "oaat_libhashkit",
     ">=", None(), 100,
     [](const PresetOptions& o) {
       return MakeLibmemcached(LibmemcachedPreset::Mode::kDefault,
                               "libmemcached_default", o);
     },
     0xdf76abba8d48893aull, PresetClassIndex<LibmemcachedPreset>},
    {"twemproxy", "twemproxy",
     "twemproxy 0.5.0 (Debian nutcracker 0.5.0+dfsg-2)",
     "src/hashkit/nc_ketama.c, nc_fnv.c, nc_md5.c",
     "distribution ketama: libmemcached_weighted's points with names \"host\" "
     "(port 11211) or \"host:port\"; key hash option (default fnv1a_64: "
     "32-bit, signed chars)",
     "make verify-presets against a live nutcracker on 127.0.0.1",
     "fnv1a_64_twemproxy", ">=", kTwemproxyOptions, 0,
     [](const PresetOptions& o) {
       return Checked("twemproxy", o, kTwemproxyOptions, [&]() -> Made {
         const std::string h = Option(o, "hash", "fnv1a_64");
         if (h != "fnv1a_64" && h != "md5") {
           return BadOption("twemproxy", "hash", h, "fnv1a_64, md5");
         }
         return std::make_unique<TwemproxyPreset>(
             h == "md5" ? TwemproxyPreset::KeyHash::kMd5
                        : TwemproxyPreset::KeyHash::kFnv1a64);
       });
     },
     0xab9f57b662b58df9ull, PresetClassIndex<TwemproxyPreset>},
    {"uhashring", "uhashring", "uhashring 2.1 (Debian python3-uhashring 2.1-3)",
     "uhashring/ring.py, ring_meta.py",
     "HashRing(nodes): 160 * w points md5(\"name-i\") as 128-bit integers "
     "(compared on their top 64 bits), key md5 likewise; first point > h",
     "make verify-presets against Debian python3-uhashring", "md5", ">",
     None(), 0,
     [](const PresetOptions& o) {
       return Checked("uhashring", o, None(), []() -> Made {
         return std::make_unique<UhashringPreset>(false);
       });
     },
     0x21fde36ff6bf1c41ull, PresetClassIndex<UhashringPreset>},
    {"uhashring_ketama", "uhashring",
     "uhashring 2.1 (Debian python3-uhashring 2.1-3)", "uhashring/ring_ketama.py",
     "HashRing(nodes, hash_fn='ketama'): (40*N*w)//sum(w) digests per node, 4 "
     "points each, names \"name-i\" (port kept); first point > h",
     "make verify-presets against Debian python3-uhashring", "md5_le32", ">",
     None(), 0,
     [](const PresetOptions& o) {
       return Checked("uhashring_ketama", o, None(), []() -> Made {
         return std::make_unique<UhashringPreset>(true);
       });
     },
     0x351521419d7cfef6ull, PresetClassIndex<UhashringPreset>},
    {"npm_hashring", "npm hashring", "hashring 3.2.0 (npm)", "index.js",
     "new HashRing(servers): floor(w/W*40*N) digests per server in doubles (39 "
     "at N = 7, 14, 28, ...), 4 points each, names \"host:port-i\"",
     "make verify-presets against the pinned npm package (node)", "md5_le32",
     ">=", None(), 0,
     [](const PresetOptions& o) {
       return Checked("npm_hashring", o, None(), []() -> Made {
         return std::make_unique<NpmHashringPreset>(false);
       });
     },
     0x351521419d7cfef6ull, PresetClassIndex<NpmHashringPreset>},
    {"npm_memcached", "npm memcached", "memcached 2.2.2 (npm), hashring 3.2.0",
     "lib/memcached.js",
     "new Memcached(servers): npm_hashring with default port 11211, so "
     "\"host-i\" names on port 11211",
     "make verify-presets against the pinned npm package (node)", "md5_le32",
     ">=", None(), 0,
     [](const PresetOptions& o) {
       return Checked("npm_memcached", o, None(), []() -> Made {
         return std::make_unique<NpmHashringPreset>(true);
       });
     },
     0xbb6cebea2061dafaull, PresetClassIndex<NpmHashringPreset>},
    {"nginx", "nginx", "nginx 1.22.1 (Debian nginx-light 1.22.1-9+deb12u11)",
     "src/http/modules/ngx_http_upstream_hash_module.c",
     "hash $key consistent: 160 * weight chained CRC-32 points per server "
     "(host \\0 port, previous point), key crc32, first point >= h",
     "make verify-presets against a live nginx on 127.0.0.1", "crc32", ">=",
     None(), 0,
     [](const PresetOptions& o) {
       return Checked("nginx", o, None(), []() -> Made {
         return std::make_unique<NginxPreset>();
       });
     },
     0x088886d308aea399ull, PresetClassIndex<NginxPreset>},
    {"haproxy", "HAProxy", "HAProxy 2.6.12 (Debian haproxy 2.6.12-1+deb12u4)",
     "src/lb_chash.c, src/backend.c, src/hash.c",
     "hash-type consistent: 16 * weight points per server at "
     "full_hash(id*4096+j) (ids, not addresses), key sdbm + avalanche, the "
     "closest point wins",
     "make verify-presets against a live haproxy on 127.0.0.1",
     "sdbm_avalanche", "closest", kHaproxyOptions, 0,
     [](const PresetOptions& o) {
       return Checked("haproxy", o, kHaproxyOptions, [&]() -> Made {
         const bool has_hash = o.count("hash") != 0;
         const std::string h = Option(o, "hash", "sdbm");
         HaproxyPreset::KeyHash kh;
         if (h == "sdbm") {
           kh = HaproxyPreset::KeyHash::kSdbm;
         } else if (h == "djb2") {
           kh = HaproxyPreset::KeyHash::kDjb2;
         } else if (h == "crc32") {
           kh = HaproxyPreset::KeyHash::kCrc32;
         } else {
           return BadOption("haproxy", "hash", h, "sdbm, djb2, crc32");
         }
         const std::string a = Option(o, "avalanche", has_hash ? "0" : "1");
         if (a != "0" && a != "1") {
           return BadOption("haproxy", "avalanche", a, "0, 1");
         }
         return std::make_unique<HaproxyPreset>(kh, a == "1");
       });
     },
     0x9e8eefa82f70d993ull, PresetClassIndex<HaproxyPreset>},
    {"groupcache", "groupcache",
     "groupcache 8c9f03a (Debian golang-github-golang-groupcache-dev "
     "0.0~git20200121.8c9f03a-2)",
     "consistenthash/consistenthash.go, http.go",
     "consistenthash.New(50, crc32): points crc32(decimal(i) ++ peer), key "
     "crc32, first point >= h; no weights",
     "make verify-presets against the Debian Go source", "crc32", ">=",
     kGroupcacheOptions, 0,
     [](const PresetOptions& o) {
       return Checked("groupcache", o, kGroupcacheOptions, [&]() -> Made {
         absl::StatusOr<uint64_t> r =
             UintOption("groupcache", o, "replicas", "50", 1, 65536);
         if (!r.ok()) return r.status();
         return std::make_unique<GroupcachePreset>(static_cast<uint32_t>(*r));
       });
     },
     0x1fa0c40985296e57ull, PresetClassIndex<GroupcachePreset>},
    {"envoy_ring_hash", "Envoy", "Envoy ring_hash_lb.cc @0d2acde2 (model)",
     "source/extensions/load_balancing_policies/ring_hash/ring_hash_lb.cc",
     "ring_hash, xxHash64: ceil(1024/N) points per host \"ip:port_i\" at equal "
     "weights (running sums of normalized weights), first point >= h",
     "Envoy's unit-test expectations (envoy-test-vectors.tsv); no Envoy binary "
     "is packaged",
     "xxh64", ">=", kEnvoyRingOptions, 0,
     [](const PresetOptions& o) {
       return Checked("envoy_ring_hash", o, kEnvoyRingOptions, [&]() -> Made {
         absl::StatusOr<uint64_t> lo = UintOption(
             "envoy_ring_hash", o, "min_ring_size", "1024", 1, 8388608);
         if (!lo.ok()) return lo.status();
         absl::StatusOr<uint64_t> hi = UintOption(
             "envoy_ring_hash", o, "max_ring_size", "8388608", 1, 8388608);
         if (!hi.ok()) return hi.status();
         return std::make_unique<EnvoyRingHashPreset>(*lo, *hi);
       });
     },
     0x8fddb2cab4ddf82eull, PresetClassIndex<EnvoyRingHashPreset>},
    {"envoy_maglev", "Envoy", "Envoy maglev_lb.cc @104df3de (model)",
     "source/extensions/load_balancing_policies/maglev/maglev_lb.cc",
     "maglev, table 65537, xxHash64 offset/skip (seeds 0, 1), hosts sorted by "
     "address, weighted turns; owner table[h mod M]",
     "Envoy's unit-test expectations (envoy-test-vectors.tsv); no Envoy binary "
     "is packaged",
     "xxh64", "table", kEnvoyMaglevOptions, 0,
     [](const PresetOptions& o) {
       return Checked("envoy_maglev", o, kEnvoyMaglevOptions, [&]() -> Made {
         absl::StatusOr<uint64_t> m = UintOption("envoy_maglev", o,
                                                 "table_size", "65537", 2,
                                                 5000011);
         if (!m.ok()) return m.status();
         if (!IsPrime(*m)) {
           return BadOption("envoy_maglev", "table_size",
                            absl::StrCat(*m), "a prime, e.g. 65537");
         }
         return std::make_unique<EnvoyMaglevPreset>(*m);
       });
     },
     0x2c1d349a7cba9d9dull, PresetClassIndex<EnvoyMaglevPreset>},
    {"cassandra", "Cassandra",
     "Cassandra Murmur3Partitioner (checked via npm cassandra-driver 4.10.0)",
     "dht/Murmur3Partitioner.java, utils/MurmurHash.java",
     "token = murmur3 h1 with signed tail bytes; primary replica = first node "
     "token >= the key token; explicit tokens (default: even initial_token); "
     "replicas: SimpleStrategy, or NetworkTopologyStrategy (strategy=nts, "
     "rf=DC:N/...) by the 4.x server's rack rule",
     "make verify-presets against npm cassandra-driver's tokenizer, ring and "
     "getReplicas (offline)",
     "murmur3_cassandra", ">=", kCassandraOptions, 0,
     [](const PresetOptions& o) {
       return Checked("cassandra", o, kCassandraOptions, [&]() -> Made {
         absl::StatusOr<CassandraReplication> replication =
             CassandraReplicationOptions(o);
         if (!replication.ok()) return replication.status();
         absl::StatusOr<std::unique_ptr<CassandraPreset>> made =
             MakeCassandraTokens(o);
         if (!made.ok()) return made.status();
         (*made)->set_replication(*std::move(replication));
         return std::unique_ptr<ConsistentHash>(*std::move(made));
       });
     },
     0x132602e26ae1ae1bull, PresetClassIndex<CassandraPreset>},
    {"guava", "Guava", "Guava 31.1 (Debian libguava-java 31.1-1)",
     "com/google/common/hash/Hashing.java consistentHash",
     "Hashing.consistentHash(murmur3_128().hashString(key, UTF_8), N) -> "
     "servers[bucket]: jump with Java arithmetic; LIFO removal, no weights",
     "make verify-presets against Debian libguava-java (JDK 17)",
     "murmur3_128", "jump", None(), 0,
     [](const PresetOptions& o) {
       return Checked("guava", o, None(), []() -> Made {
         return std::make_unique<GuavaPreset>();
       });
     },
     0x01aa3a2e6b2341e9ull, PresetClassIndex<GuavaPreset>},
};

}  // namespace

std::span<const PresetInfo> Presets() { return kPresets; }

const PresetInfo* FindPreset(std::string_view name) {
  for (const PresetInfo& p : kPresets) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string PresetNames() {
  std::vector<std::string> names;
  for (const PresetInfo& p : kPresets) names.emplace_back(p.name);
  return absl::StrJoin(names, ", ");
}

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakePreset(
    std::string_view name, std::string_view options) {
  const PresetInfo* info = FindPreset(name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown preset '", std::string(name), "'; valid presets: ",
        PresetNames()));
  }
  absl::StatusOr<PresetOptions> parsed = ParsePresetOptions(options);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(name), ": ", parsed.status().message()));
  }
  return info->make(*parsed);
}

std::vector<NodeSpec> PresetServers(size_t n, int port) {
  std::vector<NodeSpec> out(n);
  for (size_t i = 0; i < n; ++i) {
    out[i].name = absl::StrCat("10.0.0.", i + 1, ":", port);
  }
  return out;
}

absl::StatusOr<uint64_t> PresetChecksum(ConsistentHash& preset) {
  const std::vector<NodeSpec> servers = PresetServers(10);
  if (absl::Status s = preset.Build(servers); !s.ok()) return s;
  uint64_t acc = kChecksumInit;
  for (int i = 0; i < 10000; ++i) {
    acc = FoldChecksum(acc, preset.Lookup(preset.HashKey(absl::StrCat("key:", i))));
  }
  return acc;
}

}  // namespace chbench
