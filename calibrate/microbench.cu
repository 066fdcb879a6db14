// SPDX-License-Identifier: Apache-2.0
// Calibration microbenchmarks for `foresight calibrate` (docs/validation.md, "Calibration").
// One program, run on the GPU to describe; it prints one `key value` line per result, which
// src/foresight/calibrate/calibration.cpp maps onto a GPU description. Method (METHOD.md of the
// lent GPUs; saake.md §10.4 A; lai-teg-and-bound.md §8.6): latencies from dependent chains timed
// with clock64() in one warp; throughputs from independent work at full occupancy timed with
// CUDA events and converted to cycles with the SM clock measured here; memory latencies from
// pointer chases sized for L1, L2 and DRAM; bandwidths from streaming kernels. Clocks and
// settings are never changed: the card is measured as found.
// Build: nvcc -O3 -std=c++17 -arch=native -o microbench calibrate/microbench.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "microbench: %s: %s\n", #x, cudaGetErrorString(e_));           \
      std::exit(3);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int kChain = 1024;  // dependent operations per latency measurement

// ---------------------------------------------------------------------------------------------
// Clock: cycles of a spinning thread over event time.
__global__ void spin(long long cycles, long long* out) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  *out = clock64() - start;
}

// ---------------------------------------------------------------------------------------------
// Pipeline latency: one warp, a chain of dependent operations between two clock64() reads.
// The integer chain multiplies by a run-time value (from `a`): with constants, the compiler folds
// the unrolled affine chain u = 3u + 7 into a few multiplies (it measured 0.43 cycles per op).
template <int Op>
__global__ void latencyKernel(float* outF, double* outD, unsigned* outI, long long* cycles, float a) {
  float x = threadIdx.x * 1e-3f;
  double d = threadIdx.x * 1e-3;
  unsigned u = threadIdx.x;
  const unsigned m = __float_as_uint(a) | 1u;
  long long t0 = clock64();
#pragma unroll 64
  for (int i = 0; i < kChain; ++i) {
    if (Op == 0) x = fmaf(x, a, 0.5f);
    if (Op == 1) d = fma(d, (double)a, 0.5);
    if (Op == 2) asm volatile("mad.lo.u32 %0, %0, %1, 7;" : "+r"(u) : "r"(m));
    if (Op == 3) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
  }
  long long t1 = clock64();
  outF[threadIdx.x] = x;
  outD[threadIdx.x] = d;
  outI[threadIdx.x] = u;
  if (threadIdx.x == 0) *cycles = t1 - t0;
}

// Pipeline throughput: 8 independent chains per thread, full occupancy.
template <int Op>
__global__ void throughputKernel(float* outF, double* outD, unsigned* outI, int iters, float a) {
  float x[8];
  double d[8];
  unsigned u[8];
  const unsigned m = __float_as_uint(a) | 1u;
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    x[c] = threadIdx.x * 1e-3f + c;
    d[c] = threadIdx.x * 1e-3 + c;
    u[c] = threadIdx.x + c;
  }
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int c = 0; c < 8; ++c) {
      if (Op == 0) x[c] = fmaf(x[c], a, 0.5f);
      if (Op == 1) d[c] = fma(d[c], (double)a, 0.5);
      if (Op == 2) asm volatile("mad.lo.u32 %0, %0, %1, 7;" : "+r"(u[c]) : "r"(m));
      if (Op == 3) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x[c]));
    }
  }
  float sx = 0;
  double sd = 0;
  unsigned su = 0;
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    sx += x[c];
    sd += d[c];
    su ^= u[c];
  }
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  outF[g] = sx;
  outD[g] = sd;
  outI[g] = su;
}

