// Copyright 2026 The chbench Authors.
//
// End-to-end tests of the `chbench run` binary (CHBENCH_BIN), labelled
// "slow" in CTest (skipped by the sanitizer run):
//   * the whole smoke tier into a temporary directory: every data.csv has
//     exactly the schema header and parses; a second run with --force gives
//     byte-identical rows for every non-timing metric;
//   * SIGKILL in the middle of a run leaves only complete CSV files at final
//     paths (the resume test covers the rerun);
//   * exit status 2 with the valid names for an unknown experiment.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "experiments/csv.h"
#include "experiments/spec.h"

namespace chbench {
namespace {

namespace fs = std::filesystem;

std::string TempRoot(const std::string& name) {
  const std::string d = testing::TempDir() + "/pipeline_" + name + "_" +
                        std::to_string(getpid());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

int RunChbench(const std::string& args, std::string* err = nullptr) {
  const std::string errfile = testing::TempDir() + "/pipeline_stderr_" +
                              std::to_string(getpid());
  const std::string cmd =
      std::string(CHBENCH_BIN) + " " + args + " >/dev/null 2>" + errfile;
  const int rc = std::system(cmd.c_str());
  if (err != nullptr) *err = ReadFile(errfile).value_or("");
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// experiment -> non-timing data rows (run_id column kept: same tier/spec).
std::map<std::string, std::vector<std::string>> NonTimingRows(
    const std::string& results) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& e : fs::recursive_directory_iterator(results)) {
    if (e.path().filename() != "data.csv") continue;
    std::vector<std::string>& rows = out[e.path().string()];
    const std::string text = ReadFile(e.path().string()).value();
    auto recs = ParseCsv(text);
    EXPECT_TRUE(recs.ok()) << e.path();
    if (!recs.ok()) continue;
    EXPECT_EQ(text.substr(0, text.find('\n') + 1), CsvHeader()) << e.path();
    EXPECT_GT(recs->size(), 1u) << e.path();
    for (size_t i = 1; i < recs->size(); ++i) {
      const std::vector<std::string>& f = (*recs)[i];
      EXPECT_EQ(f.size(), kColumns.size()) << e.path() << " row " << i;
      // Timing metrics and real-memcached cluster rows vary run to run.
      if (f.size() != kColumns.size() ||
          IsTimingMetric(f[ColumnIndex("metric")]) ||
          f[ColumnIndex("mode")] == "memcached") {
        continue;
      }
      rows.push_back(FormatFields(f));
    }
  }
  return out;
}

// The first run: ctest's shared smoke run (CHBENCH_SMOKE_RESULTS, fixture
// smoke_results), copied; or, run alone, a run of its own.
TEST(PipelineTest, SmokeTierAllExperimentsReproduce) {
  const std::string root = TempRoot("smoke");
  std::string err;
  const char* shared = std::getenv("CHBENCH_SMOKE_RESULTS");
  if (shared != nullptr && fs::is_directory(shared)) {
    fs::copy(shared, root, fs::copy_options::recursive |
                               fs::copy_options::overwrite_existing);
  } else {
    ASSERT_EQ(RunChbench("run all --tier smoke --results-dir " + root, &err),
              0)
        << err;
  }
  for (std::string_view e : kExperimentNames) {
    bool found = false;
    for (const auto& d : fs::directory_iterator(root + "/" + std::string(e))) {
      found = true;
      for (const char* f : {"data.csv", "summary.csv", "meta.json"}) {
        EXPECT_TRUE(fs::exists(d.path() / f)) << d.path() << " " << f;
      }
    }
    EXPECT_TRUE(found) << e;
  }
  const auto first = NonTimingRows(root);
  EXPECT_EQ(first.size(), kExperimentNames.size());
  ASSERT_EQ(RunChbench("run all --tier smoke --force --results-dir " + root, &err), 0)
      << err;
  const auto second = NonTimingRows(root);
  EXPECT_EQ(first, second);
  fs::remove_all(root);
}

TEST(PipelineTest, KillLeavesOnlyCompleteFiles) {
  const std::string root = TempRoot("kill");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string dir = root;
    execl(CHBENCH_BIN, CHBENCH_BIN, "run", "disruption", "--tier", "default",
          "--jobs", "2", "--results-dir", dir.c_str(), nullptr);
    _exit(127);
  }
  // Let it write some cells, then kill it without warning.
  const std::string cells_root = root + "/disruption";
  for (int i = 0; i < 600; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    size_t n = 0;
    if (fs::exists(cells_root)) {
      for (const auto& e : fs::recursive_directory_iterator(cells_root)) {
        n += e.path().extension() == ".csv";
      }
    }
    if (n >= 5) break;
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  size_t complete = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".csv") continue;  // *.csv.tmp.* are partial
    const std::string text = ReadFile(e.path().string()).value();
    auto recs = ParseCsv(text);
    ASSERT_TRUE(recs.ok()) << e.path() << ": " << recs.status();
    ASSERT_GE(recs->size(), 2u) << e.path();
    for (const auto& f : *recs) ASSERT_EQ(f.size(), kColumns.size()) << e.path();
    ++complete;
  }
  EXPECT_GE(complete, 5u);
  fs::remove_all(root);
}

TEST(PipelineTest, ResumeSkipsFinishedCells) {
  const std::string root = TempRoot("resume");
  std::string err;
  ASSERT_EQ(RunChbench("run weights --tier smoke --results-dir " + root, &err), 0)
      << err;
  ASSERT_EQ(RunChbench("run weights --tier smoke --results-dir " + root, &err), 0);
  EXPECT_THAT(err, ::testing::HasSubstr("cells already done"));
  ASSERT_EQ(RunChbench("run weights --tier smoke --force --results-dir " + root, &err),
            0);
  EXPECT_THAT(err, ::testing::Not(::testing::HasSubstr("cells already done")));
  fs::remove_all(root);
}

TEST(PipelineTest, UsageErrorsExitTwo) {
  std::string err;
  EXPECT_EQ(RunChbench("run latency", &err), 2);
  EXPECT_THAT(err, ::testing::HasSubstr(
                       "unknown experiment 'latency'; valid: all, lookup"));
  EXPECT_EQ(RunChbench("run balance --tier huge", &err), 2);
  EXPECT_THAT(err, ::testing::HasSubstr("valid tiers: smoke, default, full"));
}

}  // namespace
}  // namespace chbench
