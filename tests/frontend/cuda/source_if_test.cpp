// SPDX-License-Identifier: Apache-2.0
// Reading the `if` on a source line (source_if.h): what its body is, for `--branch`.
#include <gtest/gtest.h>

#include "foresight/frontend/cuda/source_if.h"

namespace foresight::cuda {
namespace {

TEST(SourceIf, BodyKinds) {
  const char* src =
      "__global__ void k(int* a, const int* m, int n) {\n"   // 1
      "  int t = threadIdx.x;\n"                             // 2
      "  if (t >= n) return;\n"                              // 3: a return
      "  if (m[t] &&\n"                                      // 4: condition over two lines,
      "      m[t + 1]) {\n"                                  // 5
      "    return;\n"                                        // 6: a return alone in braces
      "  }\n"                                                // 7
      "  if (m[t]) {\n"                                      // 8: a block
      "    a[t] = 1;\n"                                      // 9
      "  } else if (m[t] > 2) continue;\n"                   // 10: else if, continue
      "  // if (t) return;\n"                                // 11: a comment
      "  a[t] = m[t] ? 1 : 2;\n"                             // 12: a select, no if
      "  if (m[t] == ')') { a[t] = 0; return; }\n"           // 13: a literal ')', body not a jump
      "  if (t) goto done;\n"                                // 14: goto
      "  if (t)\n"                                           // 15: body on the next line
      "    break;\n"                                         // 16
      "  if (t) return t;\n"                                 // 17: returns a value: not a kernel's jump
      "  iff(t); notif (t) return;\n"                        // 18: identifiers containing "if"
      "}\n";
  EXPECT_EQ(ifBodyAt(src, 3), IfBody::kReturn);
  EXPECT_EQ(ifBodyAt(src, 4), IfBody::kReturn);
  EXPECT_EQ(ifBodyAt(src, 8), IfBody::kStatement);
  EXPECT_EQ(ifBodyAt(src, 10), IfBody::kContinue);
  EXPECT_EQ(ifBodyAt(src, 11), IfBody::kNone);
  EXPECT_EQ(ifBodyAt(src, 12), IfBody::kNone);
  EXPECT_EQ(ifBodyAt(src, 13), IfBody::kStatement);
  EXPECT_EQ(ifBodyAt(src, 14), IfBody::kContinue);
  EXPECT_EQ(ifBodyAt(src, 15), IfBody::kBreak);
  EXPECT_EQ(ifBodyAt(src, 17), IfBody::kStatement);
  EXPECT_EQ(ifBodyAt(src, 18), IfBody::kNone);
  EXPECT_EQ(ifBodyAt(src, 0), IfBody::kNone);
  EXPECT_EQ(ifBodyAt(src, 99), IfBody::kNone);
}

}  // namespace
}  // namespace foresight::cuda
