// Copyright 2026 The chbench Authors.
//
// The cluster driver (cluster.h): views, the request loop, events, the
// control run, and the per-run numbers.

#include "bench/cluster/cluster.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "algorithms/registry.h"
#include "algorithms/util/random.h"
#include "bench/cluster/lru.h"
#include "workload/keyset.h"
#include "workload/node_names.h"
#include "workload/zipf.h"

namespace chbench {
namespace {

constexpr uint32_t kNoServer = ~uint32_t{0} - 1;
// Keys looked up for moved_fraction: all U, or this many (the first ones;
// key indices are not popularity-ordered by hash, so they are a fair sample).
constexpr uint64_t kMovedSample = uint64_t{1} << 17;
// Seed salt of the request stream.
constexpr uint64_t kRequestSalt = 0x72657175657374ULL;  // "request"

// The Zipf table of (universe, s), built once per process: every cell of a
// block samples from the same one (a table of 10^6 items costs as much as
// a tenth of a simulated run).
absl::StatusOr<std::shared_ptr<const Zipf>> SharedZipf(uint64_t universe,
                                                       double s) {
  static std::mutex mu;
  static auto* tables = new absl::flat_hash_map<std::pair<uint64_t, double>,
                                                std::shared_ptr<const Zipf>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = tables->find(std::pair(universe, s));
  if (it != tables->end()) return it->second;
  absl::StatusOr<Zipf> zipf = Zipf::Make(universe, s);
  if (!zipf.ok()) return zipf.status();
  auto shared = std::make_shared<const Zipf>(*std::move(zipf));
  tables->emplace(std::pair(universe, s), shared);
  return shared;
}

// The algorithm a cluster of `algorithm` routes with: the algorithm itself,
// or for a bounded-load scheme the one whose order it caps
// (AlgorithmInfo::bounds_loads_of); the View applies the cap.
std::string_view RoutedAlgorithm(std::string_view algorithm) {
  const AlgorithmInfo* info = FindAlgorithm(algorithm);
  if (info == nullptr || info->bounds_loads_of.empty()) return algorithm;
  return info->bounds_loads_of;
}

// One client view of the cluster: an algorithm instance over some servers,
// the server index of each of its node ids, and each key's server, filled
// lazily (relaxed atomics: workers of the real cluster share a view).
class View {
 public:
  View(std::unique_ptr<ConsistentHash> algo, uint64_t universe, bool bounded)
      : algo_(std::move(algo)), owner_(universe), bounded_(bounded) {
    Invalidate();
  }

  static absl::StatusOr<std::unique_ptr<View>> Make(
      const ClusterConfig& cfg, uint32_t servers,
      const std::vector<uint64_t>* digests) {
    const AlgorithmInfo* info = FindAlgorithm(cfg.algorithm);
    const bool bounded = info != nullptr && !info->bounds_loads_of.empty();
    absl::StatusOr<std::unique_ptr<ConsistentHash>> a =
        MakeAlgorithm(RoutedAlgorithm(cfg.algorithm), cfg.params);
    if (!a.ok()) return a.status();
    std::vector<NodeSpec> nodes(servers);
    for (uint32_t i = 0; i < servers; ++i) {
      nodes[i].name = NodeName(i, cfg.seed);
    }
    if (absl::Status s = (*a)->Build(nodes); !s.ok()) return s;
    auto v = std::make_unique<View>(std::move(*a), cfg.universe, bounded);
    v->digests_ = digests;
    v->seed_ = cfg.seed;
    for (NodeId id : v->algo_->LiveNodes()) v->Map(id);
    return v;
  }

  absl::Status Add(uint32_t server) {
    absl::StatusOr<NodeId> id =
        algo_->AddNode(NodeSpec{NodeName(server, seed_), 1.0, ""});
    if (!id.ok()) return id.status();
    Map(*id);
    Invalidate();
    return absl::OkStatus();
  }
  absl::Status Remove(uint32_t server) {
    if (absl::Status s = algo_->RemoveNodeByName(NodeName(server, seed_));
        !s.ok()) {
      return s;
    }
    Invalidate();
    return absl::OkStatus();
  }
  uint32_t live() const { return static_cast<uint32_t>(algo_->size()); }

