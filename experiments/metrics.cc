// Copyright 2026 The chbench Authors.
//
// Expected extremes (RingBalance, IdealUniformBalance). v = 1 uses the exact
// spacing results (metrics.h). Otherwise a fixed-seed Monte-Carlo of the
// stated model: Dirichlet(v, ..., v) shares from normalized Gamma(v, 1)
// draws (Marsaglia & Tsang, "A Simple Method for Generating Gamma
// Variables", ACM TOMS 26(3), 2000), then multinomial keys as conditional
// binomials (exact inversion for small means, a rounded normal otherwise).
// All variates come from Sfc64 (algorithms/util/random.h) with our own
// transforms, so the results do not depend on the standard library. A
// moment-matched gamma at Blom's plotting positions is not good enough: it
// understates E[max] at v = 1 by 10 % (n = 10) and E[min] by 32 % (n = 100).
//
// Chi-squared expectation: since the loads sum to m, E[sum (L-mu)^2 / mu] =
// n Var(L) / mu; the analytic p-value is the upper tail at that statistic
// (for the ideal multinomial: statistic n - 1 = df, p ~ 0.44 to 0.5).

#include "experiments/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <tuple>
#include <unordered_set>

#include "boost/math/distributions/chi_squared.hpp"
#include "boost/math/distributions/gamma.hpp"
#include "boost/math/distributions/students_t.hpp"
#include "algorithms/util/random.h"

