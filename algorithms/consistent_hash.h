// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: consistent_hash.h
// -----------------------------------------------------------------------------
//
// The one runtime interface that every consistent-hashing algorithm in chbench
// implements, in two layers:
//
//   * Concrete types (`Ring<H>`, `Jump<H>`, `Maglev<H>`, ...) with a
//     non-virtual, inlinable `Lookup(uint64_t key_hash) const`. Benchmarks use
//     them directly, so the timed loop has no virtual call. `H` is a hash
//     policy from algorithms/hash/hash_function.h and reaches every hash the
//     algorithm computes (key digest, ring points, scores, Maglev tables).
//   * `ConsistentHash`, a type-erased interface used by the experiment runner
//     and the `chbench` command. Every concrete type derives from it and is
//     declared `final`, so a call through the concrete type (what benchmarks
//     do) is devirtualized and inlined, while the runner can hold any
//     algorithm through a `std::unique_ptr<ConsistentHash>`.
//
// Node identity. Every node has a name (the string that gets hashed) and a
// `NodeId`. Ids are handed out by the algorithm in order of addition: 0, 1, 2,
// ... and are never reused, so after `Build(specs)` node i has id i. A removed
// node's id stays invalid; a node added later gets a fresh id even if it reuses
// a name. For `jump`, bucket b is the b-th live node.
//
// Errors are reported as absl::Status with a message that names the bad value
// and the valid ones. Lookups never fail; calling `Lookup` on an empty
// instance is a precondition violation (checked by the adapter in debug
// builds only, the hot path carries no check).
//
// Guarantees that every implementation gives (checked by the conformance
// suite, algorithms/conformance_test.cc):
//   * Determinism: two instances built from the same node specs and parameters
//     map every key identically, in every process, on every machine.
//   * Every lookup returns a live node.
//   * `MemoryBytes()` is within 10 % of the heap a counting allocator sees.
//   * `PlaceBatch(keys)` equals `Place` on each key in order.
//   * `LookupBatch(keys)` equals `Lookup` on each key, for every batch size
//     and state.

#ifndef CHBENCH_ALGORITHMS_CONSISTENT_HASH_H_
#define CHBENCH_ALGORITHMS_CONSISTENT_HASH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace chbench {

using NodeId = uint32_t;
inline constexpr NodeId kInvalidNode = ~NodeId{0};

// What the harness knows about a node. `weight` is relative capacity (> 0);
// algorithms without weights reject any weight other than 1. `zone` is a
// failure domain, used by replica selection with distinct zones.
struct NodeSpec {
  std::string name;
  double weight = 1.0;
  std::string zone;
};

// What an algorithm can do. The experiment runner reads these to decide which
// cells apply, and records the reason in the CSV when one does not.
struct Capabilities {
  bool arbitrary_removal = false;   // false: only the last added node (jump)
  bool minimal_disruption = false;  // adding/removing moves only the keys that
                                    // must move (ring, rendezvous, jump). A
                                    // preset may claim it for its current
                                    // servers only (libmemcached's unweighted
                                    // modes: while every live server has
                                    // weight 1); then it covers a change
                                    // whose before and after both claim it.
  bool weights = false;             // accepts NodeSpec::weight != 1
  bool replicas = false;            // LookupReplicas(key, r) is supported
  bool stateful = false;            // Place() consumes capacity (bounded_load)
  // The mapping depends on the order of past AddNode/RemoveNode calls, not
  // only on the live node set (anchor, memento, dx: a removed bucket is
  // remembered and re-added in LIFO order). When false, an instance after
  // any sequence of changes maps like a fresh Build of its live nodes.
  bool history_dependent = false;
};

// Parameters of every algorithm; each algorithm reads the ones that apply and
// validates them in its factory.
struct AlgorithmParams {
  std::string hash = "xxh64";  // name in the hash registry
  uint32_t vnodes = 100;       // ring, bounded_load: points per unit weight
  uint64_t table_size = 0;     // maglev: prime M; 0 = smallest prime >= 100*N
  double load_factor = 1.25;   // bounded_load: c > 1
  // anchor: the anchor size a (buckets ever available), fixed for the
  // instance's life; 0 = the node count of the first Build (a = N, no room to
  // add). dx: the activity array's initial size; 0 = the smallest power of
  // two >= N at Build. Must be >= N when set.
  uint64_t capacity = 0;
  uint32_t probes = 21;  // multiprobe: probes per lookup (k), >= 1
};

