// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after te42kyfo/gpu-benches gpu-small-kernels/main.cu (commit c35574e):
// the SCALE kernel over doubles, one element per thread, grid = size / BLOCK + 1, not a copy.
// The benchmark launches it back to back, alternating the two arrays (A = 0.25 B, then
// B = 0.25 A), and prints the bandwidth of one launch.
extern "C" __global__ void small_scale(double* __restrict__ A, const double* __restrict__ B, int size) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= size) return;
  A[t] = B[t] * 0.25;
}
