// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: algorithms/util/json.h
// -----------------------------------------------------------------------------
//
// JsonString: a string as a JSON string literal (RFC 8259, section 7), for
// the hand-written JSON documents of the suite (meta.json, registry.json,
// the benchmark context). It is the one escaper every layer uses, so that
// all documents escape alike.
//
// Guarantees: the result is quoted; '"' and '\' are escaped; every control
// character U+0000..U+001F is escaped, as \b, \f, \n, \r or \t where JSON has
// a short form and as \u00XX (lower-case hex) otherwise; every other byte,
// UTF-8 and DEL included, is copied unchanged (so valid UTF-8 in, valid
// JSON out). Deterministic.
//
// Complexity: O(|s|).
//
// Example:
//   JsonString("a \"b\"\n")  // == "\"a \\\"b\\\"\\n\""

#ifndef CHBENCH_ALGORITHMS_UTIL_JSON_H_
#define CHBENCH_ALGORITHMS_UTIL_JSON_H_

#include <string>
#include <string_view>

namespace chbench {

// `s` as a JSON string literal, quotes included (see file comment).
std::string JsonString(std::string_view s);

}  // namespace chbench

#endif  // CHBENCH_ALGORITHMS_UTIL_JSON_H_
