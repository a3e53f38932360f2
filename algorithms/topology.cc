// Copyright 2026 The chbench Authors.

#include "algorithms/topology.h"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace chbench {
namespace {

// At most 60 characters of a value, for error messages.
std::string TopologyExcerpt(std::string_view v) {
  return v.size() <= 60 ? std::string(v) : std::string(v.substr(0, 57)) + "...";
}

// `text` split at every `sep` (Debian's Abseil has its own string_view, so
// absl::StrSplit does not take std::string_view).
std::vector<std::string_view> TopologySplit(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(sep, start);
    if (end == std::string_view::npos) {
      out.push_back(text.substr(start));
      return out;
    }
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

std::vector<std::string_view> SplitLocation(std::string_view location) {
  if (location.empty()) return {};
  return TopologySplit(location, '/');
}

absl::StatusOr<std::vector<NodeSpec>> ParseTopology(std::string_view text,
                                                    std::string_view source) {
  std::vector<NodeSpec> nodes;
  std::set<std::string, std::less<>> names;
  size_t line_number = 0;
  for (std::string_view line : TopologySplit(text, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto fail = [&](const std::string& what) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(source), " line ", line_number, ": ", what));
    };
    const std::vector<std::string_view> f = TopologySplit(line, '\t');
    if (f.size() != 3) {
      return fail(absl::StrCat("'", TopologyExcerpt(line), "' has ", f.size(),
                               " field", f.size() == 1 ? "" : "s",
                               "; expected name<TAB>weight<TAB>location"));
    }
    NodeSpec spec;
    if (f[0].empty()) return fail("empty name; every node needs a name");
    spec.name = std::string(f[0]);
    if (names.count(spec.name) != 0) {
      return fail(absl::StrCat("duplicate name '", TopologyExcerpt(f[0]),
                               "'; names are unique"));
    }
    if (!absl::SimpleAtod(std::string(f[1]), &spec.weight) ||
        !std::isfinite(spec.weight) || !(spec.weight > 0)) {
      return fail(absl::StrCat("invalid weight '", TopologyExcerpt(f[1]),
                               "'; expected a finite number > 0"));
    }
    if (f[2].empty()) {
      return fail(
          "empty location; expected a path of failure domains such as dc1/r1");
    }
    for (std::string_view part : SplitLocation(f[2])) {
      if (part.empty()) {
        return fail(absl::StrCat("invalid location '", TopologyExcerpt(f[2]),
                                 "': an empty component; expected e.g. "
                                 "dc1/r1"));
      }
    }
    spec.zone = std::string(f[2]);
    names.insert(spec.name);
    nodes.push_back(std::move(spec));
  }
  if (nodes.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(source),
        ": no nodes; expected lines name<TAB>weight<TAB>location"));
  }
  return nodes;
}

absl::StatusOr<std::vector<NodeSpec>> ReadTopologyFile(
    const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot read topology file '", TopologyExcerpt(path), "'"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseTopology(text.str(), path);
}

std::string LeadingLevels(std::string_view location, int levels) {
  size_t end = 0;
  for (int l = 0; l < levels; ++l) {
    const size_t slash = location.find('/', end);
    if (slash == std::string_view::npos) return std::string(location);
    end = slash + 1;
  }
  return std::string(location.substr(0, end - 1));
}

}  // namespace chbench
