// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: shared memory, throughput mode via bank conflicts
// (expected.toml [shared_throughput]).
// Lane l reads word l*32 + c of a 4 KB shared array: all 32 lanes hit bank c with 32 distinct
// addresses, a 32-way conflict, so each warp load takes 32 shared wavefronts (cycles).
//
// foresight explain examples/cuda/bottlenecks/shared_throughput.cu --gpu h100 --grid 1056 --block 256 --arg iters=512
//
// Launch: 1056 blocks = 132 SMs x 8 blocks of 256 threads = 64 warps per SM, one wave.
// nvcc unrolls the loop by 16: 83 SASS instructions per 16 loads (16 LDS, 16 FADD, 50 integer
// incl. uniform-datapath index math, 1 branch).
//
// Hand numbers per SM (gpus/h100.toml): 64 warps x 512 iterations = 32768 warp loads.
//   shared throughput: 32768 x 32 wavefronts x 128 B / 128 B/cycle = 1.05M cycles       <- bound
//   int pipe:          16 warps x 32 x 50 x gap 2 = 51k cycles per scheduler         (21x less)
//   issue:             16 warps x 32 x 83 = 42k cycles per scheduler                 (25x less)
//   ldst pipe:         16 warps x 512 x gap 4 = 33k cycles per scheduler
//   shared latency:    per warp 512 x (29 + 32) = 31k cycles, overlapped across 64 warps
// Mode: throughput. The shared array (one wavefront per cycle per SM) is busy all the time: 64
// warps each with a load queued, so a 10% longer gap stretches every one of the 1M cycles,
// while a 10% longer latency (2.9 cycles per load) is hidden behind the queue.
__global__ void __launch_bounds__(256, 8) shared_throughput(float* out, int iters) {
  __shared__ float s[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) s[i] = i * 0.5f;
  __syncthreads();
  const int row = (threadIdx.x & 31) * 32;  // lane l -> word l*32: bank (l*32 + c) % 32 = c
  float acc = 0.0f;
  for (int k = 0; k < iters; ++k) {
    acc += s[row + (k & 31)];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
