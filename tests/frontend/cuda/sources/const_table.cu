// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): initialised module variables. nvcc emits `.const` / `.global`
// arrays and scalars with `= {…}` initialisers; the store's address comes from them, so it is
// exact only when their initial values are read: thread t stores to y[kOffset[t % 4] + 2t].
__constant__ int kOffset[4] = {0, 64, 128, 192};
__device__ int gScale = 2;
extern "C" __global__ void const_table(const float* x, float* y) {
  const int t = threadIdx.x;
  y[kOffset[t & 3] + t * gScale] = x[t];
}
