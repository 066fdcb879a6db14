// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after yencal/gpu-matrix-transpose's kernels (transpose_kernels.cuh) and
// the float4 coarsened kernel its blog post lists in full (yencal/yencal.github.io,
// _posts/2025-12-24-gpu-matrix-transpose-optimization.md): the same computations and launches,
// not a copy. out = in^T for an n x n row-major float matrix; every launch here has n a multiple
// of the tile (the bounds tests of the original stay in). KIND picks the kernel, compiled under
// one name; a block has TILE / VEC x BR threads and handles a TILE x TILE tile:
//   0  naive: one element per thread, read along a row, written down a column (BR = TILE);
//   1  the tile staged in shared memory [TILE][TILE], read back along its columns (BR = TILE);
//   2  as 1 with the rows padded to TILE + 1 floats;
//   3  as 2, each thread moving TILE / BR rows (loops of stride BR);
//   4  one float2 (VEC = 2) or float4 (VEC = 4) per thread read along a row, unpacked into the
//      padded tile, gathered and written as a vector (BR = TILE);
//   6  as 4 with float4, each thread moving TILE / BR rows (loops of stride BR, unrolled).
#ifndef KIND
#define KIND 0
#endif
#ifndef TILE
#define TILE 32
#endif
#ifndef BR
#define BR TILE
#endif
#ifndef VEC
#define VEC 1
#endif
#if VEC == 4
#define VEC_T float4
#else
#define VEC_T float2
#endif

extern "C" __global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int n) {
#if KIND == 0
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) out[x * n + y] = in[y * n + x];
#elif KIND == 1 || KIND == 2
  __shared__ float tile[TILE][TILE + (KIND == 2 ? 1 : 0)];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * blockDim.x + threadIdx.x;
  y = blockIdx.x * blockDim.y + threadIdx.y;
  if (x < n && y < n) out[y * n + x] = tile[threadIdx.x][threadIdx.y];
#elif KIND == 3
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += BR) tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += BR) out[(y + r) * n + x] = tile[threadIdx.x][threadIdx.y + r];
#elif KIND == 4
  // One vector of VEC floats per thread (float2 or float4, two kernels in the original).
  typedef VEC_T vec_t;
  __shared__ float tile[TILE][TILE + 1];
  const int w = n / VEC;
  int x = blockIdx.x * (TILE / VEC) + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < n) {
    const vec_t v = reinterpret_cast<const vec_t*>(in)[y * w + x];
    const float* f = reinterpret_cast<const float*>(&v);
#pragma unroll
    for (int k = 0; k < VEC; ++k) tile[threadIdx.y][VEC * threadIdx.x + k] = f[k];
  }
  __syncthreads();
  x = blockIdx.y * (TILE / VEC) + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < w && y < n) {
    vec_t v;
    float* f = reinterpret_cast<float*>(&v);
#pragma unroll
    for (int k = 0; k < VEC; ++k) f[k] = tile[VEC * threadIdx.x + k][threadIdx.y];
    reinterpret_cast<vec_t*>(out)[y * w + x] = v;
  }
#else
  __shared__ float tile[TILE][TILE + 1];
  const int w = n / 4;
  int x = blockIdx.x * (TILE / 4) + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
  for (int r = 0; r < TILE; r += BR) {
    const float4 v = reinterpret_cast<const float4*>(in)[(y + r) * w + x];
    tile[threadIdx.y + r][4 * threadIdx.x] = v.x;
    tile[threadIdx.y + r][4 * threadIdx.x + 1] = v.y;
    tile[threadIdx.y + r][4 * threadIdx.x + 2] = v.z;
    tile[threadIdx.y + r][4 * threadIdx.x + 3] = v.w;
  }
  __syncthreads();
  x = blockIdx.y * (TILE / 4) + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
  for (int r = 0; r < TILE; r += BR) {
    float4 v;
    v.x = tile[4 * threadIdx.x][threadIdx.y + r];
    v.y = tile[4 * threadIdx.x + 1][threadIdx.y + r];
    v.z = tile[4 * threadIdx.x + 2][threadIdx.y + r];
    v.w = tile[4 * threadIdx.x + 3][threadIdx.y + r];
    reinterpret_cast<float4*>(out)[(y + r) * w + x] = v;
  }
#endif
}