namespace chbench {

double ChiSquaredPValue(double stat, double df) {
  if (!std::isfinite(stat) || std::isnan(df)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (df < 1) return 1.0;
  boost::math::chi_squared_distribution<double> dist(df);
  return boost::math::cdf(boost::math::complement(dist, std::max(stat, 0.0)));
}

LoadStats ComputeLoadStats(std::span<const uint64_t> loads,
                           std::span<const double> shares) {
  LoadStats s;
  const size_t n = loads.size();
  if (n == 0) return s;
  double m = 0;
  for (uint64_t l : loads) m += static_cast<double>(l);
  s.max = *std::max_element(loads.begin(), loads.end());
  s.min = *std::min_element(loads.begin(), loads.end());
  const bool weighted = shares.size() == n;
  double max_ratio = 0, min_ratio = INFINITY, chi2 = 0, sq = 0;
  const double mean = m / static_cast<double>(n);
  for (size_t i = 0; i < n; ++i) {
    const double expected =
        weighted ? m * shares[i] : mean;
    const double l = static_cast<double>(loads[i]);
    const double ratio = expected > 0 ? l / expected : 0;
    max_ratio = std::max(max_ratio, ratio);
    min_ratio = std::min(min_ratio, ratio);
    if (expected > 0) chi2 += (l - expected) * (l - expected) / expected;
    sq += (l - mean) * (l - mean);
  }
  s.max_over_mean = max_ratio;
  s.min_over_mean = min_ratio;
  s.rel_stddev =
      mean > 0 ? std::sqrt(sq / static_cast<double>(n)) / mean : 0;
  s.chi2_pvalue = ChiSquaredPValue(chi2, static_cast<double>(n) - 1);
  return s;
}

DisruptionStats ComputeDisruption(std::span<const uint32_t> before,
                                  std::span<const uint32_t> after,
                                  size_t nodes_before, size_t node_space,
                                  std::optional<uint32_t> added,
                                  std::span<const uint32_t> removed) {
  DisruptionStats d;
  const size_t m = before.size();
  std::vector<bool> is_removed(node_space, false);
  for (uint32_t r : removed) is_removed[r] = true;
  std::vector<uint64_t> load(node_space, 0);
  std::vector<bool> receiver(node_space, false);
  uint64_t moved = 0, excess = 0;
  for (size_t k = 0; k < m; ++k) {
    const uint32_t b = before[k], a = after[k];
    ++load[a];
    if (a == b) continue;
    ++moved;
    const bool must = added.has_value() ? a == *added : is_removed[b];
    if (!must) ++excess;
    if (is_removed[b]) receiver[a] = true;
  }
  const double md = m > 0 ? static_cast<double>(m) : 1.0;
  d.moved_fraction = static_cast<double>(moved) / md;
  d.moved_excess_fraction = static_cast<double>(excess) / md;
  if (added.has_value()) {
    d.moved_optimal_fraction = 1.0 / static_cast<double>(nodes_before + 1);
  } else {
    d.moved_optimal_fraction = static_cast<double>(removed.size()) /
                               static_cast<double>(nodes_before);
  }
  if (!added.has_value() && removed.size() == 1) {
    d.receivers = static_cast<uint64_t>(
        std::count(receiver.begin(), receiver.end(), true));
  }
  d.load_max = node_space ? *std::max_element(load.begin(), load.end()) : 0;
  return d;
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

AnalyticBalance AllNaN() {
  AnalyticBalance a;
  a.max_over_mean = a.min_over_mean = a.rel_stddev = a.chi2_pvalue =
      a.load_max = a.load_min = kNaN;
  return a;
}

// Moments of the model: rel_stddev and the chi-squared p-value from the
// relative variance of one load; extremes filled in by the caller. NaN (no
// exception) for degenerate parameters.
AnalyticBalance FromRelVar(uint64_t m, uint32_t n, double relvar) {
  if (m == 0 || n == 0 || !std::isfinite(relvar) || relvar < 0) {
    return AllNaN();
  }
  AnalyticBalance a;
  const double mu = static_cast<double>(m) / n;
  a.rel_stddev = std::sqrt(relvar);
  // Expected chi-squared statistic n Var(L)/mu = n * mu * relvar.
  a.chi2_pvalue = ChiSquaredPValue(n * mu * relvar, n - 1.0);
  return a;
}

// Uniform in (0, 1): 53 random bits, never 0.
double Uniform(Sfc64& rng) {
  return (static_cast<double>(rng() >> 11) + 0.5) * 0x1p-53;
}

// Standard normal, Marsaglia's polar method (one of the pair is kept
// between calls).
class Normal {
 public:
  double operator()(Sfc64& rng) {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2 * Uniform(rng) - 1;
      v = 2 * Uniform(rng) - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    const double f = std::sqrt(-2 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

 private:
  double spare_ = 0;
  bool has_spare_ = false;
};

// Gamma(shape, 1) for shape >= 1 (Marsaglia & Tsang 2000).
double Gamma(double shape, Sfc64& rng, Normal& normal) {
  const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = Uniform(rng);
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return d * v;
  }
}

// Binomial(t, p): inversion when the mean of the smaller side is below 30
// (exact), else a normal with the binomial's mean and variance, rounded and
// clamped to [0, t] (the extremes need the bulk and the near tail, where the
// relative error of this approximation is O(1/sqrt(mean))).
uint64_t Binomial(uint64_t t, double p, Sfc64& rng, Normal& normal) {
  if (t == 0 || p <= 0) return 0;
  if (p >= 1) return t;
  const bool flip = p > 0.5;
  const double q = flip ? 1 - p : p;
  const double td = static_cast<double>(t);
  uint64_t k;
  if (td * q < 30) {
    // Inversion: walk the pmf from 0.
    const double r = q / (1 - q);
    double pmf = std::exp(td * std::log1p(-q));
    double cdf = pmf;
    const double u = Uniform(rng);
    k = 0;
    while (u > cdf && k < t) {
      pmf *= r * static_cast<double>(t - k) / static_cast<double>(k + 1);
      ++k;
      cdf += pmf;
      if (pmf < 1e-300 && static_cast<double>(k) > td * q) break;
    }
  } else {
    const double x =
        std::round(td * q + std::sqrt(td * q * (1 - q)) * normal(rng));
    k = x <= 0 ? 0 : (x >= td ? t : static_cast<uint64_t>(x));
  }
  return flip ? t - k : k;
}

// Fewer draws for large n, where the spread of the maximum over draws is
// small (a Gumbel scale ~ sigma / sqrt(2 ln n)): 200 up to n = 1500, then
// 3e5 / n, at least 30 (n = 10^4: 30 draws, a standard error of the mean
// max/mean below 0.5 % at v = 100), so a call stays near 40 ms at n = 10^4.
int BalanceDraws(uint32_t n) {
  if (n <= 1500) return kBalanceDraws;
  return std::max(30, static_cast<int>(300000 / n));
}

struct Extremes {
  double max_over_mean;
  double min_over_mean;
};

// The mean of max L/(m/n) and min L/(m/n) over the Monte-Carlo draws, with
// shares Dirichlet(v, ..., v) (v = 0: fixed equal shares) and multinomial
// keys. Cached: balance cells repeat the same parameters once per
// repetition.
Extremes MonteCarloExtremes(uint64_t m, uint32_t n, uint32_t v) {
  static std::mutex mu;
  static auto* cache = new std::map<std::tuple<uint64_t, uint32_t, uint32_t>,
                                    Extremes>();
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache->find({m, n, v});
    if (it != cache->end()) return it->second;
  }
  Sfc64 rng(kBalanceSeed ^ (m * 0x9e3779b97f4a7c15ULL) ^
            (uint64_t{n} << 32) ^ v);
  Normal normal;
  const int draws = BalanceDraws(n);
  const double mean = static_cast<double>(m) / n;
  std::vector<double> share(n, 1.0 / n);
  double sum_max = 0, sum_min = 0;
  for (int d = 0; d < draws; ++d) {
    if (v > 0) {
      double total = 0;
      for (double& s : share) total += s = Gamma(v, rng, normal);
      for (double& s : share) s /= total;
    }
    // Multinomial(m, share) by conditional binomials.
    uint64_t left = m;
    double share_left = 1;
    uint64_t lo = std::numeric_limits<uint64_t>::max(), hi = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t l =
          i + 1 == n ? left
                     : Binomial(left, std::min(1.0, share[i] / share_left), rng,
                                normal);
      left -= l;
      share_left -= share[i];
      lo = std::min(lo, l);
      hi = std::max(hi, l);
    }
    sum_max += static_cast<double>(hi) / mean;
    sum_min += static_cast<double>(lo) / mean;
  }
  const Extremes e{sum_max / draws, sum_min / draws};
  std::lock_guard<std::mutex> lock(mu);
  cache->emplace(std::make_tuple(m, n, v), e);
  return e;
}

void SetExtremes(uint64_t m, uint32_t n, double max_over_mean,
                 double min_over_mean, AnalyticBalance* a) {
  const double mu = static_cast<double>(m) / n;
  a->max_over_mean = max_over_mean;
  a->min_over_mean = min_over_mean;
  a->load_max = max_over_mean * mu;
  a->load_min = min_over_mean * mu;
}

}  // namespace

double HarmonicNumber(uint32_t n) {
  double h = 0;
  for (uint32_t i = n; i >= 1; --i) h += 1.0 / i;  // small terms first
  return h;
}

AnalyticBalance IdealUniformBalance(uint64_t m, uint32_t n) {
  if (m == 0 || n == 0) return AllNaN();
  AnalyticBalance a = FromRelVar(m, n, (n - 1.0) / static_cast<double>(m));
  if (n == 1) {
    SetExtremes(m, n, 1, 1, &a);
    return a;
  }
  const Extremes e = MonteCarloExtremes(m, n, 0);
  SetExtremes(m, n, e.max_over_mean, e.min_over_mean, &a);
  return a;
}

AnalyticBalance RingBalance(uint64_t m, uint32_t n, uint32_t v) {
  if (m == 0 || n == 0 || v == 0) return AllNaN();
  const double nd = n, md = static_cast<double>(m);
  const double var_s = (nd - 1) / (nd * nd * (nd * v + 1));
  const double e_s = 1 / nd;
  const double var_l = md * (e_s - var_s - e_s * e_s) + md * md * var_s;
  const double mu = md / nd;
  AnalyticBalance a = FromRelVar(m, n, var_l / (mu * mu));
  if (n == 1) {
    SetExtremes(m, n, 1, 1, &a);
  } else if (v == 1) {
    SetExtremes(m, n, HarmonicNumber(n), 1.0 / n, &a);
  } else {
    const Extremes e = MonteCarloExtremes(m, n, v);
    SetExtremes(m, n, e.max_over_mean, e.min_over_mean, &a);
  }
  return a;
}

double BoundedLoadBound(uint64_t m, uint32_t n, double c) {
  const double mean = static_cast<double>(m) / n;
  return std::ceil(c * mean) / mean;
}

size_t MedianCiRank(size_t n, double* coverage) {
  // P(B <= j - 1) for B ~ Binomial(n, 1/2), accumulated in log space so that
  // large n does not underflow; coverage(j) = 1 - 2 P(B <= j - 1) decreases
  // in j, so take the largest j with coverage >= 0.95.
  if (n < 1) return 0;
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  size_t best = 0;
  double best_cov = 0;
  double cdf = 0;  // P(B <= j - 1)
  for (size_t j = 1; j <= n / 2; ++j) {
    // add P(B = j - 1)
    const double k = static_cast<double>(j - 1);
    cdf += std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1) -
                    std::lgamma(n - k + 1) + log_half_n);
    const double cov = 1 - 2 * cdf;
    if (cov < 0.95 - 1e-12) break;
    best = j;
    best_cov = cov;
  }
  if (coverage != nullptr) *coverage = best ? best_cov : 0;
  return best;
}

