// Copyright 2026 The chbench Authors.

#include "bench/harness.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/util/random.h"

namespace chbench {

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

std::optional<std::pair<uint64_t, uint64_t>> ReadStealJiffies() {
  std::ifstream in("/proc/stat");
  std::string line;
  if (!std::getline(in, line) || line.rfind("cpu ", 0) != 0) {
    return std::nullopt;
  }
  std::istringstream fields(line.substr(4));
  // user nice system idle iowait irq softirq steal guest guest_nice; guest
  // time is already included in user/nice, so it is not added again.
  uint64_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (uint64_t& x : v) {
    if (!(fields >> x)) return std::nullopt;
  }
  uint64_t total = 0;
  for (uint64_t x : v) total += x;
  return std::make_pair(v[7], total);
}

double ReadLoadAvg1m() {
  std::ifstream in("/proc/loadavg");
  double l = 0;
  if (!(in >> l)) return 0;
  return l;
}

std::optional<double> SentinelReference::ns() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ns_;
}

void SentinelReference::Offer(double median_ns) {
  if (!(median_ns > 0)) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (!ns_ || median_ns < *ns_) ns_ = median_ns;
}

void SentinelReference::SetRetryBudget(std::optional<double> seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  retry_budget_s_ = seconds;
  retry_spent_s_ = 0;
}

bool SentinelReference::RetryBudgetLeft() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !retry_budget_s_ || retry_spent_s_ < *retry_budget_s_;
}

void SentinelReference::ChargeRetry(double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  retry_spent_s_ += std::max(seconds, 0.0);
}

double SentinelReference::RetrySpent() const {
  std::lock_guard<std::mutex> lock(mu_);
  return retry_spent_s_;
}

std::optional<double> SentinelReference::RetryBudget() const {
  std::lock_guard<std::mutex> lock(mu_);
  return retry_budget_s_;
}

SentinelReference& ProcessSentinelReference() {
  static SentinelReference* const reference = new SentinelReference();
  return *reference;
}

Kernel MachineSentinel() {
  Kernel k;
  k.label = "machine_sentinel";
  k.run = [](uint64_t iterations) {
    uint64_t fold = 0;
    const double t0 = ThreadCpuSeconds();
    for (uint64_t i = 0; i < iterations; ++i) {
      const size_t words = 1024 + (i & 63);
      auto* p = static_cast<uint64_t*>(std::malloc(words * sizeof(uint64_t)));
      if (p == nullptr) return Measurement{0, ~uint64_t{0}};
      std::memset(p, 0, words * sizeof(uint64_t));
      p[i & 1023] = i;
      // The zero-fill and the store must happen: the compiler cannot see
      // through this.
      asm volatile("" : : "r"(p) : "memory");
      fold += p[i & 1023] + p[(i + 1) & 1023];  // i + 0
      std::free(p);
    }
    return Measurement{ThreadCpuSeconds() - t0, fold};
  };
  k.expected = [](uint64_t iterations) {
    return iterations == 0 ? 0 : iterations * (iterations - 1) / 2;
  };
  return k;
}

double Median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double CoefficientOfVariation(std::span<const double> v) {
  if (v.size() < 2) return 0;
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  const double sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
  return mean > 0 ? sd / mean : 0;
}

