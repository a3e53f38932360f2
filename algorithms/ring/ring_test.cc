// Copyright 2026 The chbench Authors.

#include "algorithms/testing/conformance_util.h"
#include "algorithms/ring/ring.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

using testing::Node;  // chbench::testing, shared with the conformance suite

std::vector<NodeSpec> Nodes(int n) {
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < n; ++i)
    nodes.push_back(Node("node-" + std::to_string(i)));
  return nodes;
}

// The reference: the owner of the first point strictly greater than x
// (bisect_right), wrapping to the first point.
template <typename R>
NodeId ReferenceOwner(const R& ring, uint64_t x) {
  const auto points = ring.points();
  size_t i = static_cast<size_t>(
      std::upper_bound(points.begin(), points.end(), x) - points.begin());
  if (i == points.size()) i = 0;
  return ring.owners()[i];
}

// Lookup on every point, its neighbours, the ends of the circle and random
// keys must equal the reference.
template <typename R>
void ExpectLookupMatchesUpperBound(const R& ring, uint64_t key_mask,
                                   uint64_t seed) {
  std::vector<uint64_t> keys = {0, 1, key_mask - 1, key_mask};
  for (uint64_t p : ring.points()) {
    keys.push_back(p);
    keys.push_back(p - 1);
    keys.push_back(p + 1);
  }
  Sfc64 rng(seed);
  for (int i = 0; i < 20000; ++i) keys.push_back(rng() & key_mask);
  for (uint64_t key : keys) {
    ASSERT_EQ(ring.Lookup(key), ReferenceOwner(ring, key & key_mask))
        << "key " << key << " points " << ring.points().size();
  }
}

// Hand-placed points on the 64-bit circle (xxh64 policy, but the points are
// injected, so the policy only matters for HashKey).
TEST(RingSemanticsTest, StrictlyGreaterAndWrapAround) {
  Ring<Xxh64> ring(1);
  const std::vector<NodeSpec> nodes = {Node("a"), Node("b")};
  const std::vector<std::vector<uint64_t>> points = {{100}, {200, 300}};
  ASSERT_TRUE(ring.BuildFromPoints(nodes, points).ok());
  EXPECT_THAT(ring.points(), ElementsAre(100, 200, 300));
  EXPECT_THAT(ring.owners(), ElementsAre(0, 1, 1));
  EXPECT_EQ(ring.Lookup(0), 0u);
  EXPECT_EQ(ring.Lookup(99), 0u);
  EXPECT_EQ(ring.Lookup(100), 1u);  // equal to a point: the next one owns it
  EXPECT_EQ(ring.Lookup(199), 1u);
  EXPECT_EQ(ring.Lookup(200), 1u);
  EXPECT_EQ(ring.Lookup(299), 1u);
  EXPECT_EQ(ring.Lookup(300), 0u);  // past the largest point: wrap
  EXPECT_EQ(ring.Lookup(kMax), 0u);
}

TEST(RingSemanticsTest, PointAtTopOfCircle) {
  Ring<Xxh64> ring(1);
  const std::vector<NodeSpec> nodes = {Node("a"), Node("b")};
  const std::vector<std::vector<uint64_t>> points = {{kMax}, {0}};
  ASSERT_TRUE(ring.BuildFromPoints(nodes, points).ok());
  EXPECT_EQ(ring.Lookup(0), 0u);  // next point > 0 is kMax (a)
  EXPECT_EQ(ring.Lookup(kMax - 1), 0u);
  EXPECT_EQ(ring.Lookup(kMax), 1u);  // nothing > kMax: wrap to 0 (b)
}