// ---------------------------------------------------------------------------------------------
// Lai's FFMA + LDS mix throughput F_T (thesis Fig. 4.2, Eq. 4.9; lai-teg-and-bound.md §5.4):
// the inner loop of a B_R = 6 SGEMM issues 3 FFMA per 32-bit shared load (6 per LDS.64, 12 per
// LDS.128). Here each load is a broadcast (every lane reads the same words, as an SGEMM's A
// fragment) at a constant offset from one base (no address arithmetic: LDS takes an immediate
// offset), and its values feed 3·Bits/32 FFMAs on 12 independent accumulators. F_T = (FFMA +
// LDS) warp instructions per cycle and SM over the FP32 pipe's (fp32.warp_insts_per_cycle_sm);
// the loop's counter and branch (2-3 instructions per 16 loads) count against it.
#define FORESIGHT_MIX_LOAD(OFF)                                                                        \
  do {                                                                                                 \
    float v[4];                                                                                        \
    if (Bits == 32) asm volatile("ld.volatile.shared.f32 %0, [%1+" #OFF "];" : "=f"(v[0]) : "r"(base)); \
    if (Bits == 64)                                                                                    \
      asm volatile("ld.volatile.shared.v2.f32 {%0, %1}, [%2+" #OFF "];" : "=f"(v[0]), "=f"(v[1]) : "r"(base)); \
    if (Bits == 128)                                                                                   \
      asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4+" #OFF "];"                        \
                   : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3])                                    \
                   : "r"(base));                                                                       \
    _Pragma("unroll") for (int r = 0; r < 3 * (Bits / 32); ++r) {                                      \
      acc[(k + r) % 12] = fmaf(v[r % (Bits / 32)], 0.999f, acc[(k + r) % 12]);                         \
    }                                                                                                  \
    k += 3 * (Bits / 32);                                                                              \
  } while (0)

template <int Bits>
__global__ void sgemmMix(int iters, float* out) {
  __shared__ float4 buf[64];
  if (threadIdx.x < 64) buf[threadIdx.x] = make_float4(threadIdx.x, 1.f, 2.f, 3.f);
  __syncthreads();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  float acc[12];
#pragma unroll
  for (int c = 0; c < 12; ++c) acc[c] = threadIdx.x * 1e-3f + c;
  for (int i = 0; i < iters; ++i) {
    int k = 0;
    FORESIGHT_MIX_LOAD(0);
    FORESIGHT_MIX_LOAD(16);
    FORESIGHT_MIX_LOAD(32);
    FORESIGHT_MIX_LOAD(48);
    FORESIGHT_MIX_LOAD(64);
    FORESIGHT_MIX_LOAD(80);
    FORESIGHT_MIX_LOAD(96);
    FORESIGHT_MIX_LOAD(112);
    FORESIGHT_MIX_LOAD(128);
    FORESIGHT_MIX_LOAD(144);
    FORESIGHT_MIX_LOAD(160);
    FORESIGHT_MIX_LOAD(176);
    FORESIGHT_MIX_LOAD(192);
    FORESIGHT_MIX_LOAD(208);
    FORESIGHT_MIX_LOAD(224);
    FORESIGHT_MIX_LOAD(240);
  }
  float s = 0;
#pragma unroll
  for (int c = 0; c < 12; ++c) s += acc[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
#undef FORESIGHT_MIX_LOAD

// ---------------------------------------------------------------------------------------------
// Shared memory: a dependent chase (latency); a strided read sweep (banks, conflict cost); and
// conflict-free reads at full occupancy (bandwidth).
__global__ void sharedChase(const int* init, int* out, long long* cycles) {
  __shared__ int next[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) next[i] = init[i];
  __syncthreads();
  int p = threadIdx.x;
  long long t0 = clock64();
  for (int i = 0; i < kChain; ++i) p = next[p];
  long long t1 = clock64();
  out[threadIdx.x] = p;
  if (threadIdx.x == 0) *cycles = t1 - t0;
}

__global__ void sharedStride(int stride, int iters, float* out, long long* cycles) {
  __shared__ float buf[4096];
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) buf[i] = i;
  __syncthreads();
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&buf[(threadIdx.x * stride) & 4095]));
  float acc = 0;
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    float v;
    // ld.volatile: ptxas merges repeated plain loads of one address (the sweep then showed no
    // conflicts at any stride).
    asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(v) : "r"(addr));
    acc += v;
  }
  long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  if (threadIdx.x == 0 && blockIdx.x == 0) *cycles = t1 - t0;
}

