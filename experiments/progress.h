// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/progress.h
// -----------------------------------------------------------------------------
//
// Progress of `chbench run` on stderr: "[done/total] <unit>  elapsed Ns  ETA
// Ns". The ETA extrapolates each phase from its own units: the parallel
// non-timing cells are fast and many, the timing groups slow and few, so one
// rate for both would be wrong by an order of magnitude. Until the first
// timing group finishes, the groups still to come are shown as a count
// ("+ 12 timing groups") instead of a time.
//
// Guarantees: thread-safe; on a terminal each line overwrites the previous
// one (and the last ends with a newline), otherwise one line per unit.
//
// Example:
//   Progress progress(cells.size(), groups.size());
//   progress.Done("balance/ring-n10", /*timing=*/false);
//   progress.StartTiming();
//   progress.Done("lookup/ring-n100 +13", /*timing=*/true);

#ifndef CHBENCH_EXPERIMENTS_PROGRESS_H_
#define CHBENCH_EXPERIMENTS_PROGRESS_H_

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace chbench {

class Progress {
 public:
  Progress(size_t parallel_total, size_t timing_total);
  // Called once, when the timing phase begins.
  void StartTiming();
  // One unit finished: a non-timing cell, or a timing group.
  void Done(const std::string& what, bool timing);
  // A message line (on a terminal, it replaces the progress line).
  void Message(const std::string& m);

 private:
  using Clock = std::chrono::steady_clock;
  static double Seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
  }

  std::mutex mu_;
  const size_t parallel_total_, timing_total_;
  size_t parallel_done_ = 0, timing_done_ = 0;
  const bool tty_;
  const Clock::time_point start_;
  Clock::time_point timing_start_;
};

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_PROGRESS_H_
