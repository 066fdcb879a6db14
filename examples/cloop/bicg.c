/* BICG: the BiCGStab sub-kernel s = A^T r, q = A p (PolyBench/GPU's bicg), written for Foresight's
 * C loop frontend. Two 1-D kernels: s (column walk, coalesced) and q (row walk, uncoalesced).
 * Run: foresight predict examples/cloop/bicg.c --gpu tk1 */
#ifndef N
#define N 4096
#endif
#pragma cgpredict trace(N=1024)

float A[N][N], r[N], s[N], p[N], q[N];

static void bicg(void) {
#pragma cgpredict kernel name(bicg_s) grid(1) block(256)
  for (int j = 0; j < N; j++) {
    s[j] = 0;
    for (int i = 0; i < N; i++) s[j] += r[i] * A[i][j];
  }
#pragma cgpredict kernel name(bicg_q) grid(1) block(256)
  for (int i = 0; i < N; i++) {
    q[i] = 0;
    for (int j = 0; j < N; j++) q[i] += A[i][j] * p[j];
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    r[i] = (float)i * 3.14159f;
    p[i] = (float)i * 2.71828f;
    for (int j = 0; j < N; j++) A[i][j] = (float)(i * j % 11) / N;
  }
  bicg();
  return 0;
}
