// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after te42kyfo/gpu-benches cuda-stream/main.cu: the same six streaming
// kernels over doubles and the same launch (one element per thread, grid = n / BLOCK + 1), not a
// copy. KIND selects the body: 0 init (A = c), 1 read (load B, store only on a value never
// produced), 2 scale (A = 1.2 B), 3 triad (A = 1.2 B + C), 4 three-point stencil of B,
// 5 five-point stencil of B. Like the original, every kernel declares a 768-double shared array
// that a never-taken branch touches (6 KiB of static shared memory per block, which the original
// uses with a shared-memory carveout to fix the blocks per SM).
#ifndef KIND
#define KIND 0
#endif
#define SPOILER 768

extern "C" __global__ void gpu_stream(double* A, const double* __restrict__ B,
                                      const double* __restrict__ C, long long n) {
  __shared__ double spoiler[SPOILER];
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
#if KIND == 4
  if (t >= n - 1 || t == 0) return;
#elif KIND == 5
  if (t >= n - 2 || t < 2) return;
#else
  if (t >= n) return;
#endif
  if (threadIdx.x > 1243) spoiler[threadIdx.x] = B[threadIdx.x];
#if KIND == 0
  A[t] = 0.23;
#elif KIND == 1
  const double v = B[t];
  if (v == 123.33) A[t] = v;
#elif KIND == 2
  A[t] = B[t] * 1.2;
#elif KIND == 3
  A[t] = B[t] * 1.2 + C[t];
#elif KIND == 4
  A[t] = 0.5 * B[t - 1] - 1.0 * B[t] + 0.5 * B[t + 1];
#else
  A[t] = 0.25 * B[t - 2] + 0.25 * B[t - 1] - 1.0 * B[t] + 0.5 * B[t + 1] + 0.5 * B[t + 2];
#endif
  if (threadIdx.x > 1243) A[t] = spoiler[t];
}
