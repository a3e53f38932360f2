// Copyright 2026 The chbench Authors.

#include "algorithms/util/json.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(JsonStringTest, QuotesPlainText) {
  EXPECT_EQ(JsonString(""), "\"\"");
  EXPECT_EQ(JsonString("node-7 (x86_64)"), "\"node-7 (x86_64)\"");
}

TEST(JsonStringTest, EscapesQuoteAndBackslash) {
  EXPECT_EQ(JsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
}

TEST(JsonStringTest, UsesTheShortFormsOfRfc8259) {
  EXPECT_EQ(JsonString("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
}

TEST(JsonStringTest, EscapesEveryOtherControlCharacterAsU00xx) {
  EXPECT_EQ(JsonString(std::string(1, '\0')), "\"\\u0000\"");
  EXPECT_EQ(JsonString("\x01"), "\"\\u0001\"");
  EXPECT_EQ(JsonString("\x0b"), "\"\\u000b\"");
  EXPECT_EQ(JsonString("\x1f"), "\"\\u001f\"");
}

TEST(JsonStringTest, NoControlCharacterSurvivesUnescaped) {
  for (int c = 0; c < 0x20; ++c) {
    const std::string out = JsonString(std::string(1, static_cast<char>(c)));
    ASSERT_GE(out.size(), 4u) << c;
    EXPECT_EQ(out.front(), '"');
    EXPECT_EQ(out.back(), '"');
    EXPECT_EQ(out[1], '\\') << c;
    for (char ch : out) {
      EXPECT_GE(static_cast<unsigned char>(ch), 0x20) << c;
    }
  }
}

TEST(JsonStringTest, CopiesDelAndUtf8Unchanged) {
  EXPECT_EQ(JsonString("\x7f"), "\"\x7f\"");
  EXPECT_EQ(JsonString("Ma\xc3\xaflev \xe2\x89\x88"),
            "\"Ma\xc3\xaflev \xe2\x89\x88\"");
}

}  // namespace
}  // namespace chbench
