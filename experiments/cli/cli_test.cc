// Copyright 2026 The chbench Authors.
//
// Tests of the `chbench` command. They run the real binary (CHBENCH_BIN, set
// by CMake) as a subprocess with posix_spawn: stdin from a temporary file,
// stdout and stderr into temporary files, and check the exit status, the
// output and the error text. The mapping is compared with the library
// (MakeAlgorithm + Build + HashKey + Lookup), so `chbench map` cannot drift
// from what the experiments measure. cli_util.h is tested directly.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/cli/cli_util.h"
#include "experiments/spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

extern char** environ;

namespace chbench {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

struct RunResult {
  bool exited = false;  // false: killed by a signal
  int exit_code = -1;   // valid when exited
  int signal = 0;       // valid when !exited
  std::string out;
  std::string err;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A temporary file that is removed when the object goes away.
class TempFile {
 public:
  TempFile() {
    std::string tmpl = ::testing::TempDir() + "chbench_cli_XXXXXX";
    fd_ = ::mkstemp(tmpl.data());
    path_ = tmpl;
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// Runs `chbench args...` with `input` on stdin. Stdout goes to a temporary
// file, or to `stdout_path` (opened for writing) if given.
RunResult RunChbench(const std::vector<std::string>& args,
                     std::string_view input = "",
                     const std::string& stdout_path = "") {
  RunResult result;
  TempFile in, out, err;
  if (!in.ok() || !out.ok() || !err.ok()) {
    ADD_FAILURE() << "cannot create temporary files in "
                  << ::testing::TempDir();
    return result;
  }
  {
    std::ofstream f(in.path(), std::ios::binary);
    f.write(input.data(), static_cast<std::streamsize>(input.size()));
  }
  std::vector<std::string> argv_storage;
  argv_storage.push_back(CHBENCH_BIN);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, in.path().c_str(),
                                   O_RDONLY, 0);
  if (stdout_path.empty()) {
    posix_spawn_file_actions_adddup2(&actions, out.fd(), STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO,
                                     stdout_path.c_str(), O_WRONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, err.fd(), STDERR_FILENO);
  pid_t pid = 0;
  const int rc =
      posix_spawn(&pid, CHBENCH_BIN, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    ADD_FAILURE() << "posix_spawn(" << CHBENCH_BIN << ") failed: " << rc;
    return result;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  result.exited = WIFEXITED(status);
  if (result.exited) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.out = ReadFile(out.path());
  result.err = ReadFile(err.path());
  return result;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    const size_t tab = line.find('\t', start);
    if (tab == std::string::npos) {
      fields.push_back(line.substr(start));
      return fields;
    }
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
}

std::string JoinLines(const std::vector<std::string>& keys) {
  std::string text;
  for (const std::string& k : keys) {
    text += k;
    text += '\n';
  }
  return text;
}

// What the library says: the owner names of `keys` for `algorithm` built
// from `nodes` with `params` (Place in order for a stateful algorithm).
std::vector<std::string> LibraryOwners(const std::string& algorithm,
                                       const AlgorithmParams& params,
                                       const std::vector<NodeSpec>& nodes,
                                       const std::vector<std::string>& keys) {
  std::vector<std::string> owners;
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo =
      MakeAlgorithm(algorithm, params);
  if (!algo.ok()) {
    ADD_FAILURE() << algo.status();
    return owners;
  }
  if (absl::Status s = (*algo)->Build(nodes); !s.ok()) {
    ADD_FAILURE() << s;
    return owners;
  }
  const bool stateful = (*algo)->capabilities().stateful;
  for (const std::string& key : keys) {
    const uint64_t h = (*algo)->HashKey(key);
    owners.push_back(
        (*algo)->NodeName(stateful ? (*algo)->Place(h) : (*algo)->Lookup(h)));
  }
  return owners;
}

std::vector<NodeSpec> DefaultNodes(int n) {
  std::vector<NodeSpec> nodes(n);
  for (int i = 0; i < n; ++i) nodes[i].name = "node-" + std::to_string(i);
  return nodes;
}

// Keys that exercise the hash: short, long, sequential, non-ASCII.
std::vector<std::string> SampleKeys(int count) {
  std::vector<std::string> keys;
  for (int i = 0; i < count; ++i) {
    keys.push_back(i % 3 == 0   ? "key-" + std::to_string(i)
                   : i % 3 == 1 ? "https://example.org/item/" +
                                      std::to_string(i * 7919) + "/caf\xc3\xa9"
                                : std::string(1 + i % 40, 'a' + i % 26));
  }
  return keys;
}

// Checks `result` is a successful map whose owners (first owner column)
// equal `expected`, with the keys echoed in order.
void ExpectMapping(const RunResult& result,
                   const std::vector<std::string>& keys,
                   const std::vector<std::string>& expected) {
  ASSERT_TRUE(result.exited) << "signal " << result.signal;
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, IsEmpty());
  const std::vector<std::string> lines = SplitLines(result.out);
  ASSERT_EQ(lines.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::vector<std::string> f = SplitTabs(lines[i]);
    ASSERT_EQ(f.size(), 2u) << "line " << i + 1 << ": " << lines[i];
    EXPECT_EQ(f[0], keys[i]) << "line " << i + 1;
    EXPECT_EQ(f[1], expected[i]) << "line " << i + 1 << " key " << keys[i];
  }
}

// --- chbench list -----------------------------------------------------------

// True if some line of `text`, after leading spaces, starts with `name` and
// then a space (a row of a listing, not a mention in prose).
bool HasRow(const std::string& text, std::string_view name) {
  for (const std::string& line : SplitLines(text)) {
    const size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    const std::string_view rest = std::string_view(line).substr(start);
    if (rest.size() > name.size() && rest.substr(0, name.size()) == name &&
        rest[name.size()] == ' ') {
      return true;
    }
  }
  return false;
}

TEST(ListTest, PrintsEveryRegistryName) {
  const RunResult r = RunChbench({"list"});
  ASSERT_TRUE(r.exited);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, IsEmpty());
  EXPECT_THAT(r.out, HasSubstr("Algorithms ("));
  EXPECT_THAT(r.out, HasSubstr("Hash functions ("));
  EXPECT_THAT(r.out, HasSubstr("Key sets ("));
  for (const AlgorithmInfo& info : Algorithms()) {
    EXPECT_TRUE(HasRow(r.out, info.name)) << info.name;
    EXPECT_THAT(r.out, HasSubstr(std::string(info.description)));
    EXPECT_THAT(r.out, HasSubstr(std::string(info.citation)));
  }
  for (const HashInfo& info : HashFunctions()) {
    EXPECT_TRUE(HasRow(r.out, info.name)) << info.name;
    EXPECT_THAT(r.out, HasSubstr(std::string(info.description)));
  }
  // The key-set registry (workload/keyset.h) is not linked into cli_test;
  // its names are the ones documented there.
  for (const char* name : {"uniform", "url", "sequential", "words"}) {
    EXPECT_TRUE(HasRow(r.out, name)) << name;
  }
}

TEST(ListTest, ShowsCapabilitiesAndHashProperties) {
  const RunResult r = RunChbench({"list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const AlgorithmInfo& info : Algorithms()) {
    for (const std::string& line : SplitLines(r.out)) {
      if (!HasRow(line, info.name)) continue;
      EXPECT_EQ(line.find("weights") != std::string::npos,
                info.capabilities.weights)
          << line;
      EXPECT_EQ(line.find("replicas") != std::string::npos,
                info.capabilities.replicas)
          << line;
      EXPECT_EQ(line.find("stateful") != std::string::npos,
                info.capabilities.stateful)
          << line;
      break;
    }
  }
  for (const HashInfo& info : HashFunctions()) {
    for (const std::string& line : SplitLines(r.out)) {
      if (!HasRow(line, info.name)) continue;
      EXPECT_THAT(line, HasSubstr(" " + std::to_string(info.bits) + " "));
      EXPECT_THAT(line, HasSubstr(info.reproducible ? "yes" : "no"));
      break;
    }
  }
}

// --- chbench map: mappings --------------------------------------------------

// Guava's HashingTest.testConsistentHash_correctness: consistentHash(i, 100)
// for i = 0..19 (Lamping & Veach's jump hash with the key used as the seed).
// A minimal JSON reader for the `list --json` tests (RFC 8259 values;
// strings keep their escapes decoded only for \" \\ \n \t \r and \uXXXX
// below 0x80, which is all RegistryJson emits).
struct Json {
  enum Type { kNull, kBool, kNumber, kString, kArray, kObject } type = kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;  // in document order

  const Json* Get(std::string_view key) const {
    for (const auto& [k, v] : object) {
      if (k == key) return &v;
    }
    return nullptr;
  }
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : s_(text) {}

  // False (with error()) unless `text` is exactly one JSON value.
  bool Parse(Json* out) {
    if (!Value(out)) return false;
    Space();
    if (pos_ != s_.size()) return Fail("trailing bytes");
    return true;
  }
  const std::string& error() const { return error_; }

 private:
  bool Fail(std::string_view what) {
    error_ = std::string(what) + " at byte " + std::to_string(pos_);
    return false;
  }
  void Space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' ||
                                s_[pos_] == '\t' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    Space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool String(std::string* out) {
    if (!Eat('"')) return Fail("expected string");
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) return Fail("control char");
      if (c == '\\') {
        if (pos_ >= s_.size()) return Fail("bad escape");
        const char e = s_[pos_++];
        if (e == 'n') {
          c = '\n';
        } else if (e == 't') {
          c = '\t';
        } else if (e == 'r') {
          c = '\r';
        } else if (e == '"' || e == '\\' || e == '/') {
          c = e;
        } else if (e == 'u' && pos_ + 4 <= s_.size()) {
          c = static_cast<char>(
              std::stoi(std::string(s_.substr(pos_, 4)), nullptr, 16));
          pos_ += 4;
        } else {
          return Fail("bad escape");
        }
      }
      out->push_back(c);
    }
    if (pos_ >= s_.size()) return Fail("unterminated string");
    ++pos_;
    return true;
  }
  bool Value(Json* out) {
    Space();
    if (pos_ >= s_.size()) return Fail("unexpected end");
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      out->type = Json::kObject;
      if (Eat('}')) return true;
      do {
        std::string key;
        if (!String(&key)) return false;
        if (!Eat(':')) return Fail("expected ':'");
        Json v;
        if (!Value(&v)) return false;
        out->object.emplace_back(std::move(key), std::move(v));
      } while (Eat(','));
      return Eat('}') || Fail("expected '}'");
    }
    if (c == '[') {
      ++pos_;
      out->type = Json::kArray;
      if (Eat(']')) return true;
      do {
        Json v;
        if (!Value(&v)) return false;
        out->array.push_back(std::move(v));
      } while (Eat(','));
      return Eat(']') || Fail("expected ']'");
    }
    if (c == '"') {
      out->type = Json::kString;
      return String(&out->string);
    }
    if (Literal("true")) {
      out->type = Json::kBool;
      out->boolean = true;
      return true;
    }
    if (Literal("false")) {
      out->type = Json::kBool;
      return true;
    }
    if (Literal("null")) return true;
    size_t end = pos_;
    while (end < s_.size() &&
           std::string_view("+-.0123456789eE").find(s_[end]) !=
               std::string_view::npos) {
      ++end;
    }
    if (end == pos_) return Fail("unexpected character");
    out->type = Json::kNumber;
    out->number = std::stod(std::string(s_.substr(pos_, end - pos_)));
    pos_ = end;
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

std::string StringAt(const Json& obj, std::string_view key) {
  const Json* v = obj.Get(key);
  EXPECT_NE(v, nullptr) << key;
  if (v == nullptr) return "";
  EXPECT_EQ(v->type, Json::kString) << key;
  return v->string;
}

bool BoolAt(const Json& obj, std::string_view key) {
  const Json* v = obj.Get(key);
  EXPECT_NE(v, nullptr) << key;
  if (v == nullptr) return false;
  EXPECT_EQ(v->type, Json::kBool) << key;
  return v->boolean;
}

TEST(JsonReaderTest, AcceptsValidAndRejectsInvalid) {
  Json j;
  EXPECT_TRUE(
      JsonReader(R"({"a": [1, true, null, "x\"y"], "b": {}})").Parse(&j));
  EXPECT_EQ(j.Get("a")->array[3].string, "x\"y");
  for (const char* bad :
       {"{", R"({"a" 1})", "[1,]x", R"({"a": tru})", "[1] [2]", "\"\n\""}) {
    Json k;
    EXPECT_FALSE(JsonReader(bad).Parse(&k)) << bad;
  }
}

Json ListJson() {
  const RunResult r = RunChbench({"list", "--json"});
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, IsEmpty());
  Json j;
  JsonReader reader(r.out);
  EXPECT_TRUE(reader.Parse(&j)) << reader.error() << "\n" << r.out;
  return j;
}

TEST(ListJsonTest, IsValidJsonWithTheSchemaSections) {
  const Json j = ListJson();
  ASSERT_EQ(j.type, Json::kObject);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.object) {
    keys.push_back(k);
    EXPECT_EQ(v.type, Json::kArray) << k;
    EXPECT_FALSE(v.array.empty()) << k;
  }
  EXPECT_THAT(keys, ::testing::ElementsAre(
                        "algorithms", "hashes", "preset_hashes", "presets",
                        "keysets", "experiments", "metrics", "peers"));
}