TEST(RingSemanticsTest, TiesGoToSmallestNameRegardlessOfOrder) {
  const std::vector<std::vector<NodeSpec>> orders = {
      {Node("b"), Node("a"), Node("c")}, {Node("a"), Node("c"), Node("b")}};
  for (const std::vector<NodeSpec>& nodes : orders) {
    std::vector<std::vector<uint64_t>> points;
    for (const NodeSpec& n : nodes) {
      points.push_back(n.name == "c" ? std::vector<uint64_t>{700}
                                     : std::vector<uint64_t>{500});
    }
    Ring<Xxh64> ring(1);
    ASSERT_TRUE(ring.BuildFromPoints(nodes, points).ok());
    EXPECT_EQ(ring.NodeName(ring.Lookup(499)), "a");
    EXPECT_EQ(ring.NodeName(ring.Lookup(500)), "c");
    EXPECT_EQ(ring.NodeName(ring.Lookup(700)), "a");
    std::vector<NodeId> out;
    ASSERT_TRUE(ring.LookupReplicas(499, 3, false, &out).ok());
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(ring.NodeName(out[0]), "a");
    EXPECT_EQ(ring.NodeName(out[1]), "b");  // the tied point comes next
    EXPECT_EQ(ring.NodeName(out[2]), "c");
  }
}

