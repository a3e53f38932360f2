// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: cli/cli_util.h
// -----------------------------------------------------------------------------
//
// Small helpers shared by the `chbench` subcommands: strict parsers for
// command-line values and key lines, list splitting, a 64-bit primality test,
// and a column formatter for `chbench list`.
//
// The parsers are strict on purpose: CLI11's own integer conversion goes
// through strtoull with base 0, which accepts "010" as octal 8, "0x10" as 16
// and "-1" as 2^64 - 1 for an unsigned 64-bit target. chbench takes every
// numeric flag as text and parses it here, so that a bad value is reported
// with the value itself and the valid range.
//
// Header-only so that cli_test can exercise the helpers without linking the
// binary's sources.

#ifndef CHBENCH_EXPERIMENTS_CLI_CLI_UTIL_H_
#define CHBENCH_EXPERIMENTS_CLI_CLI_UTIL_H_

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "algorithms/util/prime.h"

namespace chbench::cli {

// Parses a non-empty run of ASCII decimal digits into `*out`. Rejects an
// empty string, a sign, whitespace, any other character, and values above
// 2^64 - 1. Leading zeros are accepted ("007" is 7).
//
//   uint64_t v;
//   ParseDecimalU64("18446744073709551615", &v);  // true
//   ParseDecimalU64("18446744073709551616", &v);  // false: overflow
//   ParseDecimalU64("+5", &v);                     // false: sign
inline bool ParseDecimalU64(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  uint64_t v = 0;
  for (const char c : s) {
    const unsigned d = static_cast<unsigned char>(c) - unsigned{'0'};
    if (d > 9) return false;
    // v * 10 + d <= 2^64 - 1  <=>  v < 1844674407370955161 or
    // (v == 1844674407370955161 and d <= 5).
    constexpr uint64_t kMaxDiv10 = UINT64_MAX / 10;
    constexpr unsigned kMaxLastDigit = UINT64_MAX % 10;
    if (v > kMaxDiv10 || (v == kMaxDiv10 && d > kMaxLastDigit)) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

// Parses a finite decimal floating-point number ("1.25", "2", "1e3") with
// nothing before or after it. Rejects "+1", " 1", "1x", "inf", "nan".
inline bool ParseFiniteDouble(std::string_view s, double* out) {
  if (s.empty()) return false;
  double v = 0;
  const char* const end = s.data() + s.size();
  const std::from_chars_result r = std::from_chars(s.data(), end, v);
  if (r.ec != std::errc() || r.ptr != end || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

// Splits "a,b,c" at every comma. An empty string gives one empty element,
// and empty elements are kept ("a,,b" gives "a", "", "b"), so that callers
// can report them instead of silently dropping them.
inline std::vector<std::string> SplitCommaList(std::string_view s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t comma = s.find(',', start);
    if (comma == std::string_view::npos) {
      parts.emplace_back(s.substr(start));
      return parts;
    }
    parts.emplace_back(s.substr(start, comma - start));
    start = comma + 1;
  }
}

// Shared with Maglev and the spec checks.
using ::chbench::IsPrime;

// The text of a value for an error message: at most `max_len` bytes (longer
// text is cut and marked with "..."), control bytes shown as '?', so that a
// one-line message stays one line.
inline std::string Excerpt(std::string_view s, size_t max_len = 80) {
  std::string out;
  const size_t n = s.size() > max_len ? max_len : s.size();
  out.reserve(n + 3);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out.push_back(c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c));
  }
  if (n < s.size()) out += "...";
  return out;
}

// Formats rows as left-aligned columns separated by two spaces, each row
// indented by `indent` spaces; the last column is not padded. Every row
// should have the same number of cells (missing cells print as empty).
inline std::string FormatColumns(const std::vector<std::vector<std::string>>& rows,
                                 size_t indent = 2) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    if (row.size() > width.size()) width.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) {
      if (row[i].size() > width[i]) width[i] = row[i].size();
    }
  }
  std::string out;
  for (const auto& row : rows) {
    out.append(indent, ' ');
    for (size_t i = 0; i < row.size(); ++i) {
      out += row[i];
      if (i + 1 < row.size()) out.append(width[i] - row[i].size() + 2, ' ');
    }
    out += '\n';
  }
  return out;
}

}  // namespace chbench::cli

#endif  // CHBENCH_EXPERIMENTS_CLI_CLI_UTIL_H_
