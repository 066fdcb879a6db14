// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after ahmadsharif1/cuda_study micro_benchmarks/copy_bw.cu's copy kernel
// (its float4 instance with UNROLL = 4): the same computation and launch, not a copy. A
// grid-stride copy of float4 elements that takes UNROLL strides per step, loading all of a
// step's elements before storing them, then copies what is left one stride at a time.
#ifndef UNROLL
#define UNROLL 4
#endif

extern "C" __global__ void copy_bw(const float4* __restrict__ src, float4* __restrict__ dst, unsigned long long n) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = src[i + u * stride];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) dst[i + u * stride] = v[u];
  }
  for (; i < n; i += stride) dst[i] = src[i];
}
