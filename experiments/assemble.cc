// Copyright 2026 The chbench Authors.

#include "experiments/assemble.h"

#include <algorithm>
#include <map>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "experiments/csv.h"
#include "experiments/metric_registry.h"
#include "experiments/metrics.h"
#include "experiments/result_row.h"
#include "experiments/signals.h"

namespace chbench {
namespace {

// The configuration columns a summary groups by, in data.csv order: every
// column but run_id, seed, repetition, value, note and the two flags.
std::vector<size_t> SummaryKeyColumns() {
  std::vector<size_t> key_cols;
  for (size_t c = 0; c < kColumns.size(); ++c) {
    const std::string_view name = kColumns[c];
    if (name != "run_id" && name != "seed" && name != "repetition" &&
        name != "value" && name != "note" && name != "noisy" &&
        name != "n_eff") {
      key_cols.push_back(c);
    }
  }
  return key_cols;
}

bool IsOptionalColumn(std::string_view name) {
  return std::find(kOptionalColumns.begin(), kOptionalColumns.end(), name) !=
         kOptionalColumns.end();
}

// For each column of kColumns, its index in the header, the first record of
// `recs` (header.size() when the header lacks it). Empty when there is no
// header, or it names a column kColumns does not have or lacks one that is
// neither optional (kOptionalColumns) nor, with `flags_optional`, a flag.
std::vector<size_t> ColumnsOfHeader(
    const std::vector<std::vector<std::string>>& recs, bool flags_optional) {
  if (recs.empty()) return {};
  const std::vector<std::string>& header = recs.front();
  std::vector<size_t> at;
  for (const std::string& h : header) {
    if (ColumnIndex(h) == kColumns.size()) return {};
  }
  for (std::string_view name : kColumns) {
    const size_t i = static_cast<size_t>(
        std::find(header.begin(), header.end(), name) - header.begin());
    const bool flag = name == "noisy" || name == "n_eff";
    if (i == header.size() && !IsOptionalColumn(name) &&
        !(flags_optional && flag)) {
      return {};
    }
    at.push_back(i);
  }
  return at;
}

// `row` (fields in the order of the header `at` came from) in kColumns
// order, the columns the header lacks empty.
std::vector<std::string> InColumnOrder(std::vector<std::string>& row,
                                       const std::vector<size_t>& at) {
  std::vector<std::string> out(kColumns.size());
  for (size_t c = 0; c < kColumns.size(); ++c) {
    if (at[c] < row.size()) out[c] = std::move(row[at[c]]);
  }
  return out;
}

// The rows after the header of `recs` in kColumns order (`at`: from
// ColumnsOfHeader); DataLoss naming `path` for a row of another width than
// the header, `advice` appended.
absl::StatusOr<std::vector<std::vector<std::string>>> RowsByName(
    const std::string& path, std::vector<std::vector<std::string>>& recs,
    const std::vector<size_t>& at, std::string_view advice) {
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 1; i < recs.size(); ++i) {
    if (recs[i].size() != recs.front().size()) {
      return absl::DataLossError(absl::StrCat(
          path, ": row ", i, " has ", recs[i].size(), " fields, not ",
          recs.front().size(), std::string(advice)));
    }
    rows.push_back(InColumnOrder(recs[i], at));
  }
  return rows;
}

// data.csv rows of a run written before the flag columns (in kColumns order,
// noisy and n_eff empty) completed with the flags of their group in
// that run's summary.csv, which has them: every row of a group gets its
// group's noisy and n_eff = 1, so the groups' flags are unchanged.
absl::Status AddFlagsFromSummary(const std::string& dir,
                                 std::vector<std::vector<std::string>>* rows) {
  const std::string path = dir + "/summary.csv";
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        dir, "/data.csv has no noisy/n_eff columns (written before them) and "
        "there is no readable summary.csv to take them from: rerun the "
        "experiment"));
  }
  absl::StatusOr<std::vector<std::vector<std::string>>> recs = ParseCsv(*text);
  if (!recs.ok() || recs->empty()) {
    return absl::DataLossError(absl::StrCat(path, ": unreadable"));
  }
  const std::vector<size_t> key_cols = SummaryKeyColumns();
  const std::vector<std::string>& header = recs->front();
  auto col = [&](std::string_view name) {
    return static_cast<size_t>(std::find(header.begin(), header.end(), name) -
                               header.begin());
  };
  std::vector<size_t> key_at;  // each key column's index in the header
  for (size_t c : key_cols) {
    key_at.push_back(col(kColumns[c]));
    if (key_at.back() == header.size() && !IsOptionalColumn(kColumns[c])) {
      return absl::DataLossError(absl::StrCat(
          path, ": its configuration columns are not this chbench's (no '",
          std::string(kColumns[c]), "')"));
    }
  }
  const size_t noisy = col("noisy"), n_eff = col("n_eff");
  if (noisy >= header.size() || n_eff >= header.size()) {
    return absl::DataLossError(
        absl::StrCat(path, ": no noisy and n_eff columns to take"));
  }
  std::map<std::vector<std::string>, std::pair<std::string, std::string>>
      flags;
  for (size_t i = 1; i < recs->size(); ++i) {
    const std::vector<std::string>& r = (*recs)[i];
    if (r.size() != header.size()) {
      return absl::DataLossError(absl::StrCat(path, ": row ", i, " has ",
                                              r.size(), " fields, not ",
                                              header.size()));
    }
    std::vector<std::string> key;
    for (size_t i : key_at) key.push_back(i < r.size() ? r[i] : "");
    flags[std::move(key)] = {r[noisy] == "1" ? "1" : "0",
                             r[n_eff] == "1" ? "1" : ""};
  }
  for (std::vector<std::string>& r : *rows) {
    std::vector<std::string> key;
    for (size_t c : key_cols) key.push_back(c < r.size() ? r[c] : "");
    auto it = flags.find(key);
    if (it == flags.end()) {
      return absl::DataLossError(absl::StrCat(
          path, ": no row for a configuration of data.csv (metric '",
          r[ColumnIndex("metric")], "'): rerun the experiment"));
    }
    r[ColumnIndex("noisy")] = it->second.first;
    r[ColumnIndex("n_eff")] = it->second.second;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status Assemble(const Spec& spec, const std::string& dir) {
  std::string data = CsvHeader();
  std::vector<std::vector<std::string>> rows;
  for (const Cell& c : spec.cells) {
    const std::string path = absl::StrCat(dir, "/cells/", c.Name(), ".csv");
    absl::StatusOr<std::string> text = ReadFile(path);
    if (!text.ok()) return text.status();
    absl::StatusOr<std::vector<std::vector<std::string>>> recs =
        ParseCsv(*text);
    if (!recs.ok()) {
      return absl::DataLossError(absl::StrCat(
          path, ": ", recs.status().message(), "; rerun with --force"));
    }
    // By name: a cell file of an earlier chbench may lack optional columns.
    const std::vector<size_t> at =
        ColumnsOfHeader(*recs, /*flags_optional=*/false);
    if (at.empty()) {
      return absl::DataLossError(absl::StrCat(
          path, ": its header is not a chbench cell header (written by "
          "another version of chbench?); rerun with --force"));
    }
    absl::StatusOr<std::vector<std::vector<std::string>>> cell_rows =
        RowsByName(path, *recs, at, "; rerun with --force");
    if (!cell_rows.ok()) return cell_rows.status();
    for (std::vector<std::string>& row : *cell_rows) {
      data += FormatFields(row);
      rows.push_back(std::move(row));
    }
  }
  if (absl::Status s = WriteResult(dir + "/data.csv", data); !s.ok()) {
    return s;
  }
  return WriteSummary(rows, dir);
}

absl::Status WriteSummary(const std::vector<std::vector<std::string>>& rows,
                          const std::string& dir) {
  // Summary: group by every configuration column (all but run_id, seed,
  // repetition, the metric's value, note and the flags the summary
  // aggregates), in order of first appearance.
  const std::vector<size_t> key_cols = SummaryKeyColumns();
  const size_t value_col = ColumnIndex("value");
  const size_t metric_key = static_cast<size_t>(
      std::find(key_cols.begin(), key_cols.end(), ColumnIndex("metric")) -
      key_cols.begin());
  const size_t noisy_col = ColumnIndex("noisy");
  const size_t n_eff_col = ColumnIndex("n_eff");
  struct Group {
    std::vector<std::string> key;
    std::vector<double> values;
    bool noisy = false;
    bool n_eff_one = false;
  };
  std::map<std::vector<std::string>, size_t> index;
  std::vector<Group> groups;
  for (const std::vector<std::string>& r : rows) {
    std::vector<std::string> key;
    for (size_t c : key_cols) key.push_back(r[c]);
    auto [it, inserted] = index.emplace(key, groups.size());
    if (inserted) groups.push_back({key, {}});
    Group& g = groups[it->second];
    double v;
    if (!r[value_col].empty() && absl::SimpleAtod(r[value_col], &v)) {
      g.values.push_back(v);
    }
    g.noisy |= r[noisy_col] == "1";
    g.n_eff_one |= r[n_eff_col] == "1";
  }
  std::vector<std::string> header;
  for (size_t c : key_cols) header.emplace_back(kColumns[c]);
  for (const char* h :
       {"n", "n_eff", "median", "median_ci_low", "median_ci_high", "min", "max",
        "cv", "mean", "mean_ci_low", "mean_ci_high", "noisy"}) {
    header.emplace_back(h);
  }
  std::string summary = FormatFields(header);
  for (const Group& g : groups) {
    const SummaryStats st = Summarize(g.values, g.n_eff_one,
                                      RangeOfMetric(g.key[metric_key]));
    std::vector<std::string> f = g.key;
    const bool any = st.n > 0;
    f.push_back(std::to_string(st.n));
    f.push_back(std::to_string(st.n_eff));
    f.push_back(any ? FormatNumber(st.median) : "");
    f.push_back(FormatOptional(st.median_ci_low));
    f.push_back(FormatOptional(st.median_ci_high));
    f.push_back(any ? FormatNumber(st.min) : "");
    f.push_back(any ? FormatNumber(st.max) : "");
    f.push_back(FormatOptional(st.cv));
    f.push_back(any ? FormatNumber(st.mean) : "");
    f.push_back(FormatOptional(st.mean_ci_low));
    f.push_back(FormatOptional(st.mean_ci_high));
    f.push_back(g.noisy ? "1" : "0");
    summary += FormatFields(f);
  }
  return WriteResult(dir + "/summary.csv", summary);
}

absl::Status Resummarize(const std::string& dir) {
  const std::string path = dir + "/data.csv";
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", dir, "' is not a finished run: no readable data.csv there; "
        "valid: a directory <results>/<experiment>/<run_id>/ that `chbench "
        "run` completed"));
  }
  absl::StatusOr<std::vector<std::vector<std::string>>> recs = ParseCsv(*text);
  if (!recs.ok()) {
    return absl::DataLossError(absl::StrCat(path, ": ",
                                            recs.status().message()));
  }
  // The header of this build or of an earlier one (without the optional
  // columns, or without the flag columns: their flags come from the run's
  // summary.csv).
  const std::vector<size_t> at =
      ColumnsOfHeader(*recs, /*flags_optional=*/true);
  if (at.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": its header is not a chbench data.csv header (the columns "
        "run_id to n_eff of results/README.md; written by another "
        "version?): rerun the experiment"));
  }
  const size_t width = recs->front().size();
  const bool flagless = at[ColumnIndex("noisy")] == width ||
                        at[ColumnIndex("n_eff")] == width;
  absl::StatusOr<std::vector<std::vector<std::string>>> rows =
      RowsByName(path, *recs, at, "");
  if (!rows.ok()) return rows.status();
  if (flagless) {
    if (absl::Status s = AddFlagsFromSummary(dir, &*rows); !s.ok()) return s;
  }
  return WriteSummary(*rows, dir);
}

}  // namespace chbench