  // The key's server, no load bound. The cache entry holds the view's
  // epoch (high 32 bits) beside the server, so a membership change
  // invalidates every entry in O(1).
  uint32_t Owner(uint32_t key) const {
    const uint64_t e = owner_[key].load(std::memory_order_relaxed);
    if (static_cast<uint32_t>(e >> 32) == epoch_) {
      return static_cast<uint32_t>(e);
    }
    const uint32_t s = Lookup((*digests_)[key]);
    owner_[key].store((static_cast<uint64_t>(epoch_) << 32) | s,
                      std::memory_order_relaxed);
    return s;
  }

  // The server a request goes to: the owner, or for the request-bounded
  // ring the first server clockwise whose count is below `cap`.
  uint32_t Route(uint32_t key, const std::atomic<uint64_t>* counts,
                 uint64_t cap) const {
    const uint32_t s = Owner(key);
    if (!bounded_ || s == kNoServer ||
        counts[s].load(std::memory_order_relaxed) < cap) {
      return s;
    }
    std::vector<NodeId> succ;
    for (size_t r = 2;; r *= 2) {
      const size_t want = std::min<size_t>(r, live());
      succ.clear();
      if (!algo_->LookupReplicas((*digests_)[key], want, false, &succ).ok()) {
        return s;
      }
      for (NodeId id : succ) {
        const uint32_t t = server_of_[id];
        if (counts[t].load(std::memory_order_relaxed) < cap) return t;
      }
      if (want == live()) return s;  // all full: the owner serves
    }
  }

  // Server of every key in [0, count) (for moved_fraction).
  std::vector<uint32_t> Owners(uint64_t count) const {
    std::vector<uint32_t> out(count);
    for (uint64_t k = 0; k < count; ++k) {
      out[k] = Lookup((*digests_)[k]);
    }
    return out;
  }

 private:
  uint32_t Lookup(uint64_t digest) const {
    if (algo_->size() == 0) return kNoServer;
    const NodeId id = algo_->Lookup(digest);
    return id < server_of_.size() ? server_of_[id] : kNoServer;
  }
  void Map(NodeId id) {
    const std::string& name = algo_->NodeName(id);
    // "node-<i>" or "node-<i>-s<seed>"
    const size_t b = 5, e = name.find('-', b);
    const uint32_t server = static_cast<uint32_t>(
        std::stoul(name.substr(b, e == std::string::npos ? e : e - b)));
    if (server_of_.size() <= id) server_of_.resize(id + 1, kNoServer);
    server_of_[id] = server;
  }
  // Epoch 0 marks an empty entry; epochs start at 1.
  void Invalidate() { ++epoch_; }

  std::unique_ptr<ConsistentHash> algo_;
  mutable std::vector<std::atomic<uint64_t>> owner_;  // zero-initialized
  uint32_t epoch_ = 0;
  std::vector<uint32_t> server_of_;  // node id -> server index
  const std::vector<uint64_t>* digests_ = nullptr;
  uint64_t seed_ = 0;
  bool bounded_;
};

// The simulated servers.
class SimBackend final : public CacheBackend {
 public:
  SimBackend(uint32_t servers, uint64_t capacity)
      : caches_(servers, LruCache(capacity)), alive_(servers, true) {}
  int workers() const override { return 1; }
  Result Get(int, uint32_t server, uint32_t key) override {
    if (!alive_[server]) return Result::kError;
    return caches_[server].Get(key) ? Result::kHit : Result::kMiss;
  }
  void Set(int, uint32_t server, uint32_t key) override {
    if (alive_[server]) caches_[server].Put(key);
  }
  absl::Status Kill(uint32_t server) override {
    alive_[server] = false;
    caches_[server].Clear();
    return absl::OkStatus();
  }
  absl::Status Reset() override {
    for (LruCache& c : caches_) c.Clear();
    std::fill(alive_.begin(), alive_.end(), true);
    return absl::OkStatus();
  }
  bool timed() const override { return false; }