TEST(ListJsonTest, EveryPresetWithItsSystemAndVerification) {
  const Json j = ListJson();
  ASSERT_NE(j.Get("presets"), nullptr);
  const Json& presets = *j.Get("presets");
  ASSERT_EQ(presets.array.size(), Presets().size());
  for (size_t i = 0; i < Presets().size(); ++i) {
    const Json& p = presets.array[i];
    EXPECT_EQ(p.Get("name")->string, Presets()[i].name);
    EXPECT_EQ(p.Get("system")->string, Presets()[i].system);
    EXPECT_EQ(p.Get("verified")->string, Presets()[i].verified);
  }
}

// `chbench map --preset` maps the committed real-system output exactly
// (libmemcached 1.1.4, HASH=MD5 + CONSISTENT_KETAMA, 3 servers, 6,300 keys).
TEST(MapPresetTest, MatchesTheRealSystemsOutput) {
  std::ifstream in(std::string(CHBENCH_SOURCE_DIR) +
                   "/algorithms/presets/testdata/libmemcached_ketama-n3.tsv");
  ASSERT_TRUE(in.good());
  std::string line, keys, want;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    keys += line.substr(0, line.rfind('\t')) + "\n";
    want += line + "\n";
  }
  const RunResult r =
      RunChbench({"map", "--preset", "libmemcached_ketama", "--servers",
                  "10.0.0.1:11211,10.0.0.2:11211,10.0.0.3:11211"},
                 keys);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, want);
}

// --- CRUSH maps: --algorithm crush --crush-map and --preset ceph -----------

std::string CrushTestdata(const std::string& file) {
  return std::string(CHBENCH_SOURCE_DIR) + "/algorithms/crush/testdata/" + file;
}

// Every crushtool oracle of algorithms/crush/testdata (Ceph 16.2.15
// crushtool --test --show-mappings), run through `chbench map` with the
// options its `# command:` header names: the output is the oracle's rows,
// x<TAB>osd<TAB>..., 2147483647 (CRUSH_ITEM_NONE) printed as `none`.
TEST(MapCrushTest, MatchesEveryCrushtoolOracle) {
  const char* files[] = {"flat10-r3.tsv",
                         "flat10w-r3.tsv",
                         "flat11-r3.tsv",
                         "flat10-minus3-r3.tsv",
                         "flat10-out3-r3.tsv",
                         "flat10-half3-r3.tsv",
                         "hier24-rack-r3.tsv",
                         "hier24-host-r3.tsv",
                         "hier24-host-reweight-r3.tsv",
                         "hier24-host-indep-r4.tsv",
                         "hier24-rack-indep-r4.tsv",
                         "hier24-rack2host2-r4.tsv",
                         "uneven16-host-r3.tsv",
                         "uneven16-rack-r3.tsv"};
  for (const char* file : files) {
    SCOPED_TRACE(file);
    std::ifstream in(CrushTestdata(file));
    ASSERT_TRUE(in.good());
    std::string line, keys, want, map, rule, reps, reweight;
    while (std::getline(in, line)) {
      if (line.rfind("# command: crushtool ", 0) == 0) {
        std::istringstream words(line.substr(11));
        std::vector<std::string> t;
        for (std::string w; words >> w;) t.push_back(w);
        for (size_t i = 0; i + 1 < t.size(); ++i) {
          if (t[i] == "-i") map = t[i + 1].substr(0, t[i + 1].size() - 4);
          if (t[i] == "--rule") rule = t[i + 1];
          if (t[i] == "--num-rep") reps = t[i + 1];
          if (t[i] == "--weight") {
            reweight +=
                (reweight.empty() ? "" : ",") + t[i + 1] + ":" + t[i + 2];
          }
        }
        continue;
      }
      if (line.empty() || line[0] == '#') continue;
      const size_t tab = line.find('\t');
      keys += line.substr(0, tab) + "\n";
      std::string osds = line.substr(tab + 1);
      std::string row = line.substr(0, tab);
      std::istringstream items(osds);
      for (std::string item; std::getline(items, item, ',');) {
        row += "\t" + (item == "2147483647" ? std::string("none") : item);
      }
      want += row + "\n";
    }
    ASSERT_FALSE(map.empty());
    std::vector<std::string> args = {"map",
                                     "--algorithm",
                                     "crush",
                                     "--crush-map",
                                     CrushTestdata("maps/" + map + ".txt"),
                                     "--rule",
                                     rule,
                                     "--replicas",
                                     reps,
                                     "--key-format",
                                     "u64"};
    if (!reweight.empty()) {
      args.push_back("--reweight");
      args.push_back(reweight);
    }
    const RunResult r = RunChbench(args, keys);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, want);
  }
}

// `--crush-map` places with exactly the rows that accept a crushtool map
// (AlgorithmInfo::accepts_crush_map); the others get the one-line error
// naming the ones that do.
TEST(MapCrushTest, CrushMapIsAcceptedByTheRowsThatSayIt) {
  const std::string flat10 = CrushTestdata("maps/flat10.txt");
  int takers = 0;
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    const RunResult r =
        RunChbench({"map", "--algorithm", std::string(info.name),
                    "--crush-map", flat10, "--rule", "0", "--key-format",
                    "u64"},
                   "1\n2\n3\n");
    if (info.accepts_crush_map) {
      ++takers;
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3) << r.out;
    } else {
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_NE(r.err.find("--crush-map applies to --algorithm "),
                std::string::npos)
          << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  }
  EXPECT_GE(takers, 1);
}

// A weight the algorithm or the preset cannot represent (no point of its
// own) is a one-line error with exit 2 naming the smallest usable weight,
// before any output.
TEST(MapTest, WeightWithoutAPointIsAnErrorNamingTheSmallestWeight) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases =
      {{{"map", "--algorithm", "ring", "--nodes", "3", "--weights",
         "0.0001,1,1"},
        "ring: node 'node-0' weight 0.0001 would get round(vnodes 100 x "
        "weight 0.0001) = 0 points and no keys; the smallest weight with a "
        "point at vnodes 100 is 0.005 (or use vnodes >= 5000)"},
       {{"map", "--preset", "uhashring_ketama", "--servers",
         "a:11211:1,b:11211:65536"},
        "uhashring_ketama: server 'a:11211' weight 1 gets 4 x (40 * N * w // "
        "sum) = 0 points (weights sum to 65537 over 2 servers), so it would "
        "get no keys; the smallest weight with a point here is 830"}};
  for (const auto& [args, want] : cases) {
    SCOPED_TRACE(args[2]);
    const RunResult r = RunChbench(args, "k1\nk2\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "chbench map: " + want + "\n");
  }
  // 830 is the smallest: it maps, 829 does not.
  EXPECT_EQ(RunChbench({"map", "--preset", "uhashring_ketama", "--servers",
                        "a:11211:830,b:11211:65536"},
                       "k1\n")
                .exit_code,
            0);
  EXPECT_EQ(RunChbench({"map", "--preset", "uhashring_ketama", "--servers",
                        "a:11211:829,b:11211:65536"},
                       "k1\n")
                .exit_code,
            2);
}

