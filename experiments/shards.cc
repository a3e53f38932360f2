// Copyright 2026 The chbench Authors.

#include "experiments/shards.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "algorithms/util/json.h"
#include "experiments/csv.h"
#include "toml++/toml.h"

namespace chbench {

namespace fs = std::filesystem;

int ShardOfUnit(std::string_view experiment, size_t unit, int shards) {
  size_t offset = 0;
  for (size_t i = 0; i < kExperimentNames.size(); ++i) {
    if (kExperimentNames[i] == experiment) offset = i;
  }
  return static_cast<int>((offset + unit) % static_cast<size_t>(shards)) + 1;
}

std::string ShardFileName(int shard, int shards) {
  return absl::StrCat(shard, "-of-", shards, ".toml");
}

std::string ShardRecordToml(const ShardRecord& r) {
  toml::table t{{"shard", r.shard},
                {"shards", r.shards},
                {"git_commit", r.git_commit},
                {"git_dirty", r.git_dirty},
                {"spec_hash", r.spec_hash},
                {"tier", r.tier},
                {"host", r.host},
                {"cpu_model", r.cpu_model},
                {"date_utc", r.date_utc},
                {"command_line", r.command_line},
                {"machine_json", r.machine_json},
                {"cells", r.cells},
                {"timing_groups", r.timing_groups}};
  std::ostringstream out;
  out << "# chbench shard record (written by `chbench run --shard`)\n"
      << t << "\n";
  return out.str();
}

absl::StatusOr<std::vector<ShardRecord>> ReadShardRecords(
    const std::string& dir) {
  std::vector<ShardRecord> out;
  std::error_code ec;
  if (!fs::is_directory(dir + "/shards", ec)) return out;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir + "/shards", ec)) {
    const std::string name = e.path().filename().string();
    if (absl::EndsWith(name, ".toml")) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    absl::StatusOr<std::string> text = ReadFile(f);
    if (!text.ok()) return text.status();
    ShardRecord r;
    try {
      const toml::table t = toml::parse(*text, f);
      r.shard = t["shard"].value_or<int64_t>(0);
      r.shards = t["shards"].value_or<int64_t>(0);
      r.git_commit = t["git_commit"].value_or<std::string>("");
      r.git_dirty = t["git_dirty"].value_or(false);
      r.spec_hash = t["spec_hash"].value_or<std::string>("");
      r.tier = t["tier"].value_or<std::string>("");
      r.host = t["host"].value_or<std::string>("");
      r.cpu_model = t["cpu_model"].value_or<std::string>("");
      r.date_utc = t["date_utc"].value_or<std::string>("");
      r.command_line = t["command_line"].value_or<std::string>("");
      r.machine_json = t["machine_json"].value_or<std::string>("null");
      r.cells = t["cells"].value_or<int64_t>(0);
      r.timing_groups = t["timing_groups"].value_or<int64_t>(0);
    } catch (const toml::parse_error& e) {
      return absl::InvalidArgumentError(absl::StrCat(
          "malformed shard record ", f, ": ", std::string(e.description())));
    }
    if (r.shards < 1 || r.shard < 1 || r.shard > r.shards ||
        fs::path(f).filename().string() !=
            ShardFileName(static_cast<int>(r.shard),
                          static_cast<int>(r.shards))) {
      return absl::InvalidArgumentError(
          absl::StrCat("malformed shard record ", f, ": shard ", r.shard,
                       " of ", r.shards, " does not match its file name"));
    }
    out.push_back(std::move(r));
  }
  return out;
}

absl::Status CheckShards(const Spec& spec,
                         const std::vector<ShardRecord>& records,
                         const GitState& here) {
  if (records.empty()) return absl::OkStatus();
  const std::string where =
      absl::StrCat(spec.experiment, " (", spec.run_id, ")");
  const std::string spec_hash = absl::StrFormat("%016x", spec.hash);
  for (const ShardRecord& r : records) {
    const std::string name = absl::StrCat("shard ", r.shard, "/", r.shards);
    if (r.shards != records.front().shards) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": shards of different splits in one run (", r.shard, "/",
          r.shards, " and ", records.front().shard, "/", records.front().shards,
          "); rerun every shard with one --shard I/N split"));
    }
    if (r.spec_hash != spec_hash || r.tier != spec.tier) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", name, " ran spec ", r.spec_hash, " tier ",
                       r.tier, ", this spec is ", spec_hash, " tier ",
                       spec.tier, "; rerun that shard with this spec"));
    }
    if (r.git_commit != records.front().git_commit) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": shards from different commits: shard ", r.shard, "/",
          r.shards, " ran at ",
          r.git_commit.empty() ? "(no git)" : r.git_commit, ", shard ",
          records.front().shard, "/", r.shards, " at ",
          records.front().git_commit.empty() ? "(no git)"
                                             : records.front().git_commit,
          "; rerun the shards at one commit"));
    }
    if (!here.commit.empty() && !r.git_commit.empty() &&
        r.git_commit != here.commit) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": ", name, " ran at commit ", r.git_commit,
          ", this checkout is at ", here.commit,
          "; merge with the checkout the shards ran from, or rerun them"));
    }
  }
  return absl::OkStatus();
}

std::string ShardsJson(const std::vector<ShardRecord>& records) {
  if (records.empty()) return "null";
  std::vector<std::string> items;
  std::vector<std::string> timing_hosts;
  for (const ShardRecord& r : records) {
    items.push_back(absl::StrCat(
        "{\"shard\": ", r.shard, ", \"shards\": ", r.shards,
        ", \"git_commit\": ", JsonString(r.git_commit), ", \"git_dirty\": ",
        r.git_dirty ? "true" : "false", ", \"host\": ", JsonString(r.host),
        ", \"cpu_model\": ", JsonString(r.cpu_model),
        ", \"date_utc\": ", JsonString(r.date_utc),
        ", \"command_line\": ", JsonString(r.command_line),
        ", \"cells\": ", r.cells, ", \"timing_groups\": ", r.timing_groups,
        ", \"machine\": ", r.machine_json, "}"));
    const std::string id = absl::StrCat(r.host, " (", r.cpu_model, ")");
    if (r.timing_groups > 0 &&
        std::find(timing_hosts.begin(), timing_hosts.end(), id) ==
            timing_hosts.end()) {
      timing_hosts.push_back(id);
    }
  }
  std::vector<std::string> hosts;
  for (const std::string& h : timing_hosts) hosts.push_back(JsonString(h));
  return absl::StrCat("{\"records\": [", absl::StrJoin(items, ", "),
                      "], \"timing_hosts\": [", absl::StrJoin(hosts, ", "),
                      "], \"timing_mixed_machines\": ",
                      timing_hosts.size() > 1 ? "true" : "false", "}");
}

std::string MissingShards(const std::string& dir) {
  absl::StatusOr<std::vector<ShardRecord>> records = ReadShardRecords(dir);
  if (!records.ok() || records->empty()) {
    return "; no shard records (no `run --shard` wrote here)";
  }
  const int64_t n = records->front().shards;
  std::vector<std::string> none;
  for (int64_t i = 1; i <= n; ++i) {
    bool seen = false;
    for (const ShardRecord& r : *records) seen |= r.shard == i;
    if (!seen) none.push_back(absl::StrCat(i, "/", n));
  }
  if (none.empty()) return "";
  return absl::StrCat("; no record of shard(s) ", absl::StrJoin(none, ", "),
                      " (not run, or not finished)");
}

}  // namespace chbench
