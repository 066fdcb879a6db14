// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): as predicated_store.cu, but the if-converted body is on the line
// after the `if`, so a branch hint on the `if` line (8) does not name the predicated store (9).
extern "C" __global__ void predicated_body(double* a, const double* __restrict__ b, int n) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= n) return;
  const double v = b[t];
  if (v == 123.33)
    a[t] = v;
  if (threadIdx.x > 1100) a[t + 1] = 1.0;
}
