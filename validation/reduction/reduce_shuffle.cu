// SPDX-License-Identifier: Apache-2.0
// Warp-shuffle reduction: a grid-stride loop accumulates in registers, warps reduce with
// __shfl_down_sync, and one atomicAdd per warp commits to the single result.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void reduce_shuffle(const float* in, float* result, int n) {
  float acc = 0.0f;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) acc += in[i];
  for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(result, acc);
}
