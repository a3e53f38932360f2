// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: fuzz/toml_fuzz_config.h
// -----------------------------------------------------------------------------
//
// toml++ configuration of the fuzz build, force-included (-include) into the
// sources of chbench_spec (experiments/CMakeLists.txt, fuzz mode only).
//
//   * TOML_HEADER_ONLY=1: the parser is compiled from its headers with the
//     fuzz flags, instead of linking Debian's gcc-built libtomlplusplus.so,
//     so that libFuzzer sees its coverage and ASan checks its accesses.
//   * TOML_ASSERT: a no-op, as in Debian's release build. toml++ 3.3.0's
//     parse_key() asserts that a table header's '[' is followed by a key
//     character, but input such as "[#" reaches it; the parser then reports
//     a syntax error (experiments/spec_test.cc,
//     TomlSyntaxErrorAfterTableBracket). Defining TOML_ASSERT, rather than
//     NDEBUG, also keeps toml++ from turning that check into a
//     __builtin_assume (its NDEBUG behaviour under clang).

#ifndef CHBENCH_FUZZ_TOML_FUZZ_CONFIG_H_
#define CHBENCH_FUZZ_TOML_FUZZ_CONFIG_H_

#define TOML_HEADER_ONLY 1
#define TOML_ASSERT(expr) static_cast<void>(0)

#endif  // CHBENCH_FUZZ_TOML_FUZZ_CONFIG_H_
