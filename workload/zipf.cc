// Copyright 2026 The chbench Authors.

#include "workload/zipf.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace chbench {

Zipf::Zipf(uint32_t universe, double s) : s_(s) {
  const size_t u = universe;
  std::vector<double> w(u);
  // Summed from the smallest weight up, for accuracy.
  norm_ = 0;
  for (size_t i = u; i-- > 0;) {
    w[i] = s == 0 ? 1.0 : std::pow(static_cast<double>(i + 1), -s);
  }
  for (size_t i = u; i-- > 0;) norm_ += w[i];
  // Vose: scaled probabilities q = p * U, small (< 1) and large (>= 1) lists.
  std::vector<double> q(u);
  for (size_t i = 0; i < u; ++i) q[i] = w[i] / norm_ * static_cast<double>(u);
  threshold_.assign(u, ~uint64_t{0});
  alias_.resize(u);
  for (size_t i = 0; i < u; ++i) alias_[i] = static_cast<uint32_t>(i);
  std::vector<uint32_t> small, large;
  for (size_t i = 0; i < u; ++i) {
    (q[i] < 1.0 ? small : large).push_back(static_cast<uint32_t>(i));
  }
  const auto to_threshold = [](double x) -> uint64_t {
    if (!(x < 1.0)) return ~uint64_t{0};
    if (!(x > 0.0)) return 0;
    return static_cast<uint64_t>(std::ldexp(x, 64));
  };
  while (!small.empty() && !large.empty()) {
    const uint32_t l = small.back();
    small.pop_back();
    const uint32_t g = large.back();
    threshold_[l] = to_threshold(q[l]);
    alias_[l] = g;
    q[g] = (q[g] + q[l]) - 1.0;
    if (q[g] < 1.0) {
      large.pop_back();
      small.push_back(g);
    }
  }
  // Leftovers (rounding): always accept.
  for (uint32_t i : small) threshold_[i] = ~uint64_t{0};
  for (uint32_t i : large) threshold_[i] = ~uint64_t{0};
}

absl::StatusOr<Zipf> Zipf::Make(uint64_t universe, double s) {
  if (universe < 1 || universe > kMaxUniverse) {
    return absl::InvalidArgumentError(
        absl::StrCat("zipf universe ", universe, " out of range; valid: 1..",
                     kMaxUniverse));
  }
  if (!(s >= 0 && s <= 10)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "zipf exponent ", s, " out of range; valid: 0..10 (0 = uniform)"));
  }
  return Zipf(static_cast<uint32_t>(universe), s);
}

double Zipf::Probability(uint32_t rank) const {
  const double w =
      s_ == 0 ? 1.0 : std::pow(static_cast<double>(rank) + 1.0, -s_);
  return w / norm_;
}

}  // namespace chbench
