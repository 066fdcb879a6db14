// SPDX-License-Identifier: Apache-2.0
// Rodinia-like BACKPROP: the layer-forward kernel (16x16 blocks multiply input by weights and
// reduce each column in shared memory) and the weight-adjust kernel.
#define WIDTH 16
#define HEIGHT 16

extern "C" __global__ void bp_layerforward(const float* input, const float* weights, float* partial, int in, int hid) {
  __shared__ float node[HEIGHT];
  __shared__ float w[HEIGHT][WIDTH];
  int by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = HEIGHT * by + ty + 1;
  if (tx == 0) node[ty] = input[row];
  __syncthreads();
  w[ty][tx] = weights[row * (hid + 1) + tx + 1] * node[ty];
  __syncthreads();
  for (int s = 1; s < HEIGHT; s *= 2) {
    if (ty % (2 * s) == 0) w[ty][tx] += w[ty + s][tx];
    __syncthreads();
  }
  if (ty == 0) partial[by * hid + tx] = w[0][tx];
}

extern "C" __global__ void bp_adjust(const float* delta, int hid, const float* ly, int in, float* w, float* oldw) {
  int by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = HEIGHT * by + ty + 1;
  int idx = row * (hid + 1) + tx + 1;
  float d = 0.3f * delta[tx + 1] * ly[row] + 0.3f * oldw[idx];
  w[idx] += d;
  oldw[idx] = d;
}
