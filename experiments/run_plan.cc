// Copyright 2026 The chbench Authors.

#include "experiments/run_plan.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "experiments/kinds/kind.h"
#include "experiments/shards.h"

namespace chbench {

namespace fs = std::filesystem;

namespace {

// Earlier runs of this experiment and tier under other spec hashes: the
// spec changed since. Their files stay as they are; say so once.
void NoteEarlierRuns(const Spec& spec, const std::string& results,
                     std::vector<std::string>* notes) {
  std::error_code ec;
  std::vector<std::string> earlier;
  for (const auto& e : fs::directory_iterator(
           absl::StrCat(results, "/", spec.experiment), ec)) {
    const std::string id = e.path().filename().string();
    if (id != spec.run_id && absl::StartsWith(id, spec.tier + "-")) {
      earlier.push_back(id);
    }
  }
  std::sort(earlier.begin(), earlier.end());
  if (earlier.empty()) return;
  notes->push_back(absl::StrCat(
      "chbench run: ", spec.display_path, " (tier ", spec.tier,
      ") differs from the spec of run(s) ", absl::StrJoin(earlier, ", "),
      " in ", results, "/", spec.experiment,
      " (kept as they are); this spec's run is ", spec.run_id));
}

}  // namespace

absl::StatusOr<std::vector<Spec>> LoadSpecs(
    const std::vector<std::string>& experiments, const std::string& spec_dir,
    const std::string& tier) {
  std::vector<std::string> names;
  for (const std::string& e : experiments) {
    if (e == "all") {
      for (std::string_view n : kExperimentNames) names.emplace_back(n);
    } else if (std::find(kExperimentNames.begin(), kExperimentNames.end(), e) !=
               kExperimentNames.end()) {
      names.push_back(e);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown experiment '", e, "'; valid: all, ",
                       JoinViews(kExperimentNames)));
    }
  }
  std::vector<Spec> specs;
  for (const std::string& n : names) {
    const std::string path = absl::StrCat(spec_dir, "/", n, ".toml");
    absl::StatusOr<Spec> spec =
        LoadSpec(path, absl::StrCat("experiments/", n, ".toml"), n, tier);
    if (!spec.ok()) return absl::InvalidArgumentError(spec.status().message());
    specs.push_back(std::move(*spec));
  }
  return specs;
}

absl::Status Expand(const Selection& o, Plan* plan) {
  const bool sharded = o.shards > 0;
  plan->shard_units.assign(plan->specs.size(), {0, 0});
  std::vector<std::string> missing;
  for (size_t si = 0; si < plan->specs.size(); ++si) {
    const Spec& spec = plan->specs[si];
    const std::string dir =
        absl::StrCat(plan->results, "/", spec.experiment, "/", spec.run_id);
    plan->dirs.push_back(dir);
    if (!o.merge) NoteEarlierRuns(spec, plan->results, &plan->notes);
    // Units (non-timing cells, and timing groups at their first cell) in
    // expansion order; a sharded run keeps those of its shard.
    size_t unit = 0;
    auto mine = [&](size_t u) {
      return !sharded || ShardOfUnit(spec.experiment, u, o.shards) == o.shard;
    };
    std::map<std::string, size_t> group_of;
    std::vector<TimingJob> groups;
    std::vector<size_t> group_unit;
    size_t absent = 0;
    for (const Cell& c : spec.cells) {
      const std::string path = absl::StrCat(dir, "/cells/", c.Name(), ".csv");
      if (!c.timing()) {
        const size_t u = unit++;
        if (o.merge) {
          absent += !fs::exists(path);
        } else if (mine(u)) {
          ++plan->shard_units[si].first;
          if (!o.force && fs::exists(path)) {
            ++plan->skipped;
          } else {
            plan->work.push_back(Job{&spec, &c, path});
          }
        }
        continue;
      }
      auto [it, inserted] = group_of.emplace(TimingGroupKey(c), groups.size());
      if (inserted) {
        groups.push_back(TimingJob{&spec, {}, {}});
        group_unit.push_back(unit++);
      }
      groups[it->second].cells.push_back(&c);
      groups[it->second].paths.push_back(path);
    }
    // A group is measured again as a whole unless every cell is there: its
    // cells are only comparable when measured in the same rounds.
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      TimingJob& g = groups[gi];
      bool done = true;
      for (const std::string& p : g.paths) done = done && fs::exists(p);
      if (o.merge) {
        if (!done) absent += g.cells.size();
        continue;
      }
      if (!mine(group_unit[gi])) continue;
      plan->shard_units[si].first += static_cast<int64_t>(g.cells.size());
      ++plan->shard_units[si].second;
      if (done && !o.force) {
        plan->skipped += g.cells.size();
        continue;
      }
      plan->timing.push_back(std::move(g));
    }
    if (o.merge && absent > 0) {
      missing.push_back(absl::StrCat(spec.experiment, " (", dir, "): ", absent,
                                     " of ", spec.cells.size(),
                                     " cells missing", MissingShards(dir)));
    }
  }
  if (missing.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "cannot merge: ", absl::StrJoin(missing, "; "),
      ". Run the missing shards (same --tier and --results-dir), then merge "
      "again."));
}

}  // namespace chbench
