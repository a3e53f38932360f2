// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: crush/crush_map.h
// -----------------------------------------------------------------------------
//
// A CRUSH map of straw2 buckets and the mapping function `DoRule`, bit-exact
// with Ceph 16.2's crush_do_rule (src/crush/mapper.c: crush_do_rule,
// crush_choose_firstn, crush_choose_indep, bucket_straw2_choose, is_out), as
// specified in the project's CRUSH design notes (§4-§9); plus a parser of the
// text map `crushtool -d` prints and `crushtool -c` reads (§5). Written from
// that specification; no Ceph code is copied.
//
// Definition.
//   * Items: a device (OSD) has id >= 0; a bucket has id < 0 and index
//     -1 - id in `buckets`. A bucket has a type id > 0 (0 is the device
//     type), ordered items and their 16.16 fixed-point weights; its own
//     weight is the sum of its items'.
//   * Straw2Choose(bucket, x, r): for each item i, in order,
//     u = Hash32_3(x, item, r) & 0xFFFF and draw = (CrushLn(u) - 2^48) / w_i
//     (signed, truncating; a zero weight draws INT64_MIN); the first item of
//     the largest draw wins (strict >: earlier items win ties).
//   * DoRule(map, rule, x, result_max, weights): runs the rule's steps
//     (take, choose/chooseleaf firstn/indep N type T, emit, set_*), with the
//     map's tunables, and writes at most result_max items. `firstn` results
//     may be shorter than asked (a replica whose choose_total_tries + 1
//     attempts all fail is dropped); `indep` results keep their positions,
//     with kItemNone where nothing was found.
//   * Reweights ("out"): `weights[d]` (16.16, 0..0x10000) rejects device d
//     for input x unless Hash32_2(x, d) & 0xFFFF < weights[d]; a device at or
//     beyond weights.size() is out. A null `weights` means every device is
//     in (chbench's `crush` algorithm, which removes items instead).
//
// Supported: straw2 buckets with hash 0 (rjenkins1); every tunable except a
// nonzero choose_local_fallback_tries (its permutation fallback is not
// specified; the parser rejects such maps, and the legacy default 5 applies
// to a text map that does not set the tunable). Not supported, rejected by
// the parser with a message: other bucket algorithms, device classes in
// `take`, choose_args.
//
// Guarantees: every row of the 16 oracle files of testdata/ (crushtool
// --test and osdmaptool --test-map-object outputs of Ceph 16.2.15) is
// reproduced (crush_test.cc). DoRule allocates nothing: the caller passes
// the work space (3 * result_max items).
//
// Complexity: Straw2Choose O(items) hash evaluations; DoRule O(steps x
// result_max x tries x depth x bucket size) at worst, result_max x depth
// bucket scans without collisions.
//
// Example:
//   absl::StatusOr<crush::CrushMap> map = crush::ParseCrushText(text);
//   const crush::Rule* rule = map->FindRule("0");
//   int32_t result[3], work[9];
//   int got = crush::DoRule(*map, *rule, x, result, 3, weights.data(),
//                           weights.size(), work);

#ifndef CHBENCH_ALGORITHMS_CRUSH_CRUSH_MAP_H_
#define CHBENCH_ALGORITHMS_CRUSH_CRUSH_MAP_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "algorithms/crush/crush_hash.h"

namespace chbench::crush {

inline constexpr int32_t kItemNone = 0x7FFFFFFF;   // CRUSH_ITEM_NONE
inline constexpr int32_t kItemUndef = 0x7FFFFFFE;  // internal only
inline constexpr uint32_t kWeightOne = 0x10000;    // 1.0 in 16.16

// The tunables. Defaults: the legacy (argonaut) values `crushtool -c`
// starts from before it applies a text map's `tunable` lines.
struct Tunables {
  uint32_t choose_local_tries = 2;
  uint32_t choose_local_fallback_tries = 5;
  uint32_t choose_total_tries = 19;
  uint32_t chooseleaf_descend_once = 0;
  uint32_t chooseleaf_vary_r = 0;
  uint32_t chooseleaf_stable = 0;
  uint32_t straw_calc_version = 0;
  uint32_t allowed_bucket_algs = 22;

