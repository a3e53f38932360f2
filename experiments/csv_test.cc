// Copyright 2026 The chbench Authors.

#include "experiments/csv.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(CsvTest, FormatNumberIsShortestRoundTrip) {
  EXPECT_EQ(FormatNumber(0.1), "0.1");
  EXPECT_EQ(FormatNumber(1000000), "1000000");
  EXPECT_EQ(FormatNumber(1.25), "1.25");
  EXPECT_EQ(FormatNumber(-0.0), "0");
  EXPECT_EQ(FormatNumber(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(std::stod(FormatNumber(2.0 / 3)), 2.0 / 3);
}

TEST(CsvTest, HeaderIsTheSchema) {
  EXPECT_EQ(CsvHeader(),
            "run_id,experiment,algorithm,hash,keyset,nodes,vnodes,table_size,"
            "load_factor,capacity,probes,keys,placed_keys,seed,repetition,"
            "scenario,removal,removed,threads,node,weight,mode,zipf,requests,"
            "cache_items,stale_fraction,utilization,bucket,replicas,topology,"
            "batch,step,metric,value,unit,"
            "note,noisy,n_eff\n");
}

TEST(CsvTest, RowRoundTripsWithQuoting) {
  ResultRow r;
  r.run_id = "smoke-0123abcd";
  r.experiment = "disruption";
  r.algorithm = "jump";
  r.nodes = 10;
  r.load_factor = 1.25;
  r.metric = "moved_fraction";
  r.unit = "fraction";
  r.note = "not applicable: jump, \"last only\"";
  const std::string line = FormatRow(r);
  absl::StatusOr<std::vector<std::vector<std::string>>> recs = ParseCsv(line);
  ASSERT_TRUE(recs.ok()) << recs.status();
  ASSERT_EQ(recs->size(), 1u);
  const std::vector<std::string>& f = (*recs)[0];
  ASSERT_EQ(f.size(), kColumns.size());
  EXPECT_EQ(f[2], "jump");
  EXPECT_EQ(f[5], "10");
  EXPECT_EQ(f[6], "");
  EXPECT_EQ(f[8], "1.25");
  EXPECT_EQ(f[ColumnIndex("value")], "");
  EXPECT_EQ(f[ColumnIndex("note")], r.note);
  EXPECT_EQ(f[ColumnIndex("noisy")], "0");
  EXPECT_EQ(f[ColumnIndex("n_eff")], "");
}

TEST(CsvTest, BatchColumnIsEmptyForSingleKeyRows) {
  ResultRow r;
  r.metric = "lookup_ns";
  r.value = 3.5;
  const size_t at = ColumnIndex("batch");
  ASSERT_LT(at, kColumns.size());
  EXPECT_EQ((*ParseCsv(FormatRow(r)))[0][at], "");
  r.metric = "batch_lookup_ns";
  r.batch = 16;
  const std::vector<std::string> f = (*ParseCsv(FormatRow(r)))[0];
  ASSERT_EQ(f.size(), kColumns.size());
  EXPECT_EQ(f[at], "16");
  EXPECT_EQ(f[ColumnIndex("metric")], "batch_lookup_ns");
  // Runs written before it existed stay readable: it is optional.
  EXPECT_NE(std::find(kOptionalColumns.begin(), kOptionalColumns.end(),
                      "batch"),
            kOptionalColumns.end());
}

TEST(CsvTest, FlagsAreColumnsOfTheirOwn) {
  ResultRow r;
  r.metric = "lookup_ns";
  r.value = 12.5;
  r.noisy = true;
  r.n_eff = 1;
  r.note = "free text";
  absl::StatusOr<std::vector<std::vector<std::string>>> recs =
      ParseCsv(FormatRow(r));
  ASSERT_TRUE(recs.ok()) << recs.status();
  const std::vector<std::string>& f = (*recs)[0];
  ASSERT_EQ(f.size(), kColumns.size());
  EXPECT_EQ(f[ColumnIndex("noisy")], "1");
  EXPECT_EQ(f[ColumnIndex("n_eff")], "1");
  EXPECT_EQ(f[ColumnIndex("note")], "free text");
  // The flags follow the note, so that a reader of the older columns still
  // finds every column at its old index.
  EXPECT_EQ(ColumnIndex("noisy"), ColumnIndex("note") + 1);
  EXPECT_EQ(ColumnIndex("n_eff"), ColumnIndex("note") + 2);
}

TEST(CsvTest, ParseRejectsTruncatedText) {
  EXPECT_FALSE(ParseCsv("a,b\nc,d").ok());
  EXPECT_FALSE(ParseCsv("a,\"b\n").ok());
  EXPECT_TRUE(ParseCsv("a,b\nc,d\n").ok());
}

TEST(CsvTest, AtomicWriteReplacesOrLeavesNothing) {
  const std::string dir =
      testing::TempDir() + "/csv_atomic_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/a.csv";
  ASSERT_TRUE(WriteFileAtomic(path, "x\n").ok());
  ASSERT_TRUE(WriteFileAtomic(path, "y,z\n").ok());
  EXPECT_EQ(*ReadFile(path), "y,z\n");
  // A failing write (directory missing) reports an error and creates nothing.
  const std::string bad = dir + "/missing/b.csv";
  EXPECT_FALSE(WriteFileAtomic(bad, "x\n").ok());
  EXPECT_FALSE(std::filesystem::exists(bad));
  // No temporary file is left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace chbench
