// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/signals.h
// -----------------------------------------------------------------------------
//
// How a run stops early. SIGINT or SIGTERM during a run: the first one lets
// the cells in progress finish (their files are written atomically) and
// starts no new one; a second one ends the process at once (the handler that
// was there before: the default action, or the cluster's, which first stops
// its memcached servers). A failed result write (a full disk) stops the run
// the same way.
//
// Guarantees: StopSignals installs the handler for its lifetime only and
// leaves a signal the parent ignores ignored; the handler is
// async-signal-safe (an atomic exchange and write(2)). Stopping(),
// StopSignal() and WriteFailed() may be read from any thread.
//
// Example:
//   StopSignals stop_signals;  // until the end of the scope
//   for (const Job& j : jobs) {
//     if (Stopping()) break;
//     absl::Status s = WriteResult(j.path, Run(j));
//   }
//   if (StopSignal() != 0) return absl::CancelledError("interrupted");

#ifndef CHBENCH_EXPERIMENTS_SIGNALS_H_
#define CHBENCH_EXPERIMENTS_SIGNALS_H_

#include <signal.h>

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace chbench {

// Installs the stop handler for SIGINT and SIGTERM and clears the stop and
// write-failure state; restores the previous handlers when it goes away.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr int kSignals[2] = {SIGINT, SIGTERM};
  struct sigaction previous_[2];
  bool installed_[2] = {false, false};
};

// True once a stop signal arrived or a result write failed: start nothing.
bool Stopping();

// The first stop signal received (SIGINT or SIGTERM), or 0.
int StopSignal();

// Whether a WriteResult failed, and the first failure's message.
bool WriteFailed();
std::string FirstWriteError();

// Writes a result file atomically (WriteFileAtomic); a failure also stops
// the run (see above).
absl::Status WriteResult(const std::string& path, std::string_view data);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_SIGNALS_H_
