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

#include "experiments/csv.h"
#include "experiments/spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

namespace fs = std::filesystem;

std::string TempRoot(const std::string& name) {
  const std::string d =
      testing::TempDir() + "/pipeline_" + name + "_" + std::to_string(getpid());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string DefaultSpecDirForTest() {
  return std::string(CHBENCH_SOURCE_DIR) + "/experiments";
}

int RunChbench(const std::string& args, std::string* err = nullptr) {
  const std::string errfile =
      testing::TempDir() + "/pipeline_stderr_" + std::to_string(getpid());
  const std::string cmd =
      std::string(CHBENCH_BIN) + " " + args + " >/dev/null 2>" + errfile;
  const int rc = std::system(cmd.c_str());
  if (err != nullptr) *err = ReadFile(errfile).value_or("");
  fs::remove(errfile);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// <experiment>/<run_id>/data.csv -> its non-timing data rows (run_id column
// kept: same tier/spec).
std::map<std::string, std::vector<std::string>> NonTimingRows(
    const std::string& results) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& e : fs::recursive_directory_iterator(results)) {
    if (e.path().filename() != "data.csv") continue;
    std::vector<std::string>& rows =
        out[fs::relative(e.path(), results).string()];
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

// The unsharded smoke run: ctest's shared smoke run (CHBENCH_SMOKE_RESULTS,
// fixture smoke_results), or, run alone, a run of its own.
std::string UnshardedSmokeRun(std::string* err) {
  const char* shared = std::getenv("CHBENCH_SMOKE_RESULTS");
  if (shared != nullptr && fs::is_directory(shared)) return shared;
  const std::string root = TempRoot("unsharded");
  EXPECT_EQ(RunChbench("run all --tier smoke --results-dir " + root, err), 0)
      << *err;
  return root;
}

// Every experiment has data.csv, summary.csv and meta.json.
void ExpectAssembled(const std::string& root) {
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
}

// The smoke tier run again as three shards and merged equals the unsharded
// run byte for byte in every non-timing row: the cells are reproducible and
// the shards cover every cell exactly once. With CHBENCH_SHARDED_RESULTS set
// (make test-slurm: the shards ran as a Slurm job array), that merged run is
// checked instead of running the shards here.
TEST(PipelineTest, MergedShardsEqualUnsharded) {
  std::string err;
  const std::string unsharded = UnshardedSmokeRun(&err);
  ExpectAssembled(unsharded);
  std::string sharded;
  if (const char* given = std::getenv("CHBENCH_SHARDED_RESULTS")) {
    sharded = given;
  } else {
    sharded = TempRoot("sharded");
    for (int i = 1; i <= 3; ++i) {
      ASSERT_EQ(RunChbench("run all --tier smoke --results-dir " + sharded +
                               " --shard " + std::to_string(i) + "/3",
                           &err),
                0)
          << err;
      EXPECT_THAT(err, ::testing::HasSubstr("`chbench merge` assembles"));
      for (const auto& e : fs::recursive_directory_iterator(sharded)) {
        EXPECT_NE(e.path().filename(), "data.csv") << "assembled early";
      }
    }
    ASSERT_EQ(
        RunChbench("merge all --tier smoke --results-dir " + sharded, &err), 0)
        << err;
  }
  ExpectAssembled(sharded);
  const auto first = NonTimingRows(unsharded);
  const auto second = NonTimingRows(sharded);
  EXPECT_EQ(first.size(), kExperimentNames.size());
  EXPECT_EQ(first, second);
  // meta.json names the three shards.
  for (const auto& e : fs::recursive_directory_iterator(sharded)) {
    if (e.path().filename() != "meta.json") continue;
    const std::string meta = ReadFile(e.path().string()).value();
    EXPECT_THAT(meta, ::testing::HasSubstr("\"shards\": {\"records\": ["))
        << e.path();
    EXPECT_THAT(meta, ::testing::HasSubstr("\"shard\": 3, \"shards\": 3"))
        << e.path();
  }
  if (std::getenv("CHBENCH_SHARDED_RESULTS") == nullptr)
    fs::remove_all(sharded);
  // The test's own unsharded run (not ctest's shared one) goes too.
  const char* shared = std::getenv("CHBENCH_SMOKE_RESULTS");
  if (shared == nullptr || unsharded != shared) fs::remove_all(unsharded);
}

// The merge refuses what it cannot vouch for: a missing shard (named), and
// shards from different commits.
TEST(PipelineTest, MergeRefusesMissingAndMismatchedShards) {
  const std::string root = TempRoot("merge_refuses");
  std::string err;
  ASSERT_EQ(RunChbench("run weights --tier smoke --results-dir " + root +
                           " --shard 1/2",
                       &err),
            0)
      << err;
  EXPECT_EQ(
      RunChbench("merge weights --tier smoke --results-dir " + root, &err), 2);
  EXPECT_THAT(err,
              ::testing::HasSubstr("cells missing; no record of shard(s) 2/2"));
  ASSERT_EQ(RunChbench("run weights --tier smoke --results-dir " + root +
                           " --shard 2/2",
                       &err),
            0)
      << err;
  // Shard 2 claims another commit.
  std::string record;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().filename() == "2-of-2.toml") record = e.path().string();
  }
  ASSERT_FALSE(record.empty());
  std::string text = ReadFile(record).value();
  const size_t at = text.find("git_commit = '");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 14, "git_commit = 'f00d");
  ASSERT_TRUE(WriteFileAtomic(record, text).ok());
  EXPECT_EQ(
      RunChbench("merge weights --tier smoke --results-dir " + root, &err), 2);
  EXPECT_THAT(err, ::testing::HasSubstr("shards from different commits"));
  // A plain run refuses to assemble them too.
  EXPECT_EQ(RunChbench("run weights --tier smoke --results-dir " + root, &err),
            2);
  EXPECT_THAT(err, ::testing::HasSubstr("shards from different commits"));
  EXPECT_EQ(RunChbench("run weights --tier smoke --shard 3/2", &err), 2);
  EXPECT_THAT(err, ::testing::HasSubstr(
                       "the shard number 3 is out of range; valid: 1..2"));
  EXPECT_EQ(RunChbench("run weights --tier smoke --shard two", &err), 2);
  EXPECT_THAT(err, ::testing::HasSubstr("is not I/N"));
  fs::remove_all(root);
}

