/* CORR: correlation matrix of M variables over N samples (PolyBench/GPU's correlation), written
 * for Foresight's C loop frontend. Four kernels: column means, standard deviations, centring and
 * scaling (2-D), and the symmetric correlation matrix (1-D over j1, triangular inner loop).
 * Run: foresight predict examples/cloop/corr.c --gpu tk1 */
#include <math.h>
#ifndef N
#define N 1024
#endif
#pragma cgpredict trace(N=128)

float data[N][N], mean[N], stddev[N], symmat[N][N];

static void correlation(float float_n) {
  const float eps = 0.005f;
#pragma cgpredict kernel name(corr_mean) grid(1) block(256)
  for (int j = 0; j < N; j++) {
    mean[j] = 0;
    for (int i = 0; i < N; i++) mean[j] += data[i][j];
    mean[j] /= float_n;
  }
#pragma cgpredict kernel name(corr_std) grid(1) block(256)
  for (int j = 0; j < N; j++) {
    stddev[j] = 0;
    for (int i = 0; i < N; i++) stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] = sqrtf(stddev[j] / float_n);
    stddev[j] = stddev[j] <= eps ? 1.0f : stddev[j];
  }
#pragma cgpredict kernel name(corr_reduce) grid(2) block(32,8)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= sqrtf(float_n) * stddev[j];
    }
#pragma cgpredict kernel name(corr_corr) grid(1) block(256)
  for (int j1 = 0; j1 < N - 1; j1++) {
    symmat[j1][j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < N; j2++) {
      symmat[j1][j2] = 0;
      for (int i = 0; i < N; i++) symmat[j1][j2] += data[i][j1] * data[i][j2];
      symmat[j2][j1] = symmat[j1][j2];
    }
  }
  symmat[N - 1][N - 1] = 1.0f;
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) data[i][j] = (float)(i * j) / N + (float)i;
  correlation((float)N);
  return 0;
}
