// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): atomics with contention. Lanes t and t + 8k of a warp add to
// the same hist[t % 8] (global), t and t + 4k to the same bins[t % 4] (shared); every lane of
// the first warp adds to the single *total.
extern "C" __global__ void atomics(int* hist, const int* x, int* total) {
  __shared__ int bins[32];
  if (threadIdx.x < 32) bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[threadIdx.x % 4], x[threadIdx.x]);
  atomicAdd(&hist[threadIdx.x % 8], x[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(total, bins[threadIdx.x]);
}
