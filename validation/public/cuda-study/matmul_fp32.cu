// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after ahmadsharif1/cuda_study matmul/matmul.cu's five FP32 kernels (the
// same computations and launches, not a copy): C = A B with A m x k, B k x n and C m x n, all
// row-major floats (the sizes are arguments: the manifest defines M, K and N as macros). KIND picks the kernel, compiled under one name:
//   0  one thread per element of C, 16 x 16 blocks, the dot product straight from global memory;
//   1  32 x 32 tiles of A and B staged in shared memory, one element of C per thread;
//   2  128 x 128 tiles of C per block of 256 threads, each thread an 8 x 8 patch, K in steps of 8
//      staged in shared memory one float at a time;
//   3  as 2, the tiles loaded as float4 and the shared rows padded by 4 floats;
//   4  as 3 with two shared buffers: the next step's loads are issued before this step's sums.
// Every launch here divides the matrices evenly; the bounds tests of the original stay in.
#ifndef KIND
#define KIND 0
#endif

namespace {

constexpr int kBm = 128, kBn = 128, kBk = 8, kTm = 8, kTn = 8;
constexpr int kThreads = (kBm / kTm) * (kBn / kTn);  // 256
constexpr int kPad = 4;

// One float4 of A (along k) and one of B (along n) per thread and step, into buffer `s` and `t`.
template <int Pad>
__device__ void loadTilesVec(const float* A, const float* B, int m, int k, int n, int k0, int rowBase, int colBase,
                             float (*s)[kBk + Pad], float (*t)[kBn + Pad]) {
  const int tid = threadIdx.x;
  {
    const int r = tid / (kBk / 4), c = (tid % (kBk / 4)) * 4;
    const int gr = rowBase + r, gc = k0 + c;
    if (gr < m && gc + 3 < k) {
      const float4 v = *reinterpret_cast<const float4*>(&A[gr * k + gc]);
      s[r][c] = v.x;
      s[r][c + 1] = v.y;
      s[r][c + 2] = v.z;
      s[r][c + 3] = v.w;
    } else {
      for (int e = 0; e < 4; ++e) s[r][c + e] = (gr < m && gc + e < k) ? A[gr * k + gc + e] : 0.0f;
    }
  }
  {
    const int r = tid / (kBn / 4), c = (tid % (kBn / 4)) * 4;
    const int gr = k0 + r, gc = colBase + c;
    if (gr < k && gc + 3 < n) {
      const float4 v = *reinterpret_cast<const float4*>(&B[gr * n + gc]);
      t[r][c] = v.x;
      t[r][c + 1] = v.y;
      t[r][c + 2] = v.z;
      t[r][c + 3] = v.w;
    } else {
      for (int e = 0; e < 4; ++e) t[r][c + e] = (gr < k && gc + e < n) ? B[gr * n + gc + e] : 0.0f;
    }
  }
}

// The 8 x 8 outer products of one staged step.
template <int Pad>
__device__ void accumulate(float (&acc)[kTm][kTn], const float (*s)[kBk + Pad], const float (*t)[kBn + Pad], int myRow,
                           int myCol) {
#pragma unroll
  for (int kk = 0; kk < kBk; ++kk) {
    float a[kTm], b[kTn];
#pragma unroll
    for (int i = 0; i < kTm; ++i) a[i] = s[myRow + i][kk];
#pragma unroll
    for (int j = 0; j < kTn; ++j) b[j] = t[kk][myCol + j];
#pragma unroll
    for (int i = 0; i < kTm; ++i) {
#pragma unroll
      for (int j = 0; j < kTn; ++j) acc[i][j] += a[i] * b[j];
    }
  }
}

__device__ void storePatch(float* C, int m, int n, const float (&acc)[kTm][kTn], int row0, int col0) {
#pragma unroll
  for (int i = 0; i < kTm; ++i) {
    const int r = row0 + i;
    if (r >= m) continue;
#pragma unroll
    for (int j = 0; j < kTn; ++j) {
      if (col0 + j < n) C[r * n + col0 + j] = acc[i][j];
    }
  }
}

}  // namespace