TEST(RingSemanticsTest, ReplicasWalkClockwiseWithZones) {
  Ring<Xxh64> ring(1);
  const std::vector<NodeSpec> nodes = {Node("a", 1, "z1"), Node("b", 1, "z1"),
                                       Node("c", 1, "z2"), Node("d", 1, "z3")};
  const std::vector<std::vector<uint64_t>> points = {
      {100, 250}, {200}, {300}, {400}};
  ASSERT_TRUE(ring.BuildFromPoints(nodes, points).ok());
  std::vector<NodeId> out;
  ASSERT_TRUE(ring.LookupReplicas(50, 3, false, &out).ok());
  EXPECT_THAT(out, ElementsAre(0, 1, 2));  // a(100) b(200) [a(250)] c(300)
  ASSERT_TRUE(ring.LookupReplicas(50, 3, true, &out).ok());
  EXPECT_THAT(out, ElementsAre(0, 2, 3));  // b shares z1 with a
  // Four replicas, three zones: then the node passed over (b), as
  // Cassandra's NetworkTopologyStrategy fills a data center.
  ASSERT_TRUE(ring.LookupReplicas(50, 4, true, &out).ok());
  EXPECT_THAT(out, ElementsAre(0, 2, 3, 1));
  ASSERT_TRUE(ring.LookupReplicas(350, 4, false, &out).ok());
  EXPECT_THAT(out, ElementsAre(3, 0, 1, 2));  // wraps past d(400)
  ASSERT_TRUE(ring.LookupReplicas(350, 3, true, &out).ok());
  EXPECT_THAT(out, ElementsAre(3, 0, 2));
  ASSERT_TRUE(ring.LookupReplicas(400, 1, false, &out).ok());
  EXPECT_THAT(out, ElementsAre(0));

  const absl::Status zero = ring.LookupReplicas(50, 0, false, &out);
  EXPECT_EQ(zero.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(zero.message(), AllOf(HasSubstr("r = 0"), HasSubstr("1..4")));
  const absl::Status five = ring.LookupReplicas(50, 5, false, &out);
  EXPECT_EQ(five.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(five.message(), AllOf(HasSubstr("r = 5"), HasSubstr("1..4")));
}

TEST(RingSemanticsTest, EmptyRingLooksUpInvalid) {
  Ring<Xxh64> ring(10);
  EXPECT_EQ(ring.Lookup(12345), kInvalidNode);
  ASSERT_TRUE(ring.AddNode(Node("a")).ok());
  ASSERT_TRUE(ring.RemoveNode(0).ok());
  EXPECT_EQ(ring.Lookup(kMax), kInvalidNode);
  EXPECT_EQ(ring.size(), 0u);
}

// BuildFromPoints, in the compact line layout or (`wide`) in the wide one,
// whatever the size.
template <typename R>
void BuildInLayout(R* ring, const std::vector<NodeSpec>& nodes,
                   const std::vector<std::vector<uint64_t>>& points,
                   bool wide) {
  using Layout = typename R::LineLayout;
  ring->SetLineLayoutForTesting(wide ? Layout::kWide
                                     : Layout::kCompactWhenIdsFit);
  ASSERT_TRUE(ring->BuildFromPoints(nodes, points).ok());
  ASSERT_EQ(ring->compact_lines(), !wide);
}

TEST(RingSearchTest, LookupEqualsUpperBoundOnClusteredPoints) {
  // Crowded buckets (more points than a line holds) take the binary-search
  // path; duplicates and points at both ends of the circle included. Odd
  // trials use the wide line layout.
  Sfc64 rng(99);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 1 + trial * 7;
    std::vector<NodeSpec> nodes;
    std::vector<std::vector<uint64_t>> points(n);
    for (int i = 0; i < n; ++i) {
      nodes.push_back(Node("n" + std::to_string(i)));
      const int count = 1 + static_cast<int>(rng.Below(40));
      for (int v = 0; v < count; ++v) {
        uint64_t p;
        switch (rng.Below(4)) {
          case 0:
            p = rng();
            break;
          case 1:
            p = 1000 + rng.Below(50);
            break;  // cluster
          case 2:
            p = kMax - rng.Below(20);
            break;  // top end
          default:
            p = (uint64_t{1} << 62) + rng.Below(3);  // duplicates
        }
        points[i].push_back(p);
      }
    }
    Ring<Xxh64> ring(1);
    BuildInLayout(&ring, nodes, points, /*wide=*/trial % 2 == 1);
    ExpectLookupMatchesUpperBound(ring, kMax, trial);
    if (::testing::Test::HasFailure()) return;
  }
}

// A compact line holds 15 points: a bucket of 14 or 15 is decided by its
// fingerprints, one of 16 or 17 is crowded and searched. 64 points make
// 2^3 buckets (the top 3 bits); bucket 0 gets `in_bucket` points with
// distinct fingerprints (bits 60..45), the others lie in buckets 1..7.
TEST(RingSearchTest, CompactLineLimit) {
  for (int in_bucket : {14, 15, 16, 17}) {
    Sfc64 rng(in_bucket);
    std::vector<NodeSpec> nodes;
    std::vector<std::vector<uint64_t>> points;
    for (int i = 0; i < 64; ++i) {
      nodes.push_back(Node("n" + std::to_string(i)));
      points.push_back({i < in_bucket
                            ? (uint64_t(i + 1) << 50) | rng.Below(1 << 20)
                            : rng() | (uint64_t{1} << 61)});
    }
    Ring<Xxh64> ring(1);
    BuildInLayout(&ring, nodes, points, /*wide=*/false);
    ExpectLookupMatchesUpperBound(ring, kMax, in_bucket);
    const auto pts = ring.points();
    for (int i = 0; i <= in_bucket; ++i) {
      // Keys around each fingerprint of bucket 0, equal ones included.
      for (uint64_t low : {uint64_t{0}, uint64_t{1} << 44, kMax >> 19}) {
        const uint64_t key = (uint64_t(i) << 50) | low;
        const size_t want = static_cast<size_t>(
            std::upper_bound(pts.begin(), pts.end(), key) - pts.begin());
        ASSERT_EQ(ring.SuccessorPosition(key), want) << in_bucket << " " << key;
        ASSERT_EQ(ring.Lookup(key), ReferenceOwner(ring, key)) << key;
      }
    }
  }
}

// The layout rule: compact lines from 65537 points up.
TEST(RingLayoutTest, CompactLinesFromTheSizeLimit) {
  Ring<Xxh64> ring(2);
  ASSERT_TRUE(ring.Build(Nodes(32768)).ok());  // 65536 points
  EXPECT_FALSE(ring.compact_lines());
  ASSERT_TRUE(ring.AddNode(Node("one-more")).ok());
  EXPECT_TRUE(ring.compact_lines());
  ExpectLookupMatchesUpperBound(ring, kMax, 4);
  ASSERT_TRUE(ring.RemoveNode(0).ok());
  EXPECT_FALSE(ring.compact_lines());
}

// Node ids from 65535 up do not fit a compact line's 16-bit owner: the ring
// switches to wide lines, for good since ids are never reused, and agrees
// with std::upper_bound in both layouts.
TEST(RingLayoutTest, WideLinesOnceIdsPassTheCompactLimit) {
  Ring<Xxh64> ring(2);
  ASSERT_TRUE(ring.Build(Nodes(65535)).ok());  // ids 0..65534
  EXPECT_TRUE(ring.compact_lines());
  ExpectLookupMatchesUpperBound(ring, kMax, 1);
  ASSERT_TRUE(ring.AddNode(Node("extra")).ok());  // id 65535
  EXPECT_FALSE(ring.compact_lines());
  ExpectLookupMatchesUpperBound(ring, kMax, 2);
  ASSERT_TRUE(ring.RemoveNode(65535).ok());
  EXPECT_FALSE(ring.compact_lines());
  ExpectLookupMatchesUpperBound(ring, kMax, 3);
  // The same live nodes in the compact layout: the same owners.
  Ring<Xxh64> compact(2);
  ASSERT_TRUE(compact.Build(Nodes(65535)).ok());
  ASSERT_TRUE(compact.compact_lines());
  SplitMix64 rng(5);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t key = rng();
    ASSERT_EQ(ring.Lookup(key), compact.Lookup(key)) << key;
  }
}

