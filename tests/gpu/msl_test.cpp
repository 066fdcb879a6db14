// SPDX-License-Identifier: Apache-2.0
/// \file
/// PORPLE's MSL (gpu/msl.h): the M2075 example of porple.md §2.4 parses with the texture entries
/// added, `om` is resolved by inversion, hierarchies, closed forms and pairwise serialization come
/// out as the paper has them, bad input gives one error at the right line, and the MSL derived from
/// the presets has the expected paths and round-trips through writeMsl/parseMsl.
#include "foresight/gpu/msl.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "foresight/gpu/presets.h"
#include "test_support.h"

namespace foresight {
namespace {

using testing_support::replaced;

// The cleaned M2075 text of porple.md §2.4 verbatim (lines 1-8; long lines split across literals),
// plus the texture entries ids 5 and 6 with the latencies of PORPLE's Table 3 (lines 9-10).
const std::string kM2075 =
    "die = 1 tpc; tpc = 16 sm; sm = 32 core;\n"
    "globalMem   8 Y rw na 5375M 128B ?  600clk <L2 L1>   <>                 die <0.1 0.5> "
    "warp{address1/blockSize != address2/blockSize};\n"
    "L1          9 N rw na 16K   128B ?  80clk  <>        <L2 globalMem>     sm  ?         "
    "warp{address1/blockSize != address2/blockSize};\n"
    "L2          7 N rw na 768K  32B  ?  390clk om        om                 die ?         "
    "warp{address1/blockSize != address2/blockSize};\n"
    "constantMem 1 Y r  na 64K   ?    ?  360clk <cL2 cL1> <>                 die ?         "
    "warp{address1 != address2};\n"
    "cL1         3 N r  na 4K    64B  ?  48clk  <>        <cL2 constantMem>  sm  ?         "
    "warp{address1/blockSize != address2/blockSize};\n"
    "cL2         2 N r  na 32K   256B ?  140clk <cL1>     <constantMem>      die ?         "
    "warp{address1/blockSize != address2/blockSize};\n"
    "sharedMem   4 Y rw na 48K   ?    32 48clk  <>        <>                 sm  ?         "
    "block{word1 != word2 && word1 % banks == word2 % banks};\n"
    "textureMem  5 Y r  na 5375M 128B ?  617clk <tL1>     <>                 die ?         "
    "warp{address1/blockSize != address2/blockSize};\n"
    "tL1         6 N r  na 12K   128B ?  208clk <>        <textureMem>       sm  ?         "
    "warp{address1/blockSize != address2/blockSize};\n";

MslSpec parsed(const std::string& text) {
  Expected<MslSpec> spec = parseMsl(text, "m2075.msl");
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().format());
  return spec.ok() ? *spec : MslSpec{};
}

/// The error parseMsl gives for `text` (fails the test when it parses).
Error parseError(const std::string& text) {
  Expected<MslSpec> spec = parseMsl(text, "m2075.msl");
  EXPECT_FALSE(spec.ok()) << "parsed although it should not:\n" << text;
  return spec.ok() ? Error{} : spec.error();
}

std::vector<std::string> names(const std::vector<const MslMemory*>& memories) {
  std::vector<std::string> out;
  for (const MslMemory* m : memories) out.push_back(m->name);
  return out;
}

const MslMemory& entry(const MslSpec& spec, const std::string& name) {
  static const MslMemory kNone;
  const MslMemory* m = spec.find(name);
  EXPECT_NE(m, nullptr) << "no entry " << name;
  return m ? *m : kNone;
}

/// Every field of two specs is equal, except source lines, file and gpu.
void expectSameSpec(const MslSpec& a, const MslSpec& b) {
  EXPECT_EQ(a.processor.tpcsPerDie, b.processor.tpcsPerDie);
  EXPECT_EQ(a.processor.smsPerTpc, b.processor.smsPerTpc);
  EXPECT_EQ(a.processor.coresPerSm, b.processor.coresPerSm);
  EXPECT_EQ(a.processor.clockMhz, b.processor.clockMhz);
  ASSERT_EQ(a.memories.size(), b.memories.size());
  for (size_t i = 0; i < a.memories.size(); ++i) {
    const MslMemory& x = a.memories[i];
    const MslMemory& y = b.memories[i];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.id, y.id);
    EXPECT_EQ(x.softwareManaged, y.softwareManaged);
    EXPECT_EQ(x.readable, y.readable);
    EXPECT_EQ(x.writable, y.writable);
    EXPECT_EQ(x.dim, y.dim);
    EXPECT_EQ(x.size.has_value(), y.size.has_value());
    if (x.size && y.size) {
      EXPECT_EQ(x.size->extents, y.size->extents);
      EXPECT_EQ(x.size->elements, y.size->elements);
    }
    EXPECT_EQ(x.blockSize.has_value(), y.blockSize.has_value());
    if (x.blockSize && y.blockSize) {
      EXPECT_EQ(x.blockSize->extents, y.blockSize->extents);
      EXPECT_EQ(x.blockSize->elements, y.blockSize->elements);
    }
    EXPECT_EQ(x.banks, y.banks);
    EXPECT_EQ(x.readLatency, y.readLatency);
    EXPECT_EQ(x.writeLatency, y.writeLatency);
    EXPECT_EQ(x.upper, y.upper);
    EXPECT_EQ(x.lower, y.lower);
    EXPECT_EQ(x.scope, y.scope);
    EXPECT_EQ(x.alpha, y.alpha);
    EXPECT_EQ(x.serial.has_value(), y.serial.has_value());
    if (x.serial && y.serial) {
      EXPECT_EQ(x.serial->scope, y.serial->scope);
      EXPECT_EQ(x.serial->text, y.serial->text);
      EXPECT_EQ(x.serial->form, y.serial->form);
    }
    EXPECT_EQ(x.placement, y.placement);
    EXPECT_EQ(x.path, y.path);
  }
}

