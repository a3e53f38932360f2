// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/shards.h
// -----------------------------------------------------------------------------
//
// Shard records of sharded runs (`chbench run --shard I/N`): each shard of
// an experiment writes <dir>/shards/<I>-of-<N>.toml (commit, spec hash,
// tier, host, machine, cells and timing groups it ran); `chbench merge`
// reads them back, checks that they agree, and records them in meta.json.
//
// Guarantees: ShardRecordToml and ReadShardRecords round-trip every field;
// a record whose shard/shards do not match its file name is refused.
//
// Example:
//   absl::StatusOr<std::vector<ShardRecord>> records = ReadShardRecords(dir);
//   if (!records.ok()) return records.status();
//   if (absl::Status s = CheckShards(spec, *records, SourceGitState());
//       !s.ok()) {
//     return s;
//   }
//   const std::string json = ShardsJson(*records);

#ifndef CHBENCH_EXPERIMENTS_SHARDS_H_
#define CHBENCH_EXPERIMENTS_SHARDS_H_

#include <cstdint>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/provenance.h"
#include "experiments/spec.h"

namespace chbench {

// One shard's record: <dir>/shards/<shard>-of-<shards>.toml.
struct ShardRecord {
  int64_t shard = 0;
  int64_t shards = 0;
  std::string git_commit;
  bool git_dirty = false;
  std::string spec_hash;
  std::string tier;
  std::string host;
  std::string cpu_model;
  std::string date_utc;
  std::string command_line;
  std::string machine_json;
  int64_t cells = 0;
  int64_t timing_groups = 0;
};

// The shard (1 .. shards) that runs unit `unit` of experiment `experiment`.
// An experiment's units are its non-timing cells and its timing groups (a
// group's cells are measured together, so they stay in one shard), numbered
// in expansion order (a group at its first cell); units are dealt round-robin,
// starting at the experiment's index in kExperimentNames so that the first
// units of the experiments do not all land in shard 1. Depends only on the
// spec, never on which cells exist or which experiments a command names.
int ShardOfUnit(std::string_view experiment, size_t unit, int shards);

// "<shard>-of-<shards>.toml".
std::string ShardFileName(int shard, int shards);

// The record as the TOML file's text.
std::string ShardRecordToml(const ShardRecord& r);

// Every shard record of the run in `dir`, by shard number (none: empty).
// InvalidArgument for a malformed record (naming the file).
absl::StatusOr<std::vector<ShardRecord>> ReadShardRecords(
    const std::string& dir);

// The shards of one run must agree with each other and with this checkout:
// the same shard count, commit, spec and tier. InvalidArgument naming the
// disagreement otherwise.
absl::Status CheckShards(const Spec& spec,
                         const std::vector<ShardRecord>& records,
                         const GitState& here);

// meta.json's "shards" value: null, or each record and the hosts that
// measured timing cells (more than one host: absolute times in different
// timing groups come from different machines; ratios within a group do
// not, as a group never spans shards).
std::string ShardsJson(const std::vector<ShardRecord>& records);

// For a merge that misses cells in `dir`: "; no record of shard(s) 2/4,
// 4/4 (not run, or not finished)", "; no shard records (...)", or "" when
// every shard left a record.
std::string MissingShards(const std::string& dir);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_SHARDS_H_