TEST(RingSearchTest, LookupEqualsUpperBoundWhenFingerprintsCollide) {
  // Groups of points that agree in their top 40 bits share the 16-bit
  // fingerprint of any bucket size up to 2^24 buckets, so keys among them
  // take the exact fallback; keys whose fingerprint is all ones compare
  // equal to the empty slots. SuccessorPosition must agree as well.
  Sfc64 rng(7);
  for (int trial = 0; trial < 24; ++trial) {
    const int n = 1 + trial * 5;
    std::vector<NodeSpec> nodes;
    std::vector<std::vector<uint64_t>> points(n);
    for (int i = 0; i < n; ++i) {
      nodes.push_back(Node("n" + std::to_string(i)));
      const uint64_t group = rng() & ~uint64_t{0xFFFFFF};
      for (int v = 0; v < 3; ++v) points[i].push_back(group | rng.Below(1 << 24));
      points[i].push_back(rng());
    }
    Ring<Xxh64> ring(1);
    BuildInLayout(&ring, nodes, points, /*wide=*/trial % 2 == 1);
    ExpectLookupMatchesUpperBound(ring, kMax, trial);
    const auto pts = ring.points();
    std::vector<uint64_t> keys;
    for (uint64_t p : pts) {
      for (uint64_t low : {uint64_t{0}, uint64_t{0xFFFFFF}, uint64_t{0xFFFF}}) {
        keys.push_back((p & ~uint64_t{0xFFFFFF}) | low);
      }
      keys.push_back(p | (uint64_t{0xFFFF} << 24));  // all-ones fingerprints
      keys.push_back(p | (uint64_t{0xFFFF} << 40));
    }
    for (uint64_t key : keys) {
      const size_t want = static_cast<size_t>(
          std::upper_bound(pts.begin(), pts.end(), key) - pts.begin());
      ASSERT_EQ(ring.SuccessorPosition(key), want) << key;
      ASSERT_EQ(ring.Lookup(key), ReferenceOwner(ring, key)) << key;
    }
  }
}

template <typename H>
class RingTest : public ::testing::Test {};
using Policies = ::testing::Types<Xxh64, Md5, Murmur3_32>;
TYPED_TEST_SUITE(RingTest, Policies);

constexpr uint64_t CircleMask(int bits) {
  return bits == 64 ? kMax : (uint64_t{1} << bits) - 1;
}

