// Copyright 2026 The chbench Authors.
//
// Tests of the timed peers (bench/peers/): every prehashed peer returns
// exactly what its base's Lookup returns (random digests, the edges 0 and
// 2^64 - 1, every ring point and its neighbours, slot boundaries), for
// several N and hashes, including a 32-bit hash; the libmemcached peer is
// valid, deterministic, spreads keys, refuses what the library would abort
// on, and reproduces the reference vectors recorded from the same library
// (the libmemcached vectors of algorithms/presets/testdata/reference/, copied
// to bench/peers/testdata/);
// the registry rows and ForEachPeer agree.

#include "bench/peers/peers.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "algorithms/catalogue.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/hash_registry.h"
#include "algorithms/registry.h"
#include "algorithms/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace peers {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
constexpr int kRandomKeys = 100000;
constexpr uint32_t kSizes[] = {1, 2, 10, 1000};

std::vector<NodeSpec> Nodes(uint32_t n) {
  std::vector<NodeSpec> nodes(n);
  for (uint32_t i = 0; i < n; ++i) nodes[i].name = absl::StrCat("node-", i);
  return nodes;
}

// Random digests plus 0 and 2^64 - 1.
std::vector<uint64_t> Keys(uint64_t seed, int count) {
  std::vector<uint64_t> keys = {0, 1, kMax, kMax - 1};
  SplitMix64 rng(seed);
  for (int i = 0; i < count; ++i) keys.push_back(rng());
  return keys;
}

// Calls f.template operator()<A>() for the catalogue class A of `algorithm`
// with hash policy H, H being the one of Hs named `hash`; false when neither
// is known. DispatchConcrete would compile the body for all nine hash
// policies and every preset class; the test below needs three hashes.
template <typename... Hs, typename F>
bool DispatchAmongHashes(std::string_view algorithm, std::string_view hash,
                         F&& f) {
  bool found = false;
  (
      [&] {
        if (found || hash != Hs::kName) return;
        auto call = [&]<typename E>() {
          f.template operator()<typename E::template Type<Hs>>();
        };
        found = ForEntryNamed<kCatalogue, false>(algorithm, call);
      }(),
      ...);
  return found;
}

// Counts keys where peer and ours differ (and reports the first).
template <typename Ours, typename Peer>
int Mismatches(const Ours& ours, const Peer& peer,
               const std::vector<uint64_t>& keys) {
  int bad = 0;
  for (uint64_t k : keys) {
    const NodeId want = ours.Lookup(k);
    const NodeId got = peer.Lookup(k);
    if (want != got) {
      if (bad == 0) {
        ADD_FAILURE() << "key " << k << ": ours " << want << ", peer " << got;
      }
      ++bad;
    }
  }
  return bad;
}

// ---------------------------------------------------------------- jump

template <typename H>
void CheckJump() {
  for (uint32_t n : kSizes) {
    SCOPED_TRACE(absl::StrCat(std::string(H::kName), " n=", n));
    Jump<H> jump;
    ASSERT_TRUE(jump.Build(Nodes(n)).ok());
    const JumpPaper peer(jump);
    EXPECT_EQ(peer.size(), n);
    EXPECT_EQ(Mismatches(jump, peer, Keys(n, kRandomKeys)), 0);
  }
}

TEST(JumpPaperTest, EqualsJumpXxh64) { CheckJump<Xxh64>(); }
TEST(JumpPaperTest, EqualsJumpMd5) { CheckJump<Md5>(); }
TEST(JumpPaperTest, EqualsJumpCrc32) { CheckJump<Crc32>(); }

// Bucket b is the b-th live node, also after the last node left and a new
// one (a fresh id) joined.
TEST(JumpPaperTest, MapsBucketsToLiveIdsAfterChanges) {
  Jump<Xxh64> jump;
  ASSERT_TRUE(jump.Build(Nodes(10)).ok());
  ASSERT_TRUE(jump.RemoveNode(9).ok());
  NodeSpec extra;
  extra.name = "extra";
  ASSERT_EQ(jump.AddNode(extra).value(), 10u);
  const JumpPaper peer(jump);
  EXPECT_EQ(Mismatches(jump, peer, Keys(3, kRandomKeys)), 0);
  // Some key reaches bucket 9, i.e. the new id 10.
  std::set<NodeId> seen;
  for (uint64_t k : Keys(4, 10000)) seen.insert(peer.Lookup(k));
  EXPECT_TRUE(seen.count(10));
  EXPECT_FALSE(seen.count(9));
}

// The transcription is the paper's function: its value on the paper-style
// sanity facts (one bucket -> 0; bucket < n; growing n moves keys only to
// the new bucket).
TEST(JumpPaperTest, TranscriptionIsConsistent) {
  SplitMix64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t k = rng();
    EXPECT_EQ(JumpConsistentHashPaper(k, 1), 0);
    int32_t prev = 0;
    for (int32_t n = 2; n <= 64; ++n) {
      const int32_t b = JumpConsistentHashPaper(k, n);
      ASSERT_LT(b, n);
      ASSERT_TRUE(b == prev || b == n - 1) << k << " n=" << n;
      ASSERT_EQ(b, JumpConsistentHash(k, n));
      prev = b;
    }
  }
}

