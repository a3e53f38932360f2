// Copyright 2026 The chbench Authors.
//
// The text-map parser of crush/crush_map.h: the format `crushtool -d` prints
// (Ceph 16.2 src/crush/CrushCompiler.cc's grammar as the project's CRUSH
// design notes describe it in §5), one line at a time.

#include "algorithms/crush/crush_map.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"

namespace chbench::crush {
namespace {

// String building on std::string_view (Debian's Abseil has its own
// absl::string_view, which StrCat takes and std::string_view does not
// convert to).
void Append(std::string& s, std::string_view v) { s.append(v); }
void Append(std::string& s, const char* v) { s.append(v); }
void Append(std::string& s, const std::string& v) { s.append(v); }
template <typename T>
requires std::is_integral_v<T>
void Append(std::string& s, T v) { s += std::to_string(v); }
template <typename... A>
std::string Cat(const A&... a) {
  std::string s;
  (Append(s, a), ...);
  return s;
}
template <typename C>
std::string Join(const C& parts, std::string_view sep) {
  std::string s;
  for (const auto& p : parts) {
    if (!s.empty() || &p != &*std::begin(parts)) s.append(sep);
    Append(s, p);
  }
  return s;
}

}  // namespace

const Rule* CrushMap::FindRule(std::string_view name_or_id) const {
  for (const Rule& r : rules) {
    if (r.name == name_or_id) return &r;
  }
  int32_t id = 0;
  if (absl::SimpleAtoi(absl::string_view(name_or_id.data(), name_or_id.size()),
                       &id)) {
    for (const Rule& r : rules) {
      if (r.id == id) return &r;
    }
  }
  return nullptr;
}

std::string CrushMap::RuleList() const {
  std::vector<std::string> parts;
  for (const Rule& r : rules) parts.push_back(Cat(r.id, " ", r.name));
  return parts.empty() ? std::string("(none)") : Join(parts, ", ");
}

int32_t CrushMap::FindType(std::string_view name) const {
  for (const auto& [id, type_name] : types) {
    if (type_name == name) return id;
  }
  return -1;
}

bool WeightToFixed(double w, uint32_t* out) {
  if (!std::isfinite(w) || w < 0) return false;
  // CrushCompiler reads the decimal as a float; crushtool --weight too.
  const float scaled = static_cast<float>(w) * 65536.0f;
  if (!(scaled < 4294967296.0f)) return false;
  *out = static_cast<uint32_t>(scaled);
  return true;
}

namespace {

constexpr std::string_view kTunableNames[] = {
    "choose_local_tries", "choose_local_fallback_tries",
    "choose_total_tries", "chooseleaf_descend_once",
    "chooseleaf_vary_r",  "chooseleaf_stable",
    "straw_calc_version", "allowed_bucket_algs"};

constexpr std::pair<std::string_view, StepOp> kSetSteps[] = {
    {"set_choose_tries", StepOp::kSetChooseTries},
    {"set_chooseleaf_tries", StepOp::kSetChooseLeafTries},
    {"set_choose_local_tries", StepOp::kSetChooseLocalTries},
    {"set_choose_local_fallback_tries", StepOp::kSetChooseLocalFallbackTries},
    {"set_chooseleaf_vary_r", StepOp::kSetChooseLeafVaryR},
    {"set_chooseleaf_stable", StepOp::kSetChooseLeafStable},
};

std::string Quote(std::string_view s) {
  constexpr size_t kMax = 40;
  if (s.size() > kMax) return Cat("'", s.substr(0, kMax), "...'");
  return Cat("'", s, "'");
}

class Parser {
 public:
  absl::StatusOr<CrushMap> Parse(std::string_view text) {
    size_t begin = 0;
    while (begin <= text.size()) {
      size_t end = text.find('\n', begin);
      if (end == std::string_view::npos) end = text.size();
      ++line_no_;
      Tokenize(text.substr(begin, end - begin));
      begin = end + 1;
      if (tok_.empty()) continue;
      absl::Status s;
      switch (state_) {
        case State::kTop:
          s = TopLine();
          break;
        case State::kBucket:
          s = BucketLine();
          break;
        case State::kRule:
          s = RuleLine();
          break;
      }
      if (!s.ok()) return s;
    }
    if (state_ != State::kTop) {
      return Error(Cat(state_ == State::kBucket ? "bucket " : "rule ",
                       Quote(open_name_), " is not closed; expected '}'"));
    }
    if (map_.rules.empty()) {
      return absl::InvalidArgumentError("the map has no rule");
    }
    if (map_.tunables.choose_local_fallback_tries != 0) {
      return absl::InvalidArgumentError(
          Cat("tunable choose_local_fallback_tries is ",
              map_.tunables.choose_local_fallback_tries,
              explicit_fallback_ ? ""
                                 : " (the legacy default: the map does not "
                                   "set it)",
              "; supported: 0 (the permutation fallback is not implemented)"));
    }
    return std::move(map_);
  }

