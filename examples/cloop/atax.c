/* ATAX: y = A^T (A x) (PolyBench/GPU's atax), written for Foresight's C loop frontend. Two 1-D
 * kernels: tmp = A x (thread i walks row i: uncoalesced across the warp) and y = A^T tmp
 * (thread j walks column j: coalesced).
 * Run: foresight predict examples/cloop/atax.c --gpu tk1 */
#ifndef N
#define N 4096
#endif
#pragma cgpredict trace(N=1024)

float A[N][N], x[N], y[N], tmp[N];

static void atax(void) {
#pragma cgpredict kernel name(atax_tmp) grid(1) block(256)
  for (int i = 0; i < N; i++) {
    tmp[i] = 0;
    for (int j = 0; j < N; j++) tmp[i] += A[i][j] * x[j];
  }
#pragma cgpredict kernel name(atax_y) grid(1) block(256)
  for (int j = 0; j < N; j++) {
    y[j] = 0;
    for (int i = 0; i < N; i++) y[j] += A[i][j] * tmp[i];
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float)i * 3.14159f;
    for (int j = 0; j < N; j++) A[i][j] = (float)(i * (j + 1) % 7) / N;
  }
  atax();
  return 0;
}
