// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): an asynchronous copy (cp.async), then a shared load.
#include <cuda_pipeline.h>

__global__ void stage(const float* in, float* out) {
  __shared__ float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &in[blockIdx.x * 256 + threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}
