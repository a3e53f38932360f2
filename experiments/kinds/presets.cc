// Copyright 2026 The chbench Authors.
//
// The "presets" experiment kind: a production configuration (a preset,
// algorithms/presets/) or a plain algorithm at N servers, on the cell's
// string keys: balance (max/mean keys per server), the keys moved when one
// server joins (an (N+1)-th) or leaves (the middle one; the last for
// LIFO-only ones), each against its optimum (1/(N+1) and 1/N of the keys),
// the excess among them (keys that moved between servers that stayed: 0 for
// a minimal-disruption mapping), and memory. Presets get the servers "10.0.0.<i>:11211" (their point names
// derive from them); algorithms the usual node names. Every number is a
// deterministic function of the cell.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/csv.h"
#include "experiments/kinds/common.h"
#include "experiments/metrics.h"
#include "workload/keyset.h"

namespace chbench {
namespace kinds {
namespace {

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeCell(const Cell& c) {
  if (FindPreset(c.algorithm) != nullptr) return MakePreset(c.algorithm, "");
  return MakeAlgorithm(c.algorithm, c.Params());
}

std::vector<NodeId> Owners(const ConsistentHash& a,
                           const std::vector<uint64_t>& digests) {
  std::vector<NodeId> out(digests.size());
  for (size_t i = 0; i < digests.size(); ++i) out[i] = a.Lookup(digests[i]);
  return out;
}

}  // namespace

absl::StatusOr<std::vector<ResultRow>> RunPresets(const Cell& c,
                                                  const std::string& run_id) {
  const PresetInfo* preset = FindPreset(c.algorithm);
  const size_t n = c.nodes;
  std::vector<NodeSpec> servers =
      preset != nullptr ? PresetServers(n + 1) : MakeNodes(n + 1, c.seed);
  const NodeSpec joining = servers.back();
  servers.pop_back();

  absl::StatusOr<std::unique_ptr<ConsistentHash>> made = MakeCell(c);
  if (!made.ok()) return made.status();
  ConsistentHash& a = **made;
  if (absl::Status s = a.Build(servers); !s.ok()) return s;
  absl::StatusOr<std::vector<uint64_t>> hashed = Digests(c, c.keys, a);
  if (!hashed.ok()) return hashed.status();
  const std::vector<uint64_t>& digests = *hashed;
  const uint64_t m = digests.size();

  std::vector<ResultRow> rows;
  ResultRow base = BaseRow(c, run_id);
  base.keys = m;
  if (preset != nullptr) {
    base.hash = std::string(preset->key_hash);
    base.vnodes.reset();
  }
  std::string note;
  if (preset != nullptr && preset->max_servers != 0 && n > preset->max_servers) {
    note = absl::StrCat("the real system refuses more than ",
                        preset->max_servers, " servers (",
                        std::string(preset->version),
                        " aborts); chbench's preset does not");
  }

  const std::vector<NodeId> before = Owners(a, digests);
  std::vector<uint64_t> load(n, 0);
  for (NodeId id : before) ++load[id];
  const LoadStats ls = ComputeLoadStats(load);
  base.scenario = "static";
  Add(&rows, base, "load_max_over_mean", ls.max_over_mean, "ratio", note);
  Add(&rows, base, "load_min_over_mean", ls.min_over_mean, "ratio", note);
  Add(&rows, base, "memory_bytes", static_cast<double>(a.MemoryBytes()),
      "bytes", note);

  // One server joins.
  base.scenario = "add";
  absl::StatusOr<NodeId> added = a.AddNode(joining);
  if (!added.ok()) {
    Add(&rows, base, "moved_fraction", std::nullopt, "fraction",
        absl::StrCat("not applicable: ", added.status().message()));
  } else {
    const std::vector<NodeId> after = Owners(a, digests);
    uint64_t moved = 0;
    uint64_t excess = 0;  // moved, but not to the new server
    for (size_t i = 0; i < m; ++i) {
      moved += after[i] != before[i];
      excess += after[i] != before[i] && after[i] != *added;
    }
    const double f = static_cast<double>(moved) / m;
    const double opt = 1.0 / static_cast<double>(n + 1);
    Add(&rows, base, "moved_fraction", f, "fraction", note);
    Add(&rows, base, "moved_over_optimum", f / opt, "ratio",
        absl::StrCat("optimum 1/(N+1) = ", FormatNumber(opt),
                     note.empty() ? "" : "; ", note));
    Add(&rows, base, "moved_excess_fraction", static_cast<double>(excess) / m,
        "fraction", "keys that moved between old servers (0 = minimal)");
    Add(&rows, base, "moved_excess_over_optimum",
        static_cast<double>(excess) / m / opt, "ratio",
        "moved_excess_fraction / (1/(N+1)); 0 = minimal disruption");
    if (absl::Status s = a.RemoveNode(*added); !s.ok()) return s;
  }

  // One server leaves: the middle one where any can, else the last.
  base.scenario = "remove";
  if (n < 2) return rows;
  const NodeId victim = a.capabilities().arbitrary_removal
                            ? static_cast<NodeId>(n / 2)
                            : static_cast<NodeId>(n - 1);
  // Rebuild from scratch so the removal starts from the Build state (the
  // add-then-remove above may leave history in history-dependent ones).
  if (absl::Status s = a.Build(servers); !s.ok()) return s;
  const std::vector<NodeId> base_owners = Owners(a, digests);
  if (absl::Status s = a.RemoveNode(victim); !s.ok()) {
    Add(&rows, base, "moved_fraction", std::nullopt, "fraction",
        absl::StrCat("not applicable: ", s.message()));
    return rows;
  }
  const std::vector<NodeId> after = Owners(a, digests);
  uint64_t moved = 0;
  uint64_t excess = 0;  // moved, but not from the leaving server
  for (size_t i = 0; i < m; ++i) {
    moved += after[i] != base_owners[i];
    excess += after[i] != base_owners[i] && base_owners[i] != victim;
  }
  const double f = static_cast<double>(moved) / m;
  const double opt = 1.0 / static_cast<double>(n);
  const std::string which = a.capabilities().arbitrary_removal
                                ? "server N/2 removed"
                                : "the last server removed (LIFO only)";
  Add(&rows, base, "moved_fraction", f, "fraction", which);
  Add(&rows, base, "moved_over_optimum", f / opt, "ratio",
      absl::StrCat("optimum 1/N = ", FormatNumber(opt), "; ", which,
                   note.empty() ? "" : "; ", note));
  Add(&rows, base, "moved_excess_fraction", static_cast<double>(excess) / m,
      "fraction",
      absl::StrCat("keys that moved between the staying servers (0 = "
                   "minimal); ", which));
  Add(&rows, base, "moved_excess_over_optimum", static_cast<double>(excess) / m / opt,
      "ratio", "moved_excess_fraction / (1/N); 0 = minimal disruption");
  return rows;
}

}  // namespace kinds
}  // namespace chbench
