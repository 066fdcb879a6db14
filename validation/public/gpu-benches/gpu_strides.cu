// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after te42kyfo/gpu-benches gpu-strides/main.cu (strideKernel and
// blockKernel): the same computation and launch, not a copy. One block of 1024 threads reads,
// ITEMS / 8 times, eight elements at fixed offsets from its own pointer: MODE 0 puts thread t at
// (t % 64) x ARG elements, MODE 1 arranges the block as (BX, 1024 / BX) threads over rows ARG
// elements apart. The pointer moves by `zero` (0 at run time) every step, so the loads repeat and
// hit in L1: the time is the L1's per-request cost. DOUBLE 1 reads doubles, 0 floats. (main.cu
// gives the block kernel __launch_bounds__(1024); both compile to well under 64 registers.)
#ifndef DOUBLE
#define DOUBLE 0
#endif
#ifndef MODE
#define MODE 0
#endif
#ifndef ITEMS
#define ITEMS (18 * 64 * 1024)
#endif

#if DOUBLE
typedef double real;
#else
typedef float real;
#endif

extern "C" __global__ void gpu_strides(real* a, real* out, int zero, int arg) {
#if MODE == 0
  const real* p = a + (threadIdx.x % 64) * arg;
#else
  const real* p = a + threadIdx.x % 64 + (threadIdx.y % 32) * arg + arg;
#endif
  real sum = 0;
#pragma unroll 1
  for (int n = 0; n < ITEMS; n += 8) {
    p += zero;
    sum += p[0] * p[4];
    sum += p[8] * p[12];
    sum += p[20] * p[16];
    sum += p[24] * p[28];
  }
  if (sum == static_cast<real>(123123.23)) out[threadIdx.x] = sum;
}
