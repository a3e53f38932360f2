// Copyright 2026 The chbench Authors.

#include "bench/peers/peers.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_join.h"

namespace chbench {
namespace peers {
namespace {

constexpr std::array<PeerInfo, 11> kPeers = {{
    {"jump_paper", "jump",
     "Lamping & Veach's published C++ loop, transcribed; bucket -> live id",
     "Lamping & Veach, \"A Fast, Minimal Memory, Consistent Hash Algorithm\", "
     "arXiv:1406.2294, 2014, Figure 1",
     kPrehashed, 0},
    {"ring_upper_bound", "ring",
     "std::upper_bound over the ring's sorted points, wrap to the first",
     "the textbook ring search (bisect_right in the seed articles); C++ "
     "std::upper_bound",
     kPrehashed, 0},
    {"ring_branchless", "ring",
     "branchless binary search (base += (base[half] <= x) * half) over the "
     "ring's points",
     "Khuong & Morin, \"Array Layouts for Comparison-Based Searching\", ACM "
     "JEA 22, 2017 (branch-free sorted-array search)",
     kPrehashed, 0},
    {"rendezvous_packed", "rendezvous",
     "plain HRW: argmax of h(key, node) over a packed array of node hashes; "
     "unweighted",
     "Thaler & Ravishankar, \"Using Name-Based Mappings to Increase Hit "
     "Rates\", IEEE/ACM ToN 1998",
     kPrehashed, 0},
    {"maglev_katran", "maglev",
     "Katran-style table[h % M] (plain % operator) over Maglev's table: "
     "the same memory when its entries are 32-bit, else a 32-bit copy",
     "facebookincubator/katran, katran/lib/bpf/balancer_kern.c "
     "(get_packet_dst: hash % RING_SIZE)",
     kPrehashed, 0},
    {"maglev_small_pages", "maglev",
     "Maglev's own lookup (same reduction, same entry width) over a copy of "
     "its table in 4 KiB pages (MADV_NOHUGEPAGE), where Maglev's table is "
     "marked MADV_HUGEPAGE: what huge pages buy; tables of 2 MiB or more",
     "Linux madvise(2) MADV_HUGEPAGE / MADV_NOHUGEPAGE (transparent huge "
     "pages, Documentation/admin-guide/mm/transhuge.rst)",
     kPrehashed, 0},
    {"maglev_katran_build", "maglev",
     "Katran's table fill (MaglevHash::generateHashRing: probe (offset + "
     "next * skip) % M until free) from Maglev's own (offset, skip) of the "
     "names; no node table; weights 1",
     "facebookincubator/katran, katran/lib/MaglevHash.cpp "
     "(generateHashRing); Eisenbud et al., NSDI 2016, Pseudocode 1",
     kBuild, 0},
    {"libmemcached_ketama", "ring",
     "Debian libmemcached 1.1.4 ketama continuum (md5; 100 points, or 160 "
     "with KETAMA_WEIGHTED): memcached_generate_hash of the string key",
     "libmemcached 1.1.4 (Debian libmemcached-dev), src/libmemcached/hosts.cc "
     "update_continuum, hash.cc dispatch_host",
     kString, 100},
    {"anchor_table_crc", "anchor",
     "ids[crc32c(x, 0) % N]: a plain table lookup plus one CRC, what "
     "AnchorHash reduces to with a = N and nothing removed (same mapping)",
     "Mendelson et al., \"AnchorHash\", IEEE/ACM ToN 2020, Alg. 3, first "
     "step; CRC as anchorhash/cpp-anchorhash@3ef98f0",
     kPrehashed, 0},
    {"memento_jump_crc", "memento",
     "ids[JumpConsistentHash(crc32c(x, 0), N)]: what MementoHash reduces to "
     "with nothing removed (same mapping)",
     "Coluzzi et al., \"MementoHash\", IEEE/ACM ToN 2024, first step; "
     "slashdotted/cpp-consistent-hashing-algorithms@2e53589 crc32c path",
     kPrehashed, 0},
    {"ring_interleaved", "ring",
     "batched: the branchless binary search over the ring's points run for "
     "16 keys in lockstep, prefetching each key's next step (interleaved "
     "binary search); timed beside the ring's LookupBatch",
     "Psaropoulos et al., \"Interleaving with Coroutines: A Practical "
     "Approach for Robust Index Joins\", VLDB 2017 (interleaved binary "
     "search); Khuong & Morin, ACM JEA 22, 2017 (prefetching branch-free "
     "search)",
     kPrehashedBatch, 0},
}};

}  // namespace

std::span<const PeerInfo> Peers() { return kPeers; }

const PeerInfo* FindPeer(std::string_view name) {
  for (const PeerInfo& info : kPeers) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string PeerNames() {
  std::vector<std::string> names;
  for (const PeerInfo& info : kPeers) names.emplace_back(info.name);
  return absl::StrJoin(names, ", ");
}

std::vector<std::string_view> ApplicablePeers(std::string_view algorithm,
                                              std::string_view hash,
                                              std::string_view scenario,
                                              uint32_t nodes,
                                              uint32_t vnodes,
                                              uint64_t table_size) {
  std::vector<std::string_view> out;
  if (nodes == 0) return out;
  for (const PeerInfo& info : kPeers) {
    if (info.base != algorithm || info.scenario != scenario) continue;
    if (info.max_nodes != 0 && nodes > info.max_nodes) continue;
    if (info.name == "libmemcached_ketama" &&
        (hash != Md5::kName || (vnodes != 100 && vnodes != 160))) {
      continue;
    }
    if (info.name == "maglev_small_pages") {
      // A fresh build's table: 16-bit entries up to 65535 node ids.
      const uint64_t m =
          table_size != 0 ? table_size : MaglevDefaultTableSize(nodes);
      if (m * (nodes <= 65535 ? 2 : 4) < HugePageAllocator<char>::kHuge) {
        continue;
      }
    }
    out.push_back(info.name);
  }
  return out;
}

namespace peers_internal {

bool AllUnitWeights(const Ring<Md5>& ring) {
  for (NodeId id : ring.LiveNodes()) {
    if (ring.table().spec(id).weight != 1.0) return false;
  }
  return true;
}

}  // namespace peers_internal
}  // namespace peers
}  // namespace chbench