// --- the M2075 example ------------------------------------------------------------------------

TEST(Msl, ParsesTheM2075Example) {
  const MslSpec spec = parsed(kM2075);
  EXPECT_EQ(spec.file, "m2075.msl");
  EXPECT_EQ(spec.processor.tpcsPerDie, 1);
  EXPECT_EQ(spec.processor.smsPerTpc, 16);
  EXPECT_EQ(spec.processor.coresPerSm, 32);
  EXPECT_EQ(spec.processor.sms(), 16);
  EXPECT_FALSE(spec.processor.clockMhz.has_value());
  ASSERT_EQ(spec.memories.size(), 9u);  // the 7 entries of Fig. 4 + texture memory and tL1

  const MslMemory& global = entry(spec, "globalMem");
  EXPECT_EQ(global.id, 8);
  EXPECT_EQ(global.line, 2);
  EXPECT_TRUE(global.softwareManaged);
  EXPECT_TRUE(global.readable && global.writable);
  EXPECT_FALSE(global.dim.has_value());
  ASSERT_TRUE(global.size.has_value());
  EXPECT_EQ(global.size->extents, std::vector<long long>{5375LL << 20});  // 5375M taken as MiB
  EXPECT_FALSE(global.size->elements);
  EXPECT_EQ(global.size->total(), 5375LL * 1024 * 1024);
  ASSERT_TRUE(global.blockSize.has_value());
  EXPECT_EQ(global.blockSize->total(), 128);
  EXPECT_FALSE(global.banks.has_value());
  EXPECT_EQ(global.readLatency, 600);
  EXPECT_EQ(global.writeLatency, 600);
  EXPECT_EQ(global.upper, (std::vector<std::string>{"L2", "L1"}));
  EXPECT_TRUE(global.lower.empty());
  EXPECT_EQ(global.scope, MslScope::Die);
  ASSERT_TRUE(global.alpha.has_value());
  EXPECT_DOUBLE_EQ(global.alpha->first, 0.1);
  EXPECT_DOUBLE_EQ(global.alpha->second, 0.5);
  ASSERT_TRUE(global.serial.has_value());
  EXPECT_EQ(global.serial->scope, "warp");
  EXPECT_EQ(global.serial->text, "address1/blockSize != address2/blockSize");

  const MslMemory& l1 = entry(spec, "L1");
  EXPECT_EQ(l1.line, 3);
  EXPECT_FALSE(l1.softwareManaged);
  EXPECT_EQ(l1.size->total(), 16384);  // 16K
  EXPECT_EQ(l1.readLatency, 80);
  EXPECT_EQ(l1.scope, MslScope::Sm);
  EXPECT_FALSE(l1.alpha.has_value());
  EXPECT_EQ(l1.lower, (std::vector<std::string>{"L2", "globalMem"}));

  // L2 is `om om`: above it is whatever lists it among its lower levels (L1), below it whatever
  // lists it among its upper levels (globalMem).
  const MslMemory& l2 = entry(spec, "L2");
  EXPECT_EQ(l2.upper, std::vector<std::string>{"L1"});
  EXPECT_EQ(l2.lower, std::vector<std::string>{"globalMem"});
  EXPECT_EQ(l2.size->total(), 768 * 1024);
  EXPECT_EQ(l2.blockSize->total(), 32);

  const MslMemory& constant = entry(spec, "constantMem");
  EXPECT_TRUE(constant.readable);
  EXPECT_FALSE(constant.writable);
  EXPECT_FALSE(constant.blockSize.has_value());  // `?`
  EXPECT_EQ(entry(spec, "cL2").upper, std::vector<std::string>{"cL1"});

  const MslMemory& shared = entry(spec, "sharedMem");
  EXPECT_EQ(shared.line, 8);
  EXPECT_EQ(shared.banks, 32);
  EXPECT_EQ(shared.size->total(), 48 * 1024);
  EXPECT_EQ(shared.serial->scope, "block");

  EXPECT_EQ(entry(spec, "textureMem").readLatency, 617);
  EXPECT_EQ(entry(spec, "tL1").readLatency, 208);
  EXPECT_EQ(entry(spec, "tL1").line, 10);
}

