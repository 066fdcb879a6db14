// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after simveit/effective_reduction's kernel_0 ... kernel_9 (the sum of
// 2^30 ints on an H100; the same computations and launches, not a copy). Every kernel leaves a
// block's partial sums in a shared array of THREADS ints (the original declares it
// `extern __shared__ int sums[threadsPerBlock]`, which nvcc allocates statically: 2,048 B for
// 512 threads, as ptxas reports for both) and folds it in halves with a barrier per step.
// KIND picks the kernel, compiled under one name:
//   0  grid-stride sum per thread; halves down to one element, a barrier after each; the block's
//      sum stored to out[blockIdx.x] (the first pass of two: the second runs the same kernel on
//      the partial sums with one block);
//   1  as 0, the last 64 -> 1 steps done by the first warp through a volatile pointer with
//      __syncwarp between them;
//   2  one element per thread, the steps of 1, one atomicAdd per block onto out[0];
//   3  as 2 with BATCH consecutive ints per thread (scalar loads);
//   4  as 3, the BATCH ints read as BATCH / 4 int4 loads;
//   6  as 3, thread 0 of the grid zeroes out[0], and the first warp adds its two halves and
//      folds with __shfl_down_sync;
//   7  as 6 with one __reduce_add_sync instead of the shuffles;
//   8  as 4 with the shuffles of 6 (out[0] zeroed by a memset before the launch);
//   9  as 4 with the __reduce_add_sync of 7.
#ifndef KIND
#define KIND 0
#endif
#ifndef THREADS
#define THREADS 512
#endif
#ifndef BATCH
#define BATCH 12
#endif

// The body of every kernel; `reduce_sum` and `reduce_sum_partials` (the second pass of KIND 0 and 1,
// one block over the first pass's partial sums) are the same code under two names, so that each
// launch binds its own element count.
__device__ __forceinline__ void reduceBody(const int* in, int* out, unsigned long long n) {
  __shared__ int sums[THREADS];
  constexpr unsigned kThreads = THREADS;
  const int tid = threadIdx.x;
  const int gtid = blockIdx.x * kThreads + tid;
  int sum = 0;

#if KIND == 0 || KIND == 1
  const int gridThreads = kThreads * gridDim.x;
  for (int i = gtid; i < n; i += gridThreads) sum += in[i];
#elif KIND == 2
  if (gtid < n) sum += in[gtid];
#else
  constexpr unsigned kBatch = BATCH;
#if KIND == 6 || KIND == 7
  if (gtid == 0) *out = 0;
#endif
  if (gtid < n) {
#if KIND == 4 || KIND == 8 || KIND == 9
    const int4* in4 = reinterpret_cast<const int4*>(in);
#pragma unroll
    for (int v = 0; v < kBatch / 4; ++v) {
      const int4 q = in4[gtid * (kBatch / 4) + v];
      if (gtid * kBatch + v * 4 < n) sum += q.x + q.y + q.z + q.w;
    }
#else
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      if (gtid * kBatch + j < n) sum += in[gtid * kBatch + j];
    }
#endif
  }
#endif
  sums[tid] = sum;
  __syncthreads();

#if KIND == 0
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (tid < half) sums[tid] += sums[tid + half];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sums[0];
#else
#pragma unroll
  for (int half = kThreads / 2; half > 32; half /= 2) {
    if (tid < half) sums[tid] += sums[tid + half];
    __syncthreads();
  }
#if KIND <= 4
  volatile int* vsums = sums;
#pragma unroll
  for (int half = 32; half > 0; half /= 2) {
    if (tid < half) vsums[tid] += vsums[tid + half];
    __syncwarp();
  }
  const int total = vsums[0];
#else
  int total;
  if (tid < 32) {
    total = sums[tid] + sums[tid + 32];
#if KIND == 6 || KIND == 8
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) total += __shfl_down_sync(0xffffffffu, total, offset);
#else
    total = __reduce_add_sync(0xffffffffu, total);
#endif
  }
#endif
#if KIND == 1
  if (tid == 0) out[blockIdx.x] = total;
#else
  if (tid == 0) atomicAdd(out, total);
#endif
#endif
}

extern "C" __global__ void reduce_sum(const int* in, int* out, unsigned long long n) { reduceBody(in, out, n); }

extern "C" __global__ void reduce_sum_partials(const int* in, int* out, unsigned long long m) { reduceBody(in, out, m); }
