// Copyright 2026 The chbench Authors.
//
// Runner tests on single cells and on tiny specs in a temporary directory:
// not-applicable rows, resume and --force, and the exit paths of `run`.

#include "experiments/runner.h"

#include <unistd.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "experiments/assemble.h"
#include "experiments/csv.h"
#include "workload/keyset.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

Cell MakeCell(const std::string& kind, const std::string& alg, uint32_t n,
              uint64_t keys, const std::string& scenario = "") {
  Cell c;
  c.experiment = "test";
  c.kind = kind;
  c.algorithm = alg;
  c.hash = "xxh64";
  c.keyset = "uniform";
  c.nodes = n;
  if (alg == "ring" || alg == "bounded_load") c.vnodes = 100;
  if (alg == "bounded_load") c.load_factor = 1.25;
  if (alg == "maglev") c.table_size = NextPrime(100 * n);
  c.keys = keys;
  c.scenario = scenario;
  return c;
}

const ResultRow* Find(const std::vector<ResultRow>& rows,
                      const std::string& metric,
                      const std::string& scenario = "") {
  for (const ResultRow& r : rows) {
    if (r.metric == metric && (scenario.empty() || r.scenario == scenario)) {
      return &r;
    }
  }
  return nullptr;
}

TEST(RunnerTest, JumpRemoveRandomBecomesRemoveLast) {
  auto rows =
      RunCell(MakeCell("disruption", "jump", 10, 20000, "remove_random"), "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  const ResultRow* moved = Find(*rows, "moved_fraction");
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->scenario, "remove_last");
  EXPECT_THAT(moved->note, HasSubstr("remove_last recorded"));
  // Jump is minimal: only the removed node's keys move.
  EXPECT_DOUBLE_EQ(Find(*rows, "moved_excess_fraction")->value.value(), 0);
  EXPECT_NEAR(*moved->value, 0.1, 0.02);
  // Jump's last bucket spreads over all others.
  EXPECT_EQ(Find(*rows, "receivers")->value.value(), 9);
}

