// SPDX-License-Identifier: Apache-2.0
/// \file
/// Helpers shared by the unit tests: reading a file of the source tree, loading a preset, and
/// mutating input text in exactly one place (so a test that edits a shipped file fails loudly
/// when the file changes).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "foresight/gpu/presets.h"
#include "foresight/support/text_file.h"

namespace foresight::testing_support {

/// The text of `relative` under the source tree (FORESIGHT_SOURCE_DIR); a failed read fails the test.
inline std::string sourceText(const std::string& relative) {
  Expected<std::string> text = readTextFile(std::string(FORESIGHT_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(text.ok()) << "cannot read " << relative;
  return text.ok() ? *text : std::string();
}

/// The GPU preset `name`; a failed load fails the test (and gives an empty description).
inline Gpu preset(const std::string& name) {
  Expected<Gpu> g = loadPreset(name);
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().format());
  return g.ok() ? *g : Gpu{};
}

/// `text` with the single occurrence of `from` replaced by `to`; a missing or repeated target
/// fails the test.
inline std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "mutation target not found: " << from;
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "mutation target not unique: " << from;
  return text.replace(at, from.size(), to);
}

}  // namespace foresight::testing_support
