// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): a bulk asynchronous prefetch (cp.async.bulk, sm_90), which the
// interpreter cannot execute, from a function of an included header.
#include "bulk_prefetch.cuh"

__global__ void warm(const float* in, float* out) {
  if (threadIdx.x == 0) prefetchBulk(in + blockIdx.x * 1024, 4096);
  out[blockIdx.x * 256 + threadIdx.x] = in[blockIdx.x * 1024 + threadIdx.x];
}
