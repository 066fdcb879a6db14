// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): branches and loop bounds decided by float arguments, not by
// data: powf of two float arguments, a trip count from a float scale, and a power of two from
// __powf with a loop index (Rodinia backprop's reduction, written fresh).
extern "C" __global__ void float_args(const float* x, float* y, float scale, float e, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  if (powf(scale, e) > 100.0f) {
    acc = x[i] * 2.0f;
  }
  const int steps = static_cast<int>(scale * 4.0f);
  for (int k = 0; k < steps; ++k) acc += x[i + k];
  for (int s = 1; s <= 4; ++s) {
    const int p = __powf(2, s);
    if (threadIdx.x % p == 0) acc += x[i + p];
  }
  y[i] = acc;
}