// The type-erased interface. Not for timed loops: see the concrete types.
class ConsistentHash {
 public:
  ConsistentHash() = default;
  // Not copyable: instances keep pointers into their own node state.
  ConsistentHash(const ConsistentHash&) = delete;
  ConsistentHash& operator=(const ConsistentHash&) = delete;
  virtual ~ConsistentHash() = default;

  // The registry name, e.g. "ring".
  virtual std::string_view name() const = 0;
  virtual Capabilities capabilities() const = 0;

  // Replaces the node set with `nodes` (ids 0..n-1) in one batch. Batch
  // building is what makes 10^5-node experiments possible: algorithms sort or
  // populate once instead of once per node.
  virtual absl::Status Build(std::span<const NodeSpec> nodes) = 0;
  // Adds one node; returns its fresh id.
  virtual absl::StatusOr<NodeId> AddNode(const NodeSpec& node) = 0;
  // Removes a live node. Errors: unknown or already removed id; for jump, any
  // node but the last.
  virtual absl::Status RemoveNode(NodeId id) = 0;

  // The owner of a key whose 64-bit digest is `key_hash`. For a stateful
  // algorithm this is the node the key was placed on, or, for a key never
  // placed, the node `Place` would choose now (without placing it).
  virtual NodeId Lookup(uint64_t key_hash) const = 0;
  // Assigns a key and records it. Stateless algorithms: same as Lookup.
  virtual NodeId Place(uint64_t key_hash) { return Lookup(key_hash); }
  // The owners of many keys: out[i] = Lookup(key_hashes[i]) for every i,
  // exactly (out.size() >= key_hashes.size()). The default is the plain loop.
  // Every concrete type overrides it with a non-virtual, inlinable member
  // (called through the final type, no virtual call per key; the building
  // blocks are in lookup_batch.h); the algorithms whose lookups miss the
  // cache at large sizes (ring, Maglev, anchor, dx, multiprobe, memento,
  // bounded_load, the ring and table presets) compute every key's first
  // address of a group of keys, prefetch them, then finish the group, so
  // that the group's memory reads overlap. Complexity: that of Lookup per
  // key; no allocation.
  //
  // Example:
  //   std::vector<NodeId> owners(digests.size());
  //   algo->LookupBatch(digests, owners);
  virtual void LookupBatch(std::span<const uint64_t> key_hashes,
                           std::span<NodeId> out) const {
    for (size_t i = 0; i < key_hashes.size(); ++i) {
      out[i] = Lookup(key_hashes[i]);
    }
  }
  // The string path: out[i] = Lookup(HashKey(keys[i])), hashing a group of
  // keys before looking it up with LookupBatch (HashAndLookupBatch in
  // lookup_batch.h, which is also the inlined form for a concrete type).
  // Not virtual; a derived class's LookupBatch hides it, so call it through
  // the interface or HashAndLookupBatch.
  void LookupBatch(std::span<const std::string_view> keys,
                   std::span<NodeId> out) const;

  // Places `keys` in order and writes each key's node to `out` (same size):
  // exactly what calling Place on each key in turn returns and records.
  // A stateful algorithm overrides it to overlap the memory accesses of
  // consecutive keys (bounded_load: a key's ring successor does not depend on
  // the loads, so a block of successors is found before the block is placed).
  virtual void PlaceBatch(std::span<const uint64_t> keys,
                          std::span<NodeId> out) {
    for (size_t i = 0; i < keys.size(); ++i) out[i] = Place(keys[i]);
  }
  // Fills `out` with r distinct live nodes in preference order (the first is
  // Lookup's answer). With `distinct_zones`, the first min(r, zones) are in
  // distinct zones, and the rest are the nodes passed over, in preference
  // order (Cassandra's NetworkTopologyStrategy rule within a data center).
  // Raising r only appends. Error where replicas are not
  // supported or r exceeds the number of live nodes. A production preset
  // returns its system's list, whose rule can fix r: Cassandra
  // NetworkTopologyStrategy (presets/cassandra/cassandra.h) takes only r =
  // the sum of its replication factors, places by datacenter and rack itself
  // (distinct_zones is an error), lists fewer when a datacenter has fewer
  // hosts than its factor, and starts with Lookup's answer only when that
  // node's datacenter is replicated.
  virtual absl::Status LookupReplicas(uint64_t key_hash, size_t r,
                                      bool distinct_zones,
                                      std::vector<NodeId>* out) const;

