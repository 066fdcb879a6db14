// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): the kernel that include_main.cu includes.
#ifndef INCLUDE_KERNEL_CU
#define INCLUDE_KERNEL_CU

__global__ void add_offset(float* values, float offset, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) values[i] += offset;
}

#endif