// 16-byte loads: one warp instruction moves 512 B, so the shared pipe, not instruction issue,
// limits the rate (4-byte loads with their index arithmetic measured 100 of 128 B/cycle).
__global__ void sharedBandwidth(int iters, float* out) {
  __shared__ float4 buf[1024];
  buf[threadIdx.x] = make_float4(threadIdx.x, 1.f, 2.f, 3.f);
  __syncthreads();
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  int idx = threadIdx.x;
  for (int i = 0; i < iters; ++i) {
    const float4 v = buf[idx];
    acc.x += v.x;
    acc.y += v.y;
    acc.z += v.z;
    acc.w += v.w;
    idx = (idx + 32) & 1023;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc.x + acc.y + acc.z + acc.w;
}

// ---------------------------------------------------------------------------------------------
// Global memory: pointer chase (one thread), L1 cached or bypassing L1 (.cg).
template <bool BypassL1>
__global__ void globalChase(const unsigned* next, int steps, unsigned* out, long long* cycles) {
  unsigned p = 0;
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) {
    if (BypassL1) {
      asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(p) : "l"(next + p));
    } else {
      p = next[p];
    }
  }
  long long t1 = clock64();
  *out = p;
  *cycles = t1 - t0;
}

// Streaming: read with a stride of `stride` elements (coalesced when 1), grid-stride loop.
__global__ void streamRead(const float* in, long long n, int stride, int passes, float* out) {
  float acc = 0;
  const long long threads = (long long)gridDim.x * blockDim.x;
  for (int p = 0; p < passes; ++p) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += threads) {
      float v;
      asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(in + (i * stride) % (n * stride)));
      acc += v;
    }
  }
  if (acc == -1.0f) *out = acc;  // practically never: keeps the loads
}

__global__ void streamCopy(const float4* in, float4* out, long long n) {
  const long long threads = (long long)gridDim.x * blockDim.x;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += threads) out[i] = in[i];
}

// ---------------------------------------------------------------------------------------------
// Barriers. Each iteration of a block: Body 0 one bare __syncthreads; Body 1 the corpus's
// barrier_heavy step (store to shared, barrier, load a neighbour's word, add, barrier); Body 2 a
// dependent FMA chain of Chain operations, then a barrier. Timed per iteration: one block alone on
// the GPU (clock64 of thread 0) and B blocks on every SM (events), to separate the barrier's
// latency from its throughput and to see whether it overlaps the work between barriers.
template <int Body, int Chain>
__global__ void barrierLoop(int iters, unsigned mask, float* out, long long* cycles) {
  __shared__ float s[1024];
  float v = threadIdx.x;
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    if (Body == 0) __syncthreads();
    if (Body == 1) {
      s[threadIdx.x] = v;
      __syncthreads();
      v += s[(threadIdx.x + 1) & mask];
      __syncthreads();
    }
    if (Body == 2) {
#pragma unroll
      for (int k = 0; k < Chain; ++k) v = fmaf(v, 0.999f, 0.5f);
      __syncthreads();
    }
  }
  long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  if (threadIdx.x == 0 && blockIdx.x == 0) *cycles = t1 - t0;
}

