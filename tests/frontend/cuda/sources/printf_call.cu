// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): printf in lane 0 of each block, a call of the external
// function vprintf (PTX `call.uni`, SASS `CALL.ABS.NOINC`).
#include <cstdio>
extern "C" __global__ void printf_call(int* y) {
  if (threadIdx.x == 0) printf("block %d\n", blockIdx.x);
  y[threadIdx.x] = 1;
}