TYPED_TEST(RingTest, PointsAreHashesOfNameHashIndex) {
  Ring<TypeParam> ring(3);
  ASSERT_TRUE(
      ring.Build(std::vector<NodeSpec>{Node("cache-1"), Node("cache-2", 2.0)})
          .ok());
  std::multiset<uint64_t> want;
  for (const char* p :
       {"cache-1#0", "cache-1#1", "cache-1#2", "cache-2#0", "cache-2#1",
        "cache-2#2", "cache-2#3", "cache-2#4", "cache-2#5"}) {
    want.insert(HashString<TypeParam>(p, 0));
  }
  const std::multiset<uint64_t> got(ring.points().begin(), ring.points().end());
  EXPECT_EQ(got, want);
  EXPECT_TRUE(std::is_sorted(ring.points().begin(), ring.points().end()));
  // One vnode each: the owner is computed by hand from the two points.
  Ring<TypeParam> one(1);
  ASSERT_TRUE(one.Build(std::vector<NodeSpec>{Node("x"), Node("y")}).ok());
  const uint64_t px = HashString<TypeParam>("x#0", 0);
  const uint64_t py = HashString<TypeParam>("y#0", 0);
  const uint64_t lo = std::min(px, py);
  const NodeId lo_owner = px < py ? 0 : 1;
  EXPECT_EQ(one.Lookup(lo - 1), lo_owner);
  EXPECT_EQ(one.Lookup(lo), 1 - lo_owner);
  EXPECT_EQ(one.Lookup(std::max(px, py)), lo_owner);
}

