// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: testing/vector_file.h
// -----------------------------------------------------------------------------
//
// Reads the reference-vector files in algorithms/<name>/testdata/ (recorded
// from each algorithm's reference implementation): '#' lines are the header
// (reference repo@commit, the function called), data lines are
// `input<TAB>n<TAB>bucket` in unsigned decimal, n-major. Also checks a
// ConsistentHash against such a file the way the file's header defines it:
// for each n, Build("node-0".."node-(n-1)") and Lookup(input) must be node
// `bucket` (after Build, node i has id i and is bucket i).
//
// Example:
//   const auto rows = ReadVectorFile(AlgorithmTestdata("flip",
//   "flip_stable.tsv")); EXPECT_EQ(CountVectorMismatches(flip, rows), 0);

#ifndef CHBENCH_ALGORITHMS_TESTING_VECTOR_FILE_H_
#define CHBENCH_ALGORITHMS_TESTING_VECTOR_FILE_H_

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/testing/conformance_util.h"
#include "gtest/gtest.h"

namespace chbench {
namespace testing {

struct VectorRow {
  uint64_t input;
  uint64_t n;
  uint64_t bucket;
};

// algorithms/<folder>/testdata/<file> in the source tree.
inline std::string AlgorithmTestdata(std::string_view folder,
                                     std::string_view file) {
  return absl::StrCat(CHBENCH_SOURCE_DIR, "/algorithms/", std::string(folder),
                      "/testdata/", std::string(file));
}

// The data rows of `path`; a missing file or a malformed line is a test
// failure (and an empty result for a missing file).
inline std::vector<VectorRow> ReadVectorFile(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::vector<VectorRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = absl::StrSplit(line, '\t');
    VectorRow row;
    const bool ok = f.size() == 3 && absl::SimpleAtoi(f[0], &row.input) &&
                    absl::SimpleAtoi(f[1], &row.n) &&
                    absl::SimpleAtoi(f[2], &row.bucket);
    EXPECT_TRUE(ok) << path << ": bad line '" << line << "'";
    if (ok) rows.push_back(row);
  }
  return rows;
}

// The rows of `path` grouped by n, each group in file order. A missing or
// empty file, or a malformed line, is a test failure.
inline std::map<uint32_t, std::vector<VectorRow>> ReadVectorGroups(
    const std::string& path) {
  const std::vector<VectorRow> rows = ReadVectorFile(path);
  EXPECT_FALSE(rows.empty()) << path;
  std::map<uint32_t, std::vector<VectorRow>> groups;
  for (const VectorRow& row : rows) {
    groups[static_cast<uint32_t>(row.n)].push_back(row);
  }
  return groups;
}

// Rows where `algo`, built with n nodes "node-0".., does not return node
// `bucket` (each mismatch is also reported, up to 10).
inline int CountVectorMismatches(ConsistentHash& algo,
                                 const std::vector<VectorRow>& rows) {
  int mismatches = 0;
  uint64_t built = 0;
  for (const VectorRow& row : rows) {
    if (row.n != built) {
      const absl::Status s = algo.Build(Specs(row.n));
      EXPECT_TRUE(s.ok()) << s;
      if (!s.ok()) return static_cast<int>(rows.size());
      built = row.n;
    }
    const NodeId got = algo.Lookup(row.input);
    if (got != row.bucket) {
      if (++mismatches <= 10) {
        ADD_FAILURE() << algo.name() << ": input " << row.input << " n "
                      << row.n << ": node " << got << ", reference bucket "
                      << row.bucket;
      }
    }
  }
  return mismatches;
}

// Rows where `f(input, n)` != bucket (reported up to 10).
template <typename F>
int CountFunctionMismatches(F f, const std::vector<VectorRow>& rows) {
  int mismatches = 0;
  for (const VectorRow& row : rows) {
    const uint64_t got = f(row.input, row.n);
    if (got != row.bucket && ++mismatches <= 10) {
      ADD_FAILURE() << "input " << row.input << " n " << row.n << ": " << got
                    << ", reference " << row.bucket;
    }
  }
  return mismatches;
}

}  // namespace testing
}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_TESTING_VECTOR_FILE_H_