namespace {

// One checked measurement of kernel `k` with `iterations` iterations.
absl::StatusOr<Measurement> Measure(const Kernel& k, uint64_t iterations) {
  const Measurement m = k.run(iterations);
  const uint64_t want = k.expected(iterations);
  if (m.fold != want) {
    return absl::InternalError(absl::StrFormat(
        "timing kernel %s: fold 0x%016x after %d iterations, expected "
        "0x%016x: the timed loop skipped or changed operations",
        k.label, m.fold, iterations, want));
  }
  return m;
}

// Iterations for about min_time_s per measurement: doubling probes from 1
// until a probe takes at least min_time_s / 8, then scale.
absl::StatusOr<uint64_t> Calibrate(const Kernel& k, double min_time_s) {
  if (k.fixed_iterations) return std::max<uint64_t>(1, *k.fixed_iterations);
  uint64_t it = 1;
  for (;;) {
    absl::StatusOr<Measurement> m = Measure(k, it);
    if (!m.ok()) return m.status();
    const double s = std::max(m->seconds, 1e-9);
    if (s >= min_time_s / 8 || it >= k.max_iterations) {
      const double scaled = std::ceil(static_cast<double>(it) * min_time_s / s);
      return static_cast<uint64_t>(std::clamp<double>(
          scaled, 1.0, static_cast<double>(k.max_iterations)));
    }
    it = std::min(it * 2, k.max_iterations);
  }
}

// Runs the sentinel alone until the median of its last three measurements is
// within the slow threshold of `reference`, or the measurements have taken
// max_wait_s (each counted as at least 0.1 ms, so that the loop ends even if
// a kernel reports no time). Returns the seconds they took.
absl::StatusOr<double> WaitForFastState(const SentinelOptions& s,
                                        uint64_t iterations, double reference) {
  double waited = 0;
  std::vector<double> last;
  while (waited < s.max_wait_s) {
    absl::StatusOr<Measurement> m = Measure(s.kernel, iterations);
    if (!m.ok()) return m.status();
    waited += std::max(m->seconds, 1e-4);
    if (last.size() == 3) last.erase(last.begin());
    last.push_back(m->seconds * 1e9 / static_cast<double>(iterations));
    if (last.size() == 3 && Median(last) <= reference * s.slow_threshold) {
      break;
    }
  }
  return waited;
}

// R interleaved rounds over the kernels in `which`; fills their ns_per_op.
// With a sentinel (index kernels.size() in the order), it runs in every
// round too and fills `sentinel_out`.
absl::Status Rounds(std::span<Kernel> kernels, const std::vector<size_t>& which,
                    const HarnessOptions& o, uint64_t salt,
                    std::vector<KernelResult>* out,
                    KernelResult* sentinel_out = nullptr) {
  const size_t sentinel = kernels.size();
  auto result = [&](size_t j) -> KernelResult& {
    return j == sentinel ? *sentinel_out : (*out)[j];
  };
  std::vector<size_t> order = which;
  if (o.sentinel && sentinel_out != nullptr) order.push_back(sentinel);
  for (size_t j : order) {
    result(j).ns_per_op.assign(o.rounds, 0.0);
  }
  for (uint32_t r = 0; r < o.rounds; ++r) {
    Sfc64 rng(o.seed ^ (salt * 0x9e3779b97f4a7c15ULL) ^ r);
    for (size_t i = order.size(); i > 1; --i) {
      std::swap(order[i - 1], order[rng.Below(i)]);
    }
    for (size_t j : order) {
      const Kernel& k = j == sentinel ? o.sentinel->kernel : kernels[j];
      // The round's value: the median of `slices` back-to-back measurements
      // of iterations / slices each (same total time), so that a transient
      // disturbance (an interrupt, a neighbour's burst) shorter than a slice
      // does not move the round.
      const uint64_t total = result(j).iterations;
      const uint32_t slices = static_cast<uint32_t>(
          std::min<uint64_t>(std::max(o.slices, 1u), total));
      const uint64_t per = total / slices;
      std::vector<double> ns(slices);
      for (uint32_t q = 0; q < slices; ++q) {
        const uint64_t it = q + 1 < slices ? per : total - per * (slices - 1);
        absl::StatusOr<Measurement> m = Measure(k, it);
        if (!m.ok()) return m.status();
        ns[q] = m->seconds * 1e9 /
                (static_cast<double>(it) * k.ops_per_iteration);
      }
      result(j).ns_per_op[r] = Median(std::move(ns));
    }
  }
  return absl::OkStatus();
}

// Kernels that fail the noise gate, with the reason in `reason`.
std::vector<size_t> Suspects(std::span<Kernel> kernels,
                             const std::vector<KernelResult>& res,
                             const HarnessOptions& o,
                             std::vector<std::string>* reason) {
  std::vector<size_t> bad;
  for (size_t j = 0; j < kernels.size(); ++j) {
    std::string why;
    const double cv = CoefficientOfVariation(res[j].ns_per_op);
    if (cv > o.cv_threshold) {
      why = absl::StrFormat("cv %.1f %% > %.0f %%", 100 * cv,
                            100 * o.cv_threshold);
    }
    if (kernels[j].latency_of) {
      const double tp = Median(res[j].ns_per_op);
      const double lat = Median(res[*kernels[j].latency_of].ns_per_op);
      if (tp > lat * (1 + o.pair_tolerance)) {
        absl::StrAppend(&why, why.empty() ? "" : "; ",
                        absl::StrFormat("throughput %.3g ns > latency %.3g ns "
                                        "+ %.0f %%",
                                        tp, lat, 100 * o.pair_tolerance));
      }
    }
    (*reason)[j] = why;
    if (!why.empty()) bad.push_back(j);
  }
  return bad;
}

}  // namespace

