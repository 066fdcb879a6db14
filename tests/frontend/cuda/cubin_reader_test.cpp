// SPDX-License-Identifier: Apache-2.0
/// \file
/// The cubin reader against `ptxas -v`: for every kernel of every example, on sm_80 and sm_90,
/// registers, stack frame, static shared memory and barriers equal the values ptxas printed
/// when the fixture cubin was built (fixtures/NAME.sm_XX.ptxas.txt). Plus the parameter layout
/// and __launch_bounds__ limits, and errors for files that are not cubins.
#include "foresight/frontend/cuda/cubin_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <regex>

#include "fixture_paths.h"

namespace foresight::cuda {
namespace {

using testing::fixture;
using testing::slurp;

/// What ptxas -v said about one kernel.
struct PtxasInfo {
  int registers = -1;
  long long frame = -1;
  long long shared = 0;
  int barriers = -1;
};

std::map<std::string, PtxasInfo> parsePtxasLog(const std::string& text) {
  std::map<std::string, PtxasInfo> out;
  std::string current;
  std::istringstream in(text);
  std::string line;
  const std::regex function(R"(Function properties for (\S+))");
  const std::regex frame(R"((\d+) bytes stack frame)");
  const std::regex used(R"(Used (\d+) registers, used (\d+) barriers(?:, (\d+) bytes smem)?)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, function)) current = m[1];
    if (std::regex_search(line, m, frame)) out[current].frame = std::stoll(m[1]);
    if (std::regex_search(line, m, used)) {
      out[current].registers = std::stoi(m[1]);
      out[current].barriers = std::stoi(m[2]);
      out[current].shared = m[3].matched ? std::stoll(m[3]) : 0;
    }
  }
  return out;
}

class CubinVsPtxas : public ::testing::TestWithParam<std::string> {};

TEST_P(CubinVsPtxas, ResourcesEqualPtxasVerbose) {
  const std::string base = GetParam();
  const std::map<std::string, PtxasInfo> expected = parsePtxasLog(slurp(fixture(base + ".ptxas.txt")));
  ASSERT_FALSE(expected.empty()) << base;
  Expected<Cubin> cubin = readCubin(slurp(fixture(base + ".cubin")), base + ".cubin");
  ASSERT_TRUE(cubin) << cubin.error().format();
  EXPECT_EQ(cubin->smVersion, base.find("sm_80") != std::string::npos ? 80 : 90);
  EXPECT_EQ(cubin->kernels.size(), expected.size());
  for (const auto& [name, info] : expected) {
    const CubinKernel* k = cubin->find(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->registers, info.registers) << base << " " << name;
    EXPECT_EQ(k->frameBytes, info.frame) << base << " " << name;
    EXPECT_EQ(k->sharedBytes, info.shared) << base << " " << name;
    EXPECT_EQ(k->barriers, info.barriers) << base << " " << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, CubinVsPtxas,
                         ::testing::Values("vecadd.sm_80", "vecadd.sm_90", "matmul.sm_80", "matmul.sm_90",
                                           "stencil2d.sm_80", "stencil2d.sm_90", "reduce.sm_80", "reduce.sm_90",
                                           "spmv_csr.sm_80", "spmv_csr.sm_90", "transpose.sm_80", "transpose.sm_90",
                                           "spill.sm_80", "spill.sm_90"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) c = c == '.' ? '_' : c;
                           return n;
                         });

TEST(CubinReader, ParameterLayoutOfVecadd) {
  // vecadd(const float* a, const float* b, float* c, int n): three 8-byte pointers and an int,
  // packed at offsets 0, 8, 16, 24 of the parameter block: 28 bytes. The block starts at
  // c[0x0][0x210] on sm_90 and at c[0x0][0x160] on sm_80 (the SASS reads n from 0x228 / 0x178).
  for (const auto& [arch, bank] : {std::pair{"sm_90", 0x210}, std::pair{"sm_80", 0x160}}) {
    Expected<Cubin> cubin = readCubin(slurp(fixture(std::string("vecadd.") + arch + ".cubin")), "vecadd");
    ASSERT_TRUE(cubin);
    const CubinKernel& k = cubin->kernels.at(0);
    EXPECT_EQ(k.paramBankOffset, bank) << arch;
    EXPECT_EQ(k.paramBytes, 28);
    ASSERT_EQ(k.params.size(), 4u);
    const int offsets[] = {0, 8, 16, 24};
    const int sizes[] = {8, 8, 8, 4};
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(k.params[i].ordinal, i);
      EXPECT_EQ(k.params[i].offset, offsets[i]);
      EXPECT_EQ(k.params[i].size, sizes[i]);
    }
    EXPECT_FALSE(k.maxThreads[0].has_value());
    EXPECT_EQ(k.maxRegCount, 255);
    EXPECT_EQ(k.textBytes % 16, 0);
  }
}

TEST(CubinReader, LaunchBoundsGiveMaxThreads) {
  // spill is declared __launch_bounds__(256, 8).
  Expected<Cubin> cubin = readCubin(slurp(fixture("spill.sm_90.cubin")), "spill");
  ASSERT_TRUE(cubin);
  const CubinKernel* k = cubin->find("_Z5spillPKfPfi");
  ASSERT_NE(k, nullptr);
  ASSERT_TRUE(k->maxThreads[0].has_value());
  EXPECT_EQ(*k->maxThreads[0], 256);
  EXPECT_EQ(k->registers, 32);  // 65536 / (256 × 8) = 32 registers at most
}

TEST(CubinReader, RejectsNonCubins) {
  EXPECT_FALSE(readCubin("not an elf", "x.cubin"));
  Expected<Cubin> ptx = readCubin(slurp(fixture("vecadd.sm_90.ptx")), "vecadd.ptx");
  ASSERT_FALSE(ptx);
  EXPECT_NE(ptx.error().message.find("ELF"), std::string::npos);
  std::string elf = slurp(fixture("vecadd.sm_90.cubin"));
  elf[18] = 62;  // EM_X86_64
  Expected<Cubin> x86 = readCubin(elf, "x86.o");
  ASSERT_FALSE(x86);
  EXPECT_NE(x86.error().message.find("EM_CUDA"), std::string::npos);
}


// Corrupt section headers the cubin fuzz target found: an offset + size that wraps around 2^64
// threw out_of_range, and a name table without a final NUL was read past its end.
TEST(CubinReader, CorruptSectionHeadersAreHarmless) {
  std::string bytes = slurp(fixture("vecadd.sm_90.cubin"));
  const std::uint64_t shoff = *reinterpret_cast<const std::uint64_t*>(bytes.data() + 40);
  const std::uint16_t shentsize = *reinterpret_cast<const std::uint16_t*>(bytes.data() + 58);
  const std::uint16_t shnum = *reinterpret_cast<const std::uint16_t*>(bytes.data() + 60);
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::uint64_t wrap = ~std::uint64_t{0} - 7;  // offset + size wraps to a small number
    std::memcpy(bytes.data() + shoff + i * shentsize + 24, &wrap, 8);
  }
  Expected<Cubin> c = readCubin(bytes, "corrupt.cubin");  // must not throw
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "the cubin contains no kernels");
  const std::uint64_t bad = ~std::uint64_t{0};
  std::string table = slurp(fixture("vecadd.sm_90.cubin"));
  std::memcpy(table.data() + 40, &bad, 8);  // section table offset past the end
  Expected<Cubin> t = readCubin(table, "corrupt.cubin");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message, "corrupt ELF section table");
}

}  // namespace
}  // namespace foresight::cuda