TYPED_TEST(RingTest, LookupEqualsUpperBound) {
  const uint64_t mask = CircleMask(TypeParam::kBits);
  for (int n : {1, 2, 3, 10, 57, 300}) {
    for (uint32_t vnodes : {1u, 7u, 100u}) {
      Ring<TypeParam> ring(vnodes);
      ASSERT_TRUE(ring.Build(Nodes(n)).ok());
      ASSERT_EQ(ring.points().size(), static_cast<size_t>(n) * vnodes);
      ExpectLookupMatchesUpperBound(ring, mask, n * 1000 + vnodes);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TYPED_TEST(RingTest, DigestIsReducedToTheCircle) {
  Ring<TypeParam> ring(50);
  ASSERT_TRUE(ring.Build(Nodes(8)).ok());
  SplitMix64 rng(4);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = rng();
    ASSERT_EQ(ring.Lookup(key),
              ReferenceOwner(ring, key & CircleMask(TypeParam::kBits)));
  }
}

TYPED_TEST(RingTest, BuildEqualsSequenceOfAddNodeInAnyOrder) {
  std::vector<NodeSpec> nodes = Nodes(20);
  nodes[3].weight = 2.5;
  nodes[7].weight = 0.5;
  Ring<TypeParam> built(300);  // 6000+ points: the bucketed-sort path
  ASSERT_TRUE(built.Build(nodes).ok());
  Ring<TypeParam> added(300);
  std::vector<NodeSpec> shuffled = nodes;
  std::reverse(shuffled.begin(), shuffled.end());
  std::swap(shuffled[2], shuffled[11]);
  for (const NodeSpec& n : shuffled) ASSERT_TRUE(added.AddNode(n).ok());
  ASSERT_EQ(built.points().size(), added.points().size());
  for (size_t i = 0; i < built.points().size(); ++i) {
    ASSERT_EQ(built.points()[i], added.points()[i]);
    ASSERT_EQ(built.NodeName(built.owners()[i]),
              added.NodeName(added.owners()[i]));
  }
  SplitMix64 rng(6);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t key = rng();
    ASSERT_EQ(built.NodeName(built.Lookup(key)),
              added.NodeName(added.Lookup(key)));
  }
}

// 32-bit points collide (birthday bound: P^2 / 2^33 expected pairs). With
// 200 000 points some collisions are between different nodes; the order of
// addition must not matter for who owns them.
TEST(RingTiesTest, RealCollisionsAreOrderIndependent) {
  std::vector<NodeSpec> nodes = Nodes(40);
  Ring<Murmur3_32> forward(5000);
  ASSERT_TRUE(forward.Build(nodes).ok());
  int cross_node_ties = 0;
  for (size_t i = 0; i + 1 < forward.points().size(); ++i) {
    if (forward.points()[i] == forward.points()[i + 1] &&
        forward.owners()[i] != forward.owners()[i + 1]) {
      ++cross_node_ties;
      // The earlier of the tied points belongs to the smaller name.
      EXPECT_LT(forward.NodeName(forward.owners()[i]),
                forward.NodeName(forward.owners()[i + 1]));
    }
  }
  ASSERT_GT(cross_node_ties, 0) << "test needs at least one collision";
  std::vector<NodeSpec> reversed(nodes.rbegin(), nodes.rend());
  Ring<Murmur3_32> backward(5000);
  ASSERT_TRUE(backward.Build(reversed).ok());
  Ring<Murmur3_32> added(5000);
  for (size_t i = 0; i < reversed.size(); ++i) {
    ASSERT_TRUE(added.AddNode(reversed[(i * 7) % reversed.size()]).ok());
  }
  for (const Ring<Murmur3_32>* other : {&backward, &added}) {
    ASSERT_EQ(other->points().size(), forward.points().size());
    for (size_t i = 0; i < forward.points().size(); ++i) {
      ASSERT_EQ(forward.points()[i], other->points()[i]);
      ASSERT_EQ(forward.NodeName(forward.owners()[i]),
                other->NodeName(other->owners()[i]));
    }
  }
}

TYPED_TEST(RingTest, MinimalDisruptionAndReAdd) {
  Ring<TypeParam> ring(100);
  ASSERT_TRUE(ring.Build(Nodes(10)).ok());
  SplitMix64 rng(8);
  const uint64_t mask = CircleMask(TypeParam::kBits);
  std::vector<uint64_t> keys(30000);
  std::vector<NodeId> before(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    keys[i] = rng() & mask;
    before[i] = ring.Lookup(keys[i]);
  }
  // Add: keys move only to the new node.
  const NodeId added = *ring.AddNode(Node("node-10"));
  size_t moved = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const NodeId now = ring.Lookup(keys[i]);
    if (now != before[i]) {
      ++moved;
      ASSERT_EQ(now, added);
    }
  }
  // About 1/11 of the keys (2727); 100 vnodes give the new node a share
  // within roughly +-30 %.
  EXPECT_GT(moved, 1800u);
  EXPECT_LT(moved, 3700u);
  // Remove it again: exactly the old mapping.
  ASSERT_TRUE(ring.RemoveNode(added).ok());
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(ring.Lookup(keys[i]), before[i]);
  }
  // Remove node 4: only its keys move, to several different nodes.
  ASSERT_TRUE(ring.RemoveNode(4).ok());
  std::set<NodeId> receivers;
  for (size_t i = 0; i < keys.size(); ++i) {
    const NodeId now = ring.Lookup(keys[i]);
    if (before[i] == 4) {
      ASSERT_NE(now, 4u);
      receivers.insert(now);
    } else {
      ASSERT_EQ(now, before[i]);
    }
  }
  EXPECT_GE(receivers.size(), 5u);  // 100 arcs spread over the 9 others
  // Re-add under the same name: a fresh id, the same points, the same keys.
  const NodeId again = *ring.AddNode(Node("node-4"));
  EXPECT_EQ(again, 11u);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(ring.NodeName(ring.Lookup(keys[i])), ring.NodeName(before[i]));
  }
  EXPECT_THAT(ring.LiveNodes(), ElementsAre(0, 1, 2, 3, 5, 6, 7, 8, 9, 11));
}

TYPED_TEST(RingTest, WeightedSharesFollowWeights) {
  Ring<TypeParam> ring(1000);
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < 4; ++i) {
    nodes.push_back(Node("node-" + std::to_string(i), 1.0 + i));
  }
  ASSERT_TRUE(ring.Build(nodes).ok());
  EXPECT_EQ(ring.points().size(), 10000u);
  std::vector<double> load(4);
  SplitMix64 rng(12);
  const uint64_t mask = CircleMask(TypeParam::kBits);
  constexpr int kKeys = 200000;
  for (int i = 0; i < kKeys; ++i) load[ring.Lookup(rng() & mask)] += 1;
  // Expected share w/10. The arc share of a node with v points has relative
  // sd about 1/sqrt(v) (>= 1.6 % here); allow 10 %.
  for (int i = 0; i < 4; ++i) {
    const double expected = (1.0 + i) / 10.0;
    EXPECT_NEAR(load[i] / kKeys, expected, 0.10 * expected) << "node " << i;
  }
}