 private:
  enum class State { kTop, kBucket, kRule };

  absl::Status Error(std::string message) const {
    return absl::InvalidArgumentError(Cat("line ", line_no_, ": ", message));
  }

  void Tokenize(std::string_view line) {
    tok_.clear();
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    size_t i = 0;
    while (i < line.size()) {
      const char ch = line[i];
      if (ch == ' ' || ch == '\t' || ch == '\r') {
        ++i;
      } else if (ch == '{' || ch == '}') {
        tok_.push_back(line.substr(i, 1));
        ++i;
      } else {
        size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' &&
               line[j] != '\r' && line[j] != '{' && line[j] != '}') {
          ++j;
        }
        tok_.push_back(line.substr(i, j - i));
        i = j;
      }
    }
  }

  absl::Status Arity(size_t lo, size_t hi, std::string_view form) const {
    if (tok_.size() < lo || tok_.size() > hi) {
      return Error(Cat("expected '", form, "', got ", Quote(Join(tok_, " "))));
    }
    return absl::OkStatus();
  }

  absl::Status Int(std::string_view t, std::string_view what, int64_t lo,
                   int64_t hi, int64_t* out) const {
    int64_t v = 0;
    if (!absl::SimpleAtoi(absl::string_view(t.data(), t.size()), &v) ||
        v < lo || v > hi) {
      return Error(Cat("invalid ", what, " ", Quote(t),
                       "; expected an integer in ", lo, "..", hi));
    }
    *out = v;
    return absl::OkStatus();
  }

  absl::Status Weight(std::string_view t, uint32_t* out) const {
    double w = 0;
    if (!absl::SimpleAtod(absl::string_view(t.data(), t.size()), &w) ||
        !WeightToFixed(w, out)) {
      return Error(Cat("invalid weight ", Quote(t),
                       "; expected a decimal in 0..65535.99998 "
                       "(16.16 fixed point)"));
    }
    return absl::OkStatus();
  }

  std::string TypeList() const {
    std::vector<std::string> names;
    for (const auto& [id, name] : map_.types) names.push_back(name);
    return names.empty() ? std::string("(none declared)") : Join(names, ", ");
  }