// The osdmaptool oracles (Ceph 16.2.15 osdmaptool --test-map-object, every
// OSD up and in): object name -> PG -> OSDs.
TEST(MapCrushTest, PresetCephMatchesOsdmaptool) {
  for (const auto& [map, rule] :
       std::vector<std::pair<std::string, std::string>>{
           {"flat10", "flat_firstn"}, {"hier24", "rack_firstn"}}) {
    SCOPED_TRACE(map);
    std::ifstream in(CrushTestdata("osdmap-" + map + "-pg100-objects.tsv"));
    ASSERT_TRUE(in.good());
    std::string line, keys, want;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      keys += line.substr(0, line.find('\t')) + "\n";
      std::replace(line.begin(), line.end(), ',', '\t');
      want += line + "\n";
    }
    const RunResult r =
        RunChbench({"map", "--preset", "ceph", "--crush-map",
                    CrushTestdata("maps/" + map + ".txt"), "--preset-options",
                    "pool=1,pg_num=100,rule=" + rule, "--replicas", "3"},
                   keys);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, want);
  }
}

TEST(MapCrushTest, ErrorsAreOneLineWithExit2) {
  TempFile bad;
  ASSERT_TRUE(bad.ok());
  {
    std::string text = ReadFile(CrushTestdata("maps/flat10.txt"));
    const size_t at = text.find("alg straw2");
    ASSERT_NE(at, std::string::npos);
    const std::string line_no = std::to_string(
        std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') +
        1);
    text.replace(at, 10, "alg straw");
    std::ofstream(bad.path()) << text;
    ASSERT_EQ(line_no, "41") << "the bad line's number, checked below";
  }
  const std::string flat10 = CrushTestdata("maps/flat10.txt");
  const std::vector<std::string> crush = {"map", "--algorithm", "crush",
                                          "--crush-map"};
  auto with = [](std::vector<std::string> a,
                 const std::vector<std::string>& more) {
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {with(crush,
            {"/nonexistent/m.txt", "--rule", "0", "--key-format", "u64"}),
       "--crush-map /nonexistent/m.txt: cannot read the file"},
      {with(crush, {bad.path(), "--rule", "0", "--key-format", "u64"}),
       "line 41: unsupported bucket algorithm 'straw' in bucket 'default'; "
       "supported: straw2"},
      {with(crush, {flat10, "--rule", "nope", "--key-format", "u64"}),
       "unknown rule 'nope'; rules in " + flat10 + " (id name): 0 flat_firstn"},
      {with(crush, {flat10, "--key-format", "u64"}),
       "needs --rule NAME|ID; rules in " + flat10 + ": 0 flat_firstn"},
      {with(crush, {flat10, "--rule", "0"}), "give --key-format u64"},
      {with(crush, {flat10, "--rule", "0", "--key-format", "u64", "--reweight",
                    "3:1.5"}),
       "invalid --reweight item '3:1.5'; expected ID:W with W in 0..1"},
      {with(crush, {flat10, "--rule", "0", "--key-format", "u64", "--reweight",
                    "33:0.5"}),
       "no device 33 in " + flat10 + "; device ids: 0..9"},
      {with(crush,
            {flat10, "--rule", "0", "--key-format", "u64", "--replicas", "0"}),
       "invalid --replicas '0'; expected an integer in 1..256"},
      {with(crush,
            {flat10, "--rule", "0", "--key-format", "u64", "--nodes", "3"}),
       "--nodes does not apply to --algorithm crush --crush-map"},
      {{"map", "--algorithm", "ring", "--crush-map", flat10},
       "--crush-map applies to --algorithm crush and --preset ceph only"},
      {{"map", "--algorithm", "crush", "--nodes", "3", "--rule", "0"},
       "--rule and --reweight apply to --algorithm crush --crush-map FILE"},
      {{"map", "--preset", "ceph", "--replicas", "3"},
       "--preset ceph needs --crush-map FILE"},
      {{"map", "--preset", "ceph", "--crush-map", flat10, "--preset-options",
        "pool=1,rule=flat_firstn"},
       "missing: pg_num"},
      {{"map", "--preset", "ceph", "--crush-map", flat10, "--preset-options",
        "pool=1,pg_num=0,rule=flat_firstn"},
       "ceph: invalid pg_num '0'; valid: an integer in 1..2147483648"},
      {{"map", "--preset", "ceph", "--crush-map", flat10, "--preset-options",
        "pool=1,pg_num=8,rule=flat_firstn,size=3"},
       "ceph: unknown option 'size'; valid: pool, pg_num, pgp_num, rule"},
      {{"map", "--preset", "ceph", "--crush-map", flat10, "--preset-options",
        "pool=1,pg_num=8,rule=host"},
       "unknown rule 'host'; rules in " + flat10 + " (id name): 0 flat_firstn"},
      {{"map", "--preset", "nope", "--servers", "a:1"},
       "ceph (with --crush-map FILE)"},
  };
  for (const auto& [args, want] : cases) {
    const RunResult r = RunChbench(args, "0\n");
    EXPECT_EQ(r.exit_code, 2) << want;
    EXPECT_EQ(r.out, "") << want;
    EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(MapPresetTest, ErrorsAreOneLineWithExit2) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"map", "--preset", "nope", "--servers", "a:1"}, "valid presets:"},
      {{"map", "--preset", "nginx"}, "needs --servers"},
      {{"map", "--preset", "nginx", "--servers", "a:1", "--nodes", "3"},
       "--nodes does not apply to --preset"},
      {{"map", "--preset", "haproxy", "--servers", "a:1", "--preset-options",
        "hash=md9"},
       "valid: sdbm, djb2, crc32"},
      {{"map", "--preset", "libmemcached_ketama", "--servers", "10.0.0.1"},
       "not host:port"},
      {{"map", "--preset", "guava", "--servers", "a,b,c", "--remove", "a"},
       "only the last bucket"},
      {{"map", "--algorithm", "ring", "--nodes", "3", "--servers", "a:1"},
       "apply to --preset only"},
      {{"map", "--nodes", "3"}, "one of --algorithm NAME or --preset NAME"},
  };
  for (const auto& [args, want] : cases) {
    const RunResult r = RunChbench(args, "k\n");
    EXPECT_EQ(r.exit_code, 2) << want;
    EXPECT_EQ(r.out, "") << want;
    EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// `chbench map --preset ... --replicas R` prints the real systems' preference
// lists (verify/replicas.tsv rows, committed by make verify-presets): byte
// for byte where the check is exact; where the Cassandra driver's order or
// repeats differ from the server's rule, the same hosts.
TEST(MapPresetTest, ReplicasMatchTheRealSystemsOutput) {
  const std::string verify =
      std::string(CHBENCH_SOURCE_DIR) + "/algorithms/presets/verify/";
  std::ifstream rows(verify + "replicas.tsv");
  ASSERT_TRUE(rows.good());
  std::string row;
  size_t checked = 0;
  while (std::getline(rows, row)) {
    if (row.empty() || row[0] == '#' || row.rfind("stem\t", 0) == 0) continue;
    const std::vector<std::string> f = SplitTabs(row);
    ASSERT_EQ(f.size(), 8u) << row;
    const std::string& stem = f[0];
    SCOPED_TRACE(stem);
    std::ifstream in(std::string(CHBENCH_SOURCE_DIR) +
                     "/algorithms/presets/testdata/" + stem + ".tsv");
    ASSERT_TRUE(in.good());
    std::string line, keys, want;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      keys += line.substr(0, line.find('\t')) + "\n";
      want += line + "\n";
    }
    std::vector<std::string> args = {"map", "--preset", f[2], "--replicas",
                                     f[4]};
    if (!f[3].empty()) args.insert(args.end(), {"--preset-options", f[3]});
    if (!f[6].empty()) args.insert(args.end(), {"--remove", f[6]});
    if (f[7].rfind("topology:", 0) == 0) {
      args.insert(args.end(),
                  {"--topology", verify + "topologies/" + f[7].substr(9)});
    } else {
      args.insert(args.end(), {"--servers", f[7]});
    }
    const RunResult r = RunChbench(args, keys);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (f[5] == "exact") {
      EXPECT_EQ(r.out, want);
    } else {
      const std::vector<std::string> got = SplitLines(r.out);
      const std::vector<std::string> real = SplitLines(want);
      ASSERT_EQ(got.size(), real.size());
      size_t same_order = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        const std::vector<std::string> g = SplitTabs(got[i]);
        const std::vector<std::string> e = SplitTabs(real[i]);
        const std::set<std::string> gs(g.begin() + 1, g.end());
        const std::set<std::string> es(e.begin() + 1, e.end());
        EXPECT_EQ(gs.size(), g.size() - 1) << got[i];
        if (es.size() == e.size() - 1) {
          EXPECT_EQ(gs, es) << got[i];
        }
        same_order += g == e;
      }
      EXPECT_LT(same_order, got.size()) << "the driver's order differs";
    }
    ++checked;
  }
  EXPECT_GE(checked, 10u);
}