TYPED_TEST(RingTest, PointCountRounds) {
  Ring<TypeParam> ring(2);
  ASSERT_TRUE(
      ring.Build(std::vector<NodeSpec>{Node("a", 0.25), Node("b", 0.8),
                                       Node("c", 1.25), Node("d", 1.26)})
          .ok());
  // round(2 * w): 0.5 -> 1 and 2.5 -> 3 (half away from zero), 1.6 -> 2,
  // 2.52 -> 3.
  std::map<std::string, int> count;
  for (NodeId o : ring.owners()) ++count[ring.NodeName(o)];
  EXPECT_EQ(count["a"], 1);
  EXPECT_EQ(count["b"], 2);
  EXPECT_EQ(count["c"], 3);
  EXPECT_EQ(count["d"], 3);
}

// A weight that rounds to no point is an error naming the smallest weight
// with a point (0.5 / vnodes) and the vnodes that would represent it, from
// Build and from AddNode; the ring is unchanged by the refused AddNode.
TYPED_TEST(RingTest, WeightBelowOnePointIsAnErrorNamingTheSmallestWeight) {
  for (uint32_t vnodes : {1u, 3u, 100u, 160u}) {
    SCOPED_TRACE(vnodes);
    const double least = 0.5 / vnodes;
    Ring<TypeParam> ring(vnodes);
    absl::Status s = ring.Build(
        std::vector<NodeSpec>{Node("a", least * 0.99), Node("b", 1.0)});
    ASSERT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(s.message(), HasSubstr("node 'a' weight"));
    EXPECT_THAT(s.message(), HasSubstr(") = 0 points and no keys"));
    // The weight the message names gets a point; the next smaller printed
    // value does not (it is the smallest at its precision).
    const std::string msg(s.message());
    const size_t at = msg.find(" is ") + 4;
    const double named = std::stod(std::string(msg.substr(at)));
    EXPECT_TRUE(ring.Build(std::vector<NodeSpec>{Node("a", named),
                                                 Node("b", 1.0)})
                    .ok());
    EXPECT_EQ(ring.points().size(), vnodes + 1u);
    EXPECT_NEAR(named, least, least * 1e-4);
    // The vnodes it names give the refused weight a point.
    const size_t v_at = msg.find("vnodes >= ") + 10;
    const uint64_t need = std::stoull(std::string(msg.substr(v_at)));
    Ring<TypeParam> bigger(static_cast<uint32_t>(need));
    EXPECT_TRUE(bigger.Build(std::vector<NodeSpec>{Node("a", least * 0.99),
                                                   Node("b", 1.0)})
                    .ok());
    Ring<TypeParam> smaller(static_cast<uint32_t>(need - 1));
    EXPECT_FALSE(smaller.Build(std::vector<NodeSpec>{Node("a", least * 0.99),
                                                     Node("b", 1.0)})
                     .ok());
    // AddNode refuses it too and leaves the ring as it was.
    const size_t before = ring.points().size();
    absl::StatusOr<NodeId> added = ring.AddNode(Node("c", least * 0.5));
    ASSERT_FALSE(added.ok());
    EXPECT_THAT(added.status().message(), HasSubstr("node 'c' weight"));
    EXPECT_EQ(ring.points().size(), before);
  }
}