  absl::Status TopLine() {
    const std::string_view k = tok_[0];
    if (k == "tunable") {
      if (absl::Status s = Arity(3, 3, "tunable NAME VALUE"); !s.ok()) return s;
      int64_t v = 0;
      if (absl::Status s = Int(tok_[2], "tunable value", 0, UINT32_MAX, &v);
          !s.ok()) {
        return s;
      }
      Tunables& t = map_.tunables;
      uint32_t* fields[] = {
          &t.choose_local_tries, &t.choose_local_fallback_tries,
          &t.choose_total_tries, &t.chooseleaf_descend_once,
          &t.chooseleaf_vary_r,  &t.chooseleaf_stable,
          &t.straw_calc_version, &t.allowed_bucket_algs};
      for (size_t i = 0; i < std::size(kTunableNames); ++i) {
        if (tok_[1] == kTunableNames[i]) {
          *fields[i] = static_cast<uint32_t>(v);
          if (i == 1) explicit_fallback_ = true;
          return absl::OkStatus();
        }
      }
      return Error(Cat("unknown tunable ", Quote(tok_[1]),
                       "; valid: ", Join(kTunableNames, ", ")));
    }
    if (k == "device") {
      if (absl::Status s = Arity(3, 5, "device ID NAME [class CLASS]");
          !s.ok()) {
        return s;
      }
      if (tok_.size() != 3 && (tok_.size() != 5 || tok_[3] != "class")) {
        return Error(
            Cat("expected 'device ID NAME [class CLASS]', "
                "got ",
                Quote(Join(tok_, " "))));
      }
      int64_t id = 0;
      if (absl::Status s = Int(tok_[1], "device id", 0, kItemUndef - 1, &id);
          !s.ok()) {
        return s;
      }
      if (names_.count(tok_[2]) != 0) {
        return Error(Cat("duplicate name ", Quote(tok_[2])));
      }
      if (static_cast<size_t>(id) < map_.device_names.size() &&
          !map_.device_names[id].empty()) {
        return Error(
            Cat("duplicate device id ", id, " (", map_.device_names[id], ")"));
      }
      if (static_cast<size_t>(id) >= map_.device_names.size()) {
        if (id > 10'000'000) {
          return Error(
              Cat("device id ", id, " is too large; at most 10000000"));
        }
        map_.device_names.resize(id + 1);
      }
      map_.device_names[id] = std::string(tok_[2]);
      map_.max_devices = std::max<int32_t>(map_.max_devices, id + 1);
      names_[std::string(tok_[2])] = static_cast<int32_t>(id);
      return absl::OkStatus();
    }
    if (k == "type") {
      if (absl::Status s = Arity(3, 3, "type ID NAME"); !s.ok()) return s;
      int64_t id = 0;
      if (absl::Status s = Int(tok_[1], "type id", 0, INT32_MAX, &id);
          !s.ok()) {
        return s;
      }
      if (map_.FindType(tok_[2]) >= 0) {
        return Error(Cat("duplicate type ", Quote(tok_[2])));
      }
      map_.types.emplace_back(static_cast<int32_t>(id), std::string(tok_[2]));
      return absl::OkStatus();
    }
    if (k == "rule") {
      if (tok_.size() != 3 || tok_[2] != "{") {
        return Error(
            Cat("expected 'rule NAME {', got ", Quote(Join(tok_, " "))));
      }
      for (const Rule& r : map_.rules) {
        if (r.name == tok_[1]) {
          return Error(Cat("duplicate rule name ", Quote(tok_[1])));
        }
      }
      rule_ = Rule{};
      rule_.name = std::string(tok_[1]);
      rule_has_id_ = false;
      open_name_ = rule_.name;
      state_ = State::kRule;
      return absl::OkStatus();
    }
    if (k == "choose_args") {
      return Error("choose_args (weight sets) are not supported");
    }
    // TYPENAME BUCKETNAME {
    const int32_t type = map_.FindType(k);
    if (tok_.size() == 3 && tok_[2] == "{") {
      if (type < 0) {
        return Error(Cat("unknown bucket type ", Quote(k),
                         "; declared types: ", TypeList()));
      }
      if (type == 0) {
        return Error(Cat("bucket ", Quote(tok_[1]), " has type ", Quote(k),
                         ", the device type (id 0); buckets need a "
                         "type id > 0"));
      }
      if (names_.count(tok_[1]) != 0) {
        return Error(Cat("duplicate name ", Quote(tok_[1])));
      }
      bucket_ = Bucket{};
      bucket_.type = type;
      bucket_.name = std::string(tok_[1]);
      open_name_ = bucket_.name;
      alg_seen_ = false;
      state_ = State::kBucket;
      return absl::OkStatus();
    }
    return Error(
        Cat("unexpected ", Quote(Join(tok_, " ")),
            "; expected tunable, device, type, rule NAME {, or a bucket "
            "'TYPE NAME {' with TYPE one of: ",
            TypeList()));
  }

