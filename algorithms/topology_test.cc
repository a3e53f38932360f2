// Copyright 2026 The chbench Authors.

#include "algorithms/topology.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace topology_test {

using ::testing::HasSubstr;

TEST(Topology, ParsesNamesWeightsAndLocations) {
  absl::StatusOr<std::vector<NodeSpec>> nodes = ParseTopology(
      "# name weight location\n"
      "10.0.0.1:9042\t1\tdc1/r1\n"
      "\n"
      "10.0.0.2:9042\t2.5\tdc1/r2\r\n"
      "host-c\t1\teu/zone-b/host-c\n",
      "t.tsv");
  ASSERT_TRUE(nodes.ok()) << nodes.status();
  ASSERT_EQ(nodes->size(), 3u);
  EXPECT_EQ((*nodes)[0].name, "10.0.0.1:9042");
  EXPECT_EQ((*nodes)[0].weight, 1.0);
  EXPECT_EQ((*nodes)[0].zone, "dc1/r1");
  EXPECT_EQ((*nodes)[1].weight, 2.5);
  EXPECT_EQ((*nodes)[1].zone, "dc1/r2");
  EXPECT_EQ((*nodes)[2].zone, "eu/zone-b/host-c");
  EXPECT_EQ(SplitLocation((*nodes)[2].zone),
            (std::vector<std::string_view>{"eu", "zone-b", "host-c"}));
  EXPECT_TRUE(SplitLocation("").empty());
}

TEST(Topology, ErrorsNameTheSourceLineAndValue) {
  const std::pair<std::string, std::vector<std::string>> cases[] = {
      {"a\t1\n", {"t.tsv line 1", "has 2 fields"}},
      {"a\t1\tdc1\tx\n", {"line 1", "has 4 fields"}},
      {"\t1\tdc1\n", {"line 1", "empty name"}},
      {"a\t1\tdc1\n# c\na\t1\tdc2\n", {"line 3", "duplicate name 'a'"}},
      {"a\tone\tdc1\n", {"line 1", "invalid weight 'one'", "> 0"}},
      {"a\t-1\tdc1\n", {"invalid weight '-1'"}},
      {"a\tinf\tdc1\n", {"invalid weight 'inf'"}},
      {"a\t1\t\n", {"line 1", "empty location"}},
      {"a\t1\t/r1\n", {"invalid location '/r1'"}},
      {"a\t1\tdc1/\n", {"invalid location 'dc1/'"}},
      {"", {"t.tsv: no nodes"}},
  };
  for (const auto& [text, mentions] : cases) {
    absl::StatusOr<std::vector<NodeSpec>> nodes = ParseTopology(text, "t.tsv");
    ASSERT_FALSE(nodes.ok()) << text;
    const std::string message(nodes.status().message());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (const std::string& m : mentions) {
      EXPECT_THAT(message, HasSubstr(m)) << text;
    }
  }
}

TEST(Topology, LeadingLevelsCutTheLocation) {
  EXPECT_EQ(LeadingLevels("dc1/r1/h3", 1), "dc1");
  EXPECT_EQ(LeadingLevels("dc1/r1/h3", 2), "dc1/r1");
  EXPECT_EQ(LeadingLevels("dc1/r1/h3", 3), "dc1/r1/h3");
  EXPECT_EQ(LeadingLevels("dc1/r1/h3", 9), "dc1/r1/h3");  // shorter: whole
  EXPECT_EQ(LeadingLevels("z0", 1), "z0");
  EXPECT_EQ(LeadingLevels("", 2), "");
}

TEST(Topology, ReadsAFileAndNamesAMissingOne) {
  absl::StatusOr<std::vector<NodeSpec>> nodes = ReadTopologyFile(
      std::string(CHBENCH_SOURCE_DIR) +
      "/algorithms/presets/verify/topologies/dc1-2racks-n6.tsv");
  ASSERT_TRUE(nodes.ok()) << nodes.status();
  EXPECT_EQ(nodes->size(), 6u);
  EXPECT_EQ(nodes->back().zone, "dc1/r2");
  absl::StatusOr<std::vector<NodeSpec>> missing =
      ReadTopologyFile("/nonexistent/t.tsv");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("'/nonexistent/t.tsv'"));
}

}  // namespace topology_test
}  // namespace chbench
