// SPDX-License-Identifier: Apache-2.0
// 2D convolution of a w×h single-channel image with a 5×5 filter in constant memory (the
// border is skipped): one output pixel per thread, 25 FFMA over 25 cached global loads. Two
// flops per load: a stencil, bound by the load path and DRAM, far from any GEMM bound.
// foresight bound examples/bound/conv2d.cu --kernel conv2d --gpu h100 \
//   --grid 128,256 --block 32,8 --arg w=4096 --arg h=2048
#define R 2

__constant__ float filter[2 * R + 1][2 * R + 1];

__global__ void conv2d(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < R || y < R || x >= w - R || y >= h - R) return;
  float sum = 0.0f;
#pragma unroll
  for (int dy = -R; dy <= R; ++dy)
#pragma unroll
    for (int dx = -R; dx <= R; ++dx) sum += filter[dy + R][dx + R] * in[(y + dy) * w + (x + dx)];
  out[y * w + x] = sum;
}
