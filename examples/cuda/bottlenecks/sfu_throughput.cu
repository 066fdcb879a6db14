// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: SFU, throughput mode (expected.toml [sfu_throughput]).
// Every thread advances 8 independent __sinf chains at full occupancy: plenty of independent
// MUFU instructions, and the SFU (4 lanes per scheduler, one warp instruction every 8 cycles)
// is the narrowest pipe they use.
//
// foresight explain examples/cuda/bottlenecks/sfu_throughput.cu --gpu h100 --grid 1056 --block 256 --arg iters=64
//
// Launch: 1056 blocks = 132 SMs x 8 blocks of 256 threads = 64 warps per SM (16 per scheduler).
// Each __sinf is FMUL.RZ + MUFU.SIN; nvcc unrolls the loop by 4: 67 SASS instructions per 4
// iterations (32 MUFU, 32 FMUL, IADD3, ISETP, BRA).
//
// Hand numbers per scheduler (gpus/h100.toml): 16 warps x 16 trips x 32 = 8192 MUFU.
//   SFU throughput:  8192 x gap 8 = 65.5k cycles                                         <- bound
//   issue:           16 warps x 16 trips x 67 = 17.2k cycles                         (3.8x less)
//   fp32 throughput: 8192 FMUL x gap 1 = 8.2k cycles                                 (8x less)
//   SFU latency:     per warp 64 x 8 x 27 / 8 chains = 1.7k cycles of chain; 16 warps x 8
//                    chains = 128 independent MUFU per scheduler against 23/8 ~ 3 needed
// Mode: throughput. A 10% larger SFU gap adds 10% to every MUFU admission; a 10% longer latency
// is hidden by the queue of ready MUFUs.
__global__ void __launch_bounds__(256, 8) sfu_throughput(float* out, int iters) {
  float x0 = threadIdx.x * 1e-3f, x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
  float x4 = x0 + 0.4f, x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f;
  for (int k = 0; k < iters; ++k) {
    x0 = __sinf(x0); x1 = __sinf(x1); x2 = __sinf(x2); x3 = __sinf(x3);
    x4 = __sinf(x4); x5 = __sinf(x5); x6 = __sinf(x6); x7 = __sinf(x7);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
