// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): strided reads of two arrays whose 64-bit addresses nvcc builds
// from a 32-bit index with SHF.L.U64.HI for the high word and IADD3 / IADD3.X carries (the
// pattern of te42kyfo/gpu-benches' gpu-roofline loop, written fresh). Thread t of block b reads
// a[t + b * 256 * 4000 + e * 256] and b[...] for e < 4000, two elements per iteration, with
// STEPS dependent multiply-subtract steps per element.
#ifndef STEPS
#define STEPS 64
#endif
extern "C" __global__ void wide_stride(const float* __restrict__ a, const float* __restrict__ b, float* c) {
  const float* pa = a + threadIdx.x + blockIdx.x * 256 * 4000;
  const float* pb = b + threadIdx.x + blockIdx.x * 256 * 4000;
  float acc = 0.0f;
#pragma unroll 1
  for (int e = 0; e < 4000; e += 2) {
    const float x0 = pa[e * 256], y0 = pb[e * 256];
    const float x1 = pa[(e + 1) * 256], y1 = pb[(e + 1) * 256];
    float u = x0 - y0, w = x1 - y1;
    for (int k = 0; k < STEPS; k++) {
      u = u * x0 - y0;
      w = w * x1 - y1;
    }
    acc += u + w;
  }
  if (threadIdx.x == 0) c[blockIdx.x] = acc;
}
