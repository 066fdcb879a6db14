/* 2MM: D = alpha * A * B * C + beta * D as two matrix products (PolyBench/GPU's 2mm, written
 * for Foresight's C loop frontend): tmp = alpha A B, then D = beta D + tmp C. Two kernels.
 * Run: foresight predict examples/cloop/2mm.c --gpu tk1 */
#ifndef N
#define N 4096
#endif
#pragma cgpredict trace(N=128)

float A[N][N], B[N][N], C[N][N], D[N][N], tmp[N][N];

static void mm2(float alpha, float beta) {
#pragma cgpredict kernel name(mm2_tmp) grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      tmp[i][j] = 0;
      for (int k = 0; k < N; k++) tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
#pragma cgpredict kernel name(mm2_d) grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      D[i][j] *= beta;
      for (int k = 0; k < N; k++) D[i][j] += tmp[i][k] * C[k][j];
    }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)(i * j % 7) / N;
      B[i][j] = (float)(i * (j + 1) % 5) / N;
      C[i][j] = (float)(i * (j + 3) % 11) / N;
      D[i][j] = (float)(i * (j + 2) % 13) / N;
    }
  mm2(1.5f, 1.2f);
  return 0;
}
