// Copyright 2026 The chbench Authors.

#include "experiments/progress.h"

#include <unistd.h>

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace chbench {

Progress::Progress(size_t parallel_total, size_t timing_total)
    : parallel_total_(parallel_total),
      timing_total_(timing_total),
      tty_(isatty(2)),
      start_(Clock::now()),
      timing_start_(start_) {}

void Progress::StartTiming() {
  std::lock_guard<std::mutex> lock(mu_);
  timing_start_ = Clock::now();
}

void Progress::Done(const std::string& what, bool timing) {
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::time_point now = Clock::now();
  ++(timing ? timing_done_ : parallel_done_);
  const double el = Seconds(now - start_);
  double eta = 0;
  if (parallel_done_ > 0) {
    const double rate =
        Seconds((timing_done_ > 0 ? timing_start_ : now) - start_) /
        static_cast<double>(parallel_done_);
    eta += rate * static_cast<double>(parallel_total_ - parallel_done_);
  }
  std::string pending;
  if (timing_done_ > 0) {
    eta += Seconds(now - timing_start_) / static_cast<double>(timing_done_) *
           static_cast<double>(timing_total_ - timing_done_);
  } else if (timing_total_ > 0) {
    pending = absl::StrCat(" + ", timing_total_, " timing groups");
  }
  const size_t done = parallel_done_ + timing_done_;
  const std::string msg = absl::StrFormat(
      "[%zu/%zu] %s  elapsed %.0fs  ETA %.0fs%s", done,
      parallel_total_ + timing_total_, what, el, eta, pending);
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", msg.c_str());
    if (done == parallel_total_ + timing_total_) std::fputc('\n', stderr);
  } else {
    std::fprintf(stderr, "%s\n", msg.c_str());
  }
  std::fflush(stderr);
}

void Progress::Message(const std::string& m) {
  std::lock_guard<std::mutex> lock(mu_);
  std::fprintf(stderr, "%s%s\n", tty_ ? "\r\033[K" : "", m.c_str());
}

}  // namespace chbench
