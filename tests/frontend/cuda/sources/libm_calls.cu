// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): double-precision sin and pow. sin pulls in the initialised
// tables __cudart_sin_cos_coeffs and __cudart_i2opi_d and calls the slow path
// __internal_trig_reduction_slowpathd for large arguments; pow calls __internal_accurate_pow.
extern "C" __global__ void libm_sin(const double* x, double* y) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  y[t] = sin(x[t]);
}
extern "C" __global__ void libm_pow(const double* x, double* y) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  y[t] = pow(x[t], 2.5);
}
