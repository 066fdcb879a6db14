/* GESUMMV: y = alpha A x + beta B x (PolyBench/GPU's gesummv), written for Foresight's C loop
 * frontend. One 1-D kernel; thread i walks rows i of A and B (uncoalesced), x[j] is constant.
 * Run: foresight predict examples/cloop/gesummv.c --gpu tk1 */
#ifndef N
#define N 4096
#endif
#pragma cgpredict trace(N=1024)

float A[N][N], B[N][N], x[N], y[N], tmp[N];

static void gesummv(float alpha, float beta) {
#pragma cgpredict kernel grid(1) block(256)
  for (int i = 0; i < N; i++) {
    tmp[i] = 0;
    y[i] = 0;
    for (int j = 0; j < N; j++) {
      tmp[i] += A[i][j] * x[j];
      y[i] += B[i][j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 9) / N;
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)(i * j % 7) / N;
      B[i][j] = (float)(i * (j + 2) % 5) / N;
    }
  }
  gesummv(43532.0f, 12313.0f);
  return 0;
}