  absl::Status BucketLine() {
    const std::string_view k = tok_[0];
    if (k == "}") {
      if (absl::Status s = Arity(1, 1, "}"); !s.ok()) return s;
      if (bucket_.id == 0) {
        return Error(Cat("bucket ", Quote(bucket_.name), " has no 'id' line"));
      }
      if (!alg_seen_) {
        return Error(Cat("bucket ", Quote(bucket_.name),
                         " has no 'alg' line; supported: alg straw2"));
      }
      uint64_t sum = 0;
      for (uint32_t w : bucket_.weights) sum += w;
      if (sum > UINT32_MAX) {
        return Error(Cat("bucket ", Quote(bucket_.name),
                         ": its items' weights sum to more than "
                         "65535.99998 (16.16 fixed point)"));
      }
      bucket_.weight = static_cast<uint32_t>(sum);
      const size_t index = static_cast<size_t>(-1 - int64_t{bucket_.id});
      if (index >= map_.buckets.size()) map_.buckets.resize(index + 1);
      if (map_.buckets[index].id != 0) {
        return Error(Cat("duplicate bucket id ", bucket_.id, " (",
                         map_.buckets[index].name, ")"));
      }
      names_[bucket_.name] = bucket_.id;
      map_.buckets[index] = std::move(bucket_);
      state_ = State::kTop;
      return absl::OkStatus();
    }
    if (k == "id") {
      // "id -2 class hdd": a device-class shadow bucket's id; the shadow
      // trees matter only to rules that take a class, which are refused.
      if (tok_.size() == 4 && tok_[2] == "class") return absl::OkStatus();
      if (absl::Status s = Arity(2, 2, "id ID"); !s.ok()) return s;
      int64_t id = 0;
      if (absl::Status s = Int(tok_[1], "bucket id", -10'000'000, -1, &id);
          !s.ok()) {
        return s;
      }
      bucket_.id = static_cast<int32_t>(id);
      return absl::OkStatus();
    }
    if (k == "alg") {
      if (absl::Status s = Arity(2, 2, "alg straw2"); !s.ok()) return s;
      if (tok_[1] != "straw2") {
        return Error(Cat("unsupported bucket algorithm ", Quote(tok_[1]),
                         " in bucket ", Quote(bucket_.name),
                         "; supported: straw2"));
      }
      alg_seen_ = true;
      return absl::OkStatus();
    }
    if (k == "hash") {
      if (absl::Status s = Arity(2, 2, "hash 0"); !s.ok()) return s;
      if (tok_[1] != "0" && tok_[1] != "rjenkins1") {
        return Error(Cat("unsupported hash ", Quote(tok_[1]), " in bucket ",
                         Quote(bucket_.name), "; supported: 0 (rjenkins1)"));
      }
      return absl::OkStatus();
    }
    if (k == "weight") {
      // The bucket's total, informational: straw2 uses the item lines.
      if (absl::Status s = Arity(2, 2, "weight W"); !s.ok()) return s;
      uint32_t unused = 0;
      return Weight(tok_[1], &unused);
    }
    if (k == "item") {
      if (tok_.size() != 2 && tok_.size() != 4 && tok_.size() != 6) {
        return Error(
            Cat("expected 'item NAME [weight W] [pos P]', "
                "got ",
                Quote(Join(tok_, " "))));
      }
      const auto it = names_.find(tok_[1]);
      if (it == names_.end()) {
        return Error(Cat(
            "unknown item ", Quote(tok_[1]), " in bucket ", Quote(bucket_.name),
            "; items are devices declared by 'device' lines or buckets "
            "defined above"));
      }
      const int32_t item = it->second;
      uint32_t w = kWeightOne;
      if (item < 0) w = map_.bucket(item)->weight;
      for (size_t i = 2; i < tok_.size(); i += 2) {
        if (tok_[i] == "weight") {
          if (absl::Status s = Weight(tok_[i + 1], &w); !s.ok()) return s;
        } else if (tok_[i] == "pos") {
          int64_t pos = 0;
          if (absl::Status s = Int(tok_[i + 1], "pos", 0, INT32_MAX, &pos);
              !s.ok()) {
            return s;
          }
          if (static_cast<size_t>(pos) != bucket_.items.size()) {
            return Error(Cat("item ", Quote(tok_[1]), " has pos ", pos,
                             "; supported: its position in "
                             "the list (",
                             bucket_.items.size(), ")"));
          }
        } else {
          return Error(Cat("unknown item attribute ", Quote(tok_[i]),
                           "; valid: weight, pos"));
        }
      }
      bucket_.items.push_back(item);
      bucket_.weights.push_back(w);
      return absl::OkStatus();
    }
    return Error(Cat("unexpected ", Quote(k), " in bucket ",
                     Quote(bucket_.name),
                     "; valid: id, alg, hash, weight, item, }"));
  }

  absl::Status RuleLine() {
    const std::string_view k = tok_[0];
    if (k == "}") {
      if (absl::Status s = Arity(1, 1, "}"); !s.ok()) return s;
      if (!rule_has_id_) {
        return Error(Cat("rule ", Quote(rule_.name), " has no 'id' line"));
      }
      for (const Rule& r : map_.rules) {
        if (r.id == rule_.id) {
          return Error(Cat("duplicate rule id ", r.id, " (", r.name, ")"));
        }
      }
      map_.rules.push_back(std::move(rule_));
      state_ = State::kTop;
      return absl::OkStatus();
    }
    if (k == "id" || k == "ruleset") {
      if (absl::Status s = Arity(2, 2, "id ID"); !s.ok()) return s;
      int64_t id = 0;
      if (absl::Status s = Int(tok_[1], "rule id", 0, 255, &id); !s.ok()) {
        return s;
      }
      rule_.id = static_cast<int32_t>(id);
      rule_has_id_ = true;
      return absl::OkStatus();
    }
    if (k == "type") {
      if (absl::Status s = Arity(2, 2, "type replicated|erasure"); !s.ok()) {
        return s;
      }
      if (tok_[1] != "replicated" && tok_[1] != "erasure") {
        return Error(Cat("unknown rule type ", Quote(tok_[1]),
                         "; valid: replicated, erasure"));
      }
      return absl::OkStatus();
    }
    if (k == "min_size" || k == "max_size") {
      if (absl::Status s = Arity(2, 2, Cat(k, " N")); !s.ok()) {
        return s;
      }
      int64_t unused = 0;
      return Int(tok_[1], k, 0, INT32_MAX, &unused);
    }
    if (k == "step") return StepLine();
    return Error(Cat("unexpected ", Quote(k), " in rule ", Quote(rule_.name),
                     "; valid: id, type, min_size, max_size, step, }"));
  }

