// SPDX-License-Identifier: Apache-2.0
// Naive matrix transpose (CUDA SDK's simple copy-transpose): rows of `in` are read coalesced,
// `out` is written down columns. PORPLE's trans: the read array can go to the texture or
// read-only path, or be staged per block in shared memory.
// foresight place examples/place/transpose.cu --gpu k20c --grid 64,64 --block 16,16 --arg width=1024 --arg height=1024
__global__ void transpose_naive(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    out[x * height + y] = in[y * width + x];
  }
}
