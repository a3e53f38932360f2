// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: experiments/build_facts.h
// -----------------------------------------------------------------------------
//
// The facts of this build that CMake passes as compile definitions: the
// build type and compiler flags, the library versions and the source tree's
// path (top-level CMakeLists.txt). build_facts.cc is the one unit compiled
// with them, so the units that report them (provenance.cc for meta.json,
// paths.cc for default directories, cli/main.cc for --version) compile with
// their target's other units in unity batches.
//
// Guarantees: every field is a NUL-terminated string, "unknown" for a fact
// the build did not pass; the same values for the whole process.
//
// Example:
//   std::cout << "flags: " << ThisBuild().cxx_flags << "\n";

#ifndef CHBENCH_EXPERIMENTS_BUILD_FACTS_H_
#define CHBENCH_EXPERIMENTS_BUILD_FACTS_H_

namespace chbench {

struct BuildFacts {
  const char* build_type;
  const char* cxx_flags;
  const char* source_dir;
  // Library versions (meta.json's "libraries").
  const char* absl;
  const char* benchmark;
  const char* boost;
  const char* xxhash;
  const char* murmurhash;
  const char* tomlplusplus;
  const char* openssl;
};

const BuildFacts& ThisBuild();

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_BUILD_FACTS_H_