  absl::Status StepLine() {
    if (tok_.size() < 2) {
      return Error("empty step; valid: take, choose, chooseleaf, emit, set_*");
    }
    const std::string_view op = tok_[1];
    if (op == "take") {
      if (tok_.size() == 5 && tok_[3] == "class") {
        return Error(Cat("step take ", tok_[2], " class ", tok_[4],
                         ": device classes are not supported"));
      }
      if (absl::Status s = Arity(3, 3, "step take NAME"); !s.ok()) return s;
      const auto it = names_.find(tok_[2]);
      if (it == names_.end()) {
        return Error(
            Cat("step take: unknown bucket or device ", Quote(tok_[2])));
      }
      rule_.steps.push_back({StepOp::kTake, it->second, 0});
      return absl::OkStatus();
    }
    if (op == "emit") {
      if (absl::Status s = Arity(2, 2, "step emit"); !s.ok()) return s;
      rule_.steps.push_back({StepOp::kEmit, 0, 0});
      return absl::OkStatus();
    }
    if (op == "choose" || op == "chooseleaf") {
      if (tok_.size() != 6 || tok_[4] != "type" ||
          (tok_[2] != "firstn" && tok_[2] != "indep")) {
        return Error(Cat("expected 'step ", op,
                         " firstn|indep N type TYPE', got ",
                         Quote(Join(tok_, " "))));
      }
      int64_t n = 0;
      if (absl::Status s =
              Int(tok_[3], "replica count", INT32_MIN + 1, INT32_MAX, &n);
          !s.ok()) {
        return s;
      }
      const int32_t type = map_.FindType(tok_[5]);
      if (type < 0) {
        return Error(Cat("unknown type ", Quote(tok_[5]),
                         "; declared types: ", TypeList()));
      }
      const bool firstn = tok_[2] == "firstn";
      const StepOp o =
          op == "choose"
              ? (firstn ? StepOp::kChooseFirstN : StepOp::kChooseIndep)
              : (firstn ? StepOp::kChooseLeafFirstN : StepOp::kChooseLeafIndep);
      rule_.steps.push_back({o, static_cast<int32_t>(n), type});
      return absl::OkStatus();
    }
    for (const auto& [name, set_op] : kSetSteps) {
      if (op == name) {
        if (absl::Status s = Arity(3, 3, Cat("step ", name, " N")); !s.ok()) {
          return s;
        }
        int64_t v = 0;
        if (absl::Status s = Int(tok_[2], name, INT32_MIN, INT32_MAX, &v);
            !s.ok()) {
          return s;
        }
        if (set_op == StepOp::kSetChooseLocalFallbackTries && v > 0) {
          return Error(Cat("step ", name, " ", v,
                           ": the permutation fallback is not "
                           "implemented; supported: 0"));
        }
        rule_.steps.push_back({set_op, static_cast<int32_t>(v), 0});
        return absl::OkStatus();
      }
    }
    std::vector<std::string_view> valid = {"take", "choose", "chooseleaf",
                                           "emit"};
    for (const auto& [name, set_op] : kSetSteps) valid.push_back(name);
    return Error(
        Cat("unknown step ", Quote(op), "; valid: ", Join(valid, ", ")));
  }

  CrushMap map_;
  State state_ = State::kTop;
  size_t line_no_ = 0;
  std::vector<std::string_view> tok_;
  std::map<std::string, int32_t, std::less<>> names_;  // devices, buckets
  Bucket bucket_;
  Rule rule_;
  bool rule_has_id_ = false;
  bool alg_seen_ = false;
  bool explicit_fallback_ = false;
  std::string open_name_;
};

}  // namespace

absl::StatusOr<CrushMap> ParseCrushText(std::string_view text) {
  Parser parser;
  return parser.Parse(text);
}

}  // namespace chbench::crush
