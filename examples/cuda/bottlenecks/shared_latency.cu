// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: shared memory, latency mode (expected.toml [shared_latency]).
// One warp per scheduler reads shared memory conflict-free and consumes each value before the
// next load: the FADD that uses load k precedes load k+1 in program order and warps issue in
// order, so each iteration waits the full shared-memory latency. (A true pointer chase,
// s[s[j]], would make the addresses data-dependent and unknown to the analysis.)
//
// foresight explain examples/cuda/bottlenecks/shared_latency.cu --gpu h100 --grid 132 --block 128 --arg reps=64
//
// Launch: 132 blocks of 128 threads = 4 warps per SM, one per scheduler.
// The inner loop (`#pragma unroll 1`, 32 trips x reps = 2048 loads per warp) is 6 SASS
// instructions: LDS (32 consecutive words: 1 wavefront), VIADD, ISETP, IADD3 (next address,
// ready long before the next LDS), FADD (waits for the LDS), BRA.
//
// Hand numbers per scheduler (gpus/h100.toml), 2048 loads:
//   shared latency:    2048 x 29 = 59k cycles (whole loop 2048 x ~31 = 63k)             <- bound
//   issue:             2048 x 6 + 64 x 6 = 12.7k cycles                              (4.7x less)
//   shared throughput: 4 warps x 2048 x 1 wavefront = 8.2k cycles per SM             (7.2x less)
//   fp32 latency:      2048 x 4 = 8.2k cycles (the FADD chain alone, overlapped)
// Mode: latency. Only 4 loads are ever in flight per SM against a pipe that accepts one per
// cycle; a 10% longer latency adds ~3 cycles to each of the 2048 iterations, a 10% longer gap
// nothing.
__global__ void shared_latency(float* out, int reps) {
  __shared__ float s[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) s[i] = i * 0.25f;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  float acc = 0.0f;
#pragma unroll 1
  for (int r = 0; r < reps; ++r) {
#pragma unroll 1
    for (int row = 0; row < 32; ++row) {
      acc += s[row * 32 + lane];  // 32 consecutive words: one wavefront, no conflict
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