// The fault tests run a spec of their own, interrupt it, and resume: 120
// ring balance cells at N = 10 (about 4 ms each with one job, so a run
// lasts about half a second and a signal after 5 cells lands mid-run; about
// 3 KB each, so a 40 KiB disk fills after some 13 cells).
constexpr char kFaultSpec[] = R"(description = "Fault tests: ring balance"
[[sweep]]
kind = "balance"
algorithm = ["ring"]
nodes = [10]
vnodes = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
keys_per_node = [1000]
repetitions = 12
)";

// "run vnodes ... --spec-dir <dir of kFaultSpec>", the spec written once.
const std::string& FaultRunArgs() {
  static const auto* args = [] {
    const std::string dir = TempRoot("fault_spec");
    EXPECT_TRUE(WriteFileAtomic(dir + "/vnodes.toml", kFaultSpec).ok());
    return new std::string("run vnodes --tier default --jobs 1 --spec-dir " +
                           dir);
  }();
  return *args;
}

// A clean, uninterrupted run: what every resumed run must equal.
const std::map<std::string, std::vector<std::string>>& CleanFaultRun() {
  static const auto* rows = [] {
    const std::string root = TempRoot("clean");
    std::string err;
    EXPECT_EQ(
        RunChbench(FaultRunArgs() + " --results-dir " + root, &err), 0)
        << err;
    auto* r = new std::map<std::string, std::vector<std::string>>(
        NonTimingRows(root));
    fs::remove_all(root);
    return r;
  }();
  return *rows;
}

