// SPDX-License-Identifier: Apache-2.0
// Register-tiled SGEMM, C = A·B (n×n, row-major, n a multiple of 128): a 128×128 block tile,
// 256 threads with an 8×8 sub-tile of C each, k-depth 8 staged in shared memory (A transposed
// so both operands are read with 128-bit shared loads). Per k-step a thread issues 64 FFMA and
// 4 LDS.128: the shape Lai's bound assumes.
// foresight bound examples/bound/gemm_regtile.cu --kernel gemm_regtile --gpu h100 \
//   --grid 16,16 --block 256 --arg n=2048
#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

__global__ void __launch_bounds__(256) gemm_regtile(const float* __restrict__ a, const float* __restrict__ b,
                                                    float* __restrict__ c, int n) {
  __shared__ __align__(16) float as[BK][BM];  // A tile, transposed: as[k][m]
  __shared__ __align__(16) float bs[BK][BN];
  const int t = threadIdx.x;
  const int tRow = t / (BN / TN);  // 0..15
  const int tCol = t % (BN / TN);  // 0..15
  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;
  // Global → shared: each thread copies 4 elements of A (one float4 of a row) and 4 of B.
  const int aRow = t / (BK / 4), aCol = (t % (BK / 4)) * 4;  // 128 rows × 2 float4
  const int bRow = t / (BN / 4), bCol = (t % (BN / 4)) * 4;  // 8 rows × 32 float4
  float acc[TM][TN] = {};
  float fa[TM], fb[TN];
  for (int k0 = 0; k0 < n; k0 += BK) {
    const float4 va = *reinterpret_cast<const float4*>(&a[(blockRow + aRow) * n + k0 + aCol]);
    as[aCol + 0][aRow] = va.x;
    as[aCol + 1][aRow] = va.y;
    as[aCol + 2][aRow] = va.z;
    as[aCol + 3][aRow] = va.w;
    *reinterpret_cast<float4*>(&bs[bRow][bCol]) =
        *reinterpret_cast<const float4*>(&b[(k0 + bRow) * n + blockCol + bCol]);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      *reinterpret_cast<float4*>(&fa[0]) = *reinterpret_cast<const float4*>(&as[k][tRow * TM]);
      *reinterpret_cast<float4*>(&fa[4]) = *reinterpret_cast<const float4*>(&as[k][tRow * TM + 4]);
      *reinterpret_cast<float4*>(&fb[0]) = *reinterpret_cast<const float4*>(&bs[k][tCol * TN]);
      *reinterpret_cast<float4*>(&fb[4]) = *reinterpret_cast<const float4*>(&bs[k][tCol * TN + 4]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += fa[i] * fb[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      *reinterpret_cast<float4*>(&c[(blockRow + tRow * TM + i) * n + blockCol + tCol * TN + j]) =
          make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
    }
}
