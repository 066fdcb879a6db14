/* GEMM tiled through shared memory by hand (CGPredict Table 5), written for Foresight's C loop
 * frontend. Each pseudo-thread (i, j) of a 32x32 block loads one element of the A and B tiles
 * (As, Bs are hinted as shared memory), then reads a row of As and a column of Bs. The values the
 * sequential program computes are not GEMM's (the tiles are overwritten thread by thread); the
 * address trace is the tiled kernel's, which is all the analysis reads.
 * Run: foresight predict examples/cloop/gemm-tiled.c --gpu tk1          (paper: 105.75 ms) */
#ifndef N
#define N 1024
#endif
#pragma cgpredict trace(N=128)

float A[N][N], B[N][N], C[N][N];
float As[32][32], Bs[32][32];

static void gemm_tiled(float alpha, float beta) {
#pragma cgpredict kernel grid(2) block(32,32) shared(As,Bs)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      const int ti = i % 32, tj = j % 32;
      float acc = 0;
      for (int kk = 0; kk < N; kk += 32) {
        As[ti][tj] = A[i][kk + tj];
        Bs[ti][tj] = B[kk + ti][j];
        for (int k = 0; k < 32; k++) acc += As[ti][k] * Bs[k][tj];
      }
      C[i][j] = alpha * acc + beta * C[i][j];
    }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)(i * j % 7) / N;
      B[i][j] = (float)((i + 1) * j % 5) / N;
      C[i][j] = (float)((i + 2) * j % 3) / N;
    }
  gemm_tiled(32412.0f, 2123.0f);
  return 0;
}
