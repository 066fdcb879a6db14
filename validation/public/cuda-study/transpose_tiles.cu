// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after ahmadsharif1/cuda_study transpose/transpose.cu's two plain CUDA
// kernels (the same computations and launches, not a copy): out = in transposed, a width x height
// float matrix staged through a 32 x 32 shared tile per block. KIND picks the kernel:
//   0  "Basic": 32 x 8 threads, each copying 4 rows of the tile; the tile is not padded, so the
//      column reads of the second phase hit one bank 32 times;
//   1  "Vectorized": 8 x 32 threads, each loading one float4 of a tile row into a tile padded by
//      one float, and storing one float4 made of four tile rows.
// The sizes are size_t arguments, as in the original.
#ifndef KIND
#define KIND 0
#endif

constexpr int kTile = 32;
constexpr int kRows = 8;

extern "C" __global__ void transpose_tiles(float* out, const float* in, size_t width, size_t height) {
#if KIND == 0
  __shared__ float tile[kTile][kTile];
  size_t x = blockIdx.x * kTile + threadIdx.x;
  size_t y = blockIdx.y * kTile + threadIdx.y;
  for (int r = 0; r < kTile; r += kRows) {
    if (x < width && y + r < height) tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * width + x];
  }
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int r = 0; r < kTile; r += kRows) {
    if (x < height && y + r < width) out[(y + r) * height + x] = tile[threadIdx.x][threadIdx.y + r];
  }
#else
  __shared__ float tile[kTile][kTile + 1];
  size_t x = blockIdx.x * kTile + threadIdx.x * 4;
  size_t y = blockIdx.y * kTile + threadIdx.y;
  if (x + 3 < width && y < height) {
    const float4 v = *reinterpret_cast<const float4*>(&in[y * width + x]);
    tile[threadIdx.y][threadIdx.x * 4] = v.x;
    tile[threadIdx.y][threadIdx.x * 4 + 1] = v.y;
    tile[threadIdx.y][threadIdx.x * 4 + 2] = v.z;
    tile[threadIdx.y][threadIdx.x * 4 + 3] = v.w;
  } else if (x < width && y < height) {
    for (int e = 0; e < 4 && x + e < width; ++e) tile[threadIdx.y][threadIdx.x * 4 + e] = in[y * width + x + e];
  }
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x * 4;
  y = blockIdx.x * kTile + threadIdx.y;
  const int c = threadIdx.x * 4, r = threadIdx.y;
  if (x + 3 < height && y < width) {
    *reinterpret_cast<float4*>(&out[y * height + x]) = make_float4(tile[c][r], tile[c + 1][r], tile[c + 2][r], tile[c + 3][r]);
  } else if (x < height && y < width) {
    for (int e = 0; e < 4 && x + e < height; ++e) out[y * height + x + e] = tile[c + e][r];
  }
#endif
}
