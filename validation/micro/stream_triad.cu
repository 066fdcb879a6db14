// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: DRAM bandwidth. STREAM triad a = b + s * c with VEC consecutive floats per
// thread (VEC = 4 uses 16-byte loads and stores).
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef VEC
#define VEC 1
#endif

extern "C" __global__ void stream_triad(float* a, const float* b, const float* c, float s, int n) {
  int i = (blockIdx.x * BLOCK + threadIdx.x) * VEC;
  if (i + VEC > n) return;
#if VEC == 4
  float4 vb = *reinterpret_cast<const float4*>(b + i);
  float4 vc = *reinterpret_cast<const float4*>(c + i);
  *reinterpret_cast<float4*>(a + i) = make_float4(vb.x + s * vc.x, vb.y + s * vc.y, vb.z + s * vc.z, vb.w + s * vc.w);
#else
#pragma unroll
  for (int k = 0; k < VEC; ++k) a[i + k] = b[i + k] + s * c[i + k];
#endif
}
