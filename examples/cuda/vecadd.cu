// SPDX-License-Identifier: Apache-2.0
// Vector addition: c[i] = a[i] + b[i]. One thread per element, fully coalesced.
// foresight predict examples/cuda/vecadd.cu --gpu h100 --grid 4096 --block 256 --arg n=1048576
__global__ void vecadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}
