/* 3MM: G = (A B) (C D) as three matrix products (PolyBench/GPU's 3mm, written for Foresight's C
 * loop frontend): E = A B, F = C D, G = E F. Three kernels.
 * Run: foresight predict examples/cloop/3mm.c --gpu tk1 */
#ifndef N
#define N 2048
#endif
#pragma cgpredict trace(N=128)

float A[N][N], B[N][N], C[N][N], D[N][N], E[N][N], F[N][N], G[N][N];

static void mm3(void) {
#pragma cgpredict kernel name(mm3_e) grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      E[i][j] = 0;
      for (int k = 0; k < N; k++) E[i][j] += A[i][k] * B[k][j];
    }
#pragma cgpredict kernel name(mm3_f) grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      F[i][j] = 0;
      for (int k = 0; k < N; k++) F[i][j] += C[i][k] * D[k][j];
    }
#pragma cgpredict kernel name(mm3_g) grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      G[i][j] = 0;
      for (int k = 0; k < N; k++) G[i][j] += E[i][k] * F[k][j];
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
  mm3();
  return 0;
}
