// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): loops whose registers change non-affinely. In data_chain the
// FMA chain's value only reaches a store's data, so the loop folds; in value_exit the same
// chain decides the loop's exit (a float comparison), so the loop runs iteration by iteration.
extern "C" __global__ void data_chain(float* out, float a, float b, int n) {
  float x = threadIdx.x;
  unsigned h = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    x = fmaf(x, a, b);
    h = h * 2654435761u + 1u;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + static_cast<float>(h);
}

extern "C" __global__ void value_exit(float* out, float a, float b, float limit, int n) {
  float x = threadIdx.x;
  int i = 0;
  while (i < n && x < limit) {
    x = fmaf(x, a, b);
    ++i;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + i;
}