// Global atomics (adds) to a set of `addrs` addresses (a power of two), `spread` words apart.
// Thread g's address: lanes in groups of `group` share one (the warp's groups take consecutive
// addresses), or, with group 0, a hash of g (a histogram of uniformly drawn keys). Kind 0 is
// red.add.u32 (no result), 1 red.add.f32, 2 atom.add.u32 whose result is used.
template <int Kind>
__global__ void atomicSweep(unsigned* bins, long long n, int group, unsigned addrs, int spread, unsigned* out) {
  const long long threads = (long long)gridDim.x * blockDim.x;
  unsigned acc = 0;
  for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < n; g += threads) {
    unsigned slot;
    if (group == 0) {
      unsigned h = static_cast<unsigned>(g) * 2654435761u;
      h ^= h >> 15;
      h *= 2246822519u;
      h ^= h >> 13;
      slot = h & (addrs - 1);
    } else {
      slot = static_cast<unsigned>((g >> 5) * (32 / group) + (threadIdx.x & 31) / group) & (addrs - 1);
    }
    unsigned* p = bins + static_cast<size_t>(slot) * spread;
    if (Kind == 0) asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
    if (Kind == 1) asm volatile("red.global.add.f32 [%0], 0f3F800000;" ::"l"(p) : "memory");
    if (Kind == 2) {
      unsigned old;
      asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
      acc += old;
    }
  }
  if (acc == 0xffffffffu) *out = acc;
}

// Stores with a stride of `stride` words between consecutive threads (coalesced when 1) into a
// buffer of 2^logWords words; each wrap around the buffer shifts by one word, so a later pass
// writes other words. Grid-stride loop.
__global__ void streamWrite(float* outp, long long n, long long stride, int logWords) {
  const long long threads = (long long)gridDim.x * blockDim.x;
  const long long mask = (1LL << logWords) - 1;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += threads) {
    const long long e = i * stride;
    asm volatile("st.global.f32 [%0], %1;" ::"l"(outp + ((e + (e >> logWords)) & mask)), "f"(1.0f) : "memory");
  }
}

// Column stores, as a naive transpose writes: lane x of warp y in block (bx, by) writes word
// (by * 32 + x, bx * W + y) of a row-major array `cols` words wide, W = blockDim.y. Each warp
// store writes one word into each of 32 sectors a row apart, and the block's W warps together
// write W words of each: with W = 8 every sector is completed by one block while it sits in L2
// (partial writes merged there, full sectors written back), which the strided stores above
// never do.
__global__ void columnStore(float* outp, long long cols) {
  const long long row = blockIdx.y * 32LL + threadIdx.x;
  const long long col = (long long)blockIdx.x * blockDim.y + threadIdx.y;
  asm volatile("st.global.f32 [%0], %1;" ::"l"(outp + row * cols + col), "f"(1.0f) : "memory");
}

// ---------------------------------------------------------------------------------------------
struct Ctx {
  int sms = 0;
  double clockGhz = 0;
  cudaEvent_t start, stop;
  float ms() {
    float v = 0;
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&v, start, stop));
    return v;
  }
};

template <class F>
double medianMs(Ctx& c, F launch, int reps = 7) {
  launch();  // warm-up
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(c.start));
    launch();
    CHECK(cudaEventRecord(c.stop));
    t.push_back(c.ms());
  }
  CHECK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

