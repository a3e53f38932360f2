// Copyright 2026 The chbench Authors.

#include "algorithms/presets/preset.h"

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace chbench {

absl::StatusOr<PresetOptions> ParsePresetOptions(std::string_view text) {
  PresetOptions out;
  if (text.empty()) return out;
  const std::string all(text);
  for (const std::string& item :
       std::vector<std::string>(absl::StrSplit(all, ','))) {
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "preset option '", item, "' is not name=value; e.g. hash=md5"));
    }
    const std::string key(item.substr(0, eq));
    if (out.count(key) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("preset option '", key, "' is given twice"));
    }
    out.emplace(key, std::string(item.substr(eq + 1)));
  }
  return out;
}

absl::StatusOr<PresetServer> Preset::ParseServer(const NodeSpec& spec) const {
  PresetServer s;
  s.name = spec.name;
  s.zone = spec.zone;
  if (spec.name.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ": server name must not be empty"));
  }
  for (const PresetServer& other : servers_) {
    if (other.live && other.name == spec.name) {
      return absl::InvalidArgumentError(absl::StrCat(
          name_, ": duplicate server '", spec.name, "'; servers are unique"));
    }
  }
  const size_t colon = spec.name.rfind(':');
  const std::string_view tail =
      colon == std::string::npos ? std::string_view()
                                 : std::string_view(spec.name).substr(colon + 1);
  const bool has_port =
      colon != std::string::npos && colon > 0 && !tail.empty() &&
      tail.size() <= 5 &&
      std::all_of(tail.begin(), tail.end(),
                  [](char c) { return c >= '0' && c <= '9'; });
  if (has_port) {
    s.host = spec.name.substr(0, colon);
    s.port = std::string(tail);
    if (std::stoul(s.port) > 65535) {
      return absl::InvalidArgumentError(
          absl::StrCat(name_, ": server '", spec.name, "' has port ", s.port,
                       "; ports are 0..65535"));
    }
  } else {
    if (needs_port_) {
      return absl::InvalidArgumentError(
          absl::StrCat(name_, ": server '", spec.name,
                       "' is not host:port (e.g. 10.0.0.1:11211)"));
    }
    s.host = spec.name;
  }
  const double w = spec.weight;
  if (!(std::isfinite(w) && w >= 1 && w <= max_weight_ && w == std::floor(w))) {
    if (max_weight_ == 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(name_, ": server '", spec.name, "' has weight ", w,
                       "; this system has no weights (valid: 1)"));
    }
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ": server '", spec.name, "' has weight ", w,
                     "; valid: integers 1..", max_weight_));
  }
  s.weight = static_cast<uint32_t>(w);
  return s;
}

absl::Status Preset::Build(std::span<const NodeSpec> nodes) {
  std::vector<PresetServer> saved = std::move(servers_);
  const size_t saved_live = live_count_;
  servers_.clear();
  live_count_ = 0;
  for (const NodeSpec& spec : nodes) {
    absl::StatusOr<PresetServer> s = ParseServer(spec);
    if (!s.ok()) {
      servers_ = std::move(saved);
      live_count_ = saved_live;
      return s.status();
    }
    servers_.push_back(*std::move(s));
    ++live_count_;
  }
  if (absl::Status st = Rebuild(); !st.ok()) {
    servers_ = std::move(saved);
    live_count_ = saved_live;
    if (absl::Status restore = Rebuild(); !restore.ok()) return restore;
    return st;
  }
  return absl::OkStatus();
}

absl::StatusOr<NodeId> Preset::AddNode(const NodeSpec& node) {
  absl::StatusOr<PresetServer> s = ParseServer(node);
  if (!s.ok()) return s.status();
  servers_.push_back(*std::move(s));
  ++live_count_;
  if (absl::Status st = Rebuild(); !st.ok()) {
    servers_.pop_back();
    --live_count_;
    if (absl::Status restore = Rebuild(); !restore.ok()) return restore;
    return st;
  }
  return static_cast<NodeId>(servers_.size() - 1);
}

absl::Status Preset::RemoveNode(NodeId id) {
  if (id >= servers_.size() || !servers_[id].live) {
    return absl::InvalidArgumentError(absl::StrCat(
        name_, ": node id ", id, " is not a live server; live ids: ",
        live_count_ == 0 ? std::string("(none)")
                         : absl::StrCat(LiveNodes().front(), "..",
                                        LiveNodes().back())));
  }
  if (absl::Status s = CheckRemovable(id); !s.ok()) return s;
  servers_[id].live = false;
  --live_count_;
  if (absl::Status st = Rebuild(); !st.ok()) {
    servers_[id].live = true;
    ++live_count_;
    if (absl::Status restore = Rebuild(); !restore.ok()) return restore;
    return st;
  }
  return absl::OkStatus();
}

absl::Status Preset::CheckReplicaCount(size_t r) const {
  if (r == 0 || r > live_count_) {
    return absl::InvalidArgumentError(absl::StrCat(
        name_, ": replica count r = ", r, " is out of range; valid: 1..",
        live_count_, " (the number of live servers)"));
  }
  return CheckFixedReplicaCount(r);
}

std::vector<NodeId> Preset::LiveNodes() const {
  std::vector<NodeId> out;
  out.reserve(live_count_);
  for (size_t i = 0; i < servers_.size(); ++i) {
    if (servers_[i].live) out.push_back(static_cast<NodeId>(i));
  }
  return out;
}

}  // namespace chbench
