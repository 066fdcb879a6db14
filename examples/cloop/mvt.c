/* MVT: x1 += A y1, x2 += A^T y2 (PolyBench/GPU's mvt), written for Foresight's C loop frontend.
 * Two 1-D kernels: row walk (uncoalesced) and column walk (coalesced).
 * Run: foresight predict examples/cloop/mvt.c --gpu tk1 */
#ifndef N
#define N 4096
#endif
#pragma cgpredict trace(N=1024)

float A[N][N], x1[N], x2[N], y1[N], y2[N];

static void mvt(void) {
#pragma cgpredict kernel name(mvt_x1) grid(1) block(256)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) x1[i] += A[i][j] * y1[j];
#pragma cgpredict kernel name(mvt_x2) grid(1) block(256)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) x2[i] += A[j][i] * y2[j];
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x1[i] = 0;
    x2[i] = 0;
    y1[i] = (float)(i % 3) / N;
    y2[i] = (float)(i % 5) / N;
    for (int j = 0; j < N; j++) A[i][j] = (float)(i * j % 13) / N;
  }
  mvt();
  return 0;
}
