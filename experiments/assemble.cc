// Copyright 2026 The chbench Authors.

#include "experiments/assemble.h"

#include <algorithm>
#include <iterator>
#include <map>
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
    for (size_t i = 1; i < recs->size(); ++i) {
      if ((*recs)[i].size() != kColumns.size()) {
        return absl::DataLossError(absl::StrCat(
            path, ": row ", i, " has ", (*recs)[i].size(), " fields, not ",
            kColumns.size(), " (written by another version of chbench?); "
            "rerun with --force"));
      }
      data += FormatFields((*recs)[i]);
      rows.push_back(std::move((*recs)[i]));
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
  std::vector<size_t> key_cols;
  for (size_t c = 0; c < kColumns.size(); ++c) {
    const std::string_view name = kColumns[c];
    if (name != "run_id" && name != "seed" && name != "repetition" &&
        name != "value" && name != "note" && name != "noisy" &&
        name != "n_eff") {
      key_cols.push_back(c);
    }
  }
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
  if (recs->empty() || FormatFields(recs->front()) != CsvHeader()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": its header is not this chbench's data.csv header (",
        kColumns.size(), " columns from run_id to n_eff; written by another "
        "version?): rerun the experiment"));
  }
  std::vector<std::vector<std::string>> rows(
      std::make_move_iterator(recs->begin() + 1),
      std::make_move_iterator(recs->end()));
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != kColumns.size()) {
      return absl::DataLossError(absl::StrCat(
          path, ": row ", i + 1, " has ", rows[i].size(), " fields, not ",
          kColumns.size()));
    }
  }
  return WriteSummary(rows, dir);
}

}  // namespace chbench