 private:
  std::vector<LruCache> caches_;
  std::vector<bool> alive_;
};

double Percentile(std::vector<float>& v, double q) {
  if (v.empty()) return 0;
  const size_t k = std::min(
      v.size() - 1, static_cast<size_t>(std::floor(q * (v.size() - 1) + 0.5)));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

// One run (event or control) of the request stream.
class Driver {
 public:
  Driver(const ClusterConfig& cfg, CacheBackend& backend, uint32_t db_delay_us,
         const std::vector<uint64_t>& digests, bool control)
      : cfg_(cfg),
        backend_(backend),
        db_delay_us_(db_delay_us),
        digests_(digests),
        event_(control ? "none" : cfg.event),
        servers_(cfg.nodes + 1),
        counts_(servers_),
        alive_(servers_, false),
        client_view_(cfg.clients) {}

  absl::StatusOr<std::vector<BucketStats>> Run(ClusterRun* out) {
    const uint64_t per = cfg_.requests / cfg_.buckets;
    out->bucket_requests = per;
    const uint32_t ev = EventBucket(cfg_);
    out->event_bucket = ev;
    absl::StatusOr<std::unique_ptr<View>> v0 =
        View::Make(cfg_, cfg_.nodes, &digests_);
    if (!v0.ok()) return v0.status();
    views_[0] = std::move(*v0);
    for (uint32_t s = 0; s < cfg_.nodes; ++s) alive_[s] = true;
    for (auto& c : client_view_) c.store(0, std::memory_order_relaxed);
    absl::StatusOr<std::shared_ptr<const Zipf>> zipf =
        SharedZipf(cfg_.universe, cfg_.zipf);
    if (!zipf.ok()) return zipf.status();
    Sfc64 rng(cfg_.seed ^ kRequestSalt);
    std::vector<uint32_t> keys(per);
    std::vector<uint64_t> steady(servers_, 0);
    std::vector<uint8_t> seen(cfg_.universe, 0);  // bit 0 before, 1 after
    std::vector<BucketStats> buckets;
    const int workers = backend_.workers();
    const auto t0 = std::chrono::steady_clock::now();
    uint32_t stale_until = 0;
    for (uint32_t b = 0; b < cfg_.buckets; ++b) {
      if (b == ev && event_ != "none") {
        if (absl::Status s = StartEvent(out, &stale_until); !s.ok()) return s;
      }
      if (event_ == "stale_view" && b == stale_until && b > ev) {
        for (auto& c : client_view_) c.store(1, std::memory_order_relaxed);
      }
      for (uint64_t i = 0; i < per; ++i) keys[i] = (*zipf)->Sample(rng);
      for (uint32_t k : keys) seen[k] |= b < ev ? 1 : 2;
      for (auto& c : counts_) c.store(0, std::memory_order_relaxed);
      live_ = 0;
      for (bool a : alive_) live_ += a;
      // Request-bounded ring: requests per server per bucket.
      cap_ = RequestCap(cfg_.params.load_factor, per, live_);
      std::vector<WorkerStats> ws(workers);
      const uint64_t first = static_cast<uint64_t>(b) * per;
      const auto bt0 = std::chrono::steady_clock::now();
      if (workers == 1) {
        Serve(0, 1, first, keys, t0, &ws[0]);
      } else {
        std::vector<std::thread> th;
        for (int w = 0; w < workers; ++w) {
          th.emplace_back([&, w] { Serve(w, workers, first, keys, t0, &ws[w]); });
        }
        for (std::thread& t : th) t.join();
      }
      BucketStats st;
      std::vector<float> lat;
      for (WorkerStats& w : ws) {
        st.hits += w.hits;
        st.db_reads += w.db_reads;
        st.errors += w.errors;
        st.misrouted += w.misrouted;
        lat.insert(lat.end(), w.latency_us.begin(), w.latency_us.end());
      }
      st.requests = per;
      st.live_servers = live_;
      uint64_t sum = 0, mx = 0;
      for (uint32_t s = 0; s < servers_; ++s) {
        if (!alive_[s]) continue;
        const uint64_t c = counts_[s].load(std::memory_order_relaxed);
        sum += c;
        mx = std::max(mx, c);
        if (b >= ev / 2 && b < ev) steady[s] += c;
      }
      st.request_max_over_mean =
          sum == 0 ? 0
                   : static_cast<double>(mx) * live_ / static_cast<double>(sum);
      if (backend_.timed()) {
        st.seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - bt0)
                         .count();
        st.latency_p50_us = Percentile(lat, 0.5);
        st.latency_p99_us = Percentile(lat, 0.99);
      }
      // Cascade: capacity from the steady state, then overload failures.
      const bool cascade = event_ == "cascade" || event_ == "cascade_mean";
      if (cascade && b + 1 == ev) {
        uint64_t peak = 0;
        for (size_t i = ev / 2; i < buckets.size(); ++i) {
          peak = std::max<uint64_t>(peak, max_count_[i]);
        }
        peak = std::max(peak, mx);
        // cascade: sized for the busiest server; cascade_mean: every
        // server sized for the mean load of the N servers.
        const double load =
            event_ == "cascade"
                ? static_cast<double>(peak)
                : static_cast<double>(per) / static_cast<double>(cfg_.nodes);
        out->capacity_per_bucket = load / cfg_.utilization;
        uint32_t over = 0;
        for (uint32_t s = 0; s < cfg_.nodes; ++s) {
          // The steady state's per-bucket mean of this server.
          const double mean_s =
              static_cast<double>(steady[s]) / static_cast<double>(ev - ev / 2);
          over += mean_s > out->capacity_per_bucket;
        }
        out->overloaded_before_event = over;
      }
      max_count_.push_back(mx);
      if (cascade && b >= ev) {
        for (uint32_t s = 0; s < servers_; ++s) {
          if (alive_[s] && static_cast<double>(counts_[s].load()) >
                               out->capacity_per_bucket) {
            if (absl::Status k = Fail(s); !k.ok()) return k;
            ++out->servers_failed;
          }
        }
      }
      buckets.push_back(st);
    }
    {
      uint64_t both = 0;
      for (uint8_t x : seen) both += x == 3;
      out->hot_set = both;
      uint64_t sum = 0, mx = 0, n = 0;
      for (uint32_t s = 0; s < cfg_.nodes; ++s) {
        sum += steady[s];
        mx = std::max(mx, steady[s]);
        ++n;
      }
      out->steady_request_max_over_mean =
          sum == 0 ? 0 : static_cast<double>(mx) * n / static_cast<double>(sum);
    }
    return buckets;
  }

 private:
  struct WorkerStats {
    uint64_t hits = 0, db_reads = 0, errors = 0, misrouted = 0;
    std::vector<float> latency_us;
  };

  absl::Status Fail(uint32_t s) {
    if (absl::Status k = backend_.Kill(s); !k.ok()) return k;
    alive_[s] = false;
    // The last live server stays in the algorithm (no algorithm maps to an
    // empty set); its requests then error.
    if (views_[0]->live() > 1) return views_[0]->Remove(s);
    return absl::OkStatus();
  }

  absl::Status StartEvent(ClusterRun* out, uint32_t* stale_until) {
    const uint32_t n = cfg_.nodes;
    const uint64_t sample = std::min<uint64_t>(cfg_.universe, kMovedSample);
    const std::vector<uint32_t> before = views_[0]->Owners(sample);
    const View* after = nullptr;
    if (event_ == "add" || event_ == "stale_view") {
      absl::StatusOr<std::unique_ptr<View>> v1 =
          View::Make(cfg_, n, &digests_);
      if (!v1.ok()) return v1.status();
      if (absl::Status s = (*v1)->Add(n); !s.ok()) return s;
      views_[1] = std::move(*v1);
      alive_[n] = true;
      const uint32_t stale = static_cast<uint32_t>(
          std::llround(cfg_.stale_fraction * cfg_.clients));
      for (uint32_t c = 0; c < cfg_.clients; ++c) {
        const bool keep = event_ == "stale_view" && c < stale;
        client_view_[c].store(keep ? 0 : 1, std::memory_order_relaxed);
      }
      *stale_until = EventBucket(cfg_) + cfg_.stale_buckets;
      stale_check_ = event_ == "stale_view";
      after = views_[1].get();
    } else if (event_ == "remove") {
      absl::StatusOr<std::unique_ptr<View>> v1 =
          View::Make(cfg_, n, &digests_);
      if (!v1.ok()) return v1.status();
      if (absl::Status s = (*v1)->Remove(n - 1); !s.ok()) return s;
      views_[1] = std::move(*v1);
      if (absl::Status s = backend_.Kill(n - 1); !s.ok()) return s;
      alive_[n - 1] = false;
      after = views_[1].get();  // clients switch on their first error
    } else if (event_ == "cascade" || event_ == "cascade_mean") {
      if (absl::Status s = Fail(n - 1); !s.ok()) return s;
      after = views_[0].get();
    }
    const std::vector<uint32_t> now = after->Owners(sample);
    uint64_t moved = 0;
    for (uint64_t k = 0; k < sample; ++k) moved += before[k] != now[k];
    out->moved_fraction =
        static_cast<double>(moved) / static_cast<double>(sample);
    return absl::OkStatus();
  }

  void Serve(int w, int workers, uint64_t first,
             const std::vector<uint32_t>& keys,
             std::chrono::steady_clock::time_point t0, WorkerStats* st) {
    const bool timed = backend_.timed();
    if (timed) st->latency_us.reserve(keys.size() / workers + 1);
    for (size_t i = w; i < keys.size(); i += workers) {
      const uint64_t req = first + i;
      std::chrono::steady_clock::time_point start;
      if (timed) {
        if (cfg_.rate > 0) {
          const auto due = t0 + std::chrono::duration_cast<
                                    std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(
                                        static_cast<double>(req) / cfg_.rate));
          std::this_thread::sleep_until(due);
        }
        start = std::chrono::steady_clock::now();
      }
      const uint32_t key = keys[i];
      const uint32_t client = static_cast<uint32_t>(req % cfg_.clients);
      const uint8_t vi = client_view_[client].load(std::memory_order_relaxed);
      const View& view = *views_[vi];
      const uint32_t s = view.Route(key, counts_.data(), cap_);
      CacheBackend::Result r = CacheBackend::Result::kError;
      if (vi == 0 && stale_check_ && s != views_[1]->Owner(key)) {
        ++st->misrouted;
      }
      if (s != kNoServer) {
        if (workers == 1) {  // no locked add where no other worker counts
          counts_[s].store(counts_[s].load(std::memory_order_relaxed) + 1,
                           std::memory_order_relaxed);
        } else {
          counts_[s].fetch_add(1, std::memory_order_relaxed);
        }
        r = backend_.Get(w, s, key);
      }
      if (r == CacheBackend::Result::kHit) {
        ++st->hits;
      } else {
        ++st->db_reads;
        if (timed && db_delay_us_ > 0) {
          std::this_thread::sleep_for(std::chrono::microseconds(db_delay_us_));
        }
        if (r == CacheBackend::Result::kMiss) {
          backend_.Set(w, s, key);
        } else {
          ++st->errors;
          // remove: the client drops the dead server from its view.
          if (event_ == "remove" && vi == 0) {
            client_view_[client].store(1, std::memory_order_relaxed);
          }
        }
      }
      if (timed) {
        st->latency_us.push_back(std::chrono::duration<float, std::micro>(
                                     std::chrono::steady_clock::now() - start)
                                     .count());
      }
    }
  }

