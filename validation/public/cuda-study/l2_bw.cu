// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after ahmadsharif1/cuda_study micro_benchmarks/l2_bw.cu's copy_l2 kernel
// (its UNROLL = 8 instance; the same computation and launch, not a copy): a grid-stride copy of
// floats that loads and stores through L2 only (ld.global.cg / st.global.cg, L1 bypassed), taking
// UNROLL strides per step, all of a step's loads before its stores, then one stride at a time.
#ifndef UNROLL
#define UNROLL 8
#endif

extern "C" __global__ void l2_bw(const float* __restrict__ src, float* __restrict__ dst, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
    float v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = __ldcg(src + i + u * stride);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) __stcg(dst + i + u * stride, v[u]);
  }
  for (; i < n; i += stride) __stcg(dst + i, __ldcg(src + i));
}
