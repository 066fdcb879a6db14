// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): a data-dependent `if` that nvcc if-converts into a predicated
// store (gpu-benches' cuda-stream "read" kernel pattern, written fresh): the store's guard
// depends on a loaded value, so only a branch hint on its line says which lanes store. The last
// line (never true for blocks of up to 1024 threads) keeps nvcc from exiting early instead.
extern "C" __global__ void predicated_store(double* a, const double* __restrict__ b, int n) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= n) return;
  const double v = b[t];
  if (v == 123.33) a[t] = v;
  if (threadIdx.x > 1100) a[t + 1] = 1.0;
}
