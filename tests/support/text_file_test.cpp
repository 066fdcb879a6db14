// SPDX-License-Identifier: Apache-2.0
/// \file
/// readTextFile: a file's bytes; a missing file or a directory is an error, never "".
#include "foresight/support/text_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace foresight {
namespace {

namespace fs = std::filesystem;

TEST(ReadTextFile, ReadsBytes) {
  const fs::path p = fs::temp_directory_path() / "foresight_text_file_test.txt";
  {
    std::ofstream(p, std::ios::binary) << std::string("a\0b\n", 4);
  }
  Expected<std::string> text = readTextFile(p.string());
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, std::string("a\0b\n", 4));
  fs::remove(p);
}

TEST(ReadTextFile, MissingFile) {
  Expected<std::string> text = readTextFile("/nonexistent/foresight/x.toml", "GPU description");
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message, "cannot read GPU description '/nonexistent/foresight/x.toml'");
}

TEST(ReadTextFile, DirectoryIsAnErrorNotAnEmptyFile) {
  // An ifstream opens a directory and reads nothing: loaders then reported a confusing error
  // about the "empty" content (a C file "has no marked loop", a GPU file "misses key gpu").
  const std::string dir = fs::temp_directory_path().string();
  Expected<std::string> text = readTextFile(dir, "C file");
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message, "cannot read C file '" + dir + "': it is a directory");
}


TEST(ReadTextFile, DeviceIsRefused) {
  // /dev/zero never ends: reading it whole would exhaust memory (issue 14).
  Expected<std::string> text = readTextFile("/dev/zero", "GPU description");
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message, "cannot read GPU description '/dev/zero': it is a device, not a file");
}

TEST(ReadTextFile, SizeLimit) {
  const fs::path p = fs::temp_directory_path() / "foresight_text_file_limit.txt";
  {
    std::ofstream(p, std::ios::binary) << std::string(3u << 20, 'x');
  }
  Expected<std::string> text = readTextFile(p.string(), "input file", std::size_t{2} << 20);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message, "input file '" + p.string() + "' is larger than the 2 MiB limit");
  EXPECT_TRUE(readTextFile(p.string(), "input file", std::size_t{3} << 20));  // exactly at the limit
  fs::remove(p);
}


}  // namespace
}  // namespace foresight