absl::StatusOr<HarnessResult> RunInterleaved(std::span<Kernel> kernels,
                                             const HarnessOptions& o) {
  if (o.rounds == 0) {
    return absl::InvalidArgumentError("harness: rounds must be >= 1, got 0");
  }
  if (!(o.min_time_s > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("harness: min_time_s must be > 0, got ", o.min_time_s));
  }
  for (const Kernel& k : kernels) {
    if (!k.run || !k.expected) {
      return absl::InvalidArgumentError(
          absl::StrCat("harness: kernel ", k.label, " has no run/expected"));
    }
    for (size_t p : k.partners) {
      if (p >= kernels.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("harness: kernel ", k.label, " partner out of range"));
      }
    }
    if (k.latency_of && *k.latency_of >= kernels.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("harness: kernel ", k.label, " latency_of out of range"));
    }
  }
  if (o.sentinel) {
    if (o.sentinel->reference == nullptr || !o.sentinel->kernel.run ||
        !o.sentinel->kernel.expected) {
      return absl::InvalidArgumentError(
          "harness: the sentinel needs a kernel and a reference");
    }
    if (!(o.sentinel->slow_threshold >= 1) ||
        o.sentinel->max_slow_retries < 0 || !(o.sentinel->max_wait_s >= 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "harness: sentinel slow_threshold must be >= 1, max_slow_retries "
          ">= 0 and max_wait_s >= 0, got ",
          o.sentinel->slow_threshold, ", ", o.sentinel->max_slow_retries,
          " and ", o.sentinel->max_wait_s));
    }
  }
  HarnessResult result;
  result.kernels.resize(kernels.size());
  const std::optional<std::pair<uint64_t, uint64_t>> steal0 =
      ReadStealJiffies();
  for (size_t j = 0; j < kernels.size(); ++j) {
    absl::StatusOr<uint64_t> it = Calibrate(kernels[j], o.min_time_s);
    if (!it.ok()) return it.status();
    result.kernels[j].iterations = *it;
  }
  KernelResult sentinel;
  double reference = 0;
  // Whether a sentinel median is in a slow state.
  auto slow = [&](double median) {
    return o.sentinel && median > reference * o.sentinel->slow_threshold;
  };
  if (o.sentinel) {
    absl::StatusOr<uint64_t> it = Calibrate(o.sentinel->kernel, o.min_time_s);
    if (!it.ok()) return it.status();
    sentinel.iterations = *it;
    if (!o.sentinel->reference->ns()) {
      // The process's first group: the fastest of 15 probes.
      double fastest = 0;
      for (int i = 0; i < 15; ++i) {
        absl::StatusOr<Measurement> m = Measure(o.sentinel->kernel, *it);
        if (!m.ok()) return m.status();
        const double ns = m->seconds * 1e9 / static_cast<double>(*it);
        if (i == 0 || ns < fastest) fastest = ns;
      }
      o.sentinel->reference->Offer(fastest);
    }
    reference = *o.sentinel->reference->ns();
    result.sentinel_reference_ns = reference;
  }
  std::vector<size_t> all(kernels.size());
  std::iota(all.begin(), all.end(), 0);
  if (absl::Status s = Rounds(kernels, all, o, 0, &result.kernels, &sentinel);
      !s.ok()) {
    return s;
  }
  if (o.sentinel) {
    // 5. A group in a slow state is measured again whole; the attempt with
    // the fastest sentinel is kept.
    double kept = Median(sentinel.ns_per_op);
    for (int retry = 1; retry <= o.sentinel->max_slow_retries && slow(kept);
         ++retry) {
      if (!o.sentinel->reference->RetryBudgetLeft()) {
        result.retry_budget_spent = true;
        break;
      }
      const auto t0 = std::chrono::steady_clock::now();
      absl::StatusOr<double> waited =
          WaitForFastState(*o.sentinel, sentinel.iterations, reference);
      if (!waited.ok()) return waited.status();
      result.slow_wait_s += *waited;
      std::vector<KernelResult> again = result.kernels;
      KernelResult again_sentinel = sentinel;
      if (absl::Status s =
              Rounds(kernels, all, o, 1000 + retry, &again, &again_sentinel);
          !s.ok()) {
        return s;
      }
      ++result.slow_retries;
      o.sentinel->reference->ChargeRetry(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count());
      const double m = Median(again_sentinel.ns_per_op);
      if (m < kept) {
        kept = m;
        result.kernels = std::move(again);
        sentinel = std::move(again_sentinel);
      }
    }
    result.sentinel_ns = kept;
    result.slow_state = slow(kept);
    o.sentinel->reference->Offer(kept);
  }
  std::vector<std::string> reason(kernels.size());
  std::vector<size_t> bad = Suspects(kernels, result.kernels, o, &reason);
  for (int attempt = 1; attempt <= o.max_remeasure && !bad.empty();
       ++attempt) {
    // The suspects and everything compared with them, so that ratios and
    // pairs stay measured in the same rounds.
    std::vector<bool> in(kernels.size(), false);
    for (size_t j : bad) {
      in[j] = true;
      for (size_t p : kernels[j].partners) in[p] = true;
      if (kernels[j].latency_of) in[*kernels[j].latency_of] = true;
    }
    std::vector<size_t> again;
    for (size_t j = 0; j < kernels.size(); ++j) {
      if (in[j]) {
        again.push_back(j);
        ++result.kernels[j].remeasured;
      }
    }
    const std::vector<KernelResult> before = result.kernels;
    KernelResult attempt_sentinel = sentinel;
    if (absl::Status s = Rounds(kernels, again, o, attempt, &result.kernels,
                                &attempt_sentinel);
        !s.ok()) {
      return s;
    }
    if (o.sentinel && slow(Median(attempt_sentinel.ns_per_op))) {
      // Measured in a slow state: the earlier values stay.
      for (size_t j : again) {
        result.kernels[j].ns_per_op = before[j].ns_per_op;
      }
    }
    bad = Suspects(kernels, result.kernels, o, &reason);
  }
  for (size_t j : bad) {
    result.kernels[j].noisy = true;
    result.kernels[j].noise_reason = reason[j];
  }
  if (result.slow_state) {
    const std::string why = absl::StrFormat(
        "machine slow state: sentinel %.3g ns, %.2fx its reference %.3g ns, "
        "after %d whole-group re-measurement%s (%.1f s of waiting for the "
        "fast state)%s",
        *result.sentinel_ns, *result.sentinel_ns / reference, reference,
        result.slow_retries, result.slow_retries == 1 ? "" : "s",
        result.slow_wait_s,
        result.retry_budget_spent
            ? absl::StrFormat("; the run's re-measurement budget (%.0f s) "
                              "was spent",
                              o.sentinel->reference->RetryBudget().value_or(0))
            : "");
    for (KernelResult& k : result.kernels) {
      k.noise_reason = k.noisy ? absl::StrCat(why, "; ", k.noise_reason) : why;
      k.noisy = true;
    }
  }
  result.load_avg_1m = ReadLoadAvg1m();
  const std::optional<std::pair<uint64_t, uint64_t>> steal1 =
      ReadStealJiffies();
  if (steal0 && steal1 && steal1->second > steal0->second) {
    result.steal_fraction =
        static_cast<double>(steal1->first - steal0->first) /
        static_cast<double>(steal1->second - steal0->second);
  }
  return result;
}

}  // namespace chbench