  // The live node named `name`; NotFound naming it (and a few live names)
  // when no live node has that name.
  absl::StatusOr<NodeId> FindNode(std::string_view name) const;
  // RemoveNode(FindNode(name)): nodes are added and removed by name.
  absl::Status RemoveNodeByName(std::string_view name);

  // The key digest with this instance's hash function (seed 0).
  virtual uint64_t HashKey(std::string_view key) const = 0;

  // Heap bytes of the algorithm's state.
  virtual size_t MemoryBytes() const = 0;
  // Number of live nodes.
  virtual size_t size() const = 0;
  // Live node ids, ascending.
  virtual std::vector<NodeId> LiveNodes() const = 0;
  // The name of node `id` (also for removed ids).
  virtual const std::string& NodeName(NodeId id) const = 0;

  // The share of the digest space each live node owns, in LiveNodes() order
  // (the shares sum to 1), without keys: the fraction of all 2^kBits digests
  // of the hash policy whose Lookup is that node. Where the state is a
  // partition of the digest space it is computed from it exactly (ring: arc
  // lengths; Maglev: slots; modulo: residues); where the algorithm's proof
  // makes every live bucket equally likely for a uniform digest (jump-like
  // and table algorithms: a bucket's share is a property of the algorithm,
  // not of the instance) it is 1/N, and ShareSource() says which. Empty
  // (the default) when neither holds (e.g. multi-probe's, or a stateful
  // algorithm's, shares depend on the keys).
  virtual std::vector<double> DigestSpaceShares() const { return {}; }
  enum class ShareSource { kNone, kFromState, kByConstruction };
  virtual ShareSource DigestShareSource() const { return ShareSource::kNone; }
};

// True when the concrete type A (or a class between it and ConsistentHash)
// defines LookupReplicas, i.e. has replica lists; a test checks that it agrees
// with the registry's `replicas` capability. Code generic over A compiles its
// replica paths only where this holds.
template <typename A>
inline constexpr bool kDefinesReplicas =
    !std::is_same_v<decltype(&A::LookupReplicas),
                    decltype(&ConsistentHash::LookupReplicas)>;

// True when the concrete type A (or a class between it and ConsistentHash)
// defines its own LookupBatch, i.e. the batched lookup is a direct,
// inlinable call through A. Every concrete type does; the timing kernels
// check it at compile time.
namespace consistent_hash_internal {
// Whether the class declaring this LookupBatch is not ConsistentHash.
template <typename C>
constexpr bool NotTheDefault(void (C::*)(std::span<const uint64_t>,
                                         std::span<NodeId>) const) {
  return !std::is_same_v<C, ConsistentHash>;
}
}  // namespace consistent_hash_internal
template <typename A>
inline constexpr bool kDefinesLookupBatch =
    consistent_hash_internal::NotTheDefault(&A::LookupBatch);

// Exact shares of the residues of all 2^bits digests mod m, in slot order:
// slot s holds floor(2^bits / m) digests plus one when s < 2^bits mod m.
std::vector<double> ResidueShares(uint64_t m, int bits);
// 1/n for each of n live nodes.
std::vector<double> UniformShares(size_t n);

inline absl::Status ConsistentHash::LookupReplicas(uint64_t, size_t, bool,
                                                   std::vector<NodeId>*) const {
  return absl::UnimplementedError(std::string(name()) +
                                  " does not support replicas; algorithms "
                                  "with replicas: ring, rendezvous, choosek, "
                                  "crush; presets with replicas: cassandra, "
                                  "npm_hashring, uhashring, uhashring_ketama");
}

inline absl::StatusOr<NodeId> ConsistentHash::FindNode(
    std::string_view name) const {
  const std::vector<NodeId> live = LiveNodes();
  for (NodeId id : live) {
    if (NodeName(id) == name) return id;
  }
  std::string some;
  for (size_t i = 0; i < live.size() && i < 10; ++i) {
    some += (i == 0 ? "'" : ", '") + NodeName(live[i]) + "'";
  }
  if (live.size() > 10) some += ", ...";
  return absl::NotFoundError(
      std::string(this->name()) + ": no live node named '" + std::string(name) +
      "'; live nodes: " + (live.empty() ? std::string("(none)") : some));
}

inline absl::Status ConsistentHash::RemoveNodeByName(std::string_view name) {
  absl::StatusOr<NodeId> id = FindNode(name);
  if (!id.ok()) return id.status();
  return RemoveNode(*id);
}

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_CONSISTENT_HASH_H_
