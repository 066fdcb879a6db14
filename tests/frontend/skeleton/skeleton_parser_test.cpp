// SPDX-License-Identifier: Apache-2.0
/// \file
/// The skeleton grammar: the paper's listings parse unchanged (as restated in grophecy.md §2.2),
/// names and subscripts resolve as documented, and errors name file:line:column and what was
/// expected.
#include "foresight/frontend/skeleton/skeleton_parser.h"

#include <gtest/gtest.h>

#include "skeleton_test_util.h"

namespace foresight::skeleton {
namespace {

using namespace testing_util;

const Stmt* findLoop(const std::vector<Stmt>& body) {
  for (const Stmt& s : body) {
    if (s.kind == StmtKind::Loop) return &s;
  }
  return nullptr;
}

TEST(SkeletonParser, MatmulListing2) {
  const Skeleton sk = matmul();
  EXPECT_EQ(sk.name, "matmul");
  ASSERT_EQ(sk.arrays.size(), 3u);
  EXPECT_EQ(sk.arrays[0].dims, (std::vector<long long>{800, 400}));
  EXPECT_EQ(sk.arrays[1].dims, (std::vector<long long>{400, 800}));
  EXPECT_EQ(sk.parallelDims, 2);
  EXPECT_EQ(sk.loopSpaceSize(), 640000);
  ASSERT_EQ(sk.body.size(), 4u);  // comp, stream, comp, st
  const Stmt* k = findLoop(sk.body);
  ASSERT_NE(k, nullptr);
  const Var& kv = sk.vars[k->var];
  EXPECT_EQ(kv.kind, VarKind::Stream);
  EXPECT_EQ(kv.trip, 400);
  ASSERT_EQ(k->body.size(), 3u);
  const Ref& a = k->body[0].ref;  // A[i][k]
  EXPECT_EQ(a.dims[0].affine.terms, (std::vector<std::pair<int, long long>>{{0, 1}}));
  EXPECT_EQ(a.dims[1].affine.terms, (std::vector<std::pair<int, long long>>{{k->var, 1}}));
}

TEST(SkeletonParser, IspinExListing4) {
  Expected<Skeleton> sk = parseSkeleton(kIspinEx, "ispinex.sk");
  ASSERT_TRUE(sk.ok()) << sk.error().format();
  EXPECT_EQ(sk->macros.at("ELEMS"), 1848);
  EXPECT_EQ(sk->arrays[0].dims, (std::vector<long long>{133}));  // J[ROWS+1]
  EXPECT_EQ(sk->arrays[3].dims, (std::vector<long long>{132, 2048, 2}));
  const Stmt* n = findLoop(sk->body);
  ASSERT_NE(n, nullptr);
  const Var& nv = sk->vars[n->var];
  EXPECT_TRUE(nv.dataBounds);
  EXPECT_EQ(nv.trip, 14);
  EXPECT_EQ(nv.boundDeps & 1, 1u);  // begin = J[j]: the bounds depend on j
  // ld B[r][i][0]: r = I[n] is indirect, depending on n (and, through n's bounds, on j).
  const Ref& b = n->body[3].ref;  // after ld T, ld I and the bind r = I[n]
  ASSERT_TRUE(b.dims[0].indirect);
  EXPECT_EQ(sk->arrays[b.dims[0].indirect->array].name, "I");
  EXPECT_EQ(b.dims[0].deps, (VarMask{1} << n->var) | 1u);
}

TEST(SkeletonParser, IspinExModifiedListing5) {
  Expected<Skeleton> sk = parseSkeleton(kIspinExSplit, "ispinex-split.sk");
  ASSERT_TRUE(sk.ok()) << sk.error().format();
  EXPECT_EQ(sk->arrays[3].dims, (std::vector<long long>{132, 4096}));
}

TEST(SkeletonParser, SpinFlapListing6) {
  Expected<Skeleton> sk = parseSkeleton(kSpinFlap, "spinflap.sk");
  ASSERT_TRUE(sk.ok()) << sk.error().format();
  const Array& m = sk->arrays[3];
  EXPECT_EQ(m.dims, (std::vector<long long>{512, 4}));  // COLS/4
  EXPECT_EQ(m.sampleFile, ".M.txt");
  EXPECT_EQ(sk->extent(1), 512);
  // Two loops named n, each its own variable.
  int loops = 0;
  for (const Var& v : sk->vars) loops += v.name == "n";
  EXPECT_EQ(loops, 2);
  const Stmt* first = findLoop(sk->body);
  const Ref& a = first->body[1].ref;  // A[j][M[i][n]][0]
  ASSERT_TRUE(a.dims[1].indirect);
  EXPECT_EQ(a.dims[1].vars, (VarMask{1} << 1) | (VarMask{1} << first->var));  // i and n
}

TEST(SkeletonParser, ExtensionsBranchStrideAndRangeHint) {
  const char* text = R"(#define N 64
int I[N] : hints<range=0:16>
float X[N]; float Y[N]
parallel_for(N) : i {
  for k = 0:N:4 { ld X[k] }
  branch 2 prob 0.25 { ld Y[i]; comp 7 }
  ld Y[I[i]]
}
)";
  Expected<Skeleton> sk = parseSkeleton(text, "ext.sk");
  ASSERT_TRUE(sk.ok()) << sk.error().format();
  EXPECT_EQ(sk->arrays[0].indexRange, (std::pair<long long, long long>{0, 16}));
  EXPECT_EQ(sk->vars[1].step, 4);
  EXPECT_EQ(sk->vars[1].trip, 16);  // 0, 4, ..., 60
  const Stmt& br = sk->body[1];
  EXPECT_EQ(br.kind, StmtKind::Branch);
  EXPECT_EQ(br.count, 2);
  EXPECT_DOUBLE_EQ(br.prob, 0.25);
  EXPECT_EQ(br.body.size(), 2u);
}

TEST(SkeletonParser, MinusDOverridesDefine) {
  Expected<Skeleton> sk = parseSkeleton("#define N 10\nfloat A[N]\nparallel_for(N) : i { ld A[i] }",
                                        "d.sk", {.macros = {{"N", 99}}});
  ASSERT_TRUE(sk.ok());
  EXPECT_EQ(sk->extent(0), 99);
}

/// Errors: the message and the exact file:line:column.
struct ErrorCase {
  const char* text;
  const char* expected;  ///< Error::format()
};

class SkeletonParserError : public testing::TestWithParam<ErrorCase> {};

TEST_P(SkeletonParserError, NamesFileLineColumnAndWhatWasExpected) {
  Expected<Skeleton> sk = parseSkeleton(GetParam().text, "bad.sk");
  ASSERT_FALSE(sk.ok());
  EXPECT_EQ(sk.error().format(), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SkeletonParserError,
    testing::Values(
        ErrorCase{
            "float A[N]\nparallel_for(4) : i { }",
            "bad.sk:1:9: error: 'N' is not defined (add '#define N <value>' or pass -D N=<value>)"},
        ErrorCase{
            "float A[4]\nparallel_for(4) : i {\n  ld A[i]\n  stream k = 0:4 {\n    comp 2\n  \n}",
            "bad.sk:7:2: error: expected '}' to close the block, found end of file"},
        ErrorCase{"float A[4]\nparallel_for(4) : i {\n  ld A[i][0]\n}",
                  "bad.sk:3:6: error: array 'A' has 1 dimensions but is subscripted with 2"},
        ErrorCase{"float A[4]\nparallel_for(4) : i {\n  ld Q[i]\n}",
                  "bad.sk:3:6: error: 'Q' is not a declared array; did you mean 'A'?"},
        ErrorCase{"float A[4]\nparallel_for(4) : i {\n  comp\n}",
                  "bad.sk:4:1: error: expected an instruction count after 'comp', found '}'"},
        ErrorCase{"flaot A[4]\n",
                  "bad.sk:1:1: error: expected '#define', an array declaration (float, int, "
                  "double, ...) or 'parallel_for', found name 'flaot'; did you mean 'float'?"},
        ErrorCase{"int J[5]\nfloat A[4]\nparallel_for(4) : i {\n  b = J[i]\n  stream k = b:4 { ld "
                  "A[k] }\n}",
                  "bad.sk:5:3: error: the bounds of loop 'k' depend on data or on other loop "
                  "indices; give its "
                  "mean trip count with (hint: N)"},
        ErrorCase{"float A[4][4]\nparallel_for(4, 4) : i, j {\n  ld A[i*j][0]\n}",
                  "bad.sk:3:9: error: a product of two variables is not affine; one factor must be "
                  "a constant"},
        ErrorCase{"float A[4]\nparallel_for(4, 4) : i {\n}",
                  "bad.sk:2:1: error: parallel_for has 2 extents but 1 index names"},
        ErrorCase{"float A[4]\nparallel_for(4) : i {\n  lod A[i]\n}",
                  "bad.sk:3:3: error: expected a statement (comp, ld, st, for, stream, branch or "
                  "NAME = ...), "
                  "found name 'lod'; did you mean 'ld'?"},
        ErrorCase{"float A[4] : hints<smaple=\"x\">\nparallel_for(4) : i { }",
                  "bad.sk:1:20: error: unknown array hint 'smaple' (known: sample, range); did you "
                  "mean 'sample'?"},
        ErrorCase{"float A[4] @\n", "bad.sk:1:12: error: unexpected character '@'"}));


// Inputs that used to overflow the stack (issue 14): nesting is limited to 200 levels, which
// no real skeleton comes near, so that parsing and every walk of the tree stay shallow.
TEST(SkeletonParserLimits, DeepNestingIsAnErrorNotACrash) {
  const std::string parens = "#define N 4\nfloat A[N]\nparallel_for(N) : i {\n  ld A[" + std::string(100000, '(') + "i" +
                             std::string(100000, ')') + "]\n}\n";
  Expected<Skeleton> deep = parseSkeleton(parens, "deep.sk");
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().message, "nested deeper than 200 levels");
  std::string chain = "#define N 4\nfloat A[N]\nparallel_for(N) : i {\n  ld A[i";
  for (int k = 0; k < 100000; ++k) chain += "+0";
  Expected<Skeleton> longChain = parseSkeleton(chain + "]\n}\n", "chain.sk");
  ASSERT_FALSE(longChain);
  EXPECT_EQ(longChain.error().message, "expression nests deeper than 200 levels");
  std::string blocks = "#define N 4\nfloat A[N]\nparallel_for(N) : i {\n";
  for (int k = 0; k < 100000; ++k) blocks += "for j" + std::to_string(k) + " = 0:2 {\n";
  Expected<Skeleton> nestedLoops = parseSkeleton(blocks, "loops.sk");
  ASSERT_FALSE(nestedLoops);
  EXPECT_EQ(nestedLoops.error().message, "nested deeper than 200 levels");
  // 150 levels are fine.
  const std::string ok = "#define N 4\nfloat A[N]\nparallel_for(N) : i {\n  ld A[" + std::string(150, '(') + "i" +
                         std::string(150, ')') + "]\n}\n";
  EXPECT_TRUE(parseSkeleton(ok, "ok.sk"));
}

TEST(SkeletonParserLimits, IntegerOverflowIsAnError) {
  // Found by the skeleton fuzz target: affine arithmetic overflowed (undefined behaviour).
  Expected<Skeleton> sk = parseSkeleton("#define N 7777777777777777777\nfloat A[N]\nparallel_for(N) : i {\n  ld A[N * 7777]\n}\n", "big.sk");
  ASSERT_FALSE(sk);
  EXPECT_EQ(sk.error().format(), "big.sk:4:10: error: integer overflow: the expression does not fit in 64 bits");
}

}  // namespace
}  // namespace foresight::skeleton
