// SPDX-License-Identifier: Apache-2.0
/// \file
/// Register-bank conflicts on SASS (Lai, thesis Table 4.1 on the GTX680's 4 banks): the rows'
/// source registers give conflict degrees 1, 2 and 3, i.e. 132, 66.2 and 44.2 of 132 FFMA per
/// cycle per SMX (100 %, 50 %, 33 %); the operand reuse cache removes a repeated source's read.
#include "foresight/frontend/cuda/register_banks.h"

#include <gtest/gtest.h>

#include "foresight/frontend/cuda/sass_parser.h"
#include "foresight/gpu/presets.h"

namespace foresight::cuda {
namespace {

SassFunction listing(const std::string& body) {
  Expected<SassListing> l = parseSass("\t.section\t.text.k,\"ax\",@progbits\n" + body, "t.sass");
  EXPECT_TRUE(l) << (l ? "" : l.error().format());
  return l ? l->functions.at(0) : SassFunction{};
}

Gpu gtx680() {
  Expected<Gpu> g = loadPreset("gtx680");
  EXPECT_TRUE(g);
  return g ? *g : Gpu{};
}

TEST(RegisterBanks, KeplerBankMapOfTheThesis) {
  const Gpu gpu = gtx680();
  ASSERT_TRUE(gpu.registerBanks);
  // even0, even1, odd0, odd1 = 0, 1, 2, 3.
  EXPECT_EQ(registerBank(*gpu.registerBanks, 0), 0);
  EXPECT_EQ(registerBank(*gpu.registerBanks, 4), 1);
  EXPECT_EQ(registerBank(*gpu.registerBanks, 1), 2);
  EXPECT_EQ(registerBank(*gpu.registerBanks, 3), 2);
  EXPECT_EQ(registerBank(*gpu.registerBanks, 9), 2);
  EXPECT_EQ(registerBank(*gpu.registerBanks, 5), 3);
  EXPECT_EQ(registerBank(*gpu.registerBanks, 14), 1);
}

TEST(RegisterBanks, Table41RowsGiveDegreesOneTwoThree) {
  const SassFunction fn = listing(
      "        /*0000*/                   FFMA R0, R1, R4, R5 ;\n"    // odd0, even1, odd1: 132.0
      "        /*0010*/                   FFMA R0, R1, R3, R5 ;\n"    // R1, R3 in odd0: 66.2
      "        /*0020*/                   FFMA R0, R1, R3, R9 ;\n"    // all in odd0: 44.2
      "        /*0030*/                   FFMA R0, R1, R4, R0 ;\n"    // odd0, even1, even0: 129.0
      "        /*0040*/                   IMAD R0, R1, R3, R9 ;\n");  // not a floating-point op
  Expected<RegisterBankReport> r = checkRegisterBanks(fn, gtx680());
  ASSERT_TRUE(r) << r.error().format();
  EXPECT_EQ(r->checked, 4);
  EXPECT_EQ(r->twoWay, 1);
  EXPECT_EQ(r->threeWay, 1);
  ASSERT_EQ(r->sites.size(), 2u);
  EXPECT_EQ(r->sites[0].offset, 0x10);
  EXPECT_EQ(r->sites[0].degree, 2);
  EXPECT_EQ(r->sites[1].offset, 0x20);
  EXPECT_EQ(r->sites[1].degree, 3);
  // (2 × 1 + 1/2 + 1/3) / 4: the thesis' 132 / 66.2 / 44.2 of 132 as 1, 1/2, 1/3.
  EXPECT_NEAR(r->relativeThroughput(), (2 + 0.5 + 1.0 / 3) / 4, 1e-12);
}

TEST(RegisterBanks, ReuseCacheServesARepeatedSourceInTheSameSlot) {
  const SassFunction fn = listing(
      "        /*0000*/                   FFMA R10, R1.reuse, R4, R10 ;\n"
      "        /*0010*/                   FFMA R12, R1, R3, R12 ;\n"    // R1 from the cache: R3 alone in odd0
      "        /*0020*/                   FFMA R14, R9, R1, R14 ;\n");  // R1 in another slot: read, conflicts with R9
  Expected<RegisterBankReport> r = checkRegisterBanks(fn, gtx680());
  ASSERT_TRUE(r) << r.error().format();
  EXPECT_EQ(r->checked, 3);
  EXPECT_EQ(r->reused, 1);
  EXPECT_EQ(r->twoWay, 1);
  ASSERT_EQ(r->sites.size(), 1u);
  EXPECT_EQ(r->sites[0].offset, 0x20);
}

TEST(RegisterBanks, HopperChainOfFma) {
  // nvcc's sm_90 code of validation/micro/fma_chain.cu: one dependent chain has no .reuse and
  // R4, R2 share bank 0 of 2 (degree 2, the H200's 0.41 FFMA per cycle and scheduler); eight
  // chains reuse R2 and R3 and read only the accumulator (degree 1, 0.94).
  Expected<Gpu> h200 = loadPreset("h200");
  ASSERT_TRUE(h200 && h200->registerBanks);
  const SassFunction one = listing(
      "        /*0000*/                   FFMA R4, R4, R2, R3 ;\n"
      "        /*0010*/                   FFMA R4, R4, R2, R3 ;\n");
  EXPECT_EQ(sourceBankDegree(one.instructions[1], &one.instructions[0], *h200->registerBanks), 2);
  const SassFunction eight = listing(
      "        /*0000*/                   FFMA R12, R12, R2.reuse, R3.reuse ;\n"
      "        /*0010*/                   FFMA R14, R14, R2.reuse, R3.reuse ;\n");
  int reused = 0;
  EXPECT_EQ(sourceBankDegree(eight.instructions[1], &eight.instructions[0], *h200->registerBanks, &reused), 1);
  EXPECT_EQ(reused, 2);
  // Without the previous instruction nothing is cached: R14, R2 share bank 0.
  EXPECT_EQ(sourceBankDegree(eight.instructions[1], nullptr, *h200->registerBanks), 2);
}

TEST(RegisterBanks, UnknownBankFunctionIsAnError) {
  Expected<Gpu> a100 = loadPreset("a100");
  ASSERT_TRUE(a100);
  Expected<RegisterBankReport> r = checkRegisterBanks(listing("        /*0000*/   FFMA R0, R1, R3, R5 ;\n"), *a100);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "GPU 'a100' gives no register-bank function ([register_banks] in its description)");
}

}  // namespace
}  // namespace foresight::cuda
