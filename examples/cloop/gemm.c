/* GEMM: C = alpha * A * B + beta * C (PolyBench/GPU's gemm, written for Foresight's C loop
 * frontend). One GPU thread per C element: i -> threadIdx.y, j -> threadIdx.x, k sequential.
 * Run: foresight predict examples/cloop/gemm.c --gpu tk1          (N = 1024, CGPredict Table 4)
 *      foresight predict examples/cloop/gemm.c --gpu tk1 -D N=2048 */
#ifndef N
#define N 1024
#endif
#pragma cgpredict trace(N=128)

float A[N][N], B[N][N], C[N][N];

static void gemm(float alpha, float beta) {
#pragma cgpredict kernel grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      C[i][j] *= beta;
      for (int k = 0; k < N; k++) C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)(i * j % 7) / N;
      B[i][j] = (float)((i + 1) * j % 5) / N;
      C[i][j] = (float)((i + 2) * j % 3) / N;
    }
  gemm(32412.0f, 2123.0f);
  return 0;
}