// --topology gives names, weights and locations: the same mapping as
// --node-names, --weights and --zones (replicas in distinct locations).
TEST(MapTopologyTest, EqualsNodeNamesWeightsAndZones) {
  TempFile topology;
  ASSERT_TRUE(topology.ok());
  {
    std::ofstream f(topology.path());
    f << "# a comment\n"
         "a:1\t1\tdc1/r1\n"
         "b:1\t2\tdc1/r2\r\n"
         "\n"
         "c:1\t1\tdc2/r1\n"
         "d:1\t3\tdc2/r1\n"
         "e:1\t1\tdc1/r1\n";
  }
  const std::string keys = JoinLines(SampleKeys(300));
  for (const char* algorithm : {"ring", "rendezvous"}) {
    SCOPED_TRACE(algorithm);
    const RunResult with_file = RunChbench(
        {"map", "-a", algorithm, "--topology", topology.path(), "-r", "3"},
        keys);
    ASSERT_EQ(with_file.exit_code, 0) << with_file.err;
    const RunResult with_flags =
        RunChbench({"map", "-a", algorithm, "--node-names",
                    "a:1,b:1,c:1,d:1,e:1", "--weights", "1,2,1,3,1", "--zones",
                    "dc1/r1,dc1/r2,dc2/r1,dc2/r1,dc1/r1", "-r", "3"},
                   keys);
    ASSERT_EQ(with_flags.exit_code, 0) << with_flags.err;
    EXPECT_EQ(with_file.out, with_flags.out);
    EXPECT_EQ(SplitLines(with_file.out).size(), 300u);
  }
  // A preset takes its servers from the file too.
  const RunResult preset =
      RunChbench({"map", "--preset", "npm_hashring", "--topology",
                  topology.path(), "--replicas", "2"},
                 keys);
  ASSERT_EQ(preset.exit_code, 0) << preset.err;
  const RunResult servers =
      RunChbench({"map", "--preset", "npm_hashring", "--servers",
                  "a:1:1,b:1:2,c:1:1,d:1:3,e:1:1", "--replicas", "2"},
                 keys);
  ASSERT_EQ(servers.exit_code, 0) << servers.err;
  EXPECT_EQ(preset.out, servers.out);
  EXPECT_EQ(SplitLines(preset.out).size(), 300u);
  // An algorithm without weights refuses a weighted file, naming the node.
  const RunResult jump =
      RunChbench({"map", "-a", "jump", "--topology", topology.path()}, keys);
  EXPECT_EQ(jump.exit_code, 2);
  EXPECT_EQ(jump.out, "");
  EXPECT_THAT(jump.err, HasSubstr("jump does not support weights"));
  EXPECT_THAT(jump.err, HasSubstr("'b:1' weight 2"));
  // --zone-level 1: the domains are the data centers, as if the file gave
  // dc1 and dc2 only; 2 is the whole location here.
  for (const char* algorithm : {"ring", "rendezvous"}) {
    SCOPED_TRACE(algorithm);
    const RunResult dcs = RunChbench({"map", "-a", algorithm, "--topology",
                                      topology.path(), "-r", "3",
                                      "--zone-level", "1"},
                                     keys);
    ASSERT_EQ(dcs.exit_code, 0) << dcs.err;
    const RunResult zones =
        RunChbench({"map", "-a", algorithm, "--node-names",
                    "a:1,b:1,c:1,d:1,e:1", "--weights", "1,2,1,3,1", "--zones",
                    "dc1,dc1,dc2,dc2,dc1", "-r", "3"},
                   keys);
    ASSERT_EQ(zones.exit_code, 0) << zones.err;
    EXPECT_EQ(dcs.out, zones.out);
    const RunResult whole = RunChbench(
        {"map", "-a", algorithm, "--topology", topology.path(), "-r", "3"},
        keys);
    const RunResult two = RunChbench({"map", "-a", algorithm, "--topology",
                                      topology.path(), "-r", "3",
                                      "--zone-level", "2"},
                                     keys);
    EXPECT_EQ(two.out, whole.out);
    EXPECT_NE(dcs.out, whole.out);
  }
  for (const auto& [args, says] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"map", "-a", "ring", "--topology", topology.path(),
             "--zone-level", "0"},
            "invalid --zone-level '0'; expected an integer in 1..64"},
           {{"map", "-a", "ring", "--nodes", "5", "--zone-level", "1"},
            "--zone-level applies with --topology only"},
           {{"map", "--preset", "npm_hashring", "--topology",
             topology.path(), "--zone-level", "1"},
            "--zone-level"}}) {
    const RunResult bad = RunChbench(args, keys);
    EXPECT_EQ(bad.exit_code, 2) << says;
    EXPECT_EQ(bad.out, "");
    EXPECT_THAT(bad.err, HasSubstr(says));
  }
}

// Topology file errors: one line naming the line and the bad value, exit 2.
TEST(MapTopologyTest, ErrorsNameTheLineAndValue) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"a\t1\tdc1/r1\nb\tx\tdc1/r2\n", {"line 2", "invalid weight 'x'"}},
      {"a\t1\n", {"line 1", "expected name<TAB>weight<TAB>location"}},
      {"a\t1\tdc1//r1\n", {"line 1", "'dc1//r1'"}},
      {"a\t1\tdc1\na\t1\tdc2\n", {"line 2", "duplicate name 'a'"}},
      {"a\t0\tdc1\n", {"line 1", "invalid weight '0'"}},
      {"# only a comment\n", {"no nodes"}}};
  for (const auto& [text, mentions] : cases) {
    TempFile topology;
    ASSERT_TRUE(topology.ok());
    {
      std::ofstream f(topology.path());
      f << text;
    }
    const RunResult r =
        RunChbench({"map", "-a", "ring", "--topology", topology.path()}, "k\n");
    EXPECT_EQ(r.exit_code, 2) << text;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("invalid --topology"));
    for (const std::string& m : mentions) EXPECT_THAT(r.err, HasSubstr(m));
  }
}

TEST(ListJsonTest, EveryAlgorithmWithItsRegistryFields) {
  const Json j = ListJson();
  const Json* algos = j.Get("algorithms");
  ASSERT_NE(algos, nullptr);
  ASSERT_EQ(algos->array.size(), Algorithms().size());
  for (size_t i = 0; i < Algorithms().size(); ++i) {
    const AlgorithmInfo& info = Algorithms()[i];
    const Json& a = algos->array[i];
    SCOPED_TRACE(info.name);
    EXPECT_EQ(StringAt(a, "name"), info.name);
    EXPECT_EQ(StringAt(a, "description"), info.description);
    EXPECT_EQ(StringAt(a, "citation"), info.citation);
    EXPECT_EQ(StringAt(a, "lookup_complexity"), info.lookup_complexity);
    const std::string cls = StringAt(a, "lookup_class");
    EXPECT_EQ(cls, info.lookup_class);
    EXPECT_TRUE(cls == "constant" || cls == "logarithmic" || cls == "linear")
        << cls;
    const Json* caps = a.Get("capabilities");
    ASSERT_NE(caps, nullptr);
    EXPECT_EQ(BoolAt(*caps, "arbitrary_removal"),
              info.capabilities.arbitrary_removal);
    EXPECT_EQ(BoolAt(*caps, "minimal_disruption"),
              info.capabilities.minimal_disruption);
    EXPECT_EQ(BoolAt(*caps, "weights"), info.capabilities.weights);
    EXPECT_EQ(BoolAt(*caps, "replicas"), info.capabilities.replicas);
    EXPECT_EQ(BoolAt(*caps, "stateful"), info.capabilities.stateful);
    EXPECT_EQ(BoolAt(*caps, "history_dependent"),
              info.capabilities.history_dependent);
    const Json* params = a.Get("parameters");
    ASSERT_NE(params, nullptr);
    std::vector<std::string> got, want;
    for (const Json& p : params->array) got.push_back(p.string);
    for (const ParamInfo& p : info.parameters) want.emplace_back(p.name);
    EXPECT_EQ(got, want);
    char golden[32];
    std::snprintf(golden, sizeof(golden), "0x%016llx",
                  static_cast<unsigned long long>(info.golden()));
    EXPECT_EQ(StringAt(a, "golden"), golden);
    EXPECT_EQ(StringAt(a, "bounds_loads_of"), info.bounds_loads_of);
    EXPECT_EQ(BoolAt(a, "accepts_crush_map"), info.accepts_crush_map);
  }
  EXPECT_EQ(StringAt(algos->array[3], "lookup_class"), "logarithmic");
}

TEST(ListJsonTest, HashesKeysetsExperimentsMetricsPeers) {
  const Json j = ListJson();
  const Json* hashes = j.Get("hashes");
  ASSERT_NE(hashes, nullptr);
  ASSERT_EQ(hashes->array.size(), HashFunctions().size());
  for (size_t i = 0; i < HashFunctions().size(); ++i) {
    const HashInfo& info = HashFunctions()[i];
    const Json& h = hashes->array[i];
    EXPECT_EQ(StringAt(h, "name"), info.name);
    ASSERT_NE(h.Get("bits"), nullptr);
    EXPECT_EQ(h.Get("bits")->number, info.bits);
    EXPECT_EQ(BoolAt(h, "reproducible"), info.reproducible);
  }
  std::vector<std::string> keysets;
  for (const Json& k : j.Get("keysets")->array) {
    keysets.push_back(StringAt(k, "name"));
    EXPECT_FALSE(StringAt(k, "description").empty());
  }
  EXPECT_THAT(keysets,
              ::testing::ElementsAre("uniform", "url", "sequential", "words"));
  // Experiment descriptions come from experiments/<name>.toml.
  std::set<std::string> experiments;
  for (const Json& e : j.Get("experiments")->array) {
    experiments.insert(StringAt(e, "name"));
    EXPECT_FALSE(StringAt(e, "description").empty()) << StringAt(e, "name");
  }
  EXPECT_EQ(experiments.size(), kExperimentNames.size());
  EXPECT_TRUE(experiments.count("removal"));
  EXPECT_TRUE(experiments.count("lookup"));
  EXPECT_TRUE(experiments.count("seeds"));

  std::map<std::string, const Json*> metrics;
  for (const Json& m : j.Get("metrics")->array) {
    metrics[StringAt(m, "name")] = &m;
    const std::string better = StringAt(m, "better");
    EXPECT_TRUE(better == "lower" || better == "higher" || better == "none")
        << better;
    EXPECT_FALSE(StringAt(m, "unit").empty());
    ASSERT_NE(m.Get("timing"), nullptr);
    EXPECT_EQ(m.Get("timing")->type, Json::kBool);
  }
  for (const char* name :
       {"lookup_ns", "lookup_latency_ns", "hash_ns", "lookups_per_s",
        "lookup_ns_ratio_to_<peer>", "lookup_latency_ns_ratio_to_<peer>",
        "build_ns", "add_node_ns", "remove_node_ns", "load_avg_1m",
        "cpu_steal_fraction"}) {
    ASSERT_TRUE(metrics.count(name)) << name;
    EXPECT_TRUE(BoolAt(*metrics[name], "timing")) << name;
  }
  for (const char* name :
       {"checksum", "memory_bytes", "heap_bytes", "memory_bytes_per_node",
        "memory_bytes_per_key", "moved_fraction", "moved_optimal_fraction",
        "moved_excess_fraction", "receivers", "load_max", "load_min",
        "load_max_over_mean", "load_min_over_mean", "load_rel_stddev",
        "load_chi2_pvalue", "share"}) {
    ASSERT_TRUE(metrics.count(name)) << name;
    EXPECT_FALSE(BoolAt(*metrics[name], "timing")) << name;
  }
  EXPECT_EQ(StringAt(*metrics["lookups_per_s"], "better"), "higher");
  EXPECT_EQ(StringAt(*metrics["lookups_per_s"], "unit"), "1/s");

  std::vector<std::string> peers;
  for (const Json& p : j.Get("peers")->array) {
    peers.push_back(StringAt(p, "name"));
    EXPECT_NE(FindAlgorithm(StringAt(p, "base")), nullptr);
    EXPECT_FALSE(StringAt(p, "description").empty());
    EXPECT_FALSE(StringAt(p, "source").empty());
  }
  EXPECT_THAT(peers, ::testing::ElementsAre(
                         "jump_paper", "ring_upper_bound", "ring_branchless",
                         "rendezvous_packed", "maglev_katran",
                         "maglev_small_pages", "maglev_katran_build",
                         "libmemcached_ketama",
                         "anchor_table_crc", "memento_jump_crc",
                         "ring_interleaved"));
}