  static uint32_t EventBucket(const ClusterConfig& cfg) {
    return static_cast<uint32_t>(
        std::floor(cfg.event_at * static_cast<double>(cfg.buckets)));
  }

  const ClusterConfig& cfg_;
  CacheBackend& backend_;
  uint32_t db_delay_us_;
  const std::vector<uint64_t>& digests_;
  std::string event_;
  uint32_t servers_;
  std::unique_ptr<View> views_[2];
  std::vector<std::atomic<uint64_t>> counts_;
  std::vector<bool> alive_;
  std::vector<std::atomic<uint8_t>> client_view_;
  std::vector<uint64_t> max_count_;
  uint32_t live_ = 0;
  uint64_t cap_ = 0;
  bool stale_check_ = false;
};

bool ValidKey(std::string_view k) {
  if (k.empty() || k.size() > 250) return false;
  for (unsigned char c : k) {
    if (c <= 32 || c == 127) return false;
  }
  return true;
}

}  // namespace

uint64_t RequestCap(double load_factor, uint64_t bucket_requests,
                    uint32_t live) {
  if (live == 0) return 0;
  constexpr unsigned __int128 kScale = 1000000;
  const auto c = static_cast<unsigned __int128>(std::llround(load_factor * 1e6));
  const unsigned __int128 num = c * bucket_requests;
  const unsigned __int128 den = kScale * live;
  return static_cast<uint64_t>((num + den - 1) / den);
}