  // 16.2's "optimal" profile (= jewel; also `crushtool --build`'s).
  static constexpr Tunables Optimal() { return {0, 0, 50, 1, 1, 1, 1, 54}; }
};

struct Bucket {
  int32_t id = 0;  // < 0; 0: no bucket at this index
  int32_t type = 0;
  uint32_t weight = 0;  // sum of `weights`
  std::string name;
  std::vector<int32_t> items;
  std::vector<uint32_t> weights;  // 16.16, parallel to items
};

enum class StepOp : uint8_t {
  kTake,
  kChooseFirstN,
  kChooseIndep,
  kChooseLeafFirstN,
  kChooseLeafIndep,
  kEmit,
  kSetChooseTries,
  kSetChooseLeafTries,
  kSetChooseLocalTries,
  kSetChooseLocalFallbackTries,
  kSetChooseLeafVaryR,
  kSetChooseLeafStable,
};

// take: arg1 = item; choose*: arg1 = N (<= 0: result_max + N), arg2 = type;
// set_*: arg1 = value.
struct Step {
  StepOp op;
  int32_t arg1 = 0;
  int32_t arg2 = 0;
};

struct Rule {
  int32_t id = 0;
  std::string name;
  std::vector<Step> steps;
};

struct CrushMap {
  Tunables tunables;
  int32_t max_devices = 0;                             // largest device id + 1
  std::vector<Bucket> buckets;                         // index -1 - id
  std::vector<Rule> rules;                             // in map order
  std::vector<std::string> device_names;               // by id ("" = none)
  std::vector<std::pair<int32_t, std::string>> types;  // in map order

