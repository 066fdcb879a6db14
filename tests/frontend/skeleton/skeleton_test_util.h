// SPDX-License-Identifier: Apache-2.0
/// \file
/// Shared fixtures of the skeleton tests: the paper's listings as restated in grophecy.md §2.2
/// (verbatim, so "parse unchanged" is tested on the digest's text) and GPU loading.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "foresight/frontend/skeleton/skeleton_parser.h"
#include "foresight/gpu/presets.h"

namespace foresight::skeleton::testing_util {

/// Listing 2 (MatMul); N, K, M come from -D as the digest's listing defines none.
inline const char* kMatmul = R"(float A[N][K]; float B[K][M]; float C[N][M]
parallel_for(N, M) : i, j {
  comp 1                      // setup (e.g. sum = 0)
  stream k = 0:K {            // streaming reduction loop
    ld A[i][k]
    ld B[k][j]
    comp 3                    // multiply-add and index arithmetic
  }
  comp 5
  st C[i][j]
}
)";

/// Listing 4 (IspinEx baseline).
inline const char* kIspinEx = R"(#define ELEMS 1848   #define ROWS 132   #define COLS 2048
int J[ROWS+1]; int I[ELEMS]; float T[ELEMS]
float B[ROWS][COLS][2]; float C[ROWS][COLS][2]         // [2] = re, im interleaved
parallel_for(ROWS, COLS) : j, i {
  ld J[j]; ld J[j+1]; begin = J[j]; end = J[j+1]
  comp 4
  stream n = begin:end (hint:14) {     // data-dependent bounds: the hint gives the mean trip count,
    ld T[n]; ld I[n]; r = I[n]         // and non-constant bounds disable unrolling
    ld B[r][i][0]; ld B[r][i][1]       // indirect row r
    comp 22
  }
  comp 2
  st C[j][i][0]; st C[j][i][1]
}
)";

/// Listing 5 (IspinEx modified): split real and imaginary parts.
inline const char* kIspinExSplit = R"(#define ELEMS 1848   #define ROWS 132   #define COLS 4096
int J[ROWS+1]; int I[ELEMS]; float T[ELEMS]
float B[ROWS][COLS]; float C[ROWS][COLS]
parallel_for(ROWS, COLS) : j, i {
  ld J[j]; ld J[j+1]; begin = J[j]; end = J[j+1]
  comp 4
  stream n = begin:end (hint:14) {
    ld T[n]; ld I[n]; r = I[n]
    ld B[r][i]
    comp 11
  }
  comp 2
  st C[j][i]
}
)";

/// Listing 6 (SpinFlap).
inline const char* kSpinFlap = R"(#define ROWS 132   #define COLS 2048
float A[ROWS][COLS][2]; float B[ROWS][COLS][2]; float C[ROWS][COLS][2]
int M[COLS/4][4] : hints<sample=".M.txt">      // index data; a sample file is given for coalescing
parallel_for(ROWS, COLS/4) : j, i {
  for n = 0:4 {
    ld M[i][n]
    ld A[j][M[i][n]][0]; ld A[j][M[i][n]][1]
    ld B[j][M[i][n]][0]; ld B[j][M[i][n]][1]
    comp 56
  }
  comp 228
  for n = 0:4 { st C[j][M[i][n]][0]; st C[j][M[i][n]][1] }
}
)";

/// MatMul at the paper's size (800×400×800).
inline Skeleton matmul() {
  Expected<Skeleton> sk =
      parseSkeleton(kMatmul, "matmul.sk", {.macros = {{"N", 800}, {"K", 400}, {"M", 800}}});
  EXPECT_TRUE(sk.ok()) << (sk.ok() ? "" : sk.error().format());
  return std::move(sk).value();
}

inline Gpu gpu(const char* name) {
  Expected<Gpu> g = loadPreset(name);
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().format());
  return std::move(g).value();
}

}  // namespace foresight::skeleton::testing_util
