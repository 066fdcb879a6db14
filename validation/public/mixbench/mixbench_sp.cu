// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after ekondis/mixbench (the CUDA benchmark_func of the "grid strided",
// four-register version whose printed rates match results/CUDA/TeslaK20c.txt): the same
// computation and launch, not a copy. Single precision. Per outer step (COMP / UNROLL of them)
// a thread does UNROLL - MR steps of four dependent-pair multiply-adds on r0..r3, then MR memory
// operations alternating a store of one register to the upper half of the array and a load into
// it from the lower half, the index advancing by the grid size after each load and wrapping.
// MR = 32 is memory only, MR = 0 compute only.
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef MR
#define MR 0
#endif
#define COMP 8192
#define UNROLL 32
#define HALF_ACCESSES (UNROLL / 2)

extern "C" __global__ void mixbench_sp(float seed, volatile float* data) {
  const int stride = BLOCK * gridDim.x;
  const int base = blockIdx.x * BLOCK + threadIdx.x;
  const int half = gridDim.x * BLOCK * HALF_ACCESSES;
  const int slips = 1 + HALF_ACCESSES - ((MR + 1) / 2);
  const int bound = base + slips * stride;
  int idx = base;
  float r[4];
  r[0] = seed;
  r[1] = r[0] + 31.0f;
  r[2] = r[0] + 37.0f;
  r[3] = r[0] + 41.0f;
  for (int j = 0; j < COMP; j += UNROLL) {
#pragma unroll
    for (int i = 0; i < UNROLL - MR; i++) {
      r[0] = r[0] * r[0] + r[1];
      r[1] = r[1] * r[1] + r[2];
      r[2] = r[2] * r[2] + r[3];
      r[3] = r[3] * r[3] + r[0];
    }
#pragma unroll
    for (int i = 0; i < MR; i++) {
      const int reg = (i / 2) % 4;
      if (i % 2 == 0) {
        data[idx + half] = r[reg];
      } else {
        r[reg] = data[idx];
        idx += stride;
      }
    }
    if (idx >= bound) idx = base;
  }
  if (r[0] == __int_as_float(0x7f800000) && r[1] == __int_as_float(0x7f800000) &&
      r[2] == __int_as_float(0x7f800000) && r[3] == __int_as_float(0x7f800000)) {
    data[0] = r[0] + r[1] + r[2] + r[3];
  }
}
