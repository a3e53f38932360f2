// Copyright 2026 The chbench Authors.

#include "experiments/signals.h"

#include <unistd.h>

#include <atomic>
#include <mutex>

#include "experiments/csv.h"

namespace chbench {
namespace {

std::atomic<int> g_stop_signal{0};
std::atomic<bool> g_write_failed{false};
// The handlers StopSignals replaced (SIGINT, SIGTERM), for the second signal.
struct sigaction g_replaced[NSIG];
std::mutex g_write_error_mu;
std::string g_write_error;  // the first failed write

void OnStopSignal(int sig) {
  if (g_stop_signal.exchange(sig) != 0) {
    // The handler this one replaced: the default (terminate), or the
    // cluster's, which first kills the memcached servers (memcached.h).
    sigaction(sig, &g_replaced[sig], nullptr);
    raise(sig);
    return;
  }
  static constexpr char kMsg[] =
      "\nchbench run: interrupted; finishing the cells in progress "
      "(interrupt again to stop at once)\n";
  [[maybe_unused]] const ssize_t n = write(2, kMsg, sizeof(kMsg) - 1);
}

}  // namespace

StopSignals::StopSignals() {
  g_stop_signal.store(0);
  g_write_failed.store(false);
  {
    std::lock_guard<std::mutex> lock(g_write_error_mu);
    g_write_error.clear();
  }
  for (int i = 0; i < 2; ++i) {
    struct sigaction action {};
    action.sa_handler = OnStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    installed_[i] = sigaction(kSignals[i], &action, &previous_[i]) == 0;
    if (installed_[i] && !(previous_[i].sa_flags & SA_SIGINFO) &&
        previous_[i].sa_handler == SIG_IGN) {
      sigaction(kSignals[i], &previous_[i], nullptr);
      installed_[i] = false;
    }
    if (installed_[i]) g_replaced[kSignals[i]] = previous_[i];
  }
}

StopSignals::~StopSignals() {
  for (int i = 0; i < 2; ++i) {
    if (installed_[i]) sigaction(kSignals[i], &previous_[i], nullptr);
  }
}

bool Stopping() { return g_stop_signal.load() != 0 || g_write_failed.load(); }

int StopSignal() { return g_stop_signal.load(); }

bool WriteFailed() { return g_write_failed.load(); }

std::string FirstWriteError() {
  std::lock_guard<std::mutex> lock(g_write_error_mu);
  return g_write_error;
}

absl::Status WriteResult(const std::string& path, std::string_view data) {
  absl::Status s = WriteFileAtomic(path, data);
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(g_write_error_mu);
    if (!g_write_failed.exchange(true)) {
      g_write_error = std::string(s.message());
    }
  }
  return s;
}

}  // namespace chbench
