// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): gpu-benches' gpu-roofline loop at two steps per element (written
// fresh), where ptxas clears the loop counter and the accumulator together with
// `CS2R R6, SRZ` (a register pair) and reads a[e] and a[e + 1] as [R+0x400] / [R+-0x400]
// pairs. Thread t of block b reads a[t + b * 256 * 4000 + e * 256] and b[...] for e < 4000.
extern "C" __global__ void cleared_counter(const float* __restrict__ a, const float* __restrict__ b, float* c) {
  const float* pa = a + threadIdx.x + blockIdx.x * 256 * 4000;
  const float* pb = b + threadIdx.x + blockIdx.x * 256 * 4000;
  float acc = 0.0f;
#pragma unroll 1
  for (int e = 0; e < 4000; e += 2) {
    const float x0 = pa[e * 256], y0 = pb[e * 256];
    const float x1 = pa[(e + 1) * 256], y1 = pb[(e + 1) * 256];
    float u = x0 - y0, w = x1 - y1;
    for (int k = 0; k < 2; k++) {
      u = u * x0 - y0;
      w = w * x1 - y1;
    }
    acc += u + w;
  }
  if (threadIdx.x == 0) c[blockIdx.x] = acc;
}
