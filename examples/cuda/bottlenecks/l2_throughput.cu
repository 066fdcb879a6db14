// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: L2, throughput mode (expected.toml [l2_throughput]).
// Every block sweeps 1 MB of one 16 MB buffer with coalesced 16-B loads. The buffer fits in the
// 50 MB L2, so after its first touch every load hits L2; but each SM streams 8 MB through its
// <= 256 KB L1 without revisiting a line, so L1 hits are negligible.
//
// foresight explain examples/cuda/bottlenecks/l2_throughput.cu --gpu h100 --grid 1056 --block 256 --arg iters=256
//
// Launch: 1056 blocks = 132 SMs x 8 blocks of 256 threads = 64 warps per SM, one wave.
// Block b, iteration k, thread t reads float4 element (b*4096 + k*256 + t) mod 2^20 of a
// 2^20 x 16 B = 16 MB buffer: 4 KB per block per iteration, 1 MB per block. Blocks sharing an
// SM (b, b+132, ...) start 132 x 64 KB = 8.4 MB apart, so they do not share lines either.
// Per warp and iteration: one LDG.128 = 512 B = 16 sectors. nvcc unrolls by 4: 41 SASS
// instructions per 4 loads (4 LDG.128, 16 FADD + 1 IMAD.X, 19 integer address/loop, 1 branch).
//
// Hand numbers per SM (gpus/h100.toml): 64 warps x 256 iterations = 16384 warp loads.
//   L2 throughput:   16384 x 512 B = 8.39 MB / (9.8 TB/s / 132 / 1.98 GHz = 37.5 B/cycle)
//                    = 224k cycles                                                      <- bound
//   int pipe:        16 warps x 64 x 19 x gap 2 = 39k cycles per scheduler           (5.8x less)
//   L1 throughput:   8.39 MB / 128 B/cycle = 66k cycles                              (3.4x less)
//   issue:           16 warps x 64 x 41 = 42k cycles per scheduler                   (5.3x less)
//   DRAM throughput: first touch only, 16 MB / 132 SMs = 127 KB / 12.8 B/cycle = 10k cycles
//                    (22x less; the whole 16 MB footprint stays resident in the 50 MB L2)
// Mode: throughput. Hiding 265 cycles of L2 latency at 37.5 B/cycle needs 9.9 KB in flight per
// SM; 64 warps x 4 unrolled loads x 512 B = 128 KB can be in flight.
__global__ void __launch_bounds__(256, 8) l2_throughput(const float4* buf, float* out, int iters) {
  const int mask = (1 << 20) - 1;  // 16 MB buffer of float4
  const int base = blockIdx.x * 4096 + threadIdx.x;
  float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int k = 0; k < iters; ++k) {
    const float4 v = buf[(base + k * 256) & mask];
    acc.x += v.x;
    acc.y += v.y;
    acc.z += v.z;
    acc.w += v.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc.x + acc.y + acc.z + acc.w;
}