TEST(Msl, InfersPlacementsAndPaths) {
  const MslSpec spec = parsed(kM2075);
  EXPECT_EQ(entry(spec, "globalMem").placement, Placement::Global);
  EXPECT_EQ(entry(spec, "constantMem").placement, Placement::Constant);
  EXPECT_EQ(entry(spec, "sharedMem").placement, Placement::Shared);
  EXPECT_EQ(entry(spec, "textureMem").placement, Placement::Texture);
  for (const char* cache : {"L1", "L2", "cL1", "cL2", "tL1"}) EXPECT_FALSE(entry(spec, cache).placement) << cache;

  EXPECT_EQ(entry(spec, "globalMem").path, "global");
  EXPECT_EQ(entry(spec, "L1").path, "global");
  EXPECT_EQ(entry(spec, "L2").path, "global");
  EXPECT_EQ(entry(spec, "sharedMem").path, "global");
  EXPECT_EQ(entry(spec, "constantMem").path, "constant");
  EXPECT_EQ(entry(spec, "cL1").path, "constant");
  EXPECT_EQ(entry(spec, "cL2").path, "constant");
  EXPECT_EQ(entry(spec, "textureMem").path, "texture");
  EXPECT_EQ(entry(spec, "tL1").path, "texture");

  EXPECT_EQ(spec.placementMemory(Placement::Global), spec.find("globalMem"));
  EXPECT_EQ(spec.placementMemory(Placement::ReadOnly), nullptr);  // Fermi has no read-only cache
  EXPECT_EQ(spec.placementMemory(Placement::PersistingL2), nullptr);
}

