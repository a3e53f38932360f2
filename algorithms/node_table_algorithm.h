// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: algorithms/node_table_algorithm.h
// -----------------------------------------------------------------------------
//
// NodeTableAlgorithm<H> is the part of a ConsistentHash that every algorithm
// keeping its nodes in a NodeTable (algorithms/node_table.h) implements the
// same way: the table itself, `NodeName` (the table's name of an id) and
// `HashKey` (the key's bytes hashed with the policy H at seed 0, the digest
// `Lookup` takes). An algorithm derives from it instead of ConsistentHash,
// constructs it with its name and whether it takes weights, and implements
// the rest of the interface (Build, AddNode, RemoveNode, Lookup, ...) on
// `table_` and its own state.
//
// Guarantees: the two functions are `final`, so a caller holding the concrete
// type calls them without a virtual call; the table is the first member
// after the vtable pointer, where every algorithm kept it, so object sizes
// (and MemoryBytes) are unchanged by deriving from it.
//
// Complexity: NodeName O(1); HashKey one H over the key's bytes.
//
// Example:
//   template <typename H>
//   class Modulo final : public NodeTableAlgorithm<H> {
//    public:
//     Modulo() : NodeTableAlgorithm<H>("modulo", /*weights_supported=*/false) {}
//     ...  // Build, AddNode, RemoveNode, Lookup on this->table_
//   };

#ifndef CHBENCH_ALGORITHMS_NODE_TABLE_ALGORITHM_H_
#define CHBENCH_ALGORITHMS_NODE_TABLE_ALGORITHM_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "algorithms/consistent_hash.h"
#include "algorithms/hash/hash_function.h"
#include "algorithms/node_table.h"

namespace chbench {

template <typename H>
class NodeTableAlgorithm : public ConsistentHash {
 public:
  uint64_t HashKey(std::string_view key) const final {
    return HashString<H>(key, 0);
  }
  const std::string& NodeName(NodeId id) const final {
    return table_.name(id);
  }

 protected:
  NodeTableAlgorithm(std::string_view algorithm, bool weights_supported)
      : table_(algorithm, weights_supported) {}

  NodeTable table_;
};

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_NODE_TABLE_ALGORITHM_H_
