// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: bench/cluster/lru.h
// -----------------------------------------------------------------------------
//
// LruCache: the simulated cache server of the cluster experiment
// (cluster.h). It holds at most `capacity` keys (32-bit key indices) and
// evicts the least recently used one when a new key arrives at a full cache;
// a hit (Get) and a store (Put) both make the key the most recent. memcached
// approximates this policy per slab class (segmented LRU); with equal value
// sizes and no eviction the two agree exactly.
//
// Guarantees: deterministic (no iteration over the hash map; its per-process
// seed cannot change any result). Complexity: Get, Put O(1) expected; memory
// about 12 bytes per slot plus the hash map's ~9 bytes per entry.
//
// Example:
//   LruCache c(2);
//   c.Put(1); c.Put(2); c.Get(1); c.Put(3);   // evicts 2
//   assert(c.Get(1) && !c.Get(2) && c.Get(3));

#ifndef CHBENCH_BENCH_CLUSTER_LRU_H_
#define CHBENCH_BENCH_CLUSTER_LRU_H_

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace chbench {

class LruCache {
 public:
  explicit LruCache(uint64_t capacity) : capacity_(capacity) {}

  // True (and the key becomes the most recent) when `key` is cached.
  bool Get(uint32_t key) {
    const auto it = slot_of_.find(key);
    if (it == slot_of_.end()) return false;
    MoveToFront(it->second);
    return true;
  }

  // Caches `key` as the most recent, evicting the least recent when full.
  void Put(uint32_t key) {
    if (capacity_ == 0) return;
    if (const auto it = slot_of_.find(key); it != slot_of_.end()) {
      MoveToFront(it->second);
      return;
    }
    uint32_t s;
    if (slot_of_.size() < capacity_) {
      s = static_cast<uint32_t>(slots_.size());
      slots_.push_back({key, kNil, kNil});
    } else {
      s = tail_;  // evict the least recent
      Unlink(s);
      slot_of_.erase(slots_[s].key);
      slots_[s].key = key;
    }
    slot_of_.emplace(key, s);
    PushFront(s);
  }

  void Clear() {
    slot_of_.clear();
    slots_.clear();
    head_ = tail_ = kNil;
  }
  uint64_t size() const { return slot_of_.size(); }
  uint64_t capacity() const { return capacity_; }

 private:
  static constexpr uint32_t kNil = ~uint32_t{0};
  struct Slot {
    uint32_t key, prev, next;
  };
  void Unlink(uint32_t s) {
    Slot& x = slots_[s];
    (x.prev == kNil ? head_ : slots_[x.prev].next) = x.next;
    (x.next == kNil ? tail_ : slots_[x.next].prev) = x.prev;
    x.prev = x.next = kNil;
  }
  void PushFront(uint32_t s) {
    slots_[s].prev = kNil;
    slots_[s].next = head_;
    if (head_ != kNil) slots_[head_].prev = s;
    head_ = s;
    if (tail_ == kNil) tail_ = s;
  }
  void MoveToFront(uint32_t s) {
    if (head_ == s) return;
    Unlink(s);
    PushFront(s);
  }

  uint64_t capacity_;
  absl::flat_hash_map<uint32_t, uint32_t> slot_of_;
  std::vector<Slot> slots_;
  uint32_t head_ = kNil, tail_ = kNil;
};

}  // namespace chbench

#endif  // CHBENCH_BENCH_CLUSTER_LRU_H_
