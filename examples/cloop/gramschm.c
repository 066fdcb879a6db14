/* GRAMSCHM: Gram-Schmidt QR decomposition (PolyBench/GPU's gramschmidt), written for Foresight's
 * C loop frontend. Per column k (host loop): the column norm (a one-thread kernel in the CUDA
 * version; here computed on the host, outside any marked nest), Q's column k (1-D over i), and
 * the update of the remaining columns (1-D over j > k).
 * Run: foresight predict examples/cloop/gramschm.c --gpu tk1 */
#include <math.h>
#ifndef N
#define N 512
#endif
#pragma cgpredict trace(N=128)

float A[N][N], R[N][N], Q[N][N];

static void gramschmidt(void) {
  for (int k = 0; k < N; k++) {
    float nrm = 0;
    for (int i = 0; i < N; i++) nrm += A[i][k] * A[i][k];
    R[k][k] = sqrtf(nrm);
#pragma cgpredict kernel name(gs_q) grid(1) block(256)
    for (int i = 0; i < N; i++) Q[i][k] = A[i][k] / R[k][k];
#pragma cgpredict kernel name(gs_update) grid(1) block(256)
    for (int j = k + 1; j < N; j++) {
      R[k][j] = 0;
      for (int i = 0; i < N; i++) R[k][j] += Q[i][k] * A[i][j];
      for (int i = 0; i < N; i++) A[i][j] -= Q[i][k] * R[k][j];
    }
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) A[i][j] = (float)((i * j) % 13 + 1) / N;
  gramschmidt();
  return 0;
}
