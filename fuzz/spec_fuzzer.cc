// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: fuzz/spec_fuzzer.cc
// -----------------------------------------------------------------------------
//
// libFuzzer target: the experiment spec parser and validator
// (experiments/spec.h, ParseSpec) on any bytes.
//
// Input: the bytes are the TOML text itself, so the seeds are spec files
// (fuzz/corpus/spec_fuzzer/ holds the committed experiments/*.toml and
// small hand-written ones). The tier expanded is the input length mod 3
// (smoke, default, full); ParseSpec validates every tier either way.
//
// Findings: a crash, a sanitizer report, an exception escaping ParseSpec,
// an allocation beyond libFuzzer's -malloc_limit_mb / -rss_limit_mb (make
// fuzz passes 2048: a spec asking for a huge expansion must be refused by
// validation, not allocated), or a broken invariant (printed, then abort):
//   * An error is InvalidArgument with a non-empty message that names the
//     display path (or the tier).
//   * A valid spec: cells have unique names; `seeds` is the sorted set of
//     the cells' seeds; run_id is "<tier>-<8 hex digits>"; every cell's
//     algorithm or preset is known and its factory accepts the cell's
//     parameters (validation happens before anything runs); node and key
//     counts are within the documented caps; timing cells have at least 3
//     rounds.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "algorithms/consistent_hash.h"
#include "algorithms/presets/registry.h"
#include "algorithms/registry.h"
#include "experiments/spec.h"

namespace chbench {
namespace {

[[noreturn]] void Broken(const std::string& what) {
  std::fprintf(stderr, "spec_fuzzer: invariant broken: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}
#define FUZZ_CHECK(cond, ...)                                    \
  do {                                                           \
    if (!(cond)) Broken(absl::StrCat(#cond, ": ", __VA_ARGS__)); \
  } while (0)

constexpr std::string_view kPath = "fuzz/spec.toml";
// Factories made per execution at most: they are cheap, but a valid spec
// can have thousands of cells.
constexpr size_t kMaxFactoryChecks = 64;

void Run(std::string_view text, std::string_view tier) {
  absl::StatusOr<Spec> spec = ParseSpec(text, kPath, "fuzz", tier);
  if (!spec.ok()) {
    const std::string message(spec.status().message());
    FUZZ_CHECK(absl::IsInvalidArgument(spec.status()),
               spec.status().ToString());
    FUZZ_CHECK(message.find(std::string(kPath)) != std::string::npos,
               "the error does not name the file: ", message);
    return;
  }
  FUZZ_CHECK(spec->tier == tier, spec->tier);
  FUZZ_CHECK(spec->run_id.size() == tier.size() + 9 &&
                 spec->run_id.substr(0, tier.size() + 1) ==
                     absl::StrCat(std::string(tier), "-"),
             spec->run_id);
  std::set<std::string> names;
  std::set<uint64_t> seeds;
  size_t made = 0;
  for (const Cell& c : spec->cells) {
    FUZZ_CHECK(names.insert(c.Name()).second, "duplicate cell ", c.Name());
    seeds.insert(c.seed);
    FUZZ_CHECK(c.nodes <= (uint32_t{1} << 24), c.Name());
    FUZZ_CHECK(c.keys <= (uint64_t{1} << 32), c.Name());
    if (c.timing() && c.kind != "cluster") {
      FUZZ_CHECK(c.rounds >= 3, c.Name(), " rounds ", c.rounds);
    }
    if (c.algorithm.empty() || made >= kMaxFactoryChecks) continue;
    ++made;
    if (FindAlgorithm(c.algorithm) != nullptr) {
      absl::StatusOr<std::unique_ptr<ConsistentHash>> a =
          MakeAlgorithm(c.algorithm, c.Params());
      FUZZ_CHECK(a.ok(), c.Name(), ": validated, but the factory refuses: ",
                 a.status().ToString());
    } else {
      FUZZ_CHECK(FindPreset(c.algorithm) != nullptr, c.Name(),
                 ": neither an algorithm nor a preset");
    }
  }
  FUZZ_CHECK(std::vector<uint64_t>(seeds.begin(), seeds.end()) == spec->seeds,
             "seeds differ from the cells' seeds");
}

}  // namespace
}  // namespace chbench

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  chbench::Run(text, chbench::kTierNames[size % chbench::kTierNames.size()]);
  return 0;
}
