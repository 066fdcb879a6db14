// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: DRAM, latency mode (expected.toml [dram_latency]).
// One warp per SM walks memory with a large stride and consumes each load before it issues the
// next one, so only one request per SM is ever in flight (no memory-level parallelism).
// Addresses are plain index math of the launch and `iters`, so the analysis knows them exactly.
//
// foresight explain examples/cuda/bottlenecks/dram_latency.cu --gpu h100 --grid 132 --block 32 --arg iters=512
//
// Launch: 132 blocks of one warp = one warp per SM (the grid, not the occupancy limit, sets
// the number of resident warps). Lane l of block b, iteration i reads
// x[i * 132 * 1024 + b * 1024 + l * 32]: every lane its own 128-B line, so a warp request is 32
// sectors = 1 KB of DRAM traffic; no address is touched twice and the lines span
// 512 x 540 KB = 277 MB (> 50 MB L2), so every load misses L1 and L2 and goes to DRAM.
// `#pragma unroll 1` keeps one load per iteration (8 SASS instructions: MOV, IMAD.MOV, LDG,
// UIADD3, IMAD.WIDE, ISETP, FADD, BRA). The FADD that consumes the load precedes the next load
// in program order and a warp issues in order, so each iteration waits a full DRAM latency: a
// pointer chase whose addresses are nevertheless known.
//
// Hand numbers per SM (gpus/h100.toml), 512 iterations:
//   DRAM latency:    512 x (571 + ~10 cycles of FADD/branch/address issue) = 297k cycles <- bound
//   DRAM throughput: 512 x 1 KB = 512 KB / 12.8 B/cycle = 40k cycles   (7.4x less; 14% busy)
//   L2 throughput:   512 KB / 37.5 B/cycle = 14k cycles                               (21x less)
//   L1 throughput:   512 KB / 128 B/cycle = 4k cycles
//   issue:           512 x 8 = 4.1k cycles on one scheduler                           (72x less)
// Mode: latency. Raising DRAM latency by 10% lengthens every iteration by ~57 cycles (+~10%);
// raising its gap (less bandwidth) changes nothing, since DRAM is busy only 14% of the time.
__global__ void dram_latency(const float* x, float* out, int iters) {
  const long long lane_off = (long long)blockIdx.x * 1024 + threadIdx.x * 32;
  const long long row = (long long)gridDim.x * 1024;
  float acc = 0.0f;
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
    acc += x[i * row + lane_off];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