// Starts the fault run into `root` (stderr to `errfile`) and returns its pid once
// it has written at least `cells` cell files.
pid_t StartFaultRun(const std::string& root, const std::string& errfile,
                    size_t cells) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string cmd = std::string(CHBENCH_BIN) + " " + FaultRunArgs() +
                            " --results-dir " + root + " 2>" + errfile;
    execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), nullptr);
    _exit(127);
  }
  for (int i = 0; i < 3000 && pid > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    size_t n = 0;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(root, ec)) {
      n += e.path().extension() == ".csv";
    }
    if (n >= cells) break;
  }
  return pid;
}

// Every file under `root`: complete CSVs (the schema, parsed), no temporary
// file of an atomic write, no data.csv. Returns the number of cell files.
size_t ExpectOnlyCompleteCells(const std::string& root, bool allow_tmp) {
  size_t complete = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    if (name.find(".tmp.") != std::string::npos) {
      EXPECT_TRUE(allow_tmp) << "temporary file left: " << e.path();
      continue;  // a write cut short by SIGKILL; never read
    }
    EXPECT_NE(name, "data.csv") << "assembled although interrupted";
    if (e.path().extension() != ".csv") continue;
    const std::string text = ReadFile(e.path().string()).value();
    auto recs = ParseCsv(text);
    EXPECT_TRUE(recs.ok()) << e.path() << ": " << recs.status();
    if (!recs.ok()) continue;
    EXPECT_GE(recs->size(), 2u) << e.path();
    for (const auto& f : *recs)
      EXPECT_EQ(f.size(), kColumns.size()) << e.path();
    ++complete;
  }
  return complete;
}

// Resumes the interrupted run in `root`: it must finish and equal a clean run.
void ExpectResumeCompletes(const std::string& root) {
  std::string err;
  ASSERT_EQ(RunChbench(FaultRunArgs() + " --results-dir " + root, &err),
            0)
      << err;
  EXPECT_THAT(err, ::testing::HasSubstr("cells already done"));
  EXPECT_EQ(NonTimingRows(root), CleanFaultRun());
}

TEST(PipelineTest, KillLeavesOnlyCompleteFilesAndResumes) {
  const std::string root = TempRoot("kill");
  const pid_t pid = StartFaultRun(root, root + ".err", 5);
  ASSERT_GT(pid, 0);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "finished before the kill";
  EXPECT_GE(ExpectOnlyCompleteCells(root, /*allow_tmp=*/true), 5u);
  ExpectResumeCompletes(root);
  fs::remove_all(root);
  fs::remove(root + ".err");
}

TEST(PipelineTest, InterruptFinishesCellsInProgressAndResumes) {
  const std::string root = TempRoot("sigint");
  const std::string errfile = root + ".err";
  const pid_t pid = StartFaultRun(root, errfile, 5);
  ASSERT_GT(pid, 0);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by the signal, not stopped";
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::string err = ReadFile(errfile).value_or("");
  fs::remove(errfile);
  EXPECT_THAT(err, ::testing::HasSubstr("interrupted by SIGINT"));
  EXPECT_THAT(err, ::testing::HasSubstr("Rerun the same command to resume"));
  EXPECT_GE(ExpectOnlyCompleteCells(root, /*allow_tmp=*/false), 5u);
  ExpectResumeCompletes(root);
  fs::remove_all(root);
}