TEST(ListJsonTest, TextListingIsUnchangedByTheFlag) {
  const RunResult r = RunChbench({"list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Algorithms ("));
  EXPECT_THAT(r.out, Not(HasSubstr("\"algorithms\"")));
}

TEST(MapTest, JumpU64MatchesGuavaVector) {
  const int kGuava[20] = {0,  55, 62, 8,  45, 59, 86, 97, 82, 59,
                          73, 37, 17, 56, 86, 21, 90, 37, 38, 83};
  std::string input;
  for (int i = 0; i < 20; ++i) input += std::to_string(i) + "\n";
  const RunResult r = RunChbench(
      {"map", "--algorithm", "jump", "--nodes", "100", "--key-format", "u64"},
      input);
  ASSERT_TRUE(r.exited);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string expected;
  for (int i = 0; i < 20; ++i) {
    expected +=
        std::to_string(i) + "\tnode-" + std::to_string(kGuava[i]) + "\n";
  }
  EXPECT_EQ(r.out, expected);
}

TEST(MapTest, U64KeysAtTheRangeEndsAreAccepted) {
  const RunResult r =
      RunChbench({"map", "-a", "jump", "-n", "7", "--key-format", "u64"},
                 "0\n18446744073709551615\r\n00042\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = SplitLines(r.out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_THAT(lines[0], ::testing::StartsWith("0\tnode-"));
  EXPECT_THAT(lines[1], ::testing::StartsWith("18446744073709551615\tnode-"));
  EXPECT_THAT(lines[2], ::testing::StartsWith("00042\tnode-"));
}

TEST(MapTest, StringKeysMatchLibraryForEveryAlgorithm) {
  const std::vector<std::string> keys = SampleKeys(300);
  for (const AlgorithmInfo& info : Algorithms()) {
    SCOPED_TRACE(info.name);
    const std::string name(info.name);
    const RunResult r = RunChbench(
        {"map", "--algorithm", name, "--nodes", "10"}, JoinLines(keys));
    ExpectMapping(
        r, keys,
        LibraryOwners(name, AlgorithmParams{}, DefaultNodes(10), keys));
  }
}

TEST(MapTest, NonDefaultParametersMatchLibrary) {
  const std::vector<std::string> keys = SampleKeys(200);
  struct Case {
    std::string algorithm;
    std::vector<std::string> flags;
    AlgorithmParams params;
  };
  std::vector<Case> cases;
  {
    Case c{"ring", {"--hash", "md5", "--vnodes", "7"}, {}};
    c.params.hash = "md5";
    c.params.vnodes = 7;
    cases.push_back(c);
  }
  {
    Case c{"maglev", {"--table-size", "101", "--hash", "murmur3_128"}, {}};
    c.params.table_size = 101;
    c.params.hash = "murmur3_128";
    cases.push_back(c);
  }
  {
    Case c{"bounded_load", {"--load-factor", "1.1", "--vnodes", "20"}, {}};
    c.params.load_factor = 1.1;
    c.params.vnodes = 20;
    cases.push_back(c);
  }
  {
    Case c{"rendezvous", {"--hash", "fnv1a"}, {}};
    c.params.hash = "fnv1a";
    cases.push_back(c);
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.algorithm);
    std::vector<std::string> args = {"map", "-a", c.algorithm, "-n", "6"};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    ExpectMapping(RunChbench(args, JoinLines(keys)), keys,
                  LibraryOwners(c.algorithm, c.params, DefaultNodes(6), keys));
  }
}

// --remove: the owners after removing nodes are those of the survivors, for
// an algorithm whose mapping depends only on the live set (ring), and jump
// can shed its last node.
TEST(MapTest, RemoveEqualsMappingTheSurvivors) {
  std::vector<std::string> keys;
  for (int i = 0; i < 300; ++i) keys.push_back(absl::StrCat("key-", i));
  const std::string input = JoinLines(keys);
  const RunResult removed = RunChbench(
      {"map", "-a", "ring", "-n", "6", "--remove", "node-4,node-1"}, input);
  ASSERT_EQ(removed.exit_code, 0) << removed.err;
  const RunResult survivors = RunChbench(
      {"map", "-a", "ring", "--node-names", "node-0,node-2,node-3,node-5"},
      input);
  ASSERT_EQ(survivors.exit_code, 0) << survivors.err;
  EXPECT_EQ(removed.out, survivors.out);
  EXPECT_THAT(removed.out, Not(HasSubstr("node-4")));
  const RunResult jump = RunChbench(
      {"map", "-a", "jump", "-n", "6", "--remove", "node-5,node-4"}, input);
  ASSERT_EQ(jump.exit_code, 0) << jump.err;
  EXPECT_EQ(jump.out, RunChbench({"map", "-a", "jump", "-n", "4"}, input).out);
}

TEST(MapTest, OutputOrderEqualsInputOrder) {
  // A fixed permutation of 0..999 (multiplication by a unit mod 1000), an
  // empty key and a CRLF line.
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i)
    keys.push_back("k" + std::to_string(i * 617 % 1000));
  keys.insert(keys.begin() + 500, "");
  std::string input = JoinLines(keys);
  input += "crlf-key\r\n";
  keys.push_back("crlf-key");
  input += "no-final-newline";
  keys.push_back("no-final-newline");
  const RunResult r = RunChbench({"map", "-a", "ring", "-n", "5"}, input);
  ExpectMapping(
      r, keys, LibraryOwners("ring", AlgorithmParams{}, DefaultNodes(5), keys));
}

TEST(MapTest, EmptyInputPrintsNothing) {
  const RunResult r = RunChbench({"map", "-a", "ring", "-n", "5"}, "");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, IsEmpty());
  const RunResult one_empty =
      RunChbench({"map", "-a", "modulo", "-n", "1"}, "\n");
  ASSERT_EQ(one_empty.exit_code, 0) << one_empty.err;
  EXPECT_EQ(one_empty.out, "\tnode-0\n");
}

TEST(MapTest, RingReplicasAreDistinctAndStartWithTheOwner) {
  const std::vector<std::string> keys = SampleKeys(400);
  const RunResult r3 = RunChbench(
      {"map", "-a", "ring", "-n", "10", "--replicas", "3"}, JoinLines(keys));
  ASSERT_EQ(r3.exit_code, 0) << r3.err;
  const std::vector<std::string> owners =
      LibraryOwners("ring", AlgorithmParams{}, DefaultNodes(10), keys);
  const std::vector<std::string> lines = SplitLines(r3.out);
  ASSERT_EQ(lines.size(), keys.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string> f = SplitTabs(lines[i]);
    ASSERT_EQ(f.size(), 4u) << lines[i];
    EXPECT_EQ(f[0], keys[i]);
    EXPECT_EQ(f[1], owners[i]) << "the first replica is the owner";
    EXPECT_EQ(std::set<std::string>(f.begin() + 1, f.end()).size(), 3u)
        << lines[i];
  }
}

TEST(MapTest, ReplicasMatchLibraryWithDistinctZones) {
  const std::vector<std::string> keys = SampleKeys(200);
  std::vector<NodeSpec> nodes = DefaultNodes(6);
  const std::vector<std::string> zones = {"a", "a", "b", "b", "c", "c"};
  for (int i = 0; i < 6; ++i) nodes[i].zone = zones[i];
  for (const char* algorithm : {"ring", "rendezvous"}) {
    SCOPED_TRACE(algorithm);
    const RunResult r = RunChbench({"map", "-a", algorithm, "-n", "6", "-r",
                                    "3", "--zones", "a,a,b,b,c,c"},
                                   JoinLines(keys));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto algo = MakeAlgorithm(algorithm, AlgorithmParams{});
    ASSERT_TRUE(algo.ok()) << algo.status();
    ASSERT_TRUE((*algo)->Build(nodes).ok());
    const std::vector<std::string> lines = SplitLines(r.out);
    ASSERT_EQ(lines.size(), keys.size());
    std::vector<NodeId> ids;
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE((*algo)
                      ->LookupReplicas((*algo)->HashKey(keys[i]), 3, true, &ids)
                      .ok());
      std::string expected = keys[i];
      std::set<std::string> seen_zones;
      for (NodeId id : ids) {
        expected += "\t" + (*algo)->NodeName(id);
        seen_zones.insert(zones[id]);
      }
      EXPECT_EQ(lines[i], expected);
      EXPECT_EQ(seen_zones.size(), 3u) << lines[i];
    }
  }
}

