// Copyright 2026 The chbench Authors.

#include "experiments/registry_json.h"

#include <string>

#include "algorithms/testing/toy_algorithm.h"
#include "experiments/paths.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A catalogue entry alone lists an algorithm in registry.json: with the toy
// catalogue's rows the document names "toy" (after the real algorithms);
// with the production rows it does not.
TEST(RegistryJsonTest, ListsTheAlgorithmsOfTheRowsGiven) {
  constexpr auto rows = CatalogueRows(kToyCatalogue);
  const std::string json = RegistryJson(DefaultSpecDir(), rows);
  EXPECT_THAT(json, HasSubstr("{\"name\": \"toy\", \"description\": "));
  EXPECT_LT(json.find("{\"name\": \"binomial\""),
            json.find("{\"name\": \"toy\""));
  EXPECT_THAT(RegistryJson(DefaultSpecDir()),
              Not(HasSubstr("{\"name\": \"toy\"")));
}

}  // namespace
}  // namespace chbench
