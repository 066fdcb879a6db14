/* FDTD-2D: 2-D finite-difference time-domain kernel (PolyBench/GPU's fdtd2d), written for
 * Foresight's C loop frontend. Three 2-D kernels per time step, launched TMAX times each (the
 * time loop stays on the host).
 * Run: foresight predict examples/cloop/fdtd2d.c --gpu tk1 */
#ifndef N
#define N 4096
#endif
#ifndef TMAX
#define TMAX 500
#endif
#pragma cgpredict trace(N=64)

float ex[N][N], ey[N][N], hz[N][N], fict[TMAX];

static void fdtd(void) {
  for (int t = 0; t < TMAX; t++) {
#pragma cgpredict kernel name(fdtd_ey) grid(2) block(32,8)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        if (i == 0) ey[0][j] = fict[t];
        else ey[i][j] = ey[i][j] - 0.5f * (hz[i][j] - hz[i - 1][j]);
      }
#pragma cgpredict kernel name(fdtd_ex) grid(2) block(32,8)
    for (int i = 0; i < N; i++)
      for (int j = 1; j < N; j++) ex[i][j] = ex[i][j] - 0.5f * (hz[i][j] - hz[i][j - 1]);
#pragma cgpredict kernel name(fdtd_hz) grid(2) block(32,8)
    for (int i = 0; i < N - 1; i++)
      for (int j = 0; j < N - 1; j++)
        hz[i][j] = hz[i][j] - 0.7f * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

int main(void) {
  for (int t = 0; t < TMAX; t++) fict[t] = (float)t;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      ex[i][j] = (float)(i * (j + 1)) / N;
      ey[i][j] = (float)((i - 1) * (j + 2)) / N;
      hz[i][j] = (float)((i - 9) * (j + 4)) / N;
    }
  fdtd();
  return 0;
}
