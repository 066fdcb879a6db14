/* SYR2K: C = alpha A B^T + alpha B A^T + beta C (PolyBench/GPU's syr2k, full matrix), written for
 * Foresight's C loop frontend. Per k-iteration: A[i][k], B[i][k] constant across the warp,
 * B[j][k], A[j][k] column walks (uncoalesced).
 * Run: foresight predict examples/cloop/syr2k.c --gpu tk1 */
#ifndef N
#define N 1024
#endif
#pragma cgpredict trace(N=128)

float A[N][N], B[N][N], C[N][N];

static void syr2k(float alpha, float beta) {
#pragma cgpredict kernel grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      C[i][j] *= beta;
      for (int k = 0; k < N; k++) C[i][j] += alpha * A[i][k] * B[j][k] + alpha * B[i][k] * A[j][k];
    }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)(i * j % 7) / N;
      B[i][j] = (float)(i * (j + 1) % 5) / N;
      C[i][j] = (float)((i + 2) * j % 3) / N;
    }
  syr2k(12435.0f, 4546.0f);
  return 0;
}
