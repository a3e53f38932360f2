// Copyright 2026 The chbench Authors.

#include "experiments/build_facts.h"

#ifndef CHBENCH_BUILD_TYPE
#define CHBENCH_BUILD_TYPE "unknown"
#endif
#ifndef CHBENCH_CXX_FLAGS
#define CHBENCH_CXX_FLAGS "unknown"
#endif
#ifndef CHBENCH_SOURCE_DIR
#define CHBENCH_SOURCE_DIR "unknown"
#endif
#ifndef CHBENCH_ABSL_VERSION
#define CHBENCH_ABSL_VERSION "unknown"
#endif
#ifndef CHBENCH_BENCHMARK_VERSION
#define CHBENCH_BENCHMARK_VERSION "unknown"
#endif
#ifndef CHBENCH_BOOST_VERSION
#define CHBENCH_BOOST_VERSION "unknown"
#endif
#ifndef CHBENCH_XXHASH_VERSION
#define CHBENCH_XXHASH_VERSION "unknown"
#endif
#ifndef CHBENCH_MURMURHASH_VERSION
#define CHBENCH_MURMURHASH_VERSION "unknown"
#endif
#ifndef CHBENCH_TOMLPLUSPLUS_VERSION
#define CHBENCH_TOMLPLUSPLUS_VERSION "unknown"
#endif
#ifndef CHBENCH_OPENSSL_VERSION
#define CHBENCH_OPENSSL_VERSION "unknown"
#endif

namespace chbench {

const BuildFacts& ThisBuild() {
  static constexpr BuildFacts kFacts = {
      .build_type = CHBENCH_BUILD_TYPE,
      .cxx_flags = CHBENCH_CXX_FLAGS,
      .source_dir = CHBENCH_SOURCE_DIR,
      .absl = CHBENCH_ABSL_VERSION,
      .benchmark = CHBENCH_BENCHMARK_VERSION,
      .boost = CHBENCH_BOOST_VERSION,
      .xxhash = CHBENCH_XXHASH_VERSION,
      .murmurhash = CHBENCH_MURMURHASH_VERSION,
      .tomlplusplus = CHBENCH_TOMLPLUSPLUS_VERSION,
      .openssl = CHBENCH_OPENSSL_VERSION,
  };
  return kFacts;
}

}  // namespace chbench