absl::Status ValidateClusterConfig(const ClusterConfig& cfg) {
  const auto bad = [](std::string_view field, auto value,
                      std::string_view valid) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cluster: ", std::string(field), " = ", value, " out of range; valid: ",
        std::string(valid)));
  };
  if (std::find(kClusterEvents.begin(), kClusterEvents.end(), cfg.event) ==
      kClusterEvents.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cluster: unknown event '", cfg.event,
        "'; valid: none, add, remove, stale_view, cascade, cascade_mean"));
  }
  if (cfg.nodes < 2 || cfg.nodes > 100000) {
    return bad("nodes", cfg.nodes, "2..100000");
  }
  if (cfg.universe < 1 || cfg.universe > Zipf::kMaxUniverse) {
    return bad("universe (keys)", cfg.universe, "1..2^31");
  }
  if (!(cfg.zipf >= 0 && cfg.zipf <= 10)) return bad("zipf", cfg.zipf, "0..10");
  if (cfg.buckets < 2 || cfg.buckets > 100000) {
    return bad("buckets", cfg.buckets, "2..100000");
  }
  if (cfg.requests < cfg.buckets || cfg.requests > (uint64_t{1} << 40)) {
    return bad("requests", cfg.requests, "buckets..2^40");
  }
  if (!(cfg.event_at > 0 && cfg.event_at < 1)) {
    return bad("event_at", cfg.event_at, "(0, 1)");
  }
  if (cfg.clients < 1 || cfg.clients > 100000) {
    return bad("clients", cfg.clients, "1..100000");
  }
  if (!(cfg.stale_fraction >= 0 && cfg.stale_fraction <= 1)) {
    return bad("stale_fraction", cfg.stale_fraction, "0..1");
  }
  if (!(cfg.utilization > 0 && cfg.utilization <= 1)) {
    return bad("utilization", cfg.utilization, "(0, 1]");
  }
  if (!(cfg.rate >= 0 && std::isfinite(cfg.rate))) {
    return bad("rate", cfg.rate, ">= 0 requests/s (0: unpaced)");
  }
  const AlgorithmInfo* info = FindAlgorithm(cfg.algorithm);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cluster: unknown algorithm '", cfg.algorithm,
                     "'; valid: ", AlgorithmNames()));
  }
  if (!info->bounds_loads_of.empty() &&
      !(cfg.params.load_factor > 1 && std::isfinite(cfg.params.load_factor))) {
    return bad("load_factor", cfg.params.load_factor, "> 1 and finite");
  }
  return absl::OkStatus();
}

