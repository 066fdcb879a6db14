/* SYRK tiled through shared memory by hand (CGPredict Table 5), written for Foresight's C loop
 * frontend. The tile of the block's rows j (Bs) is read down a column (Bs[tj][k]): the 32 lanes
 * hit one bank in 16 different 256-B segments, a 16-way conflict. As with gemm-tiled.c, only the
 * address trace is meaningful.
 * Run: foresight predict examples/cloop/syrk-tiled.c --gpu tk1          (paper: 713.42 ms) */
#ifndef N
#define N 1024
#endif
#pragma cgpredict trace(N=128)

float A[N][N], C[N][N];
float As[32][32], Bs[32][32];

static void syrk_tiled(float alpha, float beta) {
#pragma cgpredict kernel grid(2) block(32,32) shared(As,Bs)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      const int ti = i % 32, tj = j % 32;
      float acc = 0;
      for (int kk = 0; kk < N; kk += 32) {
        As[ti][tj] = A[i][kk + tj];
        Bs[ti][tj] = A[j - tj + ti][kk + tj];
        for (int k = 0; k < 32; k++) acc += As[ti][k] * Bs[tj][k];
      }
      C[i][j] = alpha * acc + beta * C[i][j];
    }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)(i * j % 7) / N;
      C[i][j] = (float)((i + 2) * j % 3) / N;
    }
  syrk_tiled(12435.0f, 4546.0f);
  return 0;
}