// The data lines `key<TAB>v1,v2,...` of a reference-vector file under
// algorithms/<folder>/testdata/, as (key, values).
std::vector<std::pair<std::string, std::vector<std::string>>> VectorLines(
    const std::string& folder, const std::string& file) {
  std::ifstream in(std::string(CHBENCH_SOURCE_DIR) + "/algorithms/" + folder +
                   "/testdata/" + file);
  EXPECT_TRUE(in.good()) << folder << "/testdata/" << file;
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = SplitTabs(line);
    if (f.size() != 2) {
      ADD_FAILURE() << "bad line '" << line << "'";
      continue;
    }
    std::vector<std::string> values;
    std::stringstream list(f[1]);
    for (std::string v; std::getline(list, v, ',');) values.push_back(v);
    rows.emplace_back(f[0], values);
  }
  return rows;
}

// `chbench map` with u64 keys reproduces the reference vectors of choosek
// (rust-gems ConsistentChooseKHasher's ranking, ConsistentNodeMap after
// removals) and jumpbackanchor (hash4j after removals): the key's line is
// its owners in ranking order, node i being slot or bucket i.
TEST(MapTest, ChooseKAndJumpBackAnchorMatchTheReferenceVectors) {
  struct Case {
    std::string algorithm, folder, file, replicas, remove;
  };
  const Case cases[] = {
      {"choosek", "choosek", "choosek_n100_k5.tsv", "5", ""},
      {"choosek", "choosek", "choosek_n10_k10.tsv", "10", ""},
      {"choosek", "choosek", "nodemap_n100_rm7_13_50.tsv", "1",
       "node-7,node-13,node-50"},
      {"jumpbackanchor", "jumpbackanchor", "jba_n100_rm17_3_99_50.tsv", "1",
       "node-17,node-3,node-99,node-50"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const auto rows = VectorLines(c.folder, c.file);
    ASSERT_EQ(rows.size(), 100u);
    std::string input, expected;
    for (const auto& [key, values] : rows) {
      input += key + "\n";
      expected += key;
      for (const std::string& v : values) expected += "\tnode-" + v;
      expected += "\n";
    }
    std::vector<std::string> args = {"map",      "--algorithm",  c.algorithm,
                                     "--nodes",  "100",          "--replicas",
                                     c.replicas, "--key-format", "u64"};
    if (c.file == "choosek_n10_k10.tsv") args[4] = "10";
    if (!c.remove.empty()) {
      args.push_back("--remove");
      args.push_back(c.remove);
    }
    const RunResult r = RunChbench(args, input);
    ASSERT_TRUE(r.exited);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected);
  }
}

TEST(MapTest, NodeNamesAndWeightsMatchLibrary) {
  const std::vector<std::string> keys = SampleKeys(300);
  std::vector<NodeSpec> nodes(3);
  nodes[0].name = "alpha";
  nodes[1].name = "beta";
  nodes[2].name = "gamma";
  // --node-names alone, and together with an agreeing --nodes.
  for (const auto& extra :
       std::vector<std::vector<std::string>>{{}, {"--nodes", "3"}}) {
    std::vector<std::string> args = {"map", "-a", "rendezvous", "--node-names",
                                     "alpha,beta,gamma"};
    args.insert(args.end(), extra.begin(), extra.end());
    ExpectMapping(RunChbench(args, JoinLines(keys)), keys,
                  LibraryOwners("rendezvous", AlgorithmParams{}, nodes, keys));
  }
  nodes[0].weight = 1;
  nodes[1].weight = 2.5;
  nodes[2].weight = 4;
  for (const char* algorithm : {"ring", "rendezvous", "maglev"}) {
    SCOPED_TRACE(algorithm);
    ExpectMapping(RunChbench({"map", "-a", algorithm, "--node-names",
                              "alpha,beta,gamma", "--weights", "1,2.5,4"},
                             JoinLines(keys)),
                  keys,
                  LibraryOwners(algorithm, AlgorithmParams{}, nodes, keys));
  }
}

TEST(MapTest, JumpNodeIIsBucketI) {
  // With names, jump's bucket b must print the b-th name.
  std::string input;
  for (int i = 0; i < 20; ++i) input += std::to_string(i) + "\n";
  const RunResult named = RunChbench({"map", "-a", "jump", "--node-names",
                                      "n0,n1,n2,n3,n4", "--key-format", "u64"},
                                     input);
  const RunResult numbered = RunChbench(
      {"map", "-a", "jump", "-n", "5", "--key-format", "u64"}, input);
  ASSERT_EQ(named.exit_code, 0) << named.err;
  ASSERT_EQ(numbered.exit_code, 0) << numbered.err;
  std::string renamed = numbered.out;
  for (size_t pos; (pos = renamed.find("node-")) != std::string::npos;) {
    renamed.replace(pos, 5, "n");
  }
  EXPECT_EQ(named.out, renamed);
}

TEST(MapTest, LargeInputStreamsInOrder) {
  constexpr int kKeys = 200000;
  std::string input;
  input.reserve(kKeys * 12);
  for (int i = 0; i < kKeys; ++i) input += "key-" + std::to_string(i) + "\n";
  // A 3 MiB key forces the reader to grow its 1 MiB block.
  const std::string huge(3 << 20, 'x');
  input += huge + "\n";
  input += "last\n";
  const RunResult r = RunChbench({"map", "-a", "jump", "-n", "37"}, input);
  ASSERT_TRUE(r.exited);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = SplitLines(r.out);
  ASSERT_EQ(lines.size(), kKeys + 2u);
  for (int i = 0; i < kKeys; ++i) {
    const std::string prefix = "key-" + std::to_string(i) + "\tnode-";
    if (lines[i].compare(0, prefix.size(), prefix) != 0) {
      FAIL() << "line " << i + 1 << ": " << lines[i];
    }
  }
  EXPECT_EQ(lines[kKeys].substr(0, huge.size() + 6), huge + "\tnode-");
  EXPECT_THAT(lines[kKeys + 1], ::testing::StartsWith("last\tnode-"));
}

// --- chbench map: errors ----------------------------------------------------

struct ErrorCase {
  std::string name;
  std::vector<std::string> args;
  std::string input;
  std::vector<std::string> stderr_mentions;
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

class MapErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(MapErrorTest, ExitsTwoWithOneLineAndNoOutput) {
  const ErrorCase& c = GetParam();
  const RunResult r = RunChbench(c.args, c.input);
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.out, IsEmpty());
  ASSERT_THAT(r.err, Not(IsEmpty()));
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  for (const std::string& m : c.stderr_mentions) {
    EXPECT_THAT(r.err, HasSubstr(m));
  }
}

// A committed topology file (12 hosts in dc1 and dc2).
const std::string kTopologyC =
    std::string(CHBENCH_SOURCE_DIR) +
    "/algorithms/presets/verify/topologies/dc1-3racks-dc2-2racks-n12.tsv";

std::vector<std::string> Map(std::vector<std::string> args) {
  args.insert(args.begin(), "map");
  return args;
}

