// SPDX-License-Identifier: Apache-2.0
/// \file
/// Choosing a kernel by the name people write: shown name, symbol, bare name, whitespace.
#include "foresight/frontend/kernel_name.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

const std::vector<KernelName> kTemplates = {
    {"block_sum<128>", "_Z9block_sumILi128EEvPKfPf"},
    {"block_sum<256>", "_Z9block_sumILi256EEvPKfPf"},
    {"scale<unsigned int>", "_Z5scaleIjEvPT_S0_i"},
    {"ops::fill", "_ZN3ops4fillEPff"},
    {"vecadd", ""},
};

std::size_t chosen(const std::string& request) {
  Expected<std::size_t> i = chooseKernel(kTemplates, request, "t.cu");
  EXPECT_TRUE(i) << request << ": " << i.error().format();
  return i ? *i : kTemplates.size();
}

TEST(KernelName, BareName) {
  EXPECT_EQ(bareKernelName("block_sum<256>"), "block_sum");
  EXPECT_EQ(bareKernelName("ns::scale< unsigned int >"), "ns::scale");
  EXPECT_EQ(bareKernelName("outer<int>::k<float>(float*)"), "outer<int>::k");
  EXPECT_EQ(bareKernelName("k(float*)"), "k");
  EXPECT_EQ(bareKernelName("vecadd"), "vecadd");
}

TEST(KernelName, ByShownNameSymbolOrUniqueBareName) {
  EXPECT_EQ(chosen("block_sum<256>"), 1u);
  EXPECT_EQ(chosen("block_sum< 256 >"), 1u);
  EXPECT_EQ(chosen("_Z9block_sumILi128EEvPKfPf"), 0u);
  EXPECT_EQ(chosen("scale<unsigned int>"), 2u);
  EXPECT_EQ(chosen("scale<unsigned  int >"), 2u);
  EXPECT_EQ(chosen("scale"), 2u);  // one instantiation: the bare name is enough
  EXPECT_EQ(chosen("ops::fill"), 3u);
  EXPECT_EQ(chosen("fill"), 3u);
  EXPECT_EQ(chosen("vecadd"), 4u);
}

TEST(KernelName, SeveralInstantiationsAreListed) {
  Expected<std::size_t> i = chooseKernel(kTemplates, "block_sum", "t.cu");
  ASSERT_FALSE(i);
  EXPECT_EQ(i.error().message,
            "kernel 'block_sum' has 2 instantiations: block_sum<128>, block_sum<256>; choose one with --kernel");
  EXPECT_EQ(i.error().file, "t.cu");
  EXPECT_EQ(i.error().line, 0);
  Expected<std::size_t> overloads = chooseKernel({{"k(float*)", "_Z1kPf"}, {"k(int*)", "_Z1kPi"}}, "k", "o.cu");
  ASSERT_FALSE(overloads);
  EXPECT_EQ(overloads.error().message, "kernel 'k' has 2 overloads: k(float*), k(int*); choose one with --kernel");
  EXPECT_EQ(chooseKernel({{"k(float*)", "_Z1kPf"}, {"k(int*)", "_Z1kPi"}}, "k(int *)", "o.cu").value(), 1u);
  Expected<std::size_t> namespaces = chooseKernel({{"a::k", "_ZN1a1kEv"}, {"b::k", "_ZN1b1kEv"}}, "k", "n.cu");
  ASSERT_FALSE(namespaces);
  EXPECT_EQ(namespaces.error().message, "kernel 'k' names 2 kernels: a::k, b::k; choose one with --kernel");
}

TEST(KernelName, NoNameAndUnknownName) {
  Expected<std::size_t> none = chooseKernel(kTemplates, "", "t.cu");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message,
            "the input has 5 kernels; choose one with --kernel (block_sum<128>, block_sum<256>, scale<unsigned int>, "
            "ops::fill, vecadd)");
  EXPECT_EQ(chooseKernel({{"only", ""}}, "", "o.cu").value(), 0u);
  Expected<std::size_t> typo = chooseKernel(kTemplates, "block_sm", "t.cu");
  ASSERT_FALSE(typo);
  EXPECT_EQ(typo.error().message, "kernel 'block_sm' not found; did you mean 'block_sum'?");
  Expected<std::size_t> wrongArgs = chooseKernel(kTemplates, "block_sum<512>", "t.cu");
  ASSERT_FALSE(wrongArgs);
  EXPECT_EQ(wrongArgs.error().message, "kernel 'block_sum<512>' not found; did you mean 'block_sum<128>'?");
}

}  // namespace
}  // namespace foresight
