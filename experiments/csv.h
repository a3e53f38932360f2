// Copyright 2026 The chbench Authors.
//
// CSV and file helpers of the experiment runner:
//   * FormatNumber: the shortest decimal that reads back to the same double
//     (std::to_chars), so every run prints identical text for identical values.
//   * FormatRow / CsvHeader: RFC 4180 rows with exactly the columns of
//     result_row.h (kColumns); fields with a comma, quote or newline are
//     quoted.
//   * ParseCsv: the inverse, used to assemble data.csv and summary.csv from
//     the per-cell files and by the tests.
//   * WriteFileAtomic: writes `<path>.tmp.<pid>.<n>` and renames it over
//     `path`, so a killed process never leaves a partial file at `path`.

#ifndef CHBENCH_EXPERIMENTS_CSV_H_
#define CHBENCH_EXPERIMENTS_CSV_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/result_row.h"

namespace chbench {

std::string FormatNumber(double v);
std::string FormatOptional(const std::optional<double>& v);
std::string FormatOptional(const std::optional<uint64_t>& v);

// Quotes `field` if it holds a comma, quote, CR or LF.
std::string CsvField(std::string_view field);
// "run_id,experiment,...,note\n"
std::string CsvHeader();
// One line, with the trailing "\n".
std::string FormatRow(const ResultRow& row);
// Joins already formatted fields (quoting as needed) with the newline.
std::string FormatFields(const std::vector<std::string>& fields);

// Parses RFC 4180 text into records of fields. Error on an unterminated
// quote or a missing final newline (the mark of a truncated file).
absl::StatusOr<std::vector<std::vector<std::string>>> ParseCsv(
    std::string_view text);

absl::StatusOr<std::string> ReadFile(const std::string& path);
// Writes to a temporary file in the same directory and renames it over
// `path` (atomic on POSIX: survives kill, not a power loss, as no fsync).
absl::Status WriteFileAtomic(const std::string& path, std::string_view data);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_CSV_H_
