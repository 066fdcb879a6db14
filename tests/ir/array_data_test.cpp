// SPDX-License-Identifier: Apache-2.0
/// \file
/// Array contents from a pattern or a file, and the `--data` syntax (ir/array_data.h).
#include "foresight/ir/array_data.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace foresight {
namespace {

TEST(ArrayData, PatternWithExpressionsOverTheMacros) {
  // torus_cols:W:W*H with W = 4, H = 2: node 5's neighbours are elements 20..23 = 6, 4, 1, 1.
  Expected<ArrayData> d = parseArrayData("i32:torus_cols:W:W*H", std::nullopt, {{"W", 4}, {"H", 2}}, "--data cols");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->description(), "i32 torus_cols:4:8");
  EXPECT_EQ(d->count(), 0);  // no --array: unbounded
  EXPECT_EQ(d->read(20 * 4, 4), 6u);
  EXPECT_EQ(d->read(21 * 4, 4), 4u);
  // Eight bytes across elements 20 and 21 (a 64-bit load of two ints): 6 | 4 << 32.
  EXPECT_EQ(d->read(20 * 4, 8), 6u | (4ULL << 32));
  // Two bytes from the middle of element 20 (6 = 0x00000006): bytes 1 and 2 are 0.
  EXPECT_EQ(d->read(20 * 4 + 1, 2), 0u);
}

TEST(ArrayData, SizeBoundsTheReads) {
  // --array cols=16 → 4 elements: a read past byte 16 is outside the array.
  Expected<ArrayData> d = parseArrayData("i32:chase:1", 16, {}, "--data next");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->count(), 4);
  EXPECT_EQ(d->read(12, 4), 0u);  // (3 + 1) mod 4
  EXPECT_EQ(d->read(14, 4), std::nullopt);
  EXPECT_EQ(d->read(-4, 4), std::nullopt);
}

TEST(ArrayData, FileContents) {
  const std::string path = (std::filesystem::temp_directory_path() / ("foresight-array-" + std::to_string(getpid()) + ".bin")).string();
  {
    std::ofstream out(path, std::ios::binary);
    const std::int32_t values[3] = {7, -1, 9};
    out.write(reinterpret_cast<const char*>(values), sizeof values);
  }
  Expected<ArrayData> d = parseArrayData("i32:file:" + path, std::nullopt, {}, "--data idx");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->count(), 3);
  EXPECT_EQ(d->read(4, 4), 0xffffffffu);
  EXPECT_EQ(d->read(8, 4), 9u);
  EXPECT_EQ(d->read(12, 4), std::nullopt);
  // The file must be a whole number of elements, and match --array.
  Expected<ArrayData> wide = parseArrayData("i64:file:" + path, std::nullopt, {}, "--data idx");
  ASSERT_FALSE(wide);
  EXPECT_EQ(wide.error().message, "--data idx 'i64:file:" + path + "': '" + path + "' holds 12 bytes: not a whole number of i64 elements");
  Expected<ArrayData> sized = parseArrayData("i32:file:" + path, 16, {}, "--data idx");
  ASSERT_FALSE(sized);
  EXPECT_NE(sized.error().message.find("the file holds 12 bytes, --array says 16"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(ArrayData, BadSpecsSayWhy) {
  auto error = [](const std::string& spec, std::optional<long long> bytes = std::nullopt) {
    Expected<ArrayData> d = parseArrayData(spec, bytes, {{"N", 8}}, "--data x");
    return d ? std::string("ok") : d.error().message;
  };
  EXPECT_EQ(error("torus_cols:4:8"),
            "--data x 'torus_cols:4:8': expected TYPE:PATTERN[:PARAM...] or TYPE:file:PATH, TYPE one of f32, f64, i32, u32, i64");
  EXPECT_EQ(error("i32:chase:1"), "--data x 'i32:chase:1': 'chase' wraps at the array's end: give the array's size (--array NAME=BYTES)");
  EXPECT_EQ(error("i32:gaussian"), "--data x 'i32:gaussian': unknown init pattern 'gaussian'");
  EXPECT_EQ(error("i32:mod:M"), "--data x 'i32:mod:M': expression 'M': unknown name 'M'; did you mean 'N'?");
  EXPECT_EQ(error("f32:constant"), "--data x 'f32:constant': constant needs a value (constant:V)");
  EXPECT_EQ(error("f32:constant:x"), "--data x 'f32:constant:x': constant needs a number, got 'x'");
  EXPECT_EQ(error("i32:file:/nonexistent/x.bin"), "--data x 'i32:file:/nonexistent/x.bin': cannot read '/nonexistent/x.bin'");
  EXPECT_EQ(error("i32:poison"), "--data x 'i32:poison': 'poison' has no values (it marks an output the kernel must write)");
  EXPECT_EQ(error("f32:constant:2.5"), "ok");
  EXPECT_EQ(error("i32:mod:N"), "ok");
}

}  // namespace
}  // namespace foresight