// A disk that fills up in the middle of a sweep: a 40 KiB tmpfs in a private
// mount namespace (unshare -rm: root, or an unprivileged user namespace),
// grown to 64 MiB for the resume.
TEST(PipelineTest, FullDiskStopsCleanlyAndResumes) {
  if (std::system("unshare -rm true >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "needs mount namespaces (unshare -rm) for a small tmpfs";
  }
  const std::string out = TempRoot("fulldisk");
  const std::string mnt = out + "/mnt";
  fs::create_directories(mnt);
  const std::string run = std::string(CHBENCH_BIN) + " " + FaultRunArgs() +
                          " --results-dir " + mnt + "/r";
  const std::string script =
      "mount -t tmpfs -o size=40k tmpfs '" + mnt + "' || exit 99; " + run +
      " 2>'" + out + "/err1'; echo \\$? >'" + out + "/rc1'; " + "cp -r '" +
      mnt + "/r' '" + out + "/partial'; " + "mount -o remount,size=64m '" +
      mnt + "' || exit 98; " + run + " 2>'" + out + "/err2'; echo \\$? >'" +
      out + "/rc2'; " + "cp -r '" + mnt + "/r' '" + out + "/final'";
  const int rc = std::system(
      ("unshare -rm sh -c \"" + script + "\" >/dev/null 2>&1").c_str());
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << "rc " << rc;
  EXPECT_EQ(ReadFile(out + "/rc1").value_or(""), "1\n");
  const std::string err1 = ReadFile(out + "/err1").value_or("");
  EXPECT_THAT(err1, ::testing::HasSubstr("cannot write results"));
  EXPECT_THAT(err1, ::testing::HasSubstr("No space left on device"));
  EXPECT_THAT(err1, ::testing::HasSubstr("rerun the same command: it resumes"));
  ExpectOnlyCompleteCells(out + "/partial", /*allow_tmp=*/false);
  EXPECT_EQ(ReadFile(out + "/rc2").value_or(""), "0\n")
      << ReadFile(out + "/err2").value_or("");
  EXPECT_EQ(NonTimingRows(out + "/final"), CleanFaultRun());
  fs::remove_all(out);
}

// A spec edited between two runs: the new spec is a new run (run_id = tier
// and spec hash), said on stderr; the earlier run's files stay untouched.
TEST(PipelineTest, SpecChangedBetweenRunsKeepsEarlierRun) {
  const std::string root = TempRoot("specchange");
  const std::string specs = root + "/specs";
  fs::create_directories(specs);
  for (const auto& e : fs::directory_iterator(DefaultSpecDirForTest())) {
    if (e.path().extension() == ".toml") {
      fs::copy_file(e.path(), specs + "/" + e.path().filename().string());
    }
  }
  const std::string args =
      "run weights --tier smoke --spec-dir " + specs + " --results-dir " + root;
  std::string err;
  ASSERT_EQ(RunChbench(args, &err), 0) << err;
  std::map<std::string, std::string> before;
  for (const auto& e : fs::recursive_directory_iterator(root + "/weights")) {
    if (e.is_regular_file()) {
      before[e.path().string()] = ReadFile(e.path().string()).value();
    }
  }
  ASSERT_FALSE(before.empty());
  {
    std::string text = ReadFile(specs + "/weights.toml").value();
    text += "\n# edited between runs\n";
    ASSERT_TRUE(WriteFileAtomic(specs + "/weights.toml", text).ok());
  }
  ASSERT_EQ(RunChbench(args, &err), 0) << err;
  EXPECT_THAT(err,
              ::testing::HasSubstr("differs from the spec of run(s) smoke-"));
  size_t runs = 0;
  for (const auto& d : fs::directory_iterator(root + "/weights")) {
    ++runs;
    EXPECT_TRUE(fs::exists(d.path() / "data.csv")) << d.path();
  }
  EXPECT_EQ(runs, 2u);
  for (const auto& [path, text] : before) {
    EXPECT_EQ(ReadFile(path).value_or(""), text) << path;
  }
  fs::remove_all(root);
}

TEST(PipelineTest, ResumeSkipsFinishedCells) {
  const std::string root = TempRoot("resume");
  std::string err;
  ASSERT_EQ(RunChbench("run weights --tier smoke --results-dir " + root, &err),
            0)
      << err;
  ASSERT_EQ(RunChbench("run weights --tier smoke --results-dir " + root, &err),
            0);
  EXPECT_THAT(err, ::testing::HasSubstr("cells already done"));
  ASSERT_EQ(RunChbench("run weights --tier smoke --force --results-dir " + root,
                       &err),
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
