/* SYRK: C = alpha * A * A^T + beta * C (PolyBench/GPU's syrk, full matrix as its CUDA version
 * computes it). One thread per C element: i -> threadIdx.y, j -> threadIdx.x. A[j][k] walks down a
 * column across a warp (uncoalesced), A[i][k] is the same for the whole warp (constant).
 * Run: foresight predict examples/cloop/syrk.c --gpu tk1 */
#ifndef N
#define N 1024
#endif
#pragma cgpredict trace(N=128)

float A[N][N], C[N][N];

static void syrk(float alpha, float beta) {
#pragma cgpredict kernel grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      C[i][j] *= beta;
      for (int k = 0; k < N; k++) C[i][j] += alpha * A[i][k] * A[j][k];
    }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)(i * j % 7) / N;
      C[i][j] = (float)((i + 2) * j % 3) / N;
    }
  syrk(12435.0f, 4546.0f);
  return 0;
}
