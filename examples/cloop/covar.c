/* COVAR: covariance matrix of M variables over N samples (PolyBench/GPU's covariance), written for
 * Foresight's C loop frontend. Three kernels: column means, centring (2-D), and the symmetric
 * covariance matrix (1-D over j1, triangular inner loop).
 * Run: foresight predict examples/cloop/covar.c --gpu tk1 */
#ifndef N
#define N 1024
#endif
#pragma cgpredict trace(N=128)

float data[N][N], mean[N], symmat[N][N];

static void covariance(float float_n) {
#pragma cgpredict kernel name(covar_mean) grid(1) block(256)
  for (int j = 0; j < N; j++) {
    mean[j] = 0;
    for (int i = 0; i < N; i++) mean[j] += data[i][j];
    mean[j] /= float_n;
  }
#pragma cgpredict kernel name(covar_reduce) grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) data[i][j] -= mean[j];
#pragma cgpredict kernel name(covar_covar) grid(1) block(256)
  for (int j1 = 0; j1 < N; j1++)
    for (int j2 = j1; j2 < N; j2++) {
      symmat[j1][j2] = 0;
      for (int i = 0; i < N; i++) symmat[j1][j2] += data[i][j1] * data[i][j2];
      symmat[j2][j1] = symmat[j1][j2];
    }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) data[i][j] = (float)(i * j) / N;
  covariance((float)N);
  return 0;
}