extern "C" __global__ void matmul_fp32(const float* A, const float* B, float* C, int m, int k, int n) {
#if KIND == 0
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) sum += A[row * k + i] * B[i * n + col];
  C[row * n + col] = sum;
#elif KIND == 1
  constexpr int T = 32;
  __shared__ float sa[T][T];
  __shared__ float sb[T][T];
  const int row = blockIdx.y * T + threadIdx.y;
  const int col = blockIdx.x * T + threadIdx.x;
  float sum = 0.0f;
  for (int k0 = 0; k0 < k; k0 += T) {
    sa[threadIdx.y][threadIdx.x] = (row < m && k0 + threadIdx.x < k) ? A[row * k + k0 + threadIdx.x] : 0.0f;
    sb[threadIdx.y][threadIdx.x] = (k0 + threadIdx.y < k && col < n) ? B[(k0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < T; ++i) sum += sa[threadIdx.y][i] * sb[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = sum;
#elif KIND == 2
  __shared__ float sa[kBm][kBk];
  __shared__ float sb[kBk][kBn];
  const int rowBase = blockIdx.y * kBm, colBase = blockIdx.x * kBn;
  const int tid = threadIdx.x;
  const int myRow = (tid / (kBn / kTn)) * kTm, myCol = (tid % (kBn / kTn)) * kTn;
  float acc[kTm][kTn] = {};
  for (int k0 = 0; k0 < k; k0 += kBk) {
#pragma unroll
    for (int e = 0; e < kBm * kBk / kThreads; ++e) {
      const int idx = tid + e * kThreads, r = idx / kBk, c = idx % kBk;
      sa[r][c] = (rowBase + r < m && k0 + c < k) ? A[(rowBase + r) * k + k0 + c] : 0.0f;
    }
#pragma unroll
    for (int e = 0; e < kBk * kBn / kThreads; ++e) {
      const int idx = tid + e * kThreads, r = idx / kBn, c = idx % kBn;
      sb[r][c] = (k0 + r < k && colBase + c < n) ? B[(k0 + r) * n + colBase + c] : 0.0f;
    }
    __syncthreads();
    accumulate<0>(acc, sa, sb, myRow, myCol);
    __syncthreads();
  }
  storePatch(C, m, n, acc, rowBase + myRow, colBase + myCol);
#elif KIND == 3
  __shared__ float sa[kBm][kBk + kPad];
  __shared__ float sb[kBk][kBn + kPad];
  const int rowBase = blockIdx.y * kBm, colBase = blockIdx.x * kBn;
  const int tid = threadIdx.x;
  const int myRow = (tid / (kBn / kTn)) * kTm, myCol = (tid % (kBn / kTn)) * kTn;
  float acc[kTm][kTn] = {};
  for (int k0 = 0; k0 < k; k0 += kBk) {
    loadTilesVec<kPad>(A, B, m, k, n, k0, rowBase, colBase, sa, sb);
    __syncthreads();
    accumulate<kPad>(acc, sa, sb, myRow, myCol);
    __syncthreads();
  }
  storePatch(C, m, n, acc, rowBase + myRow, colBase + myCol);
#else
  __shared__ float sa[2][kBm][kBk + kPad];
  __shared__ float sb[2][kBk][kBn + kPad];
  const int rowBase = blockIdx.y * kBm, colBase = blockIdx.x * kBn;
  const int tid = threadIdx.x;
  const int myRow = (tid / (kBn / kTn)) * kTm, myCol = (tid % (kBn / kTn)) * kTn;
  float acc[kTm][kTn] = {};
  const int steps = (k + kBk - 1) / kBk;
  loadTilesVec<kPad>(A, B, m, k, n, 0, rowBase, colBase, sa[0], sb[0]);
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    const int cur = s & 1;
    if (s + 1 < steps) loadTilesVec<kPad>(A, B, m, k, n, (s + 1) * kBk, rowBase, colBase, sa[1 - cur], sb[1 - cur]);
    accumulate<kPad>(acc, sa[cur], sb[cur], myRow, myCol);
    __syncthreads();
  }
  storePatch(C, m, n, acc, rowBase + myRow, colBase + myCol);
#endif
}