// ---------------------------------------------------------------- ring

// Random digests, the edges, every point and point +- 1, and (for a 32-bit
// hash) points with high bits set, which Ring reduces mod 2^32.
template <typename H>
std::vector<uint64_t> RingKeys(const Ring<H>& ring, uint64_t seed) {
  std::vector<uint64_t> keys = Keys(seed, kRandomKeys);
  for (uint64_t p : ring.points()) {
    keys.push_back(p);
    keys.push_back(p - 1);
    keys.push_back(p + 1);
    if constexpr (H::kBits == 32) {
      keys.push_back(p | (uint64_t{0xABCD} << 32));
      keys.push_back((p + 1) | (kMax << 32));
    }
  }
  if constexpr (H::kBits == 32) {
    keys.push_back(0xFFFFFFFFull);
    keys.push_back(0x100000000ull);
  }
  return keys;
}

template <typename H>
void CheckRing(uint32_t vnodes) {
  for (uint32_t n : kSizes) {
    SCOPED_TRACE(
        absl::StrCat(std::string(H::kName), " n=", n, " vnodes=", vnodes));
    Ring<H> ring(vnodes);
    ASSERT_TRUE(ring.Build(Nodes(n)).ok());
    const std::vector<uint64_t> keys = RingKeys(ring, n + vnodes);
    const RingUpperBound<H> upper(ring);
    const RingBranchless<H> branchless(ring);
    EXPECT_EQ(upper.num_points(), ring.points().size());
    EXPECT_EQ(branchless.num_points(), ring.points().size());
    EXPECT_EQ(Mismatches(ring, upper, keys), 0);
    EXPECT_EQ(Mismatches(ring, branchless, keys), 0);
  }
}

TEST(RingPeersTest, EqualRingXxh64) { CheckRing<Xxh64>(100); }
TEST(RingPeersTest, EqualRingMd5) { CheckRing<Md5>(100); }
TEST(RingPeersTest, EqualRingMd5Vnodes160) { CheckRing<Md5>(160); }
TEST(RingPeersTest, EqualRingCrc32) { CheckRing<Crc32>(100); }
TEST(RingPeersTest, EqualRingMurmur3_32) { CheckRing<Murmur3_32>(100); }
TEST(RingPeersTest, EqualRingOnePointPerNode) { CheckRing<Xxh64>(1); }

// Hand-placed points: ties between nodes, a point at 0 and at 2^64 - 1, the
// wrap-around, and every count of points 1..9 (the branchless loop's
// shapes).
TEST(RingPeersTest, EqualRingOnHandPlacedPoints) {
  const std::vector<NodeSpec> nodes = Nodes(3);
  const std::vector<std::vector<uint64_t>> points = {
      {0, 100, 200, 300}, {100, 250, kMax}, {200, 200, 5}};
  Ring<Xxh64> ring(1);
  ASSERT_TRUE(ring.BuildFromPoints(nodes, points).ok());
  const RingUpperBound<Xxh64> upper(ring);
  const RingBranchless<Xxh64> branchless(ring);
  std::vector<uint64_t> keys;
  for (uint64_t k = 0; k < 400; ++k) keys.push_back(k);
  for (uint64_t k = kMax - 3; k != 0; ++k) keys.push_back(k);
  EXPECT_EQ(Mismatches(ring, upper, keys), 0);
  EXPECT_EQ(Mismatches(ring, branchless, keys), 0);
  // A digest equal to a point belongs to the next point; the max digest
  // (equal to the largest point) wraps to the first point (0, node 0).
  EXPECT_EQ(upper.Lookup(kMax), 0u);
  EXPECT_EQ(branchless.Lookup(kMax), 0u);

  for (size_t count = 1; count <= 9; ++count) {
    SCOPED_TRACE(count);
    std::vector<std::vector<uint64_t>> one(1);
    for (size_t i = 0; i < count; ++i) one[0].push_back(1000 * (i + 1));
    std::vector<std::vector<uint64_t>> split(2);
    for (size_t i = 0; i < count; ++i) split[i % 2].push_back(1000 * (i + 1));
    Ring<Xxh64> r1(1), r2(1);
    ASSERT_TRUE(r1.BuildFromPoints(Nodes(1), one).ok());
    ASSERT_TRUE(r2.BuildFromPoints(Nodes(2), split).ok());
    std::vector<uint64_t> ks = {0, kMax};
    for (uint64_t k = 0; k <= 1000 * (count + 1); k += 250) {
      ks.push_back(k);
      ks.push_back(k + 1);
      ks.push_back(k - 1);
    }
    EXPECT_EQ(Mismatches(r1, RingBranchless<Xxh64>(r1), ks), 0);
    EXPECT_EQ(Mismatches(r2, RingBranchless<Xxh64>(r2), ks), 0);
    EXPECT_EQ(Mismatches(r2, RingUpperBound<Xxh64>(r2), ks), 0);
  }
}

