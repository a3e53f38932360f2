// Copyright 2026 The chbench Authors.

#include "algorithms/registry.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "algorithms/catalogue.h"

namespace chbench {
namespace {

constexpr auto kAlgorithms = CatalogueRows(kCatalogue);

}  // namespace

std::span<const AlgorithmInfo> Algorithms() { return kAlgorithms; }

const AlgorithmInfo* FindAlgorithm(std::string_view name) {
  for (const AlgorithmInfo& info : kAlgorithms) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string AlgorithmNames() {
  return absl::StrJoin(kAlgorithms, ", ",
                       [](std::string* out, const AlgorithmInfo& info) {
                         out->append(info.name);
                       });
}

namespace {

// The catalogue's names whose row satisfies `pred`, comma-separated.
template <typename Pred>
std::string NamesWhere(Pred pred) {
  std::string out;
  for (const AlgorithmInfo& info : kAlgorithms) {
    if (!pred(info)) continue;
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

}  // namespace

std::string WeightedAlgorithmNames() {
  return NamesWhere(
      [](const AlgorithmInfo& i) { return i.capabilities.weights; });
}

std::string ReplicaAlgorithmNames() {
  return NamesWhere(
      [](const AlgorithmInfo& i) { return i.capabilities.replicas; });
}

std::string HashAxisAlgorithmNames() {
  return NamesWhere([](const AlgorithmInfo& i) { return i.hash_axis; });
}

absl::StatusOr<std::unique_ptr<ConsistentHash>> MakeAlgorithm(
    std::string_view name, const AlgorithmParams& params) {
  const AlgorithmInfo* info = FindAlgorithm(name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown algorithm '", std::string(name), "'; valid algorithms: ", AlgorithmNames()));
  }
  return info->make(params);
}

}  // namespace chbench
