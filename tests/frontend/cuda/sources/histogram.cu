// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): a histogram of data-dependent keys. atomicAdd comes inlined
// from the CUDA headers (the PTX's .loc says inlined_at line 9) and its result is unused, so
// sm_90 SASS has a REDG where the PTX has atom.global.add.u32.
extern "C" __global__ void histogram(const int* keys, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = keys[i];
    atomicAdd(&bins[k], 1u);
  }
}
