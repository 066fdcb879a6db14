// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: memory latency. One thread per warp-slot follows next[] for STEPS dependent
// loads; the footprint (COUNT elements, stride 32 elements = 128 B) selects L1, L2 or DRAM.
#ifndef STEPS
#define STEPS 4096
#endif

extern "C" __global__ void pointer_chase(const int* next, int* out, int start) {
  int p = start + (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  for (int s = 0; s < STEPS; ++s) p = next[p];
  out[blockIdx.x * blockDim.x + threadIdx.x] = p;
}
