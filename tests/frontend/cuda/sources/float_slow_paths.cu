// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): a float division, a reciprocal and a square root of loaded
// data. ptxas guards each one's slow path (__cuda_sm3x_div_rn_noftz_f32_slowpath,
// __cuda_sm20_rcp_rn_f32_slowpath, __cuda_sm20_sqrt_rn_f32_slowpath) with a branch around its
// call, on data the SASS run does not track.
extern "C" __global__ void float_slow_paths(const float* x, float* y) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  const float a = x[t];
  const float b = x[t + 32];
  y[t] = a / b + 1.0f / a + sqrtf(b);
}
