// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: shared-memory bank conflicts. Lane l reads word (l * STRIDE) % 1024 of a
// 4 KiB buffer: STRIDE 1 is conflict-free, STRIDE 2^k gives min(2^k, 32)-way conflicts.
#ifndef STRIDE
#define STRIDE 1
#endif
#ifndef ITERS
#define ITERS 1024
#endif

extern "C" __global__ void shared_bank_conflict(float* out) {
  __shared__ float buf[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) buf[i] = i;
  __syncthreads();
  int lane = threadIdx.x & 31;
  int idx = (lane * STRIDE) & 1023;
  float acc = 0.0f;
  for (int i = 0; i < ITERS; ++i) {
    acc += buf[idx];
    idx = (idx + 32 * STRIDE * (i & 1)) & 1023;  // stays in the same bank, defeats hoisting
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
