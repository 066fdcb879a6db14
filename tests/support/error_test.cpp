// SPDX-License-Identifier: Apache-2.0
/// \file
/// Error::format with and without a location, and both sides of Expected<T> / Expected<void>.
#include "foresight/support/error.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace foresight {
namespace {

TEST(ErrorFormat, FileLineColumn) {
  // error.cpp: file, ':' line, ':' column, ": error: ", message.
  EXPECT_EQ(makeError("bad key", "gpus/x.toml", 12, 7).format(), "gpus/x.toml:12:7: error: bad key");
}

TEST(ErrorFormat, FileLineWithoutColumn) {
  // column 0 = unknown: omitted together with its ':'.
  EXPECT_EQ(makeError("bad key", "gpus/x.toml", 12).format(), "gpus/x.toml:12: error: bad key");
}

TEST(ErrorFormat, FileWithoutLine) {
  // line 0 = unknown: the column is dropped too, even when it is set.
  EXPECT_EQ(makeError("cannot read", "a.toml", 0, 5).format(), "a.toml: error: cannot read");
}

TEST(ErrorFormat, NoLocation) {
  const Error e = makeError("unknown GPU 'x'");
  EXPECT_EQ(e.file, "");
  EXPECT_EQ(e.line, 0);
  EXPECT_EQ(e.column, 0);
  EXPECT_EQ(e.format(), "error: unknown GPU 'x'");
}

TEST(ErrorFormat, LineWithoutFileIsNotPrinted) {
  // A line number without a file has nothing to refer to; format() prints the message only.
  const Error e{"oops", "", 3, 4};
  EXPECT_EQ(e.format(), "error: oops");
}

TEST(ErrorFormat, MakeErrorKeepsFields) {
  const Error e = makeError("m", "f", 9, 2);
  EXPECT_EQ(e.message, "m");
  EXPECT_EQ(e.file, "f");
  EXPECT_EQ(e.line, 9);
  EXPECT_EQ(e.column, 2);
}

Expected<int> half(int x) {
  if (x % 2 != 0) return makeError("odd: " + std::to_string(x));
  return x / 2;
}

TEST(ExpectedT, ValuePath) {
  Expected<int> r = half(42);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(r.value(), 21);
  EXPECT_EQ(*r, 21);
  *r = 5;  // the value is mutable through operator*
  EXPECT_EQ(r.value(), 5);
}

TEST(ExpectedT, ErrorPath) {
  Expected<int> r = half(7);
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.error().message, "odd: 7");
  const Error taken = std::move(r).takeError();
  EXPECT_EQ(taken.message, "odd: 7");
}

TEST(ExpectedT, ArrowAndMoveOnlyValue) {
  Expected<std::string> s = std::string("abc");
  EXPECT_EQ(s->size(), 3u);
  Expected<std::unique_ptr<int>> p = std::make_unique<int>(4);
  ASSERT_TRUE(p.ok());
  std::unique_ptr<int> owned = std::move(p).value();
  ASSERT_NE(owned, nullptr);
  EXPECT_EQ(*owned, 4);
}

TEST(ExpectedT, ErrorKeepsLocation) {
  Expected<double> r = makeError("x", "in.toml", 3, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().format(), "in.toml:3:1: error: x");
}

Expected<void> check(bool good) {
  if (!good) return makeError("not good", "c.toml", 2);
  return {};
}

TEST(ExpectedVoid, SuccessPath) {
  Expected<void> r = check(true);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(static_cast<bool>(r));
}

TEST(ExpectedVoid, ErrorPath) {
  Expected<void> r = check(false);
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.error().message, "not good");
  EXPECT_EQ(r.error().line, 2);
  const Error e = std::move(r).takeError();
  EXPECT_EQ(e.format(), "c.toml:2: error: not good");
}

}  // namespace
}  // namespace foresight