// Weighted nodes and a removed node: the peers copy whatever points the
// ring has.
TEST(RingPeersTest, EqualRingAfterRemovalAndWithWeights) {
  std::vector<NodeSpec> nodes = Nodes(50);
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i].weight = 0.5 + i % 4;
  Ring<Xxh64> ring(100);
  ASSERT_TRUE(ring.Build(nodes).ok());
  ASSERT_TRUE(ring.RemoveNode(17).ok());
  const std::vector<uint64_t> keys = RingKeys(ring, 5);
  EXPECT_EQ(Mismatches(ring, RingUpperBound<Xxh64>(ring), keys), 0);
  EXPECT_EQ(Mismatches(ring, RingBranchless<Xxh64>(ring), keys), 0);
}

// The batched peer: LookupBatch over the keys, in batches of every shape
// (one key, less than a group, a group and one, a key array's tail), gives
// the plain upper_bound search's owner for every key: random digests, every
// point and its neighbours, keys past the last point (the wrap) and below
// the first.
template <typename H>
void CheckInterleaved(uint32_t n, uint32_t vnodes) {
  SCOPED_TRACE(absl::StrCat(std::string(H::kName), " n=", n, " v=", vnodes));
  Ring<H> ring(vnodes);
  ASSERT_TRUE(ring.Build(Nodes(n)).ok());
  std::vector<uint64_t> keys = RingKeys(ring, 7 * n + vnodes);
  const std::span<const uint64_t> points = ring.points();
  const uint64_t last = *std::max_element(points.begin(), points.end());
  const uint64_t first = *std::min_element(points.begin(), points.end());
  const uint64_t top = H::kBits == 32 ? 0xFFFFFFFFull : kMax;
  // Past the last point: they wrap to the first point's owner.
  SplitMix64 rng(n);
  for (int i = 0; i < 1000 && last < top; ++i) {
    keys.push_back(last + 1 + rng() % (top - last));
  }
  keys.push_back(last);
  keys.push_back(top);
  if (first > 0) keys.push_back(first - 1);
  const RingUpperBound<H> upper(ring);
  const RingInterleaved<H> batched(ring);
  EXPECT_EQ(batched.num_points(), points.size());
  EXPECT_EQ(Mismatches(upper, batched, keys), 0);  // its single-key path
  for (size_t b : {size_t{1}, size_t{5}, RingInterleaved<H>::kGroup,
                   RingInterleaved<H>::kGroup + 1, size_t{1000}}) {
    SCOPED_TRACE(absl::StrCat("batch ", b));
    std::vector<NodeId> out(keys.size(), kInvalidNode);
    for (size_t i = 0; i < keys.size(); i += b) {
      const size_t m = std::min(b, keys.size() - i);
      batched.LookupBatch(std::span<const uint64_t>(keys.data() + i, m),
                          std::span<NodeId>(out.data() + i, m));
    }
    int bad = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (out[i] != upper.Lookup(keys[i]) && bad++ == 0) {
        ADD_FAILURE() << "key " << keys[i] << ": upper_bound "
                      << upper.Lookup(keys[i]) << ", batched " << out[i];
      }
      if (out[i] != ring.Lookup(keys[i]) && bad++ == 0) {
        ADD_FAILURE() << "key " << keys[i] << ": ring " << ring.Lookup(keys[i])
                      << ", batched " << out[i];
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

TEST(RingInterleavedTest, EqualsUpperBoundSearch) {
  for (uint32_t n : kSizes) CheckInterleaved<Xxh64>(n, 100);
  CheckInterleaved<Xxh64>(1, 1);  // one point
  CheckInterleaved<Xxh64>(3, 1);
  CheckInterleaved<Crc32>(100, 100);  // 32-bit digests: reduced to the circle
}

// Hand-placed points: the wrap past the largest point, a digest equal to a
// point (it belongs to the next one), and every point count 1..9.
TEST(RingInterleavedTest, EqualsUpperBoundOnHandPlacedPoints) {
  for (size_t count = 1; count <= 9; ++count) {
    SCOPED_TRACE(count);
    std::vector<std::vector<uint64_t>> split(2);
    for (size_t i = 0; i < count; ++i) split[i % 2].push_back(1000 * (i + 1));
    Ring<Xxh64> ring(1);
    ASSERT_TRUE(ring.BuildFromPoints(Nodes(2), split).ok());
    std::vector<uint64_t> ks = {0, kMax, kMax - 1};
    for (uint64_t k = 0; k <= 1000 * (count + 1); k += 250) {
      ks.push_back(k);
      ks.push_back(k + 1);
      ks.push_back(k - 1);
    }
    const RingInterleaved<Xxh64> batched(ring);
    std::vector<NodeId> out(ks.size());
    batched.LookupBatch(ks, out);
    for (size_t i = 0; i < ks.size(); ++i) {
      EXPECT_EQ(out[i], RingUpperBound<Xxh64>(ring).Lookup(ks[i])) << ks[i];
    }
    // Past the largest point: the owner of the smallest (1000: node 0).
    NodeId wrap = 0;
    batched.LookupBatch(std::span<const uint64_t>(&kMax, 1),
                        std::span<NodeId>(&wrap, 1));
    EXPECT_EQ(wrap, 0u);
  }
}

// ForEachBatchPeer offers the batched peer for the ring, prehashed only,
// and nothing for the other algorithms; ForEachPeer never offers it.
TEST(RingInterleavedTest, OfferedByForEachBatchPeerOnly) {
  Ring<Xxh64> ring(10);
  ASSERT_TRUE(ring.Build(Nodes(5)).ok());
  std::vector<std::string_view> names;
  ASSERT_TRUE(ForEachBatchPeer(ring, kPrehashed,
                               [&](std::string_view name, const auto& peer) {
                                 names.push_back(name);
                                 NodeId o = 0;
                                 const uint64_t k = 12345;
                                 peer.LookupBatch(
                                     std::span<const uint64_t>(&k, 1),
                                     std::span<NodeId>(&o, 1));
                                 EXPECT_EQ(o, ring.Lookup(k));
                               })
                  .ok());
  EXPECT_THAT(names, ElementsAre("ring_interleaved"));
  names.clear();
  ASSERT_TRUE(ForEachBatchPeer(ring, kString,
                               [&](std::string_view name, const auto&) {
                                 names.push_back(name);
                               })
                  .ok());
  EXPECT_TRUE(names.empty());
  Maglev<Xxh64> maglev;
  ASSERT_TRUE(maglev.Build(Nodes(5)).ok());
  ASSERT_TRUE(ForEachBatchPeer(maglev, kPrehashed,
                               [&](std::string_view name, const auto&) {
                                 names.push_back(name);
                               })
                  .ok());
  EXPECT_TRUE(names.empty());
  ASSERT_TRUE(ForEachPeer(ring, kPrehashed, 5, 10,
                          [&](std::string_view name, const auto&) {
                            names.push_back(name);
                          })
                  .ok());
  EXPECT_THAT(names, ElementsAre("ring_upper_bound", "ring_branchless"));
  EXPECT_EQ(FindPeer("ring_interleaved")->scenario, kPrehashedBatch);
}

// ----------------------------------------------------------- rendezvous

template <typename H>
void CheckRendezvous(int keys_at_1000) {
  for (uint32_t n : kSizes) {
    SCOPED_TRACE(absl::StrCat(std::string(H::kName), " n=", n));
    Rendezvous<H> hrw;
    ASSERT_TRUE(hrw.Build(Nodes(n)).ok());
    const RendezvousPacked<H> peer(hrw);
    EXPECT_EQ(peer.size(), n);
    const int count = n >= 1000 ? keys_at_1000 : kRandomKeys;
    EXPECT_EQ(Mismatches(hrw, peer, Keys(n, count)), 0);
  }
}

TEST(RendezvousPackedTest, EqualsRendezvousXxh64) {
  CheckRendezvous<Xxh64>(kRandomKeys);
}
TEST(RendezvousPackedTest, EqualsRendezvousCrc32) {
  CheckRendezvous<Crc32>(kRandomKeys);
}
// md5 costs ~0.25 us per score and each key is scored 2N times (ours and
// the peer): 10^5 keys at N = 1000 would take ~50 s, so N = 1000 gets
// 5 * 10^3 keys (~2.5 s); N = 1, 2, 10 get 10^5.
TEST(RendezvousPackedTest, EqualsRendezvousMd5) { CheckRendezvous<Md5>(5000); }

// After removals ids are not 0..N-1 any more; ties keep the smaller id.
TEST(RendezvousPackedTest, EqualsRendezvousAfterRemovals) {
  Rendezvous<Xxh64> hrw;
  ASSERT_TRUE(hrw.Build(Nodes(40)).ok());
  ASSERT_TRUE(hrw.RemoveNode(0).ok());
  ASSERT_TRUE(hrw.RemoveNode(23).ok());
  NodeSpec extra;
  extra.name = "extra";
  ASSERT_TRUE(hrw.AddNode(extra).ok());
  EXPECT_EQ(Mismatches(hrw, RendezvousPacked<Xxh64>(hrw), Keys(9, kRandomKeys)),
            0);
}

// ---------------------------------------------------------------- maglev

template <typename H>
void CheckMaglev() {
  for (uint32_t n : kSizes) {
    SCOPED_TRACE(absl::StrCat(std::string(H::kName), " n=", n));
    Maglev<H> maglev;
    ASSERT_TRUE(maglev.Build(Nodes(n)).ok());
    const MaglevKatran<H> peer(maglev);
    const uint64_t m = peer.table_size();
    ASSERT_EQ(m, maglev.table_size());
    std::vector<uint64_t> keys = Keys(n, kRandomKeys);
    for (uint64_t k :
         {m - 1, m, m + 1, 2 * m - 1, kMax - kMax % m, kMax - kMax % m - 1}) {
      keys.push_back(k);
    }
    for (uint64_t s = 0; s < m; s += 97) keys.push_back(s);
    EXPECT_EQ(Mismatches(maglev, peer, keys), 0);
  }
}

TEST(MaglevKatranTest, EqualsMaglevXxh64) { CheckMaglev<Xxh64>(); }
TEST(MaglevKatranTest, EqualsMaglevMd5) { CheckMaglev<Md5>(); }
TEST(MaglevKatranTest, EqualsMaglevCrc32) { CheckMaglev<Crc32>(); }

TEST(MaglevKatranTest, EqualsMaglevWithExplicitTableSize) {
  Maglev<Xxh64> maglev(65537);
  ASSERT_TRUE(maglev.Build(Nodes(300)).ok());
  ASSERT_TRUE(maglev.RemoveNode(5).ok());
  EXPECT_EQ(
      Mismatches(maglev, MaglevKatran<Xxh64>(maglev), Keys(2, kRandomKeys)), 0);
}

// 16-bit tables are copied to 32 bits; 32-bit ones (ids from 65535 on) are
// read in place, by the peer and by its copies.
TEST(MaglevKatranTest, ReadsTheInstancesTableOnceEntriesAre32Bit) {
  Maglev<Xxh64> narrow(65537);
  ASSERT_TRUE(narrow.Build(Nodes(300)).ok());
  ASSERT_EQ(narrow.entry_bytes(), 2u);
  EXPECT_TRUE(narrow.WideTable().empty());
  EXPECT_FALSE(MaglevKatran<Xxh64>(narrow).shares_table());

  Maglev<Xxh64> wide(65537);
  ASSERT_TRUE(wide.Build(Nodes(65536)).ok());
  ASSERT_EQ(wide.entry_bytes(), 4u);
  ASSERT_EQ(wide.WideTable().size(), 65537u);
  const MaglevKatran<Xxh64> peer(wide);
  EXPECT_TRUE(peer.shares_table());
  const MaglevKatran<Xxh64> copy = peer;
  const std::vector<uint64_t> keys = Keys(3, kRandomKeys);
  EXPECT_EQ(Mismatches(wide, peer, keys), 0);
  EXPECT_EQ(Mismatches(wide, copy, keys), 0);
}

// Tables of 2 MiB or more: a copy in 4 KiB pages with Maglev's own lookup,
// 16- and 32-bit entries, equal to Maglev on every key and slot edge; the
// copy is another buffer, and its mapping holds no huge page.
TEST(MaglevSmallPagesTest, EqualsMaglevInBothWidthsFromAnotherBuffer) {
  for (uint32_t n : {300u, 70000u}) {
    SCOPED_TRACE(n);
    Maglev<Xxh64> maglev(2000003);
    ASSERT_TRUE(maglev.Build(Nodes(n)).ok());
    ASSERT_EQ(maglev.entry_bytes(), n <= 65535 ? 2u : 4u);
    const MaglevSmallPages<Xxh64> peer(maglev);
    ASSERT_EQ(peer.table_size(), 2000003u);
    const void* table = n <= 65535
                            ? static_cast<const void*>(
                                  maglev.NarrowEntries().data())
                            : static_cast<const void*>(
                                  maglev.WideTable().data());
    EXPECT_NE(peer.copy(), table);
    const uint64_t m = peer.table_size();
    std::vector<uint64_t> keys = Keys(n, kRandomKeys);
    for (uint64_t k : {m - 1, m, m + 1, kMax - kMax % m, kMax}) {
      keys.push_back(k);
    }
    EXPECT_EQ(Mismatches(maglev, peer, keys), 0);
    absl::StatusOr<MappingPages> pages = MappingPagesOf(peer.copy());
    ASSERT_TRUE(pages.ok()) << pages.status();
    EXPECT_GE(pages->bytes, m * maglev.entry_bytes());
    EXPECT_EQ(pages->huge_bytes, 0u);
    EXPECT_THAT(peer.PlacementNote(),
                ::testing::MatchesRegex("pages: maglev's table \\([0-9.]+ "
                                        "MiB\\) in a mapping with .*; this "
                                        "copy: 0\\.0 of [0-9.]+ MiB in huge "
                                        "pages"));
  }
}

// The mapping reader: an address in no mapping is NotFound; a buffer's own
// mapping is at least its size, with no more huge-page bytes than bytes.
TEST(MaglevSmallPagesTest, MappingPagesOfReadsSmaps) {
  EXPECT_TRUE(absl::IsNotFound(MappingPagesOf(nullptr).status()));
  const SmallPageBuffer buffer(size_t{3} << 20);
  ASSERT_NE(buffer.data(), nullptr);
  std::memset(buffer.data(), 1, size_t{3} << 20);
  absl::StatusOr<MappingPages> pages = MappingPagesOf(buffer.data());
  ASSERT_TRUE(pages.ok()) << pages.status();
  EXPECT_GE(pages->bytes, size_t{3} << 20);
  EXPECT_EQ(pages->huge_bytes, 0u);
  std::vector<uint8_t, HugePageAllocator<uint8_t>> huge(size_t{8} << 20, 1);
  absl::StatusOr<MappingPages> hp = MappingPagesOf(huge.data());
  ASSERT_TRUE(hp.ok()) << hp.status();
  EXPECT_LE(hp->huge_bytes, hp->bytes);
}

// Offered only from 2 MiB tables: not at M = 65537 (128 KiB of 16-bit
// entries), at M = 2000003 (4 MB); ApplicablePeers says the same from M.
TEST(MaglevSmallPagesTest, OfferedFromTwoMebibyteTables) {
  for (uint64_t m : {uint64_t{65537}, uint64_t{2000003}}) {
    Maglev<Xxh64> maglev(m);
    ASSERT_TRUE(maglev.Build(Nodes(100)).ok());
    std::vector<std::string_view> called;
    ASSERT_TRUE(ForEachPeer(maglev, kPrehashed, 100, 100,
                            [&](std::string_view name, const auto&) {
                              called.push_back(name);
                            })
                    .ok());
    const bool small_pages = std::find(called.begin(), called.end(),
                                       "maglev_small_pages") != called.end();
    EXPECT_EQ(small_pages, m == 2000003) << m;
    EXPECT_EQ(called, ApplicablePeers("maglev", "xxh64", kPrehashed, 100, 100,
                                      m));
  }
}

// ----------------------------------------------------------- libmemcached

struct Vector {
  std::vector<std::string> keys;
  std::vector<std::string> servers;  // "10.0.0.3:11211"
};

Vector ReadVector(const std::string& name) {
  const std::string path =
      std::string(CHBENCH_SOURCE_DIR) + "/bench/peers/testdata/" + name;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  Vector v;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    EXPECT_EQ(f.size(), 2u) << line;
    if (f.size() != 2) continue;
    v.keys.push_back(f[0]);
    v.servers.push_back(f[1]);
  }
  return v;
}

void CheckVector(const std::string& file, KetamaMode mode) {
  SCOPED_TRACE(file);
  const Vector v = ReadVector(file);
  ASSERT_EQ(v.keys.size(), 300u);
  std::vector<std::string> hosts;
  for (int i = 1; i <= 10; ++i) hosts.push_back(absl::StrCat("10.0.0.", i));
  absl::StatusOr<LibmemcachedKetama> peer =
      LibmemcachedKetama::FromHosts(hosts, mode);
  ASSERT_TRUE(peer.ok()) << peer.status();
  EXPECT_EQ(peer->Behavior(MEMCACHED_BEHAVIOR_HASH), MEMCACHED_HASH_MD5);
  EXPECT_EQ(peer->Behavior(MEMCACHED_BEHAVIOR_KETAMA_HASH), MEMCACHED_HASH_MD5);
  EXPECT_EQ(peer->Behavior(MEMCACHED_BEHAVIOR_DISTRIBUTION),
            mode == KetamaMode::kKetama
                ? MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA
                : MEMCACHED_DISTRIBUTION_CONSISTENT_WEIGHTED);
  EXPECT_EQ(peer->Behavior(MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED),
            mode == KetamaMode::kKetama ? 0u : 1u);
  int bad = 0;
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const NodeId id = peer->Lookup(v.keys[i]);
    ASSERT_LT(id, hosts.size());
    const std::string got = hosts[id] + ":11211";
    if (got != v.servers[i] && bad++ == 0) {
      ADD_FAILURE() << v.keys[i] << ": " << got << " != " << v.servers[i];
    }
  }
  EXPECT_EQ(bad, 0);
}

TEST(LibmemcachedKetamaTest, MatchesReferenceVectorKetamaMd5) {
  CheckVector("libmemcached-ketama-md5-n10.tsv", KetamaMode::kKetama);
}

TEST(LibmemcachedKetamaTest, MatchesReferenceVectorKetamaWeighted) {
  CheckVector("libmemcached-ketama-weighted-n10.tsv",
              KetamaMode::kKetamaWeighted);
}

TEST(LibmemcachedKetamaTest, ValidDeterministicAndSpread) {
  for (uint32_t vnodes : {100u, 160u}) {
    for (uint32_t n : {1u, 2u, 10u, 100u}) {
      SCOPED_TRACE(absl::StrCat("vnodes=", vnodes, " n=", n));
      Ring<Md5> ring(vnodes);
      ASSERT_TRUE(ring.Build(Nodes(n)).ok());
      absl::StatusOr<LibmemcachedKetama> a = LibmemcachedKetama::Make(ring);
      absl::StatusOr<LibmemcachedKetama> b = LibmemcachedKetama::Make(ring);
      ASSERT_TRUE(a.ok()) << a.status();
      ASSERT_TRUE(b.ok()) << b.status();
      EXPECT_EQ(a->size(), n);
      EXPECT_EQ(a->mode(), vnodes == 100 ? KetamaMode::kKetama
                                         : KetamaMode::kKetamaWeighted);
      std::vector<int> load(n, 0);
      const int keys = 200 * static_cast<int>(n);
      for (int i = 0; i < keys; ++i) {
        const std::string key = absl::StrCat("key:", i);
        const NodeId id = a->Lookup(key);
        ASSERT_LT(id, n);
        ASSERT_EQ(id, b->Lookup(key));
        ASSERT_EQ(id, a->Lookup(key));
        ++load[id];
      }
      for (uint32_t i = 0; i < n; ++i) {
        EXPECT_GT(load[i], 0) << "server " << i << " got no key";
      }
    }
  }
}

// Server index i is the i-th live node: after a removal, ids skip it.
TEST(LibmemcachedKetamaTest, MapsServerIndexToLiveIds) {
  Ring<Md5> ring(100);
  ASSERT_TRUE(ring.Build(Nodes(5)).ok());
  ASSERT_TRUE(ring.RemoveNode(2).ok());
  absl::StatusOr<LibmemcachedKetama> peer = LibmemcachedKetama::Make(ring);
  ASSERT_TRUE(peer.ok()) << peer.status();
  const std::vector<NodeId> live = ring.LiveNodes();
  std::set<NodeId> seen;
  for (int i = 0; i < 2000; ++i) {
    const std::string key = absl::StrCat("k", i);
    const NodeId id = peer->Lookup(key);
    EXPECT_EQ(id, live[peer->ServerIndex(key)]);
    seen.insert(id);
  }
  EXPECT_EQ(seen, std::set<NodeId>(live.begin(), live.end()));
}

TEST(LibmemcachedKetamaTest, RefusesWhatTheLibraryWouldAbortOn) {
  Ring<Md5> big(100);
  ASSERT_TRUE(big.Build(Nodes(101)).ok());
  absl::StatusOr<LibmemcachedKetama> peer = LibmemcachedKetama::Make(big);
  ASSERT_FALSE(peer.ok());
  EXPECT_EQ(peer.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(peer.status().message(), HasSubstr("101 servers"));
  EXPECT_THAT(peer.status().message(), HasSubstr("100"));

  Ring<Md5> other(50);
  ASSERT_TRUE(other.Build(Nodes(3)).ok());
  peer = LibmemcachedKetama::Make(other);
  ASSERT_FALSE(peer.ok());
  EXPECT_THAT(peer.status().message(), HasSubstr("vnodes 50"));

  std::vector<NodeSpec> weighted = Nodes(3);
  weighted[1].weight = 2;
  Ring<Md5> w(100);
  ASSERT_TRUE(w.Build(weighted).ok());
  EXPECT_FALSE(LibmemcachedKetama::Make(w).ok());

  EXPECT_FALSE(LibmemcachedKetama::FromHosts({}, KetamaMode::kKetama).ok());
}

// Katran's fill from Maglev's (offset, skip) gives Maglev's table, slot by
// slot, for equal weights.
TEST(MaglevKatranBuildTest, TableEqualsMaglevs) {
  for (uint64_t m : {7ull, 1009ull, 65537ull}) {
    for (uint32_t n : {1u, 2u, 7u, 100u, 1000u}) {
      if (n > m) continue;
      SCOPED_TRACE(absl::StrCat("M ", m, " N ", n));
      Maglev<Xxh64> maglev(m);
      const std::vector<NodeSpec> nodes = Nodes(n);
      ASSERT_TRUE(maglev.Build(nodes).ok());
      const std::vector<int> table = MaglevKatranBuild<Xxh64>::Table(nodes, m);
      ASSERT_EQ(table.size(), m);
      for (uint64_t slot = 0; slot < m; ++slot) {
        ASSERT_EQ(static_cast<NodeId>(table[slot]), maglev.Lookup(slot))
            << "slot " << slot;
      }
    }
  }
}

// ---------------------------------------------------------------- registry

TEST(PeersRegistryTest, RowsAreWellFormed) {
  std::vector<std::string_view> names;
  for (const PeerInfo& info : Peers()) {
    SCOPED_TRACE(info.name);
    names.push_back(info.name);
    EXPECT_NE(FindAlgorithm(info.base), nullptr) << info.base;
    EXPECT_TRUE(info.scenario == kPrehashed || info.scenario == kString ||
                info.scenario == kBuild || info.scenario == kPrehashedBatch);
    EXPECT_FALSE(info.description.empty());
    EXPECT_FALSE(info.source.empty());
    EXPECT_EQ(FindPeer(info.name), &info);
  }
  EXPECT_THAT(names,
              ElementsAre("jump_paper", "ring_upper_bound", "ring_branchless",
                          "rendezvous_packed", "maglev_katran",
                          "maglev_small_pages", "maglev_katran_build",
                          "libmemcached_ketama",
                          "anchor_table_crc", "memento_jump_crc",
                          "ring_interleaved"));
  EXPECT_EQ(FindPeer("ring"), nullptr);
  EXPECT_EQ(FindPeer("libmemcached_ketama")->max_nodes,
            LibmemcachedKetama::kMaxServers);
  EXPECT_THAT(PeerNames(), HasSubstr("jump_paper, ring_upper_bound"));
}

// ForEachPeer (built instances) offers exactly ApplicablePeers (names only),
// and each offered prehashed peer agrees with the instance.
TEST(PeersRegistryTest, ForEachPeerMatchesApplicablePeers) {
  for (const AlgorithmInfo& info : Algorithms()) {
    const std::string_view algorithm = info.name;
    for (std::string_view hash : {"xxh64", "md5", "crc32"}) {
      for (std::string_view scenario : {kPrehashed, kString}) {
        for (uint32_t n : {10u, 101u}) {
          for (uint32_t vnodes : {100u, 160u, 30u}) {
            SCOPED_TRACE(absl::StrCat(
                std::string(algorithm), " ", std::string(hash), " ",
                std::string(scenario), " n=", n, " v=", vnodes));
            std::vector<std::string_view> called;
            const bool known = DispatchAmongHashes<Xxh64, Md5, Crc32>(
                algorithm, hash, [&]<typename A>() {
                  AlgorithmParams params;
                  params.hash = std::string(hash);
                  params.vnodes = vnodes;
                  auto made = MakeAlgorithm(algorithm, params);
                  if (!made.ok() && algorithm == "bounded_load" &&
                      FindHash(hash)->bits == 32) {
                    return;  // refused: equal digests would merge keys
                  }
                  ASSERT_TRUE(made.ok()) << made.status();
                  ASSERT_TRUE((*made)->Build(Nodes(n)).ok());
                  const A& built = dynamic_cast<const A&>(**made);
                  absl::Status st = ForEachPeer(
                      built, scenario, n, vnodes,
                      [&](std::string_view name, const auto& peer) {
                        called.push_back(name);
                        using P = std::decay_t<decltype(peer)>;
                        if constexpr (!std::is_same_v<P, LibmemcachedKetama>) {
                          EXPECT_EQ(scenario, kPrehashed) << name;
                          SplitMix64 rng(n);
                          for (int i = 0; i < 500; ++i) {
                            const uint64_t k = rng();
                            ASSERT_EQ(peer.Lookup(k), built.Lookup(k)) << name;
                          }
                        }
                      });
                  EXPECT_TRUE(st.ok()) << st;
                });
            ASSERT_TRUE(known);
            const std::vector<std::string_view> want =
                ApplicablePeers(algorithm, hash, scenario, n, vnodes);
            EXPECT_EQ(called, want);
          }
        }
      }
    }
  }
  // Spot checks of the table in peers.h.
  EXPECT_THAT(ApplicablePeers("ring", "md5", kString, 100, 160),
              ElementsAre("libmemcached_ketama"));
  EXPECT_THAT(ApplicablePeers("ring", "xxh64", kPrehashed, 5, 100),
              ElementsAre("ring_upper_bound", "ring_branchless"));
  EXPECT_TRUE(
      ApplicablePeers("bounded_load", "xxh64", kPrehashed, 5, 100).empty());
  EXPECT_TRUE(ApplicablePeers("modulo", "xxh64", kPrehashed, 5, 100).empty());
}

TEST(PeersRegistryTest, WeightedRendezvousHasNoPeer) {
  std::vector<NodeSpec> nodes = Nodes(4);
  nodes[0].weight = 3;
  Rendezvous<Xxh64> hrw;
  ASSERT_TRUE(hrw.Build(nodes).ok());
  int calls = 0;
  ASSERT_TRUE(
      ForEachPeer(hrw, kPrehashed, 4, 100, [&](std::string_view, const auto&) {
        ++calls;
      }).ok());
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace peers
}  // namespace chbench

namespace chbench {
namespace peers {
namespace {

// The CRC baselines map like their base only with nothing removed (and, for
// anchor, a = N); otherwise ForEachPeer must not offer them.
TEST(CrcBaselinesTest, OfferedOnlyWhileTheMappingsAgree) {
  auto count = [](const auto& built) {
    int calls = 0;
    EXPECT_TRUE(ForEachPeer(built, kPrehashed, 50, 100,
                            [&](std::string_view, const auto&) { ++calls; })
                    .ok());
    return calls;
  };
  Anchor<Xxh64> anchor(0);
  ASSERT_TRUE(anchor.Build(Nodes(50)).ok());
  EXPECT_EQ(count(anchor), 1);
  const AnchorTableCrc peer(anchor);
  SplitMix64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t k = rng();
    ASSERT_EQ(peer.Lookup(k), anchor.Lookup(k));
  }
  ASSERT_TRUE(anchor.RemoveNode(7).ok());
  EXPECT_EQ(count(anchor), 0);
  Anchor<Xxh64> spare(100);  // a = 2N: the first step may land on a spare
  ASSERT_TRUE(spare.Build(Nodes(50)).ok());
  EXPECT_EQ(count(spare), 0);

  Memento<Xxh64> memento;
  ASSERT_TRUE(memento.Build(Nodes(50)).ok());
  EXPECT_EQ(count(memento), 1);
  const MementoJumpCrc mpeer(memento);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t k = rng();
    ASSERT_EQ(mpeer.Lookup(k), memento.Lookup(k));
  }
  ASSERT_TRUE(memento.RemoveNode(20).ok());
  EXPECT_EQ(count(memento), 0);
}

}  // namespace
}  // namespace peers
}  // namespace chbench