const std::vector<ErrorCase>& ErrorCases() {
  static const auto* cases = new std::vector<ErrorCase>{
      {"UnknownAlgorithm",
       Map({"-a", "chord", "-n", "3"}),
       "k\n",
       {"'chord'", AlgorithmNames()}},
      {"MissingAlgorithm", Map({"-n", "3"}), "k\n", {"--algorithm"}},
      {"UnknownHash",
       Map({"-a", "ring", "-n", "3", "--hash", "sha9"}),
       "k\n",
       {"'sha9'", HashNames()}},
      {"NodesZero", Map({"-a", "ring", "-n", "0"}), "k\n", {"--nodes '0'"}},
      {"NodesMissing", Map({"-a", "ring"}), "k\n", {"--nodes"}},
      {"NodesNotANumber",
       Map({"-a", "ring", "-n", "three"}),
       "k\n",
       {"'three'"}},
      {"NodesNegative", Map({"-a", "ring", "-n", "-3"}), "k\n", {"'-3'"}},
      {"NodesOctalLooking",
       Map({"-a", "ring", "-n", "0x10"}),
       "k\n",
       {"'0x10'"}},
      {"NodesTooMany",
       Map({"-a", "jump", "-n", "4000000000"}),
       "k\n",
       {"'4000000000'"}},
      {"NodesMissingValue", Map({"-a", "ring", "-n"}), "k\n", {"--nodes"}},
      {"NodesDisagreeWithNames",
       Map({"-a", "ring", "-n", "2", "--node-names", "a,b,c"}),
       "k\n",
       {"--nodes 2", "3 names"}},
      {"DuplicateNodeNames",
       Map({"-a", "ring", "--node-names", "a,b,a"}),
       "k\n",
       {"'a'"}},
      {"EmptyNodeName",
       Map({"-a", "ring", "--node-names", "a,,b"}),
       "k\n",
       {"empty"}},
      {"VnodesZero",
       Map({"-a", "ring", "-n", "3", "--vnodes", "0"}),
       "k\n",
       {"--vnodes '0'"}},
      {"VnodesNotANumber",
       Map({"-a", "ring", "-n", "3", "--vnodes", "1.5"}),
       "k\n",
       {"'1.5'"}},
      {"TableSizeNotPrime",
       Map({"-a", "maglev", "-n", "3", "--table-size", "100"}),
       "k\n",
       {"'100'", "prime"}},
      {"TableSizeBelowNodes",
       Map({"-a", "maglev", "-n", "20", "--table-size", "7"}),
       "k\n",
       {"'7'", "20"}},
      {"TableSizeNegative",
       Map({"-a", "maglev", "-n", "3", "--table-size", "-7"}),
       "k\n",
       {"'-7'"}},
      {"LoadFactorOne",
       Map({"-a", "bounded_load", "-n", "3", "--load-factor", "1"}),
       "k\n",
       {"--load-factor '1'", "> 1"}},
      {"LoadFactorBelowOne",
       Map({"-a", "bounded_load", "-n", "3", "--load-factor", "0.5"}),
       "k\n",
       {"'0.5'"}},
      {"LoadFactorNan",
       Map({"-a", "bounded_load", "-n", "3", "--load-factor", "nan"}),
       "k\n",
       {"'nan'"}},
      {"WeightsWrongCount",
       Map({"-a", "ring", "-n", "3", "--weights", "1,2"}),
       "k\n",
       {"2 weights", "3 nodes"}},
      {"WeightZero",
       Map({"-a", "ring", "-n", "3", "--weights", "1,0,1"}),
       "k\n",
       {"'0'", "> 0"}},
      {"WeightNegative",
       Map({"-a", "rendezvous", "-n", "3", "--weights", "1,1,-2"}),
       "k\n",
       {"'-2'"}},
      {"WeightNotANumber",
       Map({"-a", "maglev", "-n", "3", "--weights", "1,heavy,1"}),
       "k\n",
       {"'heavy'"}},
      {"WeightsUnsupported",
       Map({"-a", "jump", "-n", "3", "--weights", "1,1,1"}),
       "k\n",
       {"jump", "--weights", "ring"}},
      {"ReplicasZero",
       Map({"-a", "ring", "-n", "3", "-r", "0"}),
       "k\n",
       {"--replicas '0'"}},
      {"ReplicasAboveNodes",
       Map({"-a", "ring", "-n", "3", "-r", "4"}),
       "k\n",
       {"'4'", "1..3"}},
      {"ReplicasUnsupported",
       Map({"-a", "jump", "-n", "3", "-r", "2"}),
       "k\n",
       {"jump", "--replicas 2", "ring", "rendezvous"}},
      {"ZonesWrongCount",
       Map({"-a", "ring", "-n", "3", "-r", "2", "--zones", "a,b"}),
       "k\n",
       {"2 zones", "'a,b'"}},
      {"RemoveUnknownNode",
       Map({"-a", "ring", "-n", "3", "--remove", "node-7"}),
       "k\n",
       {"--remove", "'node-7'", "node-0..node-2"}},
      {"RemoveTwice",
       Map({"-a", "ring", "-n", "3", "--remove", "node-1,node-1"}),
       "k\n",
       {"'node-1' listed twice"}},
      {"RemoveEveryNode",
       Map({"-a", "ring", "-n", "2", "--remove", "node-0,node-1"}),
       "k\n",
       {"at least one must stay live"}},
      // Regression (fuzz/map_input_fuzzer.cc): the replicas exceed the nodes
      // left; this was an internal error (exit 1) at the first key, after
      // printing the key.
      {"ReplicasAboveNodesLeftAfterRemove",
       Map({"-a", "rendezvous", "-n", "3", "-r", "3", "--remove", "node-1"}),
       "x\n",
       {"--replicas '3'", "2 nodes left after --remove", "1..2"}},
      // Regression (fuzz/map_input_fuzzer.cc): removing every server of a
      // preset was an internal error (exit 1) at the first key.
      {"PresetRemoveEveryServer",
       Map({"--preset", "libmemcached_ketama", "--servers",
            "10.0.0.2:11211,10.0.0.3:11211", "--remove",
            "10.0.0.3:11211,10.0.0.2:11211"}),
       "user:1\n",
       {"removes all 2 servers", "at least one must stay live"}},
      {"TopologyWithNodes",
       Map({"-a", "ring", "-n", "3", "--topology", kTopologyC}),
       "k\n",
       {"--nodes cannot be combined with --topology"}},
      {"TopologyWithZones",
       Map({"-a", "ring", "--zones", "a,b", "--topology", kTopologyC}),
       "k\n",
       {"--zones cannot be combined with --topology"}},
      {"TopologyAndServers",
       Map({"--preset", "cassandra", "--servers", "a:1", "--topology",
            kTopologyC}),
       "k\n",
       {"--servers and --topology"}},
      {"TopologyMissingFile",
       Map({"-a", "ring", "--topology", "/nonexistent/topology.tsv"}),
       "k\n",
       {"cannot read topology file '/nonexistent/topology.tsv'"}},
      {"NtsReplicasNotTheSumOfRf",
       Map({"--preset", "cassandra", "--topology", kTopologyC,
            "--preset-options",
            "tokens=splitmix64:8,strategy=nts,rf=dc1:3/dc2:2", "--replicas",
            "4"}),
       "k\n",
       {"--replicas '4'", "rf=dc1:3/dc2:2 = 5", "valid: 5"}},
      {"NtsWithoutLocations",
       Map({"--preset", "cassandra", "--servers", "a:1,b:1", "--preset-options",
            "strategy=nts,rf=dc1:1"}),
       "k\n",
       {"needs every server's location", "'a:1'"}},
      {"CassandraStrategyUnknown",
       Map({"--preset", "cassandra", "--servers", "a:1,b:1", "--preset-options",
            "strategy=local"}),
       "k\n",
       {"'local'", "simple, nts"}},
      {"CassandraRfWithoutNts",
       Map({"--preset", "cassandra", "--servers", "a:1,b:1", "--preset-options",
            "rf=dc1:2"}),
       "k\n",
       {"rf applies to strategy=nts only"}},
      {"PresetReplicasUnsupported",
       Map({"--preset", "nginx", "--servers", "a:1,b:1", "--replicas", "2"}),
       "k\n",
       {"nginx does not support --replicas 2", "presets with replicas:",
        "cassandra", "npm_hashring", "uhashring_ketama"}},
      {"PresetReplicasAboveServers",
       Map({"--preset", "npm_hashring", "--servers", "a:1,b:1", "--replicas",
            "3"}),
       "k\n",
       {"--replicas '3'", "1..2"}},
      {"PresetReplicasAboveServersLeft",
       Map({"--preset", "uhashring", "--servers", "a:1,b:1,c:1", "--replicas",
            "3", "--remove", "b:1"}),
       "k\n",
       {"--replicas '3'", "2 servers left after --remove"}},
      {"RemoveNotLastFromJump",
       Map({"-a", "jump", "-n", "3", "--remove", "node-0"}),
       "k\n",
       {"--remove node-0", "jump", "only the last"}},
      {"CapacityUnused",
       Map({"-a", "ring", "-n", "3", "--capacity", "9"}),
       "k\n",
       {"ring does not use --capacity"}},
      {"ProbesUnused",
       Map({"-a", "ring", "-n", "3", "--probes", "9"}),
       "k\n",
       {"ring does not use --probes"}},
      {"KeyFormatUnknown",
       Map({"-a", "ring", "-n", "3", "--key-format", "hex"}),
       "k\n",
       {"'hex'", "string, u64"}},
      {"U64NotANumber",
       Map({"-a", "jump", "-n", "3", "--key-format", "u64"}),
       "abc\n1\n",
       {"line 1", "'abc'"}},
      {"U64Sign",
       Map({"-a", "jump", "-n", "3", "--key-format", "u64"}),
       "-5\n",
       {"line 1", "'-5'"}},
      {"U64PlusSign",
       Map({"-a", "jump", "-n", "3", "--key-format", "u64"}),
       "+5\n",
       {"line 1", "'+5'"}},
      {"U64Overflow",
       Map({"-a", "jump", "-n", "3", "--key-format", "u64"}),
       "18446744073709551616\n",
       {"line 1", "'18446744073709551616'"}},
      {"U64TrailingGarbage",
       Map({"-a", "jump", "-n", "3", "--key-format", "u64"}),
       "12x\n",
       {"line 1", "'12x'"}},
      {"U64Space",
       Map({"-a", "jump", "-n", "3", "--key-format", "u64"}),
       " 12\n",
       {"line 1", "' 12'"}},
      {"U64EmptyLine",
       Map({"-a", "jump", "-n", "3", "--key-format", "u64"}),
       "\n",
       {"line 1", "''"}},
      // Both keys have CRC-32 0x4DDB0C25, so they would merge into one placed
      // key: a 32-bit hash is refused.
      {"BoundedLoad32BitHash",
       Map({"--algorithm", "bounded_load", "--hash", "crc32", "--nodes", "3",
            "--load-factor", "1.01"}),
       "plumless\nbuckeroo\n",
       {"bounded_load: hash 'crc32' has 32-bit digests", "use a 64-bit hash"}},
      {"BoundedLoadMurmur32",
       Map({"-a", "bounded_load", "--hash", "murmur3_32", "-n", "3"}),
       "k\n",
       {"'murmur3_32' has 32-bit digests"}},
      {"UnknownFlag",
       Map({"-a", "ring", "-n", "3", "--bogus"}),
       "k\n",
       {"--bogus"}},
      {"ExtraPositional",
       Map({"-a", "ring", "-n", "3", "stray"}),
       "k\n",
       {"stray"}},
      {"NoSubcommand", {}, "", {"subcommand"}},
      {"UnknownSubcommand", {"frobnicate"}, "", {"frobnicate"}},
      {"ListExtraArgument", {"list", "--verbose"}, "", {"--verbose"}},
  };
  return *cases;
}

INSTANTIATE_TEST_SUITE_P(All, MapErrorTest, ::testing::ValuesIn(ErrorCases()),
                         [](const ::testing::TestParamInfo<ErrorCase>& info) {
                           return info.param.name;
                         });

TEST(MapTest, MalformedU64KeyStopsAfterTheLinesBeforeIt) {
  const RunResult r =
      RunChbench({"map", "-a", "jump", "-n", "100", "--key-format", "u64"},
                 "0\n1\n2x\n3\n");
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "0\tnode-0\n1\tnode-55\n");  // Guava vector, keys 0 and 1
  EXPECT_THAT(r.err, HasSubstr("line 3"));
  EXPECT_THAT(r.err, HasSubstr("'2x'"));
}

// /dev/full fails every write with ENOSPC: an internal failure, exit 1.
TEST(MapTest, WriteErrorOnStdoutExitsOne) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  const RunResult map =
      RunChbench({"map", "-a", "ring", "-n", "3"}, "a\nb\n", "/dev/full");
  ASSERT_TRUE(map.exited);
  EXPECT_EQ(map.exit_code, 1);
  EXPECT_THAT(map.err, HasSubstr("write error on stdout"));
  const RunResult list = RunChbench({"list"}, "", "/dev/full");
  ASSERT_TRUE(list.exited);
  EXPECT_EQ(list.exit_code, 1);
  EXPECT_THAT(list.err, HasSubstr("write error on stdout"));
}

