// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): a frontier test on loaded data around the whole body (Rodinia
// BFS's `if (tid < n && mask[tid])`, written fresh). ptxas turns the data-dependent test into a
// predicated EXIT, the PTX into a branch to the exit block: one hint on line 9 decides both.
extern "C" __global__ void data_exit(const int* mask, const float* x, float* y, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const int m = mask[v];
  if (m) {
    const float a = x[v];
    const float b = x[v + n];
    y[v] = a * b + 1.0f;
    y[v + n] = a - b;
  }
}
