// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): a device function nvcc keeps as a call.
__device__ __noinline__ float twice(float x) { return 2.0f * x; }

__global__ void call_twice(float* data) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = twice(data[i]);
}