// --- help and version -------------------------------------------------------

TEST(HelpTest, EverySubcommandHasHelp) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"},
                                             {"list", "--help"},
                                             {"map", "--help"},
                                             {"run", "--help"}}) {
    SCOPED_TRACE(args.front());
    const RunResult r = RunChbench(args);
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Usage"));
  }
}

TEST(HelpTest, MapHelpShowsDefaultsAndBehaviour) {
  const RunResult r = RunChbench({"map", "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* text :
       {"--algorithm", "--nodes", "--node-names", "--vnodes", "--hash",
        "--table-size", "--load-factor", "--weights", "--replicas", "--zones",
        "--key-format", "H=xxh64", "V=100", "M=smallest prime >= 100*N",
        "C=1.25", "R=1", "=string", "Place()", "already been printed"}) {
    EXPECT_THAT(r.out, HasSubstr(text));
  }
  for (const AlgorithmInfo& info : Algorithms()) {
    EXPECT_THAT(r.out, HasSubstr(std::string(info.name)));
  }
}

TEST(HelpTest, VersionExitsZero) {
  const RunResult r = RunChbench({"--version"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("chbench"));
  EXPECT_THAT(r.out, HasSubstr("build type"));
}

// --- cli_util.h -------------------------------------------------------------

TEST(CliUtilTest, ParseDecimalU64IsStrict) {
  uint64_t v = 0;
  EXPECT_TRUE(cli::ParseDecimalU64("0", &v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(cli::ParseDecimalU64("18446744073709551615", &v));
  EXPECT_EQ(v, UINT64_MAX);
  EXPECT_TRUE(cli::ParseDecimalU64("0010", &v));
  EXPECT_EQ(v, 10u);
  for (const char* bad : {"", "18446744073709551616", "99999999999999999999",
                          "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.0", "a"}) {
    EXPECT_FALSE(cli::ParseDecimalU64(bad, &v)) << "'" << bad << "'";
  }
}

TEST(CliUtilTest, ParseFiniteDouble) {
  double v = 0;
  EXPECT_TRUE(cli::ParseFiniteDouble("1.25", &v));
  EXPECT_EQ(v, 1.25);
  EXPECT_TRUE(cli::ParseFiniteDouble("2e1", &v));
  EXPECT_EQ(v, 20.0);
  for (const char* bad : {"", "inf", "nan", "+1", " 1", "1x", "1e999", "--"}) {
    EXPECT_FALSE(cli::ParseFiniteDouble(bad, &v)) << "'" << bad << "'";
  }
}

TEST(CliUtilTest, SplitCommaListKeepsEmptyElements) {
  EXPECT_EQ(cli::SplitCommaList("a,b,c"),
            (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(cli::SplitCommaList("a,,b"),
            (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(cli::SplitCommaList(""), (std::vector<std::string>{""}));
}

TEST(CliUtilTest, IsPrime) {
  // Small values, against trial division.
  for (uint64_t n = 0; n < 2000; ++n) {
    bool prime = n >= 2;
    for (uint64_t d = 2; d * d <= n; ++d) {
      if (n % d == 0) prime = false;
    }
    EXPECT_EQ(cli::IsPrime(n), prime) << n;
  }
  // 2^61 - 1 (a Mersenne prime) and 2^64 - 59 (the largest prime below
  // 2^64, OEIS A014234); 3215031751 is a strong pseudoprime to bases 2, 3, 5
  // and 7 (Pomerance, Selfridge & Wagstaff 1980); 561 is a Carmichael number.
  EXPECT_TRUE(cli::IsPrime((uint64_t{1} << 61) - 1));
  EXPECT_TRUE(cli::IsPrime(18446744073709551557ULL));
  EXPECT_FALSE(cli::IsPrime(3215031751ULL));
  EXPECT_FALSE(cli::IsPrime(561));
  EXPECT_FALSE(cli::IsPrime(UINT64_MAX));
}

TEST(CliUtilTest, FormatColumnsAligns) {
  EXPECT_EQ(cli::FormatColumns({{"a", "bb", "c"}, {"ddd", "e", "f"}}, 1),
            " a    bb  c\n ddd  e   f\n");
  EXPECT_EQ(cli::Excerpt("ab\ncd"), "ab?cd");
  EXPECT_EQ(cli::Excerpt("abcdef", 3), "abc...");
}

}  // namespace
}  // namespace chbench

// The cluster experiment's real-memcached cells from the command line: a
// missing memcached is one line and exit 2 before anything runs; SIGINT in
// the middle of a cell leaves no memcached process behind.
namespace chbench {
namespace {

constexpr char kRealClusterSpec[] = R"([[sweep]]
kind = "cluster"
mode = ["memcached"]
scenario = ["add"]
algorithm = ["ring"]
keyset = ["url"]
nodes = [3]
keys = [2000]
requests = [400000]
buckets = 20
workers = 1
rate = 20000
)";

// A temporary directory holding kRealClusterSpec as cluster.toml, removed
// with everything in it when the object goes away. path() is empty if it
// could not be created.
class ClusterSpecDir {
 public:
  ClusterSpecDir() {
    std::string tmpl = ::testing::TempDir() + "chbench_cluster_XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) return;
    path_ = tmpl;
    std::ofstream(path_ + "/cluster.toml") << kRealClusterSpec;
  }
  ~ClusterSpecDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  ClusterSpecDir(const ClusterSpecDir&) = delete;
  ClusterSpecDir& operator=(const ClusterSpecDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(RunClusterTest, MissingMemcachedIsExitTwoBeforeAnythingRuns) {
  const ClusterSpecDir spec_dir;
  const std::string& dir = spec_dir.path();
  ASSERT_FALSE(dir.empty());
  setenv("CHBENCH_MEMCACHED", "/nonexistent/memcached", 1);
  const RunResult r = RunChbench(
      {"run", "cluster", "--spec-dir", dir, "--results-dir", dir + "/results"});
  unsetenv("CHBENCH_MEMCACHED");
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("memcached not found (looked for "
                               "/nonexistent/memcached)"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/results/cluster"));
}

// A stateful algorithm in a growth spec: one line naming it, exit 2,
// nothing run.
TEST(RunSpecTest, BadGrowthAlgorithmIsOneLineWithExit2) {
  std::string dir = ::testing::TempDir() + "chbench_growth_XXXXXX";
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  std::ofstream(dir + "/growth.toml")
      << "[[sweep]]\nkind = \"growth\"\n"
         "algorithm = [\"jump\", \"bounded_load\"]\n"
         "nodes = [10]\nkeys = [100]\n";
  const RunResult r = RunChbench({"run", "growth", "--tier", "smoke",
                                  "--spec-dir", dir, "--results-dir",
                                  dir + "/results"});
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("key 'algorithm': value 'bounded_load' is "
                               "stateful"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/results/growth"));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

// A bad batch in a lookup spec: one line naming the value and the valid
// range, exit 2, nothing run.
TEST(RunSpecTest, BadBatchIsOneLineWithExit2) {
  std::string dir = ::testing::TempDir() + "chbench_batch_XXXXXX";
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  std::ofstream(dir + "/lookup.toml")
      << "[[sweep]]\nkind = \"lookup\"\nalgorithm = [\"ring\"]\n"
         "nodes = [10]\nkeys = [100]\nbatch = [16, 2048]\n";
  const RunResult r = RunChbench({"run", "lookup", "--tier", "smoke",
                                  "--spec-dir", dir, "--results-dir",
                                  dir + "/results"});
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("key 'batch': value 2048 out of range; "
                               "valid: 1..1024"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/results/lookup"));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

// Child processes of `parent` whose command is memcached.
std::vector<pid_t> MemcachedChildren(pid_t parent) {
  std::vector<pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    std::getline(stat, line);
    // pid (comm) state ppid ...
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    const std::string comm =
        line.substr(line.find('(') + 1, close - line.find('(') - 1);
    std::istringstream rest(line.substr(close + 2));
    std::string state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && comm == "memcached") out.push_back(std::stoi(name));
  }
  return out;
}

TEST(RunClusterTest, SigintMidCellLeavesNoServer) {
  const ClusterSpecDir spec_dir;
  const std::string& dir = spec_dir.path();
  ASSERT_FALSE(dir.empty());
  const std::string bin = CHBENCH_BIN;
  const std::string results = dir + "/results";
  std::vector<std::string> args = {
      bin, "run", "cluster", "--spec-dir", dir, "--results-dir", results};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                   O_WRONLY, 0);
  pid_t pid = 0;
  ASSERT_EQ(
      posix_spawn(&pid, bin.c_str(), &actions, nullptr, argv.data(), environ),
      0);
  posix_spawn_file_actions_destroy(&actions);
  // Wait for the 4 servers (3 + the joining one), then interrupt.
  std::vector<pid_t> servers;
  for (int i = 0; i < 500 && servers.size() < 4; ++i) {
    usleep(10000);
    servers = MemcachedChildren(pid);
  }
  ASSERT_EQ(servers.size(), 4u);
  usleep(200000);  // into the request loop
  // The first Ctrl-C lets the cell in progress finish; the second stops at
  // once: the servers are killed and chbench ends by the signal.
  ASSERT_EQ(kill(pid, SIGINT), 0);
  usleep(100000);
  ASSERT_EQ(kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  for (pid_t s : servers) {
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) {
      gone = kill(s, 0) != 0 && errno == ESRCH;
      if (!gone) usleep(10000);
    }
    EXPECT_TRUE(gone) << "memcached pid " << s << " outlived chbench";
  }
  // No result: the cell never finished, so neither its file nor data.csv
  // exists.
  for (const auto& e : std::filesystem::recursive_directory_iterator(results)) {
    EXPECT_NE(e.path().extension(), ".csv") << e.path();
  }
}

}  // namespace
}  // namespace chbench