TYPED_TEST(RingTest, ReplicasAgreeWithLookupAndAreDistinct) {
  Ring<TypeParam> ring(40);
  std::vector<NodeSpec> nodes;
  for (int i = 0; i < 12; ++i) {
    nodes.push_back(Node("node-" + std::to_string(i), 1.0,
                         "zone-" + std::to_string(i % 3)));
  }
  ASSERT_TRUE(ring.Build(nodes).ok());
  SplitMix64 rng(13);
  std::vector<NodeId> out;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = rng();
    for (size_t r : {size_t{1}, size_t{3}, size_t{12}}) {
      ASSERT_TRUE(ring.LookupReplicas(key, r, false, &out).ok());
      ASSERT_EQ(out.size(), r);
      ASSERT_EQ(out[0], ring.Lookup(key));
      ASSERT_EQ(std::set<NodeId>(out.begin(), out.end()).size(), r);
    }
    // Three zones, five replicas: the first three in distinct zones, then
    // the nodes passed over in walk order, i.e. the plain walk's list with
    // the first node of each new zone moved to the front (model).
    ASSERT_TRUE(ring.LookupReplicas(key, 5, true, &out).ok());
    std::vector<NodeId> walk;
    ASSERT_TRUE(ring.LookupReplicas(key, 12, false, &walk).ok());
    std::vector<NodeId> want, passed;
    std::set<std::string> zones;
    for (NodeId id : walk) {
      (zones.insert(nodes[id].zone).second ? want : passed).push_back(id);
    }
    want.insert(want.end(), passed.begin(), passed.end());
    want.resize(5);
    ASSERT_EQ(out, want);
  }
}

TEST(RingReplicasTest, ManyReplicasUseTheBitmapPath) {
  Ring<Xxh64> ring(20);
  ASSERT_TRUE(ring.Build(Nodes(40)).ok());
  std::vector<NodeId> small;
  std::vector<NodeId> big;
  SplitMix64 rng(14);
  for (int i = 0; i < 500; ++i) {
    const uint64_t key = rng();
    ASSERT_TRUE(ring.LookupReplicas(key, 16, false, &small).ok());
    ASSERT_TRUE(ring.LookupReplicas(key, 40, false, &big).ok());
    ASSERT_EQ(big.size(), 40u);
    ASSERT_EQ(std::set<NodeId>(big.begin(), big.end()).size(), 40u);
    // The first 16 of the long list are the short list.
    ASSERT_TRUE(std::equal(small.begin(), small.end(), big.begin()));
  }
}

TEST(RingErrorsTest, NodeSpecsAndSizes) {
  Ring<Xxh64> ring(1000);
  ASSERT_TRUE(ring.Build(Nodes(3)).ok());
  const absl::StatusOr<NodeId> huge = ring.AddNode(Node("huge", 1e5));
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(huge.status().message(),
              AllOf(HasSubstr("'huge'"), HasSubstr("16777216")));
  EXPECT_EQ(ring.AddNode(Node("bad", -1)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ring.AddNode(Node("node-1")).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ring.RemoveNode(3).code(), absl::StatusCode::kNotFound);
  // A failed Build leaves the ring as it was.
  EXPECT_FALSE(ring.Build(std::vector<NodeSpec>{Node("p"), Node("p")}).ok());
  EXPECT_EQ(ring.size(), 3u);
  EXPECT_EQ(ring.points().size(), 3000u);
}

TEST(MakeRingTest, ValidatesParams) {
  AlgorithmParams params;
  params.hash = "md5";
  params.vnodes = 7;
  absl::StatusOr<std::unique_ptr<ConsistentHash>> algo = MakeRing(params);
  ASSERT_TRUE(algo.ok()) << algo.status();
  EXPECT_EQ((*algo)->name(), "ring");
  const Capabilities caps = (*algo)->capabilities();
  EXPECT_TRUE(caps.arbitrary_removal && caps.minimal_disruption &&
              caps.weights && caps.replicas && !caps.stateful);
  ASSERT_TRUE((*algo)->Build(Nodes(2)).ok());
  auto* ring = dynamic_cast<Ring<Md5>*>(algo->get());
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(ring->points().size(), 14u);

  params.vnodes = 0;
  algo = MakeRing(params);
  EXPECT_EQ(algo.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(algo.status().message(),
              AllOf(HasSubstr("vnodes 0"), HasSubstr("1..1048576")));
  params.vnodes = kRingMaxVnodes + 1;
  EXPECT_FALSE(MakeRing(params).ok());
  params.vnodes = 100;
  params.hash = "sha256";
  algo = MakeRing(params);
  EXPECT_EQ(algo.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(algo.status().message(),
              AllOf(HasSubstr("'sha256'"), HasSubstr("murmur3_32")));
}

}  // namespace
}  // namespace chbench