long long readCycles(long long* d) {
  long long h = 0;
  CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "microbench: no CUDA device\n");
    return 3;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  Ctx c;
  c.sms = prop.multiProcessorCount;
  CHECK(cudaEventCreate(&c.start));
  CHECK(cudaEventCreate(&c.stop));
  std::printf("# foresight calibration microbenchmarks 1\n");
  std::printf("device %s\ncc %d.%d\nsm_count %d\nwarp_size %d\n", prop.name, prop.major, prop.minor, c.sms,
              prop.warpSize);
  std::printf("info.l2_bytes %d\ninfo.shared_per_sm %zu\n", prop.l2CacheSize, prop.sharedMemPerMultiprocessor);

  long long *dCycles = nullptr;
  CHECK(cudaMalloc(&dCycles, sizeof(long long)));
  // Clock: 200 M cycles of spinning.
  {
    const long long spinCycles = 200000000;
    double ms = medianMs(c, [&] { spin<<<1, 1>>>(spinCycles, dCycles); }, 3);
    c.clockGhz = readCycles(dCycles) / (ms * 1e6);
    std::printf("clock_mhz %.1f\n", c.clockGhz * 1e3);
  }

  const int fullBlocks = c.sms * 2, fullThreads = 1024;
  float* dF = nullptr;
  double* dD = nullptr;
  unsigned* dI = nullptr;
  CHECK(cudaMalloc(&dF, sizeof(float) * fullBlocks * fullThreads));
  CHECK(cudaMalloc(&dD, sizeof(double) * fullBlocks * fullThreads));
  CHECK(cudaMalloc(&dI, sizeof(unsigned) * fullBlocks * fullThreads));
  const char* names[] = {"fp32", "fp64", "int", "sfu"};
  double fp32Rate = 0;  // FP32 warp instructions per cycle and SM, for F_T
  auto pipeline = [&](auto lat, auto thr, int op) {
    medianMs(c, [&] { lat<<<1, 32>>>(dF, dD, dI, dCycles, 0.999f); }, 3);
    std::printf("%s.latency %.2f\n", names[op], static_cast<double>(readCycles(dCycles)) / kChain);
    const int iters = op == 1 ? 256 : 1024;
    const double ms = medianMs(c, [&] { thr<<<fullBlocks, fullThreads>>>(dF, dD, dI, iters, 0.999f); });
    const double warpInsts = static_cast<double>(fullBlocks) * (fullThreads / 32) * iters * 8;
    const double cycles = ms * 1e6 * c.clockGhz;
    std::printf("%s.warp_insts_per_cycle_sm %.4f\n", names[op], warpInsts / (cycles * c.sms));
    if (op == 0) fp32Rate = warpInsts / (cycles * c.sms);
  };
  pipeline(latencyKernel<0>, throughputKernel<0>, 0);
  pipeline(latencyKernel<1>, throughputKernel<1>, 1);
  pipeline(latencyKernel<2>, throughputKernel<2>, 2);
  pipeline(latencyKernel<3>, throughputKernel<3>, 3);

  // Lai's FFMA + LDS mix: F_T per load width (16 loads of 1 + 3·Bits/32 mix instructions per
  // iteration).
  auto mix = [&](auto kernel, int bits) {
    const int iters = 256;
    const double ms = medianMs(c, [&] { kernel<<<fullBlocks, fullThreads>>>(iters, dF); });
    const double warpInsts = static_cast<double>(fullBlocks) * (fullThreads / 32) * iters * 16 * (1 + 3 * bits / 32);
    const double perCycleSm = warpInsts / (ms * 1e6 * c.clockGhz * c.sms);
    std::printf("sgemm_mix.lds%d %.4f\n", bits, fp32Rate > 0 ? perCycleSm / fp32Rate : 0.0);
  };
  mix(sgemmMix<32>, 32);
  mix(sgemmMix<64>, 64);
  mix(sgemmMix<128>, 128);

  // Shared memory.
  {
    std::vector<int> ring(1024);
    for (int i = 0; i < 1024; ++i) ring[i] = (i + 33) % 1024;
    int *dRing = nullptr, *dOut = nullptr;
    CHECK(cudaMalloc(&dRing, sizeof(int) * 1024));
    CHECK(cudaMalloc(&dOut, sizeof(int) * 1024));
    CHECK(cudaMemcpy(dRing, ring.data(), sizeof(int) * 1024, cudaMemcpyHostToDevice));
    medianMs(c, [&] { sharedChase<<<1, 32>>>(dRing, dOut, dCycles); }, 3);
    std::printf("shared.latency %.2f\n", static_cast<double>(readCycles(dCycles)) / kChain);
    // Stride sweep with one warp: cycles per access by stride 1, 2, 4, ..., 128.
    const int iters = 4096;
    std::vector<double> perAccess;
    for (int stride = 1; stride <= 128; stride *= 2) {
      medianMs(c, [&] { sharedStride<<<1, 32>>>(stride, iters, dF, dCycles); }, 3);
      perAccess.push_back(static_cast<double>(readCycles(dCycles)) / iters);
      std::printf("sweep.shared_stride_%d_cycles %.2f\n", stride, perAccess.back());
    }
    // Banks: the first power-of-two stride after which doubling the stride no longer slows the
    // access (the conflict degree saturates at the bank count).
    int banks = 128;
    for (size_t i = 0; i + 1 < perAccess.size(); ++i) {
      if (perAccess[i + 1] < perAccess[i] * 1.1 && i > 0) {
        banks = 1 << i;
        break;
      }
    }
    std::printf("shared.banks %d\n", banks);
    const double worst = perAccess[std::min<size_t>(perAccess.size() - 1, __builtin_ctz(banks))];
    std::printf("shared.conflict_cycles_per_way %.3f\n", (worst - perAccess[0]) / std::max(1, banks - 1));
    const int bwIters = 4096;
    const double ms = medianMs(c, [&] { sharedBandwidth<<<fullBlocks, fullThreads>>>(bwIters, dF); });
    const double bytes = static_cast<double>(fullBlocks) * fullThreads * bwIters * 16;
    std::printf("shared.bytes_per_cycle_sm %.2f\n", bytes / (ms * 1e6 * c.clockGhz * c.sms));
    CHECK(cudaFree(dRing));
    CHECK(cudaFree(dOut));
  }

  // Global pointer chases. Stride 128 B for L1 and L2 rings; DRAM uses one cold pass with a
  // 64 KiB stride after flushing L2.
  {
    const size_t big = std::max<size_t>(size_t(4) * prop.l2CacheSize, size_t(512) << 20);
    unsigned* dNext = nullptr;
    unsigned* dOut = nullptr;
    CHECK(cudaMalloc(&dNext, big));
    CHECK(cudaMalloc(&dOut, sizeof(unsigned)));
    auto ring = [&](size_t bytes, size_t strideBytes) {
      const size_t n = bytes / 4, s = strideBytes / 4;
      std::vector<unsigned> h(n, 0);
      for (size_t i = 0; i < n; i += s) h[i] = static_cast<unsigned>((i + s) % n);
      CHECK(cudaMemcpy(dNext, h.data(), n * 4, cudaMemcpyHostToDevice));
      return static_cast<int>(n / s);
    };
    int lines = ring(16 << 10, 128);  // 16 KiB: L1
    globalChase<false><<<1, 1>>>(dNext, lines, dOut, dCycles);  // warm L1
    medianMs(c, [&] { globalChase<false><<<1, 1>>>(dNext, 8 * lines, dOut, dCycles); }, 3);
    std::printf("l1.latency %.2f\n", static_cast<double>(readCycles(dCycles)) / (8 * lines));
    lines = ring(std::min<size_t>(prop.l2CacheSize / 4, 8 << 20), 128);  // fits L2, bypasses L1
    globalChase<true><<<1, 1>>>(dNext, lines, dOut, dCycles);
    medianMs(c, [&] { globalChase<true><<<1, 1>>>(dNext, 2 * lines, dOut, dCycles); }, 3);
    std::printf("l2.latency %.2f\n", static_cast<double>(readCycles(dCycles)) / (2 * lines));
    lines = std::min(ring(big, 64 << 10), 8192);
    unsigned char* flush = nullptr;
    const size_t flushBytes = size_t(2) * prop.l2CacheSize;
    CHECK(cudaMalloc(&flush, flushBytes));
    std::vector<double> dram;
    for (int r = 0; r < 5; ++r) {
      CHECK(cudaMemset(flush, r, flushBytes));  // evicts the ring's lines from L2
      globalChase<true><<<1, 1>>>(dNext, lines, dOut, dCycles);
      CHECK(cudaDeviceSynchronize());
      dram.push_back(static_cast<double>(readCycles(dCycles)) / lines);
    }
    std::sort(dram.begin(), dram.end());
    std::printf("dram.latency %.2f\n", dram[dram.size() / 2]);
    CHECK(cudaFree(flush));
    CHECK(cudaFree(dNext));
    CHECK(cudaFree(dOut));
  }

  // Bandwidths and per-SM request cycles.
  {
    const long long dramFloats = (1LL << 30) / 4;  // 1 GiB
    float *a = nullptr, *b = nullptr;
    CHECK(cudaMalloc(&a, dramFloats * 4));
    CHECK(cudaMalloc(&b, dramFloats * 4));
    CHECK(cudaMemset(a, 0, dramFloats * 4));
    const int blocks = c.sms * 8, threads = 256;
    double ms = medianMs(c, [&] {
      streamCopy<<<blocks, threads>>>(reinterpret_cast<const float4*>(a), reinterpret_cast<float4*>(b), dramFloats / 4);
    });
    std::printf("dram.bandwidth_gbs %.1f\n", 2.0 * dramFloats * 4 / (ms * 1e6));
    // Coalesced reads: warp requests of 128 B.
    ms = medianMs(c, [&] { streamRead<<<blocks, threads>>>(a, dramFloats, 1, 1, b); });
    double requests = dramFloats / 32.0;
    std::printf("dram.coalesced_request_cycles %.3f\n", ms * 1e6 * c.clockGhz * c.sms / requests);
    // Stride sweep: sectors; stride 32 floats = one sector per lane (uncoalesced).
    std::vector<double> perRequest;
    const long long sweepFloats = dramFloats / 32;
    for (int stride = 1; stride <= 32; stride *= 2) {
      ms = medianMs(c, [&] { streamRead<<<blocks, threads>>>(a, sweepFloats, stride, 1, b); });
      perRequest.push_back(ms * 1e6 * c.clockGhz * c.sms / (sweepFloats / 32.0));
      std::printf("sweep.dram_stride_%d_request_cycles %.3f\n", stride, perRequest.back());
    }
    int sectorStride = 32;
    for (size_t i = 0; i + 1 < perRequest.size(); ++i) {
      if (perRequest[i + 1] < perRequest[i] * 1.15 && i > 0) {
        sectorStride = 1 << i;
        break;
      }
    }
    std::printf("dram.sector_bytes %d\n", 4 * sectorStride);
    std::printf("dram.uncoalesced_request_cycles %.3f\n", perRequest.back());
    // L2: a buffer of a quarter of L2 read many times.
    const long long l2Floats = prop.l2CacheSize / 16;
    const int passes = 64;
    ms = medianMs(c, [&] { streamRead<<<blocks, threads>>>(a, l2Floats, 1, passes, b); });
    std::printf("l2.bandwidth_gbs %.1f\n", static_cast<double>(l2Floats) * 4 * passes / (ms * 1e6));
    requests = l2Floats / 32.0 * passes;
    std::printf("l2.coalesced_request_cycles %.3f\n", ms * 1e6 * c.clockGhz * c.sms / requests);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
  }
  // Barriers: cycles per iteration, one block alone (clock64) and B blocks per SM (events; the SM's
  // iteration time with B blocks resident), by warps per block W.
  {
    auto barrier = [&](auto kernel, const char* body) {
      for (int w = 1; w <= 32; w *= 2) {
        const int threads = 32 * w, iters = 2048;
        const unsigned mask = threads - 1;
        medianMs(c, [&] { kernel<<<1, threads>>>(iters, mask, dF, dCycles); }, 3);
        std::printf("barrier.%s_w%d_alone_cycles %.2f\n", body, w, static_cast<double>(readCycles(dCycles)) / iters);
        // Blocks per SM when the SM is full of them (threads or the block limit; the kernel's 4 KiB
        // of shared memory and few registers leave these two).
        const int full = std::max(1, std::min(prop.maxBlocksPerMultiProcessor, prop.maxThreadsPerMultiProcessor / threads));
        for (int b : {1, 2, 4, full}) {
          if (b > full) continue;
          const int blocksPerSm = b;
          const double ms = medianMs(c, [&] { kernel<<<c.sms * blocksPerSm, threads>>>(iters, mask, dF, dCycles); }, 5);
          std::printf("barrier.%s_w%d_b%d_cycles %.2f\n", body, w, blocksPerSm, ms * 1e6 * c.clockGhz / iters);
          if (b == full) break;
        }
      }
    };
    barrier(barrierLoop<0, 0>, "bare");
    barrier(barrierLoop<1, 0>, "exchange");
    barrier(barrierLoop<2, 8>, "fma8");
    barrier(barrierLoop<2, 32>, "fma32");
  }

  // Atomics: ns per lane operation over the whole GPU, 2^24 operations.
  {
    const long long n = 1LL << 24;
    const unsigned maxAddrs = 1u << 16;
    const int maxSpread = 32;
    unsigned *bins = nullptr, *sink = nullptr;
    CHECK(cudaMalloc(&bins, sizeof(unsigned) * maxAddrs * maxSpread));
    CHECK(cudaMalloc(&sink, sizeof(unsigned)));
    CHECK(cudaMemset(bins, 0, sizeof(unsigned) * maxAddrs * maxSpread));
    const int blocks = c.sms * 8, threads = 256;
    auto run = [&](auto kernel, const char* kind, int group, unsigned addrs, int spread) {
      const double ms = medianMs(c, [&] { kernel<<<blocks, threads>>>(bins, n, group, addrs, spread, sink); }, 5);
      std::printf("atomic.%s_g%d_a%u_s%d_ns %.4f\n", kind, group, addrs, spread, ms * 1e6 / n);
    };
    for (unsigned a : {1u, 2u, 32u, 1024u, 65536u}) {
      for (int g : {1, 4, 32}) {
        if (a == 1 && g != 32) continue;  // one address: every lane shares it whatever the group
        for (int s : {1, 32}) {
          if (a == 1 && s != 1) continue;
          run(atomicSweep<0>, "red_u32", g, a, s);
          run(atomicSweep<1>, "red_f32", g, a, s);
        }
      }
    }
    for (unsigned a : {2u, 64u, 4096u, 65536u}) {  // histograms of uniform keys
      run(atomicSweep<0>, "red_u32", 0, a, 1);
      run(atomicSweep<1>, "red_f32", 0, a, 1);
      run(atomicSweep<2>, "atom_u32", 0, a, 1);
    }
    run(atomicSweep<2>, "atom_u32", 32, 1, 1);
    run(atomicSweep<2>, "atom_u32", 1, 32, 32);
    CHECK(cudaFree(bins));
    CHECK(cudaFree(sink));
  }

  // Stores by stride: SM cycles per warp store instruction (2^24 stores into 1 GiB).
  {
    const int logWords = 28;
    float* buf = nullptr;
    CHECK(cudaMalloc(&buf, sizeof(float) << logWords));
    const long long n = 1LL << 24;
    const int blocks = c.sms * 8, threads = 256;
    for (long long stride : {1LL, 2LL, 4LL, 8LL, 16LL, 32LL, 64LL, 1024LL, 4096LL}) {
      const double ms = medianMs(c, [&] { streamWrite<<<blocks, threads>>>(buf, n, stride, logWords); }, 5);
      std::printf("sweep.store_stride_%lld_request_cycles %.3f\n", stride, ms * 1e6 * c.clockGhz * c.sms / (n / 32.0));
    }
    CHECK(cudaFree(buf));
  }

  // Column stores (a 16384 x 16384 array of words, 1 GiB): ns per sector write of the chip, each
  // warp store writing one word into each of 32 sectors; W words of a sector per block.
  {
    const long long rows = 16384, cols = 16384;
    float* buf = nullptr;
    CHECK(cudaMalloc(&buf, sizeof(float) * rows * cols));
    for (int w : {8, 32}) {
      const dim3 grid(static_cast<unsigned>(cols / w), static_cast<unsigned>(rows / 32)), block(32, w);
      const double ms = medianMs(c, [&] { columnStore<<<grid, block>>>(buf, cols); }, 5);
      std::printf("sweep.column_store_w%d_sector_write_ns %.5f\n", w, ms * 1e6 / static_cast<double>(rows * cols));
    }
    CHECK(cudaFree(buf));
  }

  CHECK(cudaFree(dF));
  CHECK(cudaFree(dD));
  CHECK(cudaFree(dI));
  CHECK(cudaFree(dCycles));
  return 0;
}
