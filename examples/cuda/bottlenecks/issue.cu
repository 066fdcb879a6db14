// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: instruction issue, throughput mode (expected.toml [issue]).
// Full occupancy and a mix of independent instructions spread over three pipes, so that none of
// them is busy more than about half the time while every scheduler issues one instruction every
// cycle. On H100 a scheduler issues 1 warp instruction per cycle and the FP32 pipe also accepts
// one per cycle (gap 1), so a pure FFMA kernel would tie issue with FP32 throughput. Here half
// the instructions are FP32 (FFMA), a quarter integer (PRMT, loop control; gap 2) and a
// quarter FP64 (DFMA, gap 2): each pipe is busy ~48% of the cycles, the issue slots 100%.
//
// foresight explain examples/cuda/bottlenecks/issue.cu --gpu h100 --grid 1056 --block 256 --arg iters=256
//
// Launch: 1056 blocks = 132 SMs x 8 blocks of 256 threads = 64 warps per SM (16 per scheduler).
// Per iteration: 4 FFMA chains, 1 PRMT chain (__byte_perm with a loop-invariant operand, which
// nvcc cannot fold across iterations), 2 double chains (d += dd becomes DFMA). nvcc unrolls by
// 4: 33 SASS instructions per 4 iterations = 16 FFMA + 8 DFMA + 8 integer (4 PRMT, 2 UMOV
// that rematerialise the DFMA constant, loop counter IADD3, ISETP) + 1 BRA.
//
// Hand numbers per scheduler (gpus/h100.toml): 16 warps x 64 trips = 1024 trips.
//   issue:           1024 x 33 = 33.8k cycles                                            <- bound
//   fp32 throughput: 1024 x 16 x gap 1 = 16.4k cycles                                (2.06x less)
//   fp64 throughput: 1024 x 8 x gap 2 = 16.4k cycles                                 (2.06x less)
//   int throughput:  1024 x 8 x gap 2 = 16.4k cycles                                 (2.06x less)
//   latencies:       each warp has 7 independent chains (4 FP32 latency 4, 2 FP64 latency 8,
//                    1 PRMT latency 4) and each scheduler 16 warps: ~112 independent
//                    instructions ready against at most 8 needed to cover any latency.
// Mode: throughput: the issue slots are busy every cycle; there is no latency to hide.
__global__ void __launch_bounds__(256, 8) issue(float* out, int iters) {
  const float a = 0.999f + threadIdx.x * 1e-7f;
  const float b = 1e-3f * blockIdx.x;
  float f0 = threadIdx.x, f1 = f0 + 1.0f, f2 = f0 + 2.0f, f3 = f0 + 3.0f;
  unsigned u = threadIdx.x * 2654435761u;
  const unsigned v = blockIdx.x * 0x9e3779b9u;
  double d0 = threadIdx.x * 0.5, d1 = d0 + 0.25;
  const double dd = 1e-9 * blockIdx.x;
  for (int k = 0; k < iters; ++k) {
    f0 = fmaf(f0, a, b); f1 = fmaf(f1, a, b); f2 = fmaf(f2, a, b); f3 = fmaf(f3, a, b);
    u = __byte_perm(u, v, 0x2107);
    d0 += dd; d1 += dd;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      f0 + f1 + f2 + f3 + static_cast<float>(u) + static_cast<float>(d0 + d1);
}