SummaryStats Summarize(std::span<const double> input, bool n_eff_one,
                       MetricRange range) {
  SummaryStats s;
  std::vector<double> values;
  values.reserve(input.size());
  for (double v : input) {
    if (!std::isnan(v)) values.push_back(v);
  }
  s.n = values.size();
  s.n_eff = n_eff_one && s.n > 0 ? 1 : s.n;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  s.min = values.front();
  s.max = values.back();
  // Sum in sorted order so the result does not depend on input order.
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  if (n >= 2) {
    double ss = 0;
    for (double v : values) ss += (v - s.mean) * (v - s.mean);
    const double sd = std::sqrt(ss / (n - 1.0));
    if (s.mean != 0 && std::isfinite(sd)) s.cv = sd / s.mean;
    if (!n_eff_one && std::isfinite(sd)) {
      boost::math::students_t_distribution<double> t(n - 1.0);
      const double h =
          boost::math::quantile(t, 0.975) * sd / std::sqrt(1.0 * n);
      s.mean_ci_low = std::clamp(s.mean - h, range.lower, range.upper);
      s.mean_ci_high = std::clamp(s.mean + h, range.lower, range.upper);
    }
  }
  if (!n_eff_one) {
    double coverage = 0;
    if (const size_t j = MedianCiRank(n, &coverage); j > 0) {
      s.median_ci_low = values[j - 1];
      s.median_ci_high = values[n - j];
      s.median_ci_coverage = coverage;
    }
  }
  return s;
}

}  // namespace chbench