namespace {

absl::Status InvalidKey(const ClusterConfig& cfg, std::string_view k) {
  return absl::InvalidArgumentError(absl::StrCat(
      "cluster: key set '", cfg.keyset, "' has key '",
      std::string(k.substr(0, 40)),
      "', not a valid memcached key (1..250 bytes, no whitespace or "
      "control bytes); use uniform, url or sequential"));
}

// The digests of the cell's keys under `algo`'s hash, in one pass without
// storing the keys; the same error as ClusterKeys for an invalid key.
absl::StatusOr<std::vector<uint64_t>> ComputeDigests(
    const ClusterConfig& cfg, const ConsistentHash& algo) {
  std::vector<uint64_t> digests;
  digests.reserve(cfg.universe);
  std::optional<std::string> invalid;
  absl::Status s = ForEachKey(
      cfg.keyset, cfg.universe, cfg.seed, [&](std::string_view k) {
        if (!invalid && !ValidKey(k)) invalid = std::string(k);
        digests.push_back(algo.HashKey(k));
      });
  if (!s.ok()) return s;
  if (invalid) return InvalidKey(cfg, *invalid);
  return digests;
}

// The digests of a cell's key universe, shared by the cells that hash the
// same keys with the same algorithm and parameters (a block's events,
// utilizations and stale views of one algorithm and seed): the last
// kSharedDigests such sets are kept (10^6 keys: 8 MB each).
absl::StatusOr<std::shared_ptr<const std::vector<uint64_t>>> ClusterDigests(
    const ClusterConfig& cfg, const ConsistentHash& algo) {
  constexpr size_t kSharedDigests = 8;
  static std::mutex mu;
  static auto* recent = new std::vector<
      std::pair<std::string, std::shared_ptr<const std::vector<uint64_t>>>>();
  const AlgorithmParams& p = cfg.params;
  const std::string key = absl::StrCat(
      cfg.algorithm, "|", p.hash, "|", p.vnodes, "|", p.table_size, "|",
      absl::StrFormat("%a", p.load_factor), "|", p.capacity, "|", p.probes, "|",
      cfg.keyset, "|", cfg.universe, "|", cfg.seed);
  {
    std::lock_guard<std::mutex> lock(mu);
    for (auto it = recent->begin(); it != recent->end(); ++it) {
      if (it->first == key) {
        std::rotate(recent->begin(), it, it + 1);  // most recent first
        return recent->front().second;
      }
    }
  }
  absl::StatusOr<std::vector<uint64_t>> computed = ComputeDigests(cfg, algo);
  if (!computed.ok()) return computed.status();
  auto shared =
      std::make_shared<const std::vector<uint64_t>>(*std::move(computed));
  std::lock_guard<std::mutex> lock(mu);
  recent->insert(recent->begin(), {key, shared});
  if (recent->size() > kSharedDigests) recent->pop_back();
  return shared;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ClusterKeys(const ClusterConfig& cfg) {
  absl::StatusOr<std::vector<std::string>> keys =
      GenerateKeys(cfg.keyset, cfg.universe, cfg.seed);
  if (!keys.ok()) return keys.status();
  for (const std::string& k : *keys) {
    if (!ValidKey(k)) return InvalidKey(cfg, k);
  }
  return keys;
}

namespace {

// The control runs, by everything a control depends on: cells that differ
// only in the event's own parameters (the event, the cascade's utilization,
// the stale view's fraction and duration) replay the same requests on the
// same servers without an event, so they share one. The cascade blocks run
// one control per algorithm and seed for 6-20 cells; the real-memcached
// block one per algorithm for its join and its failure (the rows keep only
// the control's hits and database reads, never its times). Simulated and
// real controls never stand in for each other.
class ControlCache {
 public:
  static std::string Key(const ClusterConfig& c, bool timed,
                         uint32_t db_delay_us) {
    const AlgorithmParams& p = c.params;
    return absl::StrCat(timed ? "real|" : "sim|", db_delay_us, "|", c.algorithm,
                        "|", p.hash, "|", p.vnodes, "|", p.table_size, "|",
                        absl::StrFormat("%a", p.load_factor), "|", p.capacity,
                        "|", p.probes, "|", c.keyset, "|", c.seed, "|", c.nodes,
                        "|", c.universe, "|", absl::StrFormat("%a", c.zipf),
                        "|", c.requests, "|", c.buckets, "|",
                        absl::StrFormat("%a", c.event_at), "|", c.cache_items,
                        "|", c.clients, "|", absl::StrFormat("%a", c.rate));
  }
  std::shared_ptr<const std::vector<BucketStats>> Find(const std::string& k) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = runs_.find(k);
    return it == runs_.end() ? nullptr : it->second;
  }
  void Put(const std::string& k, std::vector<BucketStats> run) {
    std::lock_guard<std::mutex> lock(mu_);
    runs_.emplace(k, std::make_shared<const std::vector<BucketStats>>(
                         std::move(run)));
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    runs_.clear();
  }

 private:
  std::mutex mu_;
  absl::flat_hash_map<std::string,
                      std::shared_ptr<const std::vector<BucketStats>>>
      runs_;
};

ControlCache& Controls() {
  static ControlCache* const cache = new ControlCache();
  return *cache;
}

}  // namespace

void ClearClusterControlCache() { Controls().Clear(); }

absl::StatusOr<ClusterRun> RunCluster(const ClusterConfig& cfg,
                                      CacheBackend& backend,
                                      uint32_t db_delay_us) {
  if (absl::Status s = ValidateClusterConfig(cfg); !s.ok()) return s;
  ClusterRun run;
  const AlgorithmInfo* info = FindAlgorithm(cfg.algorithm);  // validated
  if ((cfg.event == "cascade" || cfg.event == "cascade_mean") &&
      !info->capabilities.arbitrary_removal) {
    run.applicable = false;
    run.note = absl::StrCat("not applicable: ", cfg.algorithm,
                            " removes only its last node; overloaded servers "
                            "fail in any order");
    return run;
  }
  absl::StatusOr<std::unique_ptr<ConsistentHash>> probe =
      MakeAlgorithm(RoutedAlgorithm(cfg.algorithm), cfg.params);
  if (!probe.ok()) return probe.status();
  absl::StatusOr<std::shared_ptr<const std::vector<uint64_t>>> hashed =
      ClusterDigests(cfg, **probe);
  if (!hashed.ok()) return hashed.status();
  const std::vector<uint64_t>& digests = **hashed;
  // The control first (nothing killed yet), then a clean slate. Without an
  // event the run is its own control.
  if (cfg.event != "none") {
    const std::string key =
        ControlCache::Key(cfg, backend.timed(), db_delay_us);
    if (auto cached = Controls().Find(key)) {
      run.control = *cached;
    } else {
      ClusterRun scratch;
      Driver control(cfg, backend, db_delay_us, digests, /*control=*/true);
      absl::StatusOr<std::vector<BucketStats>> b = control.Run(&scratch);
      if (!b.ok()) return b.status();
      run.control = std::move(*b);
      Controls().Put(key, run.control);
    }
  }
  if (absl::Status s = backend.Reset(); !s.ok()) return s;
  Driver driver(cfg, backend, db_delay_us, digests, /*control=*/false);
  absl::StatusOr<std::vector<BucketStats>> b = driver.Run(&run);
  if (!b.ok()) return b.status();
  run.buckets = std::move(*b);
  if (cfg.event == "none") run.control = run.buckets;
  // Per-run numbers.
  const uint32_t ev = run.event_bucket;
  uint64_t hits = 0, reqs = 0, post_hits = 0, post_reqs = 0;
  int64_t extra = 0;
  std::optional<uint32_t> last_below;
  for (uint32_t i = 0; i < run.buckets.size(); ++i) {
    const BucketStats& e = run.buckets[i];
    const BucketStats& c = run.control[i];
    if (i >= ev / 2 && i < ev) {
      hits += e.hits;
      reqs += e.requests;
    }
    if (i >= ev) {
      post_hits += e.hits;
      post_reqs += e.requests;
      extra += static_cast<int64_t>(e.db_reads) -
               static_cast<int64_t>(c.db_reads);
      if (static_cast<double>(e.hits) < 0.95 * static_cast<double>(c.hits)) {
        last_below = i;
      }
    }
  }
  run.steady_hit_ratio =
      reqs == 0 ? 0 : static_cast<double>(hits) / static_cast<double>(reqs);
  run.post_hit_ratio = post_reqs == 0 ? 0
                                      : static_cast<double>(post_hits) /
                                            static_cast<double>(post_reqs);
  run.extra_db_reads = extra;
  if (extra > 0) {
    int64_t cum = 0;
    for (uint32_t i = ev; i < run.buckets.size(); ++i) {
      cum += static_cast<int64_t>(run.buckets[i].db_reads) -
             static_cast<int64_t>(run.control[i].db_reads);
      if (static_cast<double>(cum) >= 0.9 * static_cast<double>(extra)) {
        run.stampede_buckets = i + 1 - ev;
        break;
      }
    }
  }
  if (!last_below) {
    run.recovery_buckets = 0;
  } else if (*last_below + 1 < run.buckets.size()) {
    run.recovery_buckets = *last_below + 1 - ev;
  }
  return run;
}

absl::StatusOr<ClusterRun> SimulateCluster(const ClusterConfig& cfg) {
  if (absl::Status s = ValidateClusterConfig(cfg); !s.ok()) return s;
  const uint64_t cap = cfg.cache_items == 0 ? cfg.universe : cfg.cache_items;
  SimBackend backend(cfg.nodes + 1, cap);
  return RunCluster(cfg, backend);
}

}  // namespace chbench