TEST(RunnerTest, NotApplicableRowsAreWritten) {
  auto rows = RunCell(
      MakeCell("disruption", "jump", 10, 1000, "remove_30pct_random"), "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_FALSE(rows->empty());
  for (const ResultRow& r : *rows) {
    EXPECT_FALSE(r.value.has_value());
    EXPECT_THAT(r.note, HasSubstr("not applicable: jump"));
  }
  Cell w = MakeCell("weights", "modulo", 4, 1000);
  w.weights = {1, 1, 2, 4};
  auto wrows = RunCell(w, "r");
  ASSERT_TRUE(wrows.ok()) << wrows.status();
  ASSERT_EQ(wrows->size(), 4u);
  EXPECT_EQ((*wrows)[3].node, std::optional<uint64_t>(3));
  EXPECT_EQ((*wrows)[3].weight, std::optional<double>(4));
  EXPECT_THAT((*wrows)[3].note, HasSubstr("not applicable"));
}

TEST(RunnerTest, RemovalMovesOnlyTheRemovedNodesKeysForMonotoneAlgorithms) {
  Cell c = MakeCell("removal", "ring", 50, 20000, "incremental");
  c.removal = "random";
  c.removed = 25;
  auto rows = RunCell(c, "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_DOUBLE_EQ(Find(*rows, "moved_excess_fraction")->value.value(), 0);
  EXPECT_DOUBLE_EQ(Find(*rows, "step_moved_excess")->value.value(), 0);
  EXPECT_DOUBLE_EQ(Find(*rows, "moved_optimal_fraction")->value.value(), 0.5);
  EXPECT_NEAR(Find(*rows, "moved_fraction")->value.value(), 0.5, 0.05);
  EXPECT_EQ(Find(*rows, "moved_fraction")->removed,
            std::optional<uint64_t>(25));
  EXPECT_EQ(Find(*rows, "moved_fraction")->removal, "random");
  // Balance over the 25 live nodes: every live node has keys.
  EXPECT_GT(Find(*rows, "load_min_over_mean")->value.value(), 0.1);
  ASSERT_NE(Find(*rows, "memory_bytes"), nullptr);
  // Modulo is not monotone: keys of live nodes move too, at every step.
  Cell m = c;
  m.algorithm = "modulo";
  m.vnodes.reset();
  auto mrows = RunCell(m, "r");
  ASSERT_TRUE(mrows.ok()) << mrows.status();
  EXPECT_GT(Find(*mrows, "moved_excess_fraction")->value.value(), 0.3);
  EXPECT_GT(Find(*mrows, "step_moved_excess")->value.value(), 20000);
  // One-shot: the same final state, no per-step row.
  Cell o = c;
  o.scenario = "oneshot";
  auto orows = RunCell(o, "r");
  ASSERT_TRUE(orows.ok()) << orows.status();
  EXPECT_EQ(Find(*orows, "step_moved_excess"), nullptr);
  EXPECT_DOUBLE_EQ(Find(*orows, "moved_fraction")->value.value(),
                   Find(*rows, "moved_fraction")->value.value());
  // Jump refuses a random removal with its own message.
  Cell j = c;
  j.algorithm = "jump";
  j.vnodes.reset();
  auto jrows = RunCell(j, "r");
  EXPECT_FALSE(jrows.ok());
  EXPECT_THAT(jrows.status().message(), HasSubstr("only the last"));
}

// A batch removal from a history-dependent algorithm happens on the same
// instance: AnchorHash moves only the removed nodes' keys (a fresh instance
// of the survivors would remap almost everything).
TEST(RunnerTest, AnchorBatchRemovalIsMinimal) {
  auto rows = RunCell(
      MakeCell("disruption", "anchor", 100, 50000, "remove_30pct_random"), "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_DOUBLE_EQ(Find(*rows, "moved_excess_fraction")->value.value(), 0);
  EXPECT_NEAR(Find(*rows, "moved_fraction")->value.value(), 0.3, 0.03);
}

TEST(RunnerTest, ModuloAddMovesAlmostEverything) {
  auto rows = RunCell(MakeCell("disruption", "modulo", 4, 20000, "add"), "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  // h mod 4 == h mod 5 for 4 of 20 residues mod 20: 80 % move.
  EXPECT_NEAR(Find(*rows, "moved_fraction")->value.value(), 0.8, 0.02);
  EXPECT_DOUBLE_EQ(Find(*rows, "moved_optimal_fraction")->value.value(), 0.2);
}

TEST(RunnerTest, WeightedSharesFollowWeights) {
  Cell w = MakeCell("weights", "rendezvous", 4, 100000);
  w.weights = {1, 1, 2, 4};
  auto rows = RunCell(w, "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 8u);  // measured + analytic per node
  EXPECT_EQ((*rows)[7].scenario, "analytic");
  EXPECT_DOUBLE_EQ((*rows)[7].value.value(), 0.5);
  EXPECT_NEAR((*rows)[6].value.value(), 0.5, 0.01);
}

TEST(RunnerTest, BalanceHasMeasuredAndAnalyticRows) {
  auto rows = RunCell(MakeCell("balance", "ring", 10, 10000), "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  const ResultRow* m = Find(*rows, "load_max_over_mean", "measured");
  const ResultRow* a = Find(*rows, "load_max_over_mean", "analytic");
  ASSERT_NE(m, nullptr);
  ASSERT_NE(a, nullptr);
  EXPECT_GT(*m->value, 1.0);
  EXPECT_GT(*a->value, 1.0);
  auto b = RunCell(MakeCell("balance", "bounded_load", 10, 10000), "r");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_LE(Find(*b, "load_max_over_mean", "measured")->value.value(),
            Find(*b, "load_max_over_mean", "analytic")->value.value());
}

// Shares of the digest space beside the key counts: the ring's exact
// max/mean is at least 1 and differs from the sampled one (no keys); jump's
// are 1 by construction; multi-probe has neither exact shares nor a model.
TEST(RunnerTest, BalanceHasExactSharesWhereTheAlgorithmGivesThem) {
  auto ring = RunCell(MakeCell("balance", "ring", 10, 10000), "r");
  ASSERT_TRUE(ring.ok()) << ring.status();
  const ResultRow* hi = Find(*ring, "exact_max_over_mean", "exact");
  const ResultRow* lo = Find(*ring, "exact_min_over_mean", "exact");
  ASSERT_NE(hi, nullptr);
  ASSERT_NE(lo, nullptr);
  EXPECT_GT(*hi->value, 1.0);
  EXPECT_LT(*lo->value, 1.0);
  EXPECT_FALSE(hi->keys.has_value());
  EXPECT_NE(*hi->value,
            *Find(*ring, "load_max_over_mean", "measured")->value);
  auto jump = RunCell(MakeCell("balance", "jump", 10, 10000), "r");
  ASSERT_TRUE(jump.ok()) << jump.status();
  EXPECT_EQ(Find(*jump, "exact_max_over_mean", "exact")->value, 1.0);
  EXPECT_THAT(Find(*jump, "exact_max_over_mean", "exact")->note,
              HasSubstr("construction"));
  auto mp = RunCell(MakeCell("balance", "multiprobe", 10, 10000), "r");
  ASSERT_TRUE(mp.ok()) << mp.status();
  EXPECT_EQ(Find(*mp, "exact_max_over_mean", "exact"), nullptr);
  EXPECT_EQ(Find(*mp, "load_max_over_mean", "analytic"), nullptr);
  EXPECT_NE(Find(*mp, "load_max_over_mean", "measured"), nullptr);
}

// A key set whose repetitions share most keys marks exactly the measured rows
// n_eff = 1 (a column of its own), never the analytic ones.
TEST(RunnerTest, OverlappingKeySetSetsTheNEffColumnOfMeasuredRows) {
  absl::StatusOr<size_t> words = WordsDictionarySize();
  if (!words.ok()) GTEST_SKIP() << words.status();
  Cell c = MakeCell("balance", "ring", 10, *words);
  c.keyset = "words";
  auto rows = RunCell(c, "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  size_t measured = 0;
  for (const ResultRow& r : *rows) {
    EXPECT_FALSE(r.noisy) << r.metric;
    if (r.scenario == "measured") {
      ++measured;
      EXPECT_EQ(r.n_eff, std::optional<uint64_t>(1)) << r.metric;
      EXPECT_THAT(r.note, HasSubstr("n_eff = 1"));
    } else {
      EXPECT_EQ(r.n_eff, std::nullopt) << r.scenario << " " << r.metric;
    }
  }
  EXPECT_EQ(measured, 6u);
  auto independent = RunCell(MakeCell("balance", "ring", 10, 1000), "r");
  ASSERT_TRUE(independent.ok()) << independent.status();
  for (const ResultRow& r : *independent) EXPECT_EQ(r.n_eff, std::nullopt);
}

TEST(RunnerTest, MemoryRows) {
  auto rows = RunCell(MakeCell("memory", "ring", 100, 0), "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  const double self = Find(*rows, "memory_bytes")->value.value();
  const double heap = Find(*rows, "heap_bytes")->value.value();
  EXPECT_GT(self, 100 * 100 * 8);
  EXPECT_GT(heap, 0.8 * self);
  EXPECT_DOUBLE_EQ(Find(*rows, "memory_bytes_per_node")->value.value(),
                   self / 100);
}

TEST(RunnerTest, RendezvousKeysAreCappedWithNote) {
  auto rows = RunCell(MakeCell("balance", "rendezvous", 10000, 1000000), "r");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ((*rows)[0].keys, std::optional<uint64_t>(20000));
  EXPECT_THAT((*rows)[0].note, HasSubstr("keys capped"));
}

TEST(RunnerTest, GoldensPass) {
  EXPECT_TRUE(CheckGoldens().ok()) << CheckGoldens();
}

class SpecDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = ::testing::TempDir() + "/runner_test_" + std::to_string(getpid()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/specs");
    std::ofstream(root_ + "/specs/balance.toml") << R"(
[[sweep]]
kind = "balance"
algorithm = ["modulo", "ring"]
nodes = [5, 7]
keys = 2000
repetitions = 3
)";
    options_.tier = "default";
    options_.spec_dir = root_ + "/specs";
    options_.results_dir = root_ + "/results";
    options_.jobs = 2;
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string RunDir() {
    for (const auto& e : fs::directory_iterator(root_ + "/results/balance")) {
      return e.path().string();
    }
    return "";
  }

  std::string root_;
  RunOptions options_;
};

TEST_F(SpecDirTest, WritesDataSummaryMetaAndResumes) {
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  const std::string dir = RunDir();
  EXPECT_THAT(dir,
              ::testing::EndsWith("/results/balance/default-" +
                                  fs::path(dir).filename().string().substr(8)));
  for (const char* f : {"data.csv", "summary.csv", "meta.json"}) {
    EXPECT_TRUE(fs::exists(dir + "/" + f)) << f;
  }
  const std::string data = *ReadFile(dir + "/data.csv");
  auto recs = ParseCsv(data);
  ASSERT_TRUE(recs.ok());
  // 4 configurations x 3 repetitions x 14 rows (6 measured, 2 exact shares
  // of the digest space, 6 analytic).
  EXPECT_EQ(recs->size(), 1u + 4 * 3 * 14);
  const std::string summary = *ReadFile(dir + "/summary.csv");
  EXPECT_THAT(summary, ::testing::StartsWith(
                           "experiment,algorithm,hash,keyset,nodes,vnodes,"
                           "table_size,load_factor,capacity,probes,keys,"
                           "placed_keys,scenario,removal,removed,"
                           "threads,node,weight,mode,zipf,requests,"
                           "cache_items,stale_fraction,utilization,bucket,"
                           "replicas,topology,batch,step,"
                           "metric,unit,n,n_eff,median,"
                           "median_ci_low,median_ci_high,min,max,cv,mean,"
                           "mean_ci_low,mean_ci_high,noisy\n"));
  EXPECT_THAT(summary, HasSubstr(",load_max_over_mean,ratio,3,3,"));
  const std::string meta = *ReadFile(dir + "/meta.json");
  for (const char* key : {"\"run_id\"", "\"spec_hash\"", "\"git_commit\"",
                          "\"cpu_model\"", "\"seeds\": [0, 1, 2]",
                          "\"tier\": \"default\"", "\"timing_policy\": null"}) {
    EXPECT_THAT(meta, HasSubstr(key));
  }
  // The machine record lists the caches wherever sysfs or glibc (CPUID)
  // knows them, including VMs without sysfs cache directories.
  if (fs::exists("/sys/devices/system/cpu/cpu0/cache/index0") ||
      sysconf(_SC_LEVEL1_DCACHE_SIZE) > 0 ||
      sysconf(_SC_LEVEL2_CACHE_SIZE) > 0) {
    EXPECT_THAT(meta, HasSubstr("\"caches\": [{\"level\": \""));
  }
  // A rerun of a complete experiment computes nothing and rewrites nothing:
  // meta.json keeps the commit and date of the run that measured the cells.
  const std::string planted =
      absl::StrCat(meta.substr(0, meta.rfind('}')), "\"marker\": 1}\n");
  ASSERT_TRUE(WriteFileAtomic(dir + "/meta.json", planted).ok());
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  EXPECT_EQ(*ReadFile(dir + "/meta.json"), planted);
  // Resume: plant a marker in one cell file and drop the assembled data; a
  // rerun keeps the cell (skipped) and assembles it.
  ASSERT_TRUE(fs::remove(dir + "/data.csv"));
  std::string cell;
  for (const auto& e : fs::directory_iterator(dir + "/cells")) {
    cell = e.path().string();
    break;
  }
  std::string text = *ReadFile(cell);
  const std::string marker = "MARKER-SKIPPED";
  const size_t pos = text.find("xxh64");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, 5, marker);
  ASSERT_TRUE(WriteFileAtomic(cell, text).ok());
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  EXPECT_THAT(*ReadFile(dir + "/data.csv"), HasSubstr(marker));
  // --force recomputes and gives the original bytes back.
  options_.force = true;
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  EXPECT_EQ(*ReadFile(dir + "/data.csv"), data);
}

// summary.csv's noisy and n_eff come from data.csv's flag columns; the
// note is text and a note that reads like a flag changes nothing.
TEST_F(SpecDirTest, SummaryFlagsComeFromTheFlagColumns) {
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  const std::string dir = RunDir();
  const std::string data = *ReadFile(dir + "/data.csv");
  EXPECT_THAT(data, HasSubstr(",note,noisy,n_eff\n"));
  // Every row of the uniform key set: not noisy, independent.
  auto recs = ParseCsv(data);
  ASSERT_TRUE(recs.ok());
  for (size_t i = 1; i < recs->size(); ++i) {
    EXPECT_EQ((*recs)[i][ColumnIndex("noisy")], "0");
    EXPECT_EQ((*recs)[i][ColumnIndex("n_eff")], "");
  }
  std::string summary = *ReadFile(dir + "/summary.csv");
  EXPECT_THAT(summary, HasSubstr(",load_max_over_mean,ratio,3,3,"));
  EXPECT_THAT(summary, Not(HasSubstr(",1\n")));  // no noisy group
  // Flag the measured load_max_over_mean rows of ring at N = 5 in the cell
  // files (noisy in one repetition, n_eff = 1 in all), and make the notes
  // of modulo's rows read like flags.
  for (const auto& e : fs::directory_iterator(dir + "/cells")) {
    auto cell = ParseCsv(*ReadFile(e.path().string()));
    ASSERT_TRUE(cell.ok());
    std::string text = CsvHeader();
    for (size_t i = 1; i < cell->size(); ++i) {
      std::vector<std::string>& f = (*cell)[i];
      const bool target = f[ColumnIndex("algorithm")] == "ring" &&
                          f[ColumnIndex("nodes")] == "5" &&
                          f[ColumnIndex("scenario")] == "measured" &&
                          f[ColumnIndex("metric")] == "load_max_over_mean";
      if (target) {
        f[ColumnIndex("n_eff")] = "1";
        if (f[ColumnIndex("seed")] == "1") f[ColumnIndex("noisy")] = "1";
      }
      if (f[ColumnIndex("algorithm")] == "modulo") {
        f[ColumnIndex("note")] = "noisy: n_eff = 1";
      }
      text += FormatFields(f);
    }
    ASSERT_TRUE(WriteFileAtomic(e.path().string(), text).ok());
  }
  ASSERT_TRUE(fs::remove(dir + "/data.csv"));
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  summary = *ReadFile(dir + "/summary.csv");
  auto sum = ParseCsv(summary);
  ASSERT_TRUE(sum.ok());
  const std::vector<std::string>& header = sum->front();
  auto col = [&](std::string_view name) {
    return static_cast<size_t>(
        std::find(header.begin(), header.end(), name) - header.begin());
  };
  size_t flagged = 0;
  for (size_t i = 1; i < sum->size(); ++i) {
    const std::vector<std::string>& f = (*sum)[i];
    const bool target = f[col("algorithm")] == "ring" &&
                        f[col("nodes")] == "5" &&
                        f[col("scenario")] == "measured" &&
                        f[col("metric")] == "load_max_over_mean";
    flagged += target;
    EXPECT_EQ(f[col("noisy")], target ? "1" : "0") << i;
    EXPECT_EQ(f[col("n_eff")], target ? "1" : f[col("n")]) << i;
    if (target) {
      EXPECT_EQ(f[col("n")], "3");
      EXPECT_EQ(f[col("mean_ci_low")], "");
    }
  }
  EXPECT_EQ(flagged, 1u);
}

// Resummarize recomputes summary.csv from data.csv alone: on a run of this
// build it reproduces Assemble's bytes; a changed value changes the summary;
// a count's mean interval never leaves the metric's range.
TEST_F(SpecDirTest, ResummarizeReproducesTheSummaryFromDataCsv) {
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  const std::string dir = RunDir();
  const std::string assembled = *ReadFile(dir + "/summary.csv");
  ASSERT_TRUE(fs::remove(dir + "/summary.csv"));
  ASSERT_TRUE(Resummarize(dir).ok());
  EXPECT_EQ(*ReadFile(dir + "/summary.csv"), assembled);

  // Three repetitions of a fraction in [0, 1]: 0, 0 and 0.9. Student-t's
  // mean interval would start far below 0; the summary's starts at 0.
  auto recs = ParseCsv(*ReadFile(dir + "/data.csv"));
  ASSERT_TRUE(recs.ok());
  std::string data = CsvHeader();
  int edited = 0;
  for (size_t i = 1; i < recs->size(); ++i) {
    std::vector<std::string>& f = (*recs)[i];
    if (f[ColumnIndex("algorithm")] == "modulo" &&
        f[ColumnIndex("nodes")] == "5" &&
        f[ColumnIndex("scenario")] == "measured" &&
        f[ColumnIndex("metric")] == "load_max_over_mean") {
      f[ColumnIndex("metric")] = "moved_fraction";
      f[ColumnIndex("value")] = f[ColumnIndex("seed")] == "2" ? "0.9" : "0";
      ++edited;
    }
    data += FormatFields(f);
  }
  ASSERT_EQ(edited, 3);
  ASSERT_TRUE(WriteFileAtomic(dir + "/data.csv", data).ok());
  ASSERT_TRUE(Resummarize(dir).ok());
  auto sum = ParseCsv(*ReadFile(dir + "/summary.csv"));
  ASSERT_TRUE(sum.ok());
  const std::vector<std::string>& header = sum->front();
  auto col = [&](std::string_view name) {
    return static_cast<size_t>(
        std::find(header.begin(), header.end(), name) - header.begin());
  };
  int found = 0;
  for (size_t i = 1; i < sum->size(); ++i) {
    const std::vector<std::string>& f = (*sum)[i];
    if (f[col("metric")] != "moved_fraction") continue;
    ++found;
    EXPECT_EQ(f[col("n")], "3");
    EXPECT_EQ(f[col("mean_ci_low")], "0");
    EXPECT_EQ(f[col("max")], "0.9");
  }
  EXPECT_EQ(found, 1);
}

// A data.csv from before the flag columns: the groups' flags come from the
// run's own summary.csv, and the summary is otherwise recomputed.
TEST_F(SpecDirTest, ResummarizeTakesOldRunsFlagsFromTheirSummary) {
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  const std::string dir = RunDir();
  auto recs = ParseCsv(*ReadFile(dir + "/data.csv"));
  ASSERT_TRUE(recs.ok());
  std::string old_data;
  for (std::vector<std::string>& f : *recs) {
    f.resize(f.size() - 2);  // drop noisy, n_eff
    old_data += FormatFields(f);
  }
  ASSERT_TRUE(WriteFileAtomic(dir + "/data.csv", old_data).ok());
  // Flag one group in the old summary (as an old run recorded it).
  auto sum = ParseCsv(*ReadFile(dir + "/summary.csv"));
  ASSERT_TRUE(sum.ok());
  const std::vector<std::string> header = sum->front();
  auto col = [&](std::string_view name) {
    return static_cast<size_t>(
        std::find(header.begin(), header.end(), name) - header.begin());
  };
  std::string flagged_summary;
  for (size_t i = 0; i < sum->size(); ++i) {
    std::vector<std::string> f = (*sum)[i];
    if (i > 0 && f[col("algorithm")] == "ring" && f[col("nodes")] == "7" &&
        f[col("scenario")] == "measured" &&
        f[col("metric")] == "load_max_over_mean") {
      f[col("noisy")] = "1";
      f[col("n_eff")] = "1";
      f[col("median_ci_low")] = "";
      f[col("median_ci_high")] = "";
      f[col("mean_ci_low")] = "";
      f[col("mean_ci_high")] = "";
    }
    flagged_summary += FormatFields(f);
  }
  ASSERT_NE(flagged_summary, *ReadFile(dir + "/summary.csv"));
  ASSERT_TRUE(WriteFileAtomic(dir + "/summary.csv", flagged_summary).ok());
  ASSERT_TRUE(Resummarize(dir).ok());
  // The same bytes: flags kept, n_eff = 1's intervals left out again.
  EXPECT_EQ(*ReadFile(dir + "/summary.csv"), flagged_summary);
  EXPECT_EQ(*ReadFile(dir + "/data.csv"), old_data);  // untouched

  // An old data.csv without a summary to take flags from is refused.
  ASSERT_TRUE(fs::remove(dir + "/summary.csv"));
  const absl::Status s = Resummarize(dir);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("no noisy/n_eff columns"));
}

TEST_F(SpecDirTest, ResummarizeRefusesWhatIsNotAFinishedRun) {
  absl::Status s = Resummarize(root_ + "/nowhere");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("no readable data.csv"));
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  const std::string dir = RunDir();
  const std::string data = *ReadFile(dir + "/data.csv");
  const std::string summary = *ReadFile(dir + "/summary.csv");
  // Another header (a chbench of other columns).
  ASSERT_TRUE(WriteFileAtomic(dir + "/data.csv",
                              "run_id,value\nx,1\n").ok());
  s = Resummarize(dir);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("header"));
  // A truncated row.
  ASSERT_TRUE(
      WriteFileAtomic(dir + "/data.csv", data + "default-x,balance\n").ok());
  s = Resummarize(dir);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("fields, not"));
  // Nothing was written.
  EXPECT_EQ(*ReadFile(dir + "/summary.csv"), summary);
}

// A cell file of another column count (an older chbench) is refused with a
// clear message instead of being assembled wrongly.
TEST_F(SpecDirTest, CellFileWithOtherColumnsIsRefused) {
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  const std::string dir = RunDir();
  std::string cell;
  for (const auto& e : fs::directory_iterator(dir + "/cells")) {
    cell = e.path().string();
    break;
  }
  auto recs = ParseCsv(*ReadFile(cell));
  ASSERT_TRUE(recs.ok());
  std::string text;
  for (std::vector<std::string>& f : *recs) {
    f.resize(f.size() - 2);  // without noisy and n_eff
    text += FormatFields(f);
  }
  ASSERT_TRUE(WriteFileAtomic(cell, text).ok());
  ASSERT_TRUE(fs::remove(dir + "/data.csv"));
  const absl::Status s = RunExperiments({"balance"}, options_);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("rerun with --force"));
}

// Files of an earlier chbench, without the optional columns (replicas,
// topology, batch), are read by column name: their cells assemble to the same
// data.csv and summary.csv as this build's, and their data.csv resummarizes
// to the same summary.
TEST_F(SpecDirTest, FilesWithoutTheOptionalColumnsReadByName) {
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  const std::string dir = RunDir();
  const std::string data = *ReadFile(dir + "/data.csv");
  const std::string summary = *ReadFile(dir + "/summary.csv");
  // Drops the optional columns of a CSV text; true if it had them.
  auto drop = [](const std::string& text, std::string* out) {
    auto recs = ParseCsv(text);
    if (!recs.ok() || recs->empty()) return false;
    std::vector<size_t> keep;
    for (size_t i = 0; i < recs->front().size(); ++i) {
      const std::string& h = recs->front()[i];
      if (std::find(kOptionalColumns.begin(), kOptionalColumns.end(), h) ==
          kOptionalColumns.end()) {
        keep.push_back(i);
      }
    }
    if (keep.size() + kOptionalColumns.size() != recs->front().size()) {
      return false;
    }
    out->clear();
    for (const std::vector<std::string>& f : *recs) {
      std::vector<std::string> kept;
      for (size_t i : keep) kept.push_back(f[i]);
      *out += FormatFields(kept);
    }
    return true;
  };
  int cells = 0;
  for (const auto& e : fs::directory_iterator(dir + "/cells")) {
    std::string old;
    ASSERT_TRUE(drop(*ReadFile(e.path().string()), &old));
    ASSERT_TRUE(WriteFileAtomic(e.path().string(), old).ok());
    ++cells;
  }
  ASSERT_GT(cells, 0);
  ASSERT_TRUE(fs::remove(dir + "/data.csv"));
  ASSERT_TRUE(RunExperiments({"balance"}, options_).ok());
  EXPECT_EQ(*ReadFile(dir + "/data.csv"), data);
  EXPECT_EQ(*ReadFile(dir + "/summary.csv"), summary);
  std::string old_data;
  ASSERT_TRUE(drop(data, &old_data));
  ASSERT_TRUE(WriteFileAtomic(dir + "/data.csv", old_data).ok());
  ASSERT_TRUE(fs::remove(dir + "/summary.csv"));
  // Without summary.csv only a data.csv without flags would fail: this one
  // has them.
  ASSERT_TRUE(Resummarize(dir).ok());
  EXPECT_EQ(*ReadFile(dir + "/summary.csv"), summary);
}

// A timing experiment's meta.json states the noise policy its cells were
// measured under, with the tier's re-measurement budget (60 s in the default
// tier, none in the full tier).
TEST_F(SpecDirTest, TimingMetaRecordsTheNoisePolicy) {
  std::ofstream(root_ + "/specs/lookup.toml") << R"(
[[sweep]]
kind = "lookup"
scenario = ["prehashed"]
algorithm = ["modulo"]
nodes = [3]
keys = [256]
min_time_s = 0.0002
repetitions = 3
)";
  for (const char* tier : {"default", "full"}) {
    options_.tier = tier;
    ASSERT_TRUE(RunExperiments({"lookup"}, options_).ok()) << tier;
    std::string meta;
    for (const auto& e : fs::directory_iterator(root_ + "/results/lookup")) {
      if (e.path().filename().string().starts_with(tier)) {
        meta = *ReadFile(e.path().string() + "/meta.json");
      }
    }
    EXPECT_THAT(meta, HasSubstr("\"timing_policy\": {\"cv_threshold\": 0.05, "
                                "\"pair_tolerance\": 0.1, \"max_remeasure\": "
                                "1, \"slices\": 3, \"sentinel\": "
                                "{\"slow_threshold\": 1.15, "
                                "\"max_slow_retries\": 2, \"max_wait_s\": 10, "
                                "\"retry_budget_s\": "))
        << tier;
    EXPECT_THAT(meta, HasSubstr(std::string(tier) == "default"
                                    ? "\"retry_budget_s\": 60}}"
                                    : "\"retry_budget_s\": null}}"))
        << tier;
  }
}

TEST_F(SpecDirTest, BadSpecIsInvalidArgumentAndRunsNothing) {
  std::ofstream(root_ + "/specs/balance.toml")
      << "[[sweep]]\nkind = \"balance\"\nalgorithm = [\"ring\", \"foo\"]\n"
         "nodes = 5\nkeys = 10\n";
  const absl::Status s = RunExperiments({"balance"}, options_);
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_THAT(s.message(),
              HasSubstr("experiments/balance.toml: key 'algorithm': unknown "
                        "value 'foo'; valid: modulo, ring"));
  EXPECT_FALSE(fs::exists(root_ + "/results"));
}

TEST_F(SpecDirTest, UnknownExperiment) {
  const absl::Status s = RunExperiments({"latency"}, options_);
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_THAT(s.message(),
              HasSubstr("unknown experiment 'latency'; valid: all, "
                        "lookup, build, memory, disruption"));
}

}  // namespace
}  // namespace chbench
