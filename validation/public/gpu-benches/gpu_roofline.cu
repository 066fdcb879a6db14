// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after te42kyfo/gpu-benches gpu-roofline/main.cu (`testfun`): the same
// computation and launch, not a copy. Each thread walks M elements of two arrays, BLOCK apart,
// two at a time; per pair it runs N dependent multiply-subtract steps on each of two chains, then
// accumulates. One float per block is written. N sets the flops per byte: (2 + 2N) / 8.
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef M
#define M 4000
#endif
#ifndef N
#define N 0
#endif

extern "C" __global__ void gpu_roofline(const float* __restrict__ a, const float* __restrict__ b,
                                        float* c) {
  const float* pa = a + threadIdx.x + blockIdx.x * BLOCK * M;
  const float* pb = b + threadIdx.x + blockIdx.x * BLOCK * M;
  float acc = 0.0f;
#pragma unroll 1
  for (int e = 0; e < M; e += 2) {
    const float x0 = pa[e * BLOCK];
    const float y0 = pb[e * BLOCK];
    const float x1 = pa[(e + 1) * BLOCK];
    const float y1 = pb[(e + 1) * BLOCK];
    float u = x0 - y0;
    float w = x1 - y1;
    for (int k = 0; k < N; k++) {
      u = u * x0 - y0;
      w = w * x1 - y1;
    }
    acc += u + w;
  }
  if (threadIdx.x == 0) c[blockIdx.x] = acc;
}
