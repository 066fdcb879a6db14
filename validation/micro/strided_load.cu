// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: coalescing. Lane i of a warp reads in[i * STRIDE]: STRIDE = 1 touches 4
// sectors per warp request, STRIDE >= 8 touches 32 (one per lane). The same number of useful
// floats is read in every variant.
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef STRIDE
#define STRIDE 1
#endif

extern "C" __global__ void strided_load(const float* in, float* out, int n) {
  long i = (long)blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = in[(i * STRIDE) % ((long)n * STRIDE)];
}
