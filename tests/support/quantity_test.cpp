// SPDX-License-Identifier: Apache-2.0
/// \file
/// Provenance spellings (support/quantity.h): what parses, what fails, and the dates checked.
#include "foresight/support/quantity.h"

#include <gtest/gtest.h>

#include <string>

namespace foresight {
namespace {

// ---- Provenance spellings --------------------------------------------------------------------------------

TEST(Provenance, GoodSpellingsParse) {
  Expected<Provenance> p = parseProvenance("datasheet");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, Provenance::Kind::Datasheet);
  EXPECT_EQ(p->detail, "");
  EXPECT_EQ(p->str(), "datasheet");

  p = parseProvenance("paper:000");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, Provenance::Kind::Paper);
  EXPECT_EQ(p->detail, "000");
  EXPECT_EQ(p->str(), "paper:000");

  p = parseProvenance("measured:2025-06-30");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, Provenance::Kind::Measured);
  EXPECT_EQ(p->detail, "2025-06-30");
  EXPECT_EQ(p->str(), "measured:2025-06-30");

  p = parseProvenance("estimate");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, Provenance::Kind::Estimate);
  EXPECT_EQ(p->str(), "estimate");

  p = parseProvenance("estimate:PORPLE Table 3: C1060");  // the note may hold colons
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, Provenance::Kind::Estimate);
  EXPECT_EQ(p->detail, "PORPLE Table 3: C1060");
  EXPECT_EQ(p->str(), "estimate:PORPLE Table 3: C1060");

  p = parseProvenance("published:Luo et al. 2024 Table 3: H100");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, Provenance::Kind::Published);
  EXPECT_EQ(p->detail, "Luo et al. 2024 Table 3: H100");
  EXPECT_EQ(p->str(), "published:Luo et al. 2024 Table 3: H100");
}

TEST(Provenance, BadSpellingsFail) {
  for (const char* bad : {"papers:000", "paper", "paper:", "measured:2026-13", "measured:2026-06-3",
                          "measured:2026/06/30", "measured", "datasheet:x", "Datasheet", "",
                          "guess", "published", "published:"}) {
    Expected<Provenance> p = parseProvenance(bad);
    EXPECT_FALSE(p.ok()) << "'" << bad << "' was accepted";
    if (!p.ok()) {
      EXPECT_EQ(p.error().message,
                "provenance '" + std::string(bad) +
                    "' is not one of 'datasheet', 'paper:<3-digit seed>', 'measured:<YYYY-MM-DD>', "
                    "'published:<source>', 'estimate[:<note>]'");
    }
  }
}

TEST(Provenance, ImpossibleDatesFail) {
  // Month 13, no digits at all, and 29 February of a year that is not a leap year.
  EXPECT_FALSE(parseProvenance("measured:2026-13-01").ok());
  EXPECT_FALSE(parseProvenance("measured:----------").ok());
  EXPECT_FALSE(parseProvenance("measured:2025-02-29").ok());
  EXPECT_TRUE(parseProvenance("measured:2024-02-29").ok());
}

}  // namespace
}  // namespace foresight