TEST(Msl, HierarchiesOfTheM2075Example) {
  const MslSpec spec = parsed(kM2075);
  using V = std::vector<std::string>;
  EXPECT_EQ(names(spec.hierarchy(Placement::Global)), (V{"L1", "L2", "globalMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Constant)), (V{"cL1", "cL2", "constantMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Shared)), (V{"sharedMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Texture)), (V{"tL1", "textureMem"}));
  EXPECT_TRUE(spec.hierarchy(Placement::ReadOnly).empty());
  EXPECT_TRUE(spec.hierarchy(Placement::PersistingL2).empty());
}

TEST(Msl, ExplicitAttributesOverrideInference) {
  const MslSpec spec = parsed(kM2075 +
                              "ro 10 N r na 12K 32B ? 100clk <> <L2> sm ? "
                              "warp{address1/blockSize != address2/blockSize} placement=readonly path=texture;\n"
                              "odd 11 Y rw na 1K 4B ? 5clk <> <> sm ? ? path=special;\n");
  EXPECT_EQ(entry(spec, "ro").placement, Placement::ReadOnly);
  EXPECT_EQ(entry(spec, "ro").path, "texture");
  EXPECT_FALSE(entry(spec, "odd").placement.has_value());  // writable, SM scope, no serialCondition
  EXPECT_EQ(entry(spec, "odd").path, "special");
  EXPECT_EQ(names(spec.hierarchy(Placement::ReadOnly)), (std::vector<std::string>{"ro", "L2", "globalMem"}));
}

// --- serialConditions ---------------------------------------------------------------------------

TEST(Msl, RecognisesTheClosedForms) {
  const MslSpec spec = parsed(kM2075);
  EXPECT_EQ(entry(spec, "globalMem").serial->form, Serialization::Line);
  EXPECT_EQ(entry(spec, "L2").serial->form, Serialization::Line);
  EXPECT_EQ(entry(spec, "constantMem").serial->form, Serialization::Address);
  EXPECT_EQ(entry(spec, "sharedMem").serial->form, Serialization::Bank);
}

/// The form of `warp{condition}` in an entry of its own.
std::optional<Serialization> formOf(const std::string& condition) {
  const MslSpec spec = parsed(
      "die = 1 tpc; tpc = 1 sm; sm = 32 core;\n"
      "m 1 N rw na 1K 32B 32 10clk <> <> sm ? warp{" +
      condition + "};\n");
  if (spec.memories.empty() || !spec.memories[0].serial) return std::nullopt;
  return spec.memories[0].serial->form;
}

TEST(Msl, FormsAreRecognisedByStructureNotSpelling) {
  EXPECT_EQ(formOf("floor(address1/blockSize) != floor(address2/blockSize)"), Serialization::Line);
  EXPECT_EQ(formOf("( address2 / blockSize )!=(address1/blockSize)"), Serialization::Line);
  EXPECT_EQ(formOf("\xE2\x8C\x8A"
                   "address1/blockSize"
                   "\xE2\x8C\x8B != "
                   "\xE2\x8C\x8A"
                   "address2/blockSize"
                   "\xE2\x8C\x8B"),
            Serialization::Line);
  EXPECT_EQ(formOf("address2!=address1"), Serialization::Address);
  EXPECT_EQ(formOf("word2 % banks == word1 % banks && word2 != word1"), Serialization::Bank);
  EXPECT_EQ(formOf("(word1 != word2) && ((word1 % banks) == (word2 % banks))"), Serialization::Bank);
  // Near misses are generic.
  EXPECT_EQ(formOf("address1/blockSize == address2/blockSize"), std::nullopt);
  EXPECT_EQ(formOf("address1/blockSize != address2/64"), std::nullopt);
  EXPECT_EQ(formOf("index1 != index2"), std::nullopt);
  EXPECT_EQ(formOf("word1 != word2 || word1 % banks == word2 % banks"), std::nullopt);
  EXPECT_EQ(formOf("address1/64 != address2/64 || address1 > 1000"), std::nullopt);
}

TEST(Msl, SerializedPairs) {
  const MslSpec spec = parsed(kM2075);
  const MslCondition& global = *entry(spec, "globalMem").serial;
  EXPECT_FALSE(global.serialized(0, 64, 0, 16, 128, 32));  // one 128-B block
  EXPECT_TRUE(global.serialized(0, 128, 0, 32, 128, 32));  // two blocks
  EXPECT_TRUE(global.serialized(0, 64, 0, 16, 32, 32));    // blockSize is the caller's

  const MslCondition& constant = *entry(spec, "constantMem").serial;
  EXPECT_FALSE(constant.serialized(40, 40, 10, 10, 0, 32));  // broadcast
  EXPECT_TRUE(constant.serialized(40, 44, 10, 11, 0, 32));

  const MslCondition& shared = *entry(spec, "sharedMem").serial;
  EXPECT_TRUE(shared.serialized(0, 128, 0, 32, 0, 32));  // words 0 and 32: same bank, different words
  EXPECT_FALSE(shared.serialized(0, 4, 0, 1, 0, 32));    // banks 0 and 1
  EXPECT_FALSE(shared.serialized(0, 2, 0, 1, 0, 32));    // the same word
  EXPECT_FALSE(shared.serialized(0, 32, 0, 8, 0, 32));   // banks 0 and 8
  EXPECT_TRUE(shared.serialized(4, 260, 1, 65, 0, 32));  // words 1 and 65, bank 1
}

TEST(Msl, GenericPredicateEvaluates) {
  const MslSpec spec = parsed(
      "die = 1 tpc; tpc = 1 sm; sm = 32 core;\n"
      "m 1 N rw na 1K 32B ? 10clk <> <> sm ? "
      "warp{address1/64 != address2/64 || address1 > 1000};\n");
  const MslCondition& c = *spec.memories.at(0).serial;
  EXPECT_FALSE(c.form.has_value());
  EXPECT_FALSE(c.serialized(0, 63, 0, 0, 128, 32));
  EXPECT_TRUE(c.serialized(0, 64, 0, 0, 128, 32));
  EXPECT_TRUE(c.serialized(1001, 1001, 0, 0, 128, 32));
  EXPECT_FALSE(c.serialized(1000, 1000, 0, 0, 128, 32));
}

TEST(Msl, ExpressionSemantics) {
  auto eval = [](const std::string& condition, long long a1, long long a2) {
    const MslSpec spec =
        parsed("die = 1 tpc; tpc = 1 sm; sm = 32 core;\nm 1 N rw na ? ? ? 1clk <> <> sm ? grid{" + condition + "};\n");
    return !spec.memories.empty() && spec.memories[0].serial->serialized(a1, a2, 3, 5, 16, 8);
  };
  EXPECT_TRUE(eval("1 + 2 * 3 == 7", 0, 0));
  EXPECT_TRUE(eval("(1 + 2) * 3 == 9", 0, 0));
  EXPECT_TRUE(eval("10 - 4 - 3 == 3", 0, 0));  // left associative
  EXPECT_TRUE(eval("!(1 > 2) && -3 < 0 && !0", 0, 0));
  EXPECT_TRUE(eval("1 < 2 == 1", 0, 0));                                // C: relational binds tighter than equality
  EXPECT_TRUE(eval("address1 / 4 == -2 && address1 % 4 == 1", -7, 0));  // floor division
  EXPECT_TRUE(eval("address1 / 0 == 0 && address1 % 0 == 0", 5, 0));    // division by zero is 0
  EXPECT_TRUE(eval("index1 == 3 && index2 == 5 && blockSize == 16 && banks == 8", 0, 0));
  EXPECT_TRUE(eval("word1 == 2 && word2 == -1", 11, -1));            // word indices (floor(address/4))
  EXPECT_TRUE(eval("address1 * address1 + 1 != 0", 3037000500, 0));  // wraps, no overflow trap
  EXPECT_TRUE(eval("address1 >= 4 && address1 <= 4 // a comment\n", 4, 0));
  EXPECT_FALSE(eval("address1 != address1", 9, 0));
}

TEST(Msl, ConditionTextIsNormalized) {
  const MslSpec spec = parsed(
      "die = 1 tpc; tpc = 1 sm; sm = 32 core;\n"
      "m 1 N rw na ? ? ? 1clk <> <> sm ? warp{  address1\n   != // split\n address2 };\n");
  ASSERT_EQ(spec.memories.size(), 1u);
  EXPECT_EQ(spec.memories[0].serial->text, "address1 != address2");
  EXPECT_EQ(spec.memories[0].serial->form, Serialization::Address);
}

// --- other fields -------------------------------------------------------------------------------

TEST(Msl, TimeLatenciesUseTheClock) {
  const std::string text =
      replaced(replaced(kM2075, "sm = 32 core;", "sm = 32 core; clk = 1000 MHz;"), "80clk ", "70ns  ");
  MslSpec spec = parsed(text);
  EXPECT_EQ(spec.processor.clockMhz, 1000.0);
  EXPECT_DOUBLE_EQ(entry(spec, "L1").readLatency, 70);  // 70 ns at 1 GHz

  spec = parsed(
      "die = 2 tpc; tpc = 7 sm; sm = 64 core; clk = 1500 MHz;\n"
      "m 1 N rw na ? ? ? <10ns 2ms> <> <> sm ? ?;\n"
      "n 2 N rw na ? ? ? 0.000001sec <> <> sm ? ?;\n");
  EXPECT_EQ(spec.processor.sms(), 14);
  EXPECT_DOUBLE_EQ(entry(spec, "m").readLatency, 15);
  EXPECT_DOUBLE_EQ(entry(spec, "m").writeLatency, 3e6);
  EXPECT_DOUBLE_EQ(entry(spec, "n").readLatency, 1500);
}

TEST(Msl, SizesUnitsAndTuples) {
  const MslSpec spec = parsed(
      "die = 1 tpc; tpc = 1 sm; sm = 1 core;\n"
      "a 1 Y r 2 <64KE 32E> <4E 4E> ? 1clk <> <> die ? ?;\n"
      "b 2 N rw 1 2GB 1TB 16 1clk <> <> core ? ?;\n"
      "c 3 n RW ? 7B 3 ? 1clk na na tpc ? na;\n"
      "d 4 y R na ? om om 1clk <> <> die ? om;\n");
  const MslMemory& a = entry(spec, "a");
  EXPECT_EQ(a.dim, 2);
  EXPECT_TRUE(a.size->elements);
  EXPECT_EQ(a.size->extents, (std::vector<long long>{65536, 32}));
  EXPECT_EQ(a.size->total(), 65536 * 32);
  EXPECT_EQ(a.blockSize->total(), 16);
  EXPECT_EQ(entry(spec, "b").size->total(), 2LL << 30);
  EXPECT_EQ(entry(spec, "b").blockSize->total(), 1LL << 40);
  EXPECT_EQ(entry(spec, "b").scope, MslScope::Core);
  EXPECT_EQ(entry(spec, "c").size->total(), 7);
  EXPECT_EQ(entry(spec, "c").blockSize->total(), 3);  // no unit: bytes
  EXPECT_EQ(entry(spec, "c").scope, MslScope::Tpc);
  EXPECT_TRUE(entry(spec, "c").readable && entry(spec, "c").writable);
  EXPECT_FALSE(entry(spec, "c").softwareManaged);
  EXPECT_TRUE(entry(spec, "d").softwareManaged);
  EXPECT_FALSE(entry(spec, "d").writable);
  EXPECT_FALSE(entry(spec, "d").blockSize.has_value());
  EXPECT_FALSE(entry(spec, "d").serial.has_value());
  EXPECT_EQ(entry(spec, "d").placement, Placement::Texture);  // software-managed and read-only
}

TEST(Msl, IdsResolveToNames) {
  const MslSpec spec = parsed(replaced(replaced(kM2075, "<L2 globalMem>", "<7 8>"), "<cL2 cL1>", "<2 3>"));
  EXPECT_EQ(entry(spec, "L1").lower, (std::vector<std::string>{"L2", "globalMem"}));
  EXPECT_EQ(entry(spec, "constantMem").upper, (std::vector<std::string>{"cL2", "cL1"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Constant)), (std::vector<std::string>{"cL1", "cL2", "constantMem"}));
}

// --- errors -------------------------------------------------------------------------------------

TEST(Msl, ErrorsNameFileAndLine) {
  struct Case {
    std::string from, to;
    int line;
    std::string message;  // a part of the message
  };
  const std::vector<Case> cases = {
      {"<L2 globalMem>", "<L3 globalMem>", 3, "unknown memory 'L3' in the lowerLevels of 'L1'"},
      {"cL2         2", "cL1         2", 7, "memory 'cL1' is defined twice (first on line 6)"},
      {"cL2         2", "cL9         3", 7, "id 3 of 'cL9' is already used (on line 6)"},
      {"80clk ", "80cyc ", 3, "bad latency '80cyc' of 'L1'"},
      {"16K ", "16Q ", 3, "bad size '16Q' of 'L1'"},
      {"80clk ", "80ns  ", 3, "needs the clock: add 'clk = <F> MHz;'"},
      {"<L2 globalMem>     sm  ?         warp{address1/blockSize != address2/blockSize};",
       "<L2 globalMem>     sm  ?         warp{address1/blockSize != address2/blockSize}", 3,
       "missing ';' at the end of the entry 'L1' (found 'L2' on line 4)"},
      {"48clk  <>        <>                 sm  ?", "48clk  <>        <>                 sm;", 8,
       "the entry 'sharedMem' ends before its concurrencyFactor field"},
      {"die <0.1 0.5> warp", "die <0.1 0.5> warp{index1 != index2} extra", 2,
       "missing ';' at the end of the "
       "entry 'globalMem' (found 'extra' on line 2)"},
      {"die <0.1 0.5> warp", "die <0.1 1.5> warp", 2, "must be a number in (0, 1]"},
      {"sm  ?         block{", "sm  ?         bank{", 8, "must be warp{...}, block{...}, grid{...} or ?"},
      {"block{word1 != word2 &&", "block{word1 != wrod2 &&", 8, "unknown variable 'wrod2'"},
      {"block{word1 != word2 &&", "block{word1 != (word2 &&", 8, "expected ')' to close '('"},
      {"warp{address1 != address2}", "warp{address1 !== address2}", 5, "unexpected character '='"},
      {"constantMem 1 Y r ", "constantMem 1 Y x ", 5, "rw of 'constantMem' must be r, w or rw"},
      {"sharedMem   4 Y rw", "sharedMem   4 Q rw", 8, "swmng of 'sharedMem' must be Y or N"},
      {"<cL1>     <constantMem>      die", "<cL1>     <constantMem>      gpu", 7, "shareScope of 'cL2'"},
      {"<tL1>     <>", "<tL1>     <> die ? ? placement=textur;\nx", 9, "placement of 'textureMem' must be"},
      {"<tL1>     <>", "<tL1>     <> die ? ? plcement=texture;\nx", 9, "unknown attribute 'plcement'"},
      {"<cL1>     <constantMem>", "<cL2>     <constantMem>", 7, "'cL2' names itself in its upperLevels"},
      {"<cL2 cL1>", "<cL2 cL2>", 5, "'cL2' is listed twice in the upperLevels of 'constantMem'"},
      {"<cL2 cL1>", "<cL2 99>", 5, "no memory has the id 99"},
      {"sm = 32 core;", "sm = 32 cores;", 1, "expected 'core' after 'sm = 32'"},
      {"die = 1 tpc; ", "", 1, "missing processor item 'die = N tpc'"},
      {"tpc = 16 sm;", "tpc = 16 sm; tpc = 2 sm;", 1, "processor item 'tpc' given twice"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.to);
    const Error e = parseError(replaced(kM2075, c.from, c.to));
    EXPECT_EQ(e.file, "m2075.msl");
    EXPECT_EQ(e.line, c.line) << e.format();
    EXPECT_NE(e.message.find(c.message), std::string::npos) << e.format();
  }
}

TEST(Msl, ConditionErrorsPointIntoTheCondition) {
  const Error e = parseError(
      "die = 1 tpc; tpc = 1 sm; sm = 1 core;\n"
      "m 1 N rw na ? ? ? 1clk <> <> sm ? warp{address1 !=\n\n  address3};\n");
  EXPECT_EQ(e.line, 4);
  EXPECT_EQ(e.column, 3);
  EXPECT_EQ(e.format(),
            "m2075.msl:4:3: error: unknown variable 'address3' in serialCondition (expected address1, "
            "address2, index1, index2, word1, word2, blockSize, banks or floor(...)); did you mean "
            "'address1'?");
}

TEST(Msl, MalformedInputNeverCrashes) {
  EXPECT_EQ(parseError("").line, 1);
  EXPECT_NE(parseError("globalMem 8 Y rw na 1K 1B ? 1clk <> <> die ? ?;").message.find("processor line"),
            std::string::npos);
  EXPECT_NE(
      parseError(kM2075 + "x 99 N rw na ? ? ? 1clk <> <> sm ? warp{address1 != address2").message.find("unterminated"),
      std::string::npos);
  EXPECT_NE(parseError(kM2075 + "x 99 N rw na ? ? ? 1clk <> <> sm ? warp{{}};").message.find("'{' inside"),
            std::string::npos);
  EXPECT_NE(parseError(kM2075 + "x 99 N rw na 99999999999T ? ? 1clk <> <> sm ? ?;").message.find("too large"),
            std::string::npos);
  EXPECT_NE(parseError(kM2075 + "x 99 N rw na <1G 1G 1G> ? ? 1clk <> <> sm ? ?;").message.find("too large"),
            std::string::npos);
  EXPECT_NE(parseError(kM2075 + "x 99 N rw na ? ? ? 1clk <> <> sm ? warp{" + std::string(5000, '(') + "1};")
                .message.find("nested deeper"),
            std::string::npos);
  std::string chain = "1";
  for (int i = 0; i < 5000; ++i) chain += "+1";
  EXPECT_NE(parseError(kM2075 + "x 99 N rw na ? ? ? 1clk <> <> sm ? warp{" + chain + "};").message.find("nested"),
            std::string::npos);
  EXPECT_NE(parseError(kM2075 + "\x01").message.find("unexpected byte 0x01"), std::string::npos);
  // Every prefix of the example either parses or gives an error with a line inside the text.
  for (size_t n = 0; n < kM2075.size(); ++n) {
    const Expected<MslSpec> spec = parseMsl(kM2075.substr(0, n), "cut.msl");
    if (!spec.ok()) {
      EXPECT_GE(spec.error().line, 1);
      EXPECT_LE(spec.error().line, 11);
    }
  }
}

TEST(Msl, LoadMslReadsAFile) {
  const std::string path = ::testing::TempDir() + "msl_test_m2075.msl";
  {
    std::ofstream out(path);
    out << kM2075;
  }
  const Expected<MslSpec> spec = loadMsl(path);
  ASSERT_TRUE(spec.ok()) << spec.error().format();
  EXPECT_EQ(spec->file, path);
  EXPECT_EQ(spec->memories.size(), 9u);
  std::remove(path.c_str());
  const Expected<MslSpec> missing = loadMsl(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().format().find("cannot read MSL file"), std::string::npos) << missing.error().format();
}

// --- writer -------------------------------------------------------------------------------------

TEST(Msl, WriteMslRoundTripsTheExample) {
  const MslSpec spec = parsed(kM2075);
  const std::string text = writeMsl(spec);
  EXPECT_NE(text.find("die = 1 tpc; tpc = 16 sm; sm = 32 core;\n"), std::string::npos) << text;
  EXPECT_NE(text.find("5375MB"), std::string::npos) << text;
  EXPECT_NE(text.find("placement=global path=global;"), std::string::npos) << text;
  EXPECT_NE(text.find("<L1> "), std::string::npos) << text;  // L2's resolved upper levels
  const MslSpec again = parsed(text);
  expectSameSpec(spec, again);
  EXPECT_EQ(writeMsl(again), text);
}

TEST(Msl, PlacementNames) {
  const char letters[] = "GRTSCP";
  for (int i = 0; i < kNumPlacements; ++i) {
    const auto p = static_cast<Placement>(i);
    EXPECT_EQ(parsePlacement(placementName(p)), p);
    EXPECT_EQ(placementLetter(p), letters[i]);
  }
  EXPECT_STREQ(placementName(Placement::PersistingL2), "l2persist");
  EXPECT_FALSE(parsePlacement("Global").has_value());
}

// --- the MSL of the presets ---------------------------------------------------------------------

using V = std::vector<std::string>;

TEST(MslFromGpu, M2075) {
  const MslSpec spec = mslFromGpu(testing_support::preset("m2075"));
  EXPECT_EQ(spec.gpu, "m2075");
  EXPECT_EQ(spec.processor.tpcsPerDie, 14);
  EXPECT_EQ(spec.processor.smsPerTpc, 1);
  EXPECT_EQ(spec.processor.coresPerSm, 64);  // warp size x schedulers
  EXPECT_DOUBLE_EQ(spec.processor.clockMhz.value_or(0), 1150);
  EXPECT_EQ(names(spec.hierarchy(Placement::Global)), (V{"L1", "L2", "globalMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Constant)), (V{"cL1", "cL2", "constantMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Shared)), (V{"sharedMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Texture)), (V{"tL1", "L2", "textureMem"}));
  EXPECT_TRUE(spec.hierarchy(Placement::ReadOnly).empty());
  EXPECT_TRUE(spec.hierarchy(Placement::PersistingL2).empty());
  const MslMemory& global = entry(spec, "globalMem");
  EXPECT_EQ(global.readLatency, 600);
  EXPECT_EQ(global.blockSize->total(), 128);  // Fermi DRAM: line
  EXPECT_EQ(global.serial->form, Serialization::Line);
  EXPECT_EQ(global.alpha, std::make_pair(0.2, 0.2));
  EXPECT_EQ(entry(spec, "L2").blockSize->total(), 32);  // sector, as PORPLE's 32B
  EXPECT_EQ(entry(spec, "L1").size->total(), 16384);
  EXPECT_EQ(entry(spec, "constantMem").alpha, std::make_pair(1.0, 1.0));
  EXPECT_EQ(entry(spec, "constantMem").serial->form, Serialization::Address);
  EXPECT_FALSE(entry(spec, "constantMem").writable);
  EXPECT_EQ(entry(spec, "sharedMem").serial->form, Serialization::Bank);
  EXPECT_EQ(entry(spec, "sharedMem").banks, 32);
  EXPECT_EQ(entry(spec, "tL1").readLatency, 208);
  EXPECT_EQ(entry(spec, "textureMem").readLatency, 600);
  EXPECT_EQ(entry(spec, "textureMem").path, "texture");
  EXPECT_EQ(entry(spec, "L2").upper, (V{"L1", "tL1"}));
  EXPECT_EQ(entry(spec, "L2").lower, (V{"globalMem", "textureMem"}));
}

TEST(MslFromGpu, K20cHasTheReadOnlyCacheAndNoL1OnGlobalLoads) {
  const MslSpec spec = mslFromGpu(testing_support::preset("k20c"));
  EXPECT_EQ(spec.find("L1"), nullptr);
  EXPECT_EQ(names(spec.hierarchy(Placement::Global)), (V{"L2", "globalMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::ReadOnly)), (V{"readOnly", "L2", "globalMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Texture)), (V{"tL1", "L2", "textureMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Constant)), (V{"cL1", "cL2", "constantMem"}));
  const MslMemory& ro = entry(spec, "readOnly");
  EXPECT_FALSE(ro.softwareManaged);
  EXPECT_FALSE(ro.writable);
  EXPECT_EQ(ro.scope, MslScope::Sm);
  EXPECT_EQ(ro.path, "texture");
  EXPECT_EQ(ro.size->total(), 48 * 1024);
  EXPECT_EQ(ro.readLatency, 103);
  EXPECT_EQ(entry(spec, "globalMem").blockSize->total(), 32);  // Kepler DRAM: sector
  EXPECT_EQ(spec.placementMemory(Placement::ReadOnly), &ro);
}

TEST(MslFromGpu, C1060HasNoCacheOnGlobal) {
  const MslSpec spec = mslFromGpu(testing_support::preset("c1060"));
  EXPECT_EQ(names(spec.hierarchy(Placement::Global)), (V{"globalMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Texture)), (V{"tL1", "tL2", "textureMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Constant)), (V{"cL1", "cL2", "constantMem"}));
  EXPECT_TRUE(spec.hierarchy(Placement::ReadOnly).empty());
  EXPECT_EQ(entry(spec, "sharedMem").banks, 16);
  EXPECT_EQ(entry(spec, "globalMem").blockSize->total(), 64);  // segment-cc1.2 approximated by 64-B lines
}

TEST(MslFromGpu, H100HasThePersistingL2AndTheUnifiedL1) {
  const MslSpec spec = mslFromGpu(testing_support::preset("h100"));
  EXPECT_EQ(spec.processor.tpcsPerDie, 132);
  EXPECT_DOUBLE_EQ(spec.processor.clockMhz.value_or(0), 1980);
  EXPECT_EQ(names(spec.hierarchy(Placement::Global)), (V{"L1", "L2", "globalMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::PersistingL2)), (V{"L1", "l2Persist", "globalMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::ReadOnly)), (V{"readOnly", "L2", "globalMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Texture)), (V{"tL1", "L2", "textureMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Constant)), (V{"constantMem"}));
  EXPECT_EQ(names(spec.hierarchy(Placement::Shared)), (V{"sharedMem"}));
  const MslMemory& persist = entry(spec, "l2Persist");
  EXPECT_TRUE(persist.softwareManaged);
  EXPECT_EQ(persist.size->total(), 50LL * 1024 * 1024 * 3 / 4);
  EXPECT_DOUBLE_EQ(persist.readLatency, 219.3);
  EXPECT_EQ(persist.path, "global");
  EXPECT_EQ(entry(spec, "readOnly").size->total(), 256 * 1024);  // mirrors the L1
  EXPECT_DOUBLE_EQ(entry(spec, "readOnly").readLatency, 34.2);
  EXPECT_EQ(entry(spec, "sharedMem").size->total(), 228 * 1024);
}

TEST(MslFromGpu, EveryPresetRoundTripsThroughWriteMsl) {
  for (const std::string& name : presetNames()) {
    SCOPED_TRACE(name);
    const MslSpec spec = mslFromGpu(testing_support::preset(name));
    ASSERT_FALSE(spec.memories.empty());
    EXPECT_FALSE(spec.hierarchy(Placement::Global).empty());
    EXPECT_FALSE(spec.hierarchy(Placement::Shared).empty());
    const std::string text = writeMsl(spec);
    const Expected<MslSpec> again = parseMsl(text, name + ".msl");
    ASSERT_TRUE(again.ok()) << again.error().format() << "\n" << text;
    expectSameSpec(spec, *again);
    MslSpec named = *again;
    named.gpu = spec.gpu;
    for (int i = 0; i < kNumPlacements; ++i) {
      const auto p = static_cast<Placement>(i);
      EXPECT_EQ(names(spec.hierarchy(p)), names(again->hierarchy(p))) << placementName(p);
    }
    EXPECT_EQ(writeMsl(named), text);
  }
}

}  // namespace
}  // namespace foresight
