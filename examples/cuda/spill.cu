// SPDX-License-Identifier: Apache-2.0
// Two kernels that use local memory. `spill` keeps 40 live accumulators under
// __launch_bounds__(256, 8) (at most 32 registers per thread), so ptxas spills registers
// ("spill stores/loads" in ptxas -v). `local_array` indexes a per-thread array with a run-time
// value, which therefore lives on the stack ("stack frame").
// foresight predict examples/cuda/spill.cu --kernel spill --grid 512 --block 256 --arg n=131072
#ifndef LEN
#define LEN 64
#endif
#define ACC 40

__global__ void __launch_bounds__(256, 8) spill(const float* in, float* out, int n) {
  float acc[ACC];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int a = 0; a < ACC; ++a) acc[a] = in[(i + a * 97) % n];
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int a = 0; a < ACC; ++a) acc[a] = acc[a] * acc[(a + 1) % ACC] + 1.0f;
  }
  float s = 0.0f;
#pragma unroll
  for (int a = 0; a < ACC; ++a) s += acc[a];
  out[i] = s;
}

__global__ void local_array(const float* in, float* out, int n, int k) {
  float buf[LEN];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = 0; j < LEN; ++j) {
    buf[j] = in[(i + j) % n];
  }
  out[i] = buf[(i + k) % LEN];
}