  // The bucket with id `id` (< 0), or nullptr.
  const Bucket* bucket(int32_t id) const {
    if (id >= 0) return nullptr;
    const size_t i = static_cast<size_t>(-1 - static_cast<int64_t>(id));
    return i < buckets.size() && buckets[i].id != 0 ? &buckets[i] : nullptr;
  }
  // The rule named `name_or_id`, or whose id is that decimal number.
  const Rule* FindRule(std::string_view name_or_id) const;
  // "0 flat_firstn, 1 host_firstn": the rules, for error messages.
  std::string RuleList() const;
  // The type named `name`, or -1.
  int32_t FindType(std::string_view name) const;
};

// Parses a text map (`crushtool -d` output, the form `crushtool -c` reads).
// Errors name the line, the bad token and the valid values, in one line:
// "line 12: unknown bucket algorithm 'straw'; supported: straw2".
absl::StatusOr<CrushMap> ParseCrushText(std::string_view text);

// A weight as the text-map compiler and `crushtool --weight` read it: the
// decimal as a float, times 0x10000, truncated. False (and *out unchanged)
// when negative, not finite, or not below 2^32.
bool WeightToFixed(double w, uint32_t* out);

// --- the mapping ----------------------------------------------------------

// (2^48 - CrushLn(u)) / w, truncated: straw2's draw negated (a smaller
// quotient is a larger draw). w > 0.
inline uint64_t Straw2Quotient(uint32_t u, uint32_t w) {
  const uint64_t neg_ln = (uint64_t{1} << 48) - CrushLn(u);
  return std::has_single_bit(w) ? neg_ln >> std::countr_zero(w) : neg_ln / w;
}

// 2^48 - CrushLn(u) for every u < 2^16 (512 KiB, built on first use): a
// straw2 draw's numerator in one load, where CrushLn normalises u, reads two
// small tables and multiplies. Same values (built from CrushLn).
inline const uint64_t* NegLnTable() {
  static const uint64_t* const table = [] {
    auto* t = new uint64_t[uint32_t{1} << 16];
    for (uint32_t u = 0; u < (uint32_t{1} << 16); ++u) {
      t[u] = (uint64_t{1} << 48) - CrushLn(u);
    }
    return t;
  }();
  return table;
}

// Items are taken in blocks of kStraw2Block: first the block's 16-bit hashes
// (a loop without a carried dependency, which the compiler vectorizes: the
// rjenkins mix is 32-bit adds, xors and shifts), then their draws in order.
// The result is the one-item-at-a-time loop's.
inline constexpr size_t kStraw2Block = 16;

inline int32_t Straw2Choose(const Bucket& b, uint32_t x, uint32_t r) {
  const size_t n = b.items.size();
  const int32_t* items = b.items.data();
  const uint32_t* weights = b.weights.data();
  const uint64_t* const neg_ln = NegLnTable();
  uint64_t best_q = 0;
  size_t best = 0;
  const auto draw = [&](size_t i, uint32_t u) {
    // A zero weight draws INT64_MIN: quotient 2^63 (> any real one, 2^48).
    // Straw2Quotient(u, w), its numerator from the table.
    const uint32_t w = weights[i];
    const uint64_t q = w == 0 ? uint64_t{1} << 63
                       : std::has_single_bit(w)
                           ? neg_ln[u] >> std::countr_zero(w)
                           : neg_ln[u] / w;
    if (i == 0 || q < best_q) {  // strict: earlier items win ties
      best_q = q;
      best = i;
    }
  };
  size_t i = 0;
  for (; i + kStraw2Block <= n; i += kStraw2Block) {
    uint32_t u[kStraw2Block];
    for (size_t j = 0; j < kStraw2Block; ++j) {
      u[j] = Hash32_3(x, static_cast<uint32_t>(items[i + j]), r) & 0xFFFF;
    }
    for (size_t j = 0; j < kStraw2Block; ++j) draw(i + j, u[j]);
  }
  for (; i < n; ++i) {
    draw(i, Hash32_3(x, static_cast<uint32_t>(items[i]), r) & 0xFFFF);
  }
  return items[best];
}

inline bool IsOut(const uint32_t* weights, size_t weight_max, int32_t item,
                  uint32_t x) {
  if (weights == nullptr) return false;
  if (static_cast<size_t>(item) >= weight_max) return true;
  const uint32_t w = weights[item];
  if (w >= kWeightOne) return false;
  if (w == 0) return true;
  return (Hash32_2(x, static_cast<uint32_t>(item)) & 0xFFFF) >= w;
}

namespace mapper_internal {

struct Ctx {
  const CrushMap* map;
  const uint32_t* weights;
  size_t weight_max;
  uint32_t x;
};

inline int ItemType(const CrushMap& map, int32_t item, bool* exists) {
  if (item >= 0) {
    *exists = true;
    return 0;
  }
  const Bucket* b = map.bucket(item);
  *exists = b != nullptr;
  return b != nullptr ? b->type : -1;
}

// crush_choose_firstn (design notes §7).
inline int ChooseFirstN(const Ctx& c, const Bucket* start, int numrep, int type,
                        int32_t* out, int outpos, int out_size, uint32_t tries,
                        uint32_t recurse_tries, uint32_t local_retries,
                        uint32_t local_fallback_retries, bool recurse_to_leaf,
                        uint32_t vary_r, uint32_t stable, int32_t* out2,
                        int parent_r) {
  int count = out_size;
  for (int rep = stable ? 0 : outpos; rep < numrep && count > 0; ++rep) {
    uint32_t ftotal = 0;
    bool skip_rep = false;
    int32_t item = 0;
    bool retry_descent;
    do {
      retry_descent = false;
      const Bucket* in = start;
      uint32_t flocal = 0;
      bool retry_bucket;
      do {
        retry_bucket = false;
        bool collide = false;
        bool reject;
        const uint32_t r = static_cast<uint32_t>(rep + parent_r) + ftotal;
        int itemtype = 0;
        if (in->items.empty()) {
          reject = true;
        } else {
          item = Straw2Choose(*in, c.x, r);
          if (item >= c.map->max_devices) {
            skip_rep = true;
            break;
          }
          bool exists;
          itemtype = ItemType(*c.map, item, &exists);
          if (itemtype != type) {
            if (item >= 0 || !exists) {
              skip_rep = true;
              break;
            }
            in = c.map->bucket(item);
            retry_bucket = true;
            continue;  // descend with the same r
          }
          for (int i = 0; i < outpos; ++i) {
            if (out[i] == item) {
              collide = true;
              break;
            }
          }
          reject = false;
          if (!collide && recurse_to_leaf) {
            if (item < 0) {
              const int sub_r =
                  vary_r ? static_cast<int>(r >> (vary_r - 1)) : 0;
              if (ChooseFirstN(c, c.map->bucket(item), stable ? 1 : outpos + 1,
                               0, out2, outpos, count, recurse_tries, 0,
                               local_retries, local_fallback_retries, false,
                               vary_r, stable, nullptr, sub_r) <= outpos) {
                reject = true;  // no usable device below it
              }
            } else {
              out2[outpos] = item;  // the type asked for was the device's
            }
          }
          if (!reject && !collide && itemtype == 0) {
            reject = IsOut(c.weights, c.weight_max, item, c.x);
          }
        }
        if (reject || collide) {
          ++ftotal;
          ++flocal;
          if (collide && flocal <= local_retries) {
            retry_bucket = true;  // again in the same bucket
          } else if (local_fallback_retries > 0 &&
                     flocal <= in->items.size() + local_fallback_retries) {
            retry_bucket = true;  // (unreachable: the parser refuses > 0)
          } else if (ftotal < tries) {
            retry_descent = true;  // from the top, r + 1
          } else {
            skip_rep = true;  // this replica is dropped
          }
        }
      } while (retry_bucket);
    } while (retry_descent);
    if (skip_rep) continue;
    out[outpos] = item;
    ++outpos;
    --count;
  }
  return outpos;
}

// crush_choose_indep (design notes §8).
inline void ChooseIndep(const Ctx& c, const Bucket* start, int left, int numrep,
                        int type, int32_t* out, int outpos, uint32_t tries,
                        uint32_t recurse_tries, bool recurse_to_leaf,
                        int32_t* out2, int parent_r) {
  const int endpos = outpos + left;
  for (int rep = outpos; rep < endpos; ++rep) {
    out[rep] = kItemUndef;
    if (out2 != nullptr) out2[rep] = kItemUndef;
  }
  for (uint32_t ftotal = 0; left > 0 && ftotal < tries; ++ftotal) {
    for (int rep = outpos; rep < endpos; ++rep) {
      if (out[rep] != kItemUndef) continue;
      const Bucket* in = start;
      while (true) {
        const uint32_t r = static_cast<uint32_t>(rep + parent_r) +
                           static_cast<uint32_t>(numrep) * ftotal;
        if (in->items.empty()) break;  // stays undefined this round
        const int32_t item = Straw2Choose(*in, c.x, r);
        if (item >= c.map->max_devices) {
          out[rep] = kItemNone;
          if (out2 != nullptr) out2[rep] = kItemNone;
          --left;
          break;
        }
        bool exists;
        const int itemtype = ItemType(*c.map, item, &exists);
        if (itemtype != type) {
          if (item >= 0 || !exists) {
            out[rep] = kItemNone;
            if (out2 != nullptr) out2[rep] = kItemNone;
            --left;
            break;
          }
          in = c.map->bucket(item);
          continue;  // descend with the same r
        }
        bool collide = false;
        for (int i = outpos; i < endpos; ++i) {
          if (out[i] == item) {
            collide = true;
            break;
          }
        }
        if (collide) break;  // retried next round
        if (recurse_to_leaf) {
          if (item < 0) {
            ChooseIndep(c, c.map->bucket(item), 1, numrep, 0, out2, rep,
                        recurse_tries, 0, false, nullptr, static_cast<int>(r));
            if (out2[rep] == kItemNone) break;  // no device below it
          } else {
            out2[rep] = item;
          }
        }
        if (itemtype == 0 && IsOut(c.weights, c.weight_max, item, c.x)) {
          break;  // retried next round
        }
        out[rep] = item;
        --left;
        break;
      }
    }
  }
  for (int rep = outpos; rep < endpos; ++rep) {
    if (out[rep] == kItemUndef) out[rep] = kItemNone;
    if (out2 != nullptr && out2[rep] == kItemUndef) out2[rep] = kItemNone;
  }
}

}  // namespace mapper_internal

// crush_do_rule (design notes §6). `work` holds 3 * result_max items.
// Returns the number of items written to `result`.
inline int DoRule(const CrushMap& map, const Rule& rule, uint32_t x,
                  int32_t* result, int result_max, const uint32_t* weights,
                  size_t weight_max, int32_t* work) {
  using mapper_internal::ChooseFirstN;
  using mapper_internal::ChooseIndep;
  const mapper_internal::Ctx ctx{&map, weights, weight_max, x};
  int32_t* w = work;
  int32_t* o = work + result_max;
  int32_t* const cw = work + 2 * result_max;
  int wsize = 0;
  int result_len = 0;
  const Tunables& t = map.tunables;
  uint32_t choose_tries = t.choose_total_tries + 1;
  uint32_t choose_leaf_tries = 0;
  uint32_t local_retries = t.choose_local_tries;
  uint32_t local_fallback_retries = t.choose_local_fallback_tries;
  uint32_t vary_r = t.chooseleaf_vary_r;
  uint32_t stable = t.chooseleaf_stable;
  for (const Step& step : rule.steps) {
    switch (step.op) {
      case StepOp::kTake:
        if ((step.arg1 >= 0 && step.arg1 < map.max_devices) ||
            map.bucket(step.arg1) != nullptr) {
          w[0] = step.arg1;
          wsize = 1;
        }
        break;
      case StepOp::kSetChooseTries:
        if (step.arg1 > 0) choose_tries = static_cast<uint32_t>(step.arg1);
        break;
      case StepOp::kSetChooseLeafTries:
        if (step.arg1 > 0) choose_leaf_tries = static_cast<uint32_t>(step.arg1);
        break;
      case StepOp::kSetChooseLocalTries:
        if (step.arg1 >= 0) local_retries = static_cast<uint32_t>(step.arg1);
        break;
      case StepOp::kSetChooseLocalFallbackTries:
        if (step.arg1 >= 0) {
          local_fallback_retries = static_cast<uint32_t>(step.arg1);
        }
        break;
      case StepOp::kSetChooseLeafVaryR:
        if (step.arg1 >= 0) vary_r = static_cast<uint32_t>(step.arg1);
        break;
      case StepOp::kSetChooseLeafStable:
        if (step.arg1 >= 0) stable = static_cast<uint32_t>(step.arg1);
        break;
      case StepOp::kChooseFirstN:
      case StepOp::kChooseIndep:
      case StepOp::kChooseLeafFirstN:
      case StepOp::kChooseLeafIndep: {
        if (wsize == 0) break;
        const bool firstn = step.op == StepOp::kChooseFirstN ||
                            step.op == StepOp::kChooseLeafFirstN;
        const bool leaf = step.op == StepOp::kChooseLeafFirstN ||
                          step.op == StepOp::kChooseLeafIndep;
        int osize = 0;
        for (int i = 0; i < wsize; ++i) {
          int numrep = step.arg1;
          if (numrep <= 0) {
            numrep += result_max;
            if (numrep <= 0) continue;
          }
          const Bucket* b = map.bucket(w[i]);
          if (b == nullptr) continue;  // a device, or no such bucket
          if (firstn) {
            const uint32_t recurse_tries = choose_leaf_tries ? choose_leaf_tries
                                           : t.chooseleaf_descend_once != 0
                                               ? 1
                                               : choose_tries;
            osize += ChooseFirstN(
                ctx, b, numrep, step.arg2, o + osize, 0, result_max - osize,
                choose_tries, recurse_tries, local_retries,
                local_fallback_retries, leaf, vary_r, stable, cw + osize, 0);
          } else {
            const int out_size =
                numrep < result_max - osize ? numrep : result_max - osize;
            ChooseIndep(ctx, b, out_size, numrep, step.arg2, o + osize, 0,
                        choose_tries, choose_leaf_tries ? choose_leaf_tries : 1,
                        leaf, cw + osize, 0);
            osize += out_size;
          }
        }
        if (leaf) {
          std::memcpy(o, cw, static_cast<size_t>(osize) * sizeof(int32_t));
        }
        int32_t* const tmp = o;
        o = w;
        w = tmp;
        wsize = osize;
        break;
      }
      case StepOp::kEmit:
        for (int i = 0; i < wsize && result_len < result_max; ++i) {
          result[result_len++] = w[i];
        }
        wsize = 0;
        break;
    }
  }
  return result_len;
}

}  // namespace chbench::crush

#endif  // CHBENCH_ALGORITHMS_CRUSH_CRUSH_MAP_H_
