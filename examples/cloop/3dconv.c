/* 3DCONV: 3x3x3-stencil convolution of a 3-D volume (PolyBench/GPU's 3DConvolution), written for
 * Foresight's C loop frontend. As in the CUDA version, one kernel launch per plane i (the i loop
 * stays on the host); each launch maps j -> y, k -> x.
 * Run: foresight predict examples/cloop/3dconv.c --gpu tk1 */
#ifndef N
#define N 256
#endif
#pragma cgpredict trace(N=64)

float A[N][N][N], B[N][N][N];

static void conv3d(void) {
  const float c11 = 2, c12 = -3, c13 = 4, c21 = 5, c22 = 6, c23 = 7, c31 = -8, c32 = -9, c33 = 10;
  for (int i = 1; i < N - 1; i++) {
#pragma cgpredict kernel grid(2) block(32,8)
    for (int j = 1; j < N - 1; j++)
      for (int k = 1; k < N - 1; k++)
        B[i][j][k] = c11 * A[i - 1][j - 1][k - 1] + c13 * A[i + 1][j - 1][k - 1] +
                     c21 * A[i - 1][j - 1][k - 1] + c23 * A[i + 1][j - 1][k - 1] +
                     c31 * A[i - 1][j - 1][k - 1] + c33 * A[i + 1][j - 1][k - 1] +
                     c12 * A[i][j - 1][k] + c22 * A[i][j][k] + c32 * A[i][j + 1][k] +
                     c11 * A[i - 1][j - 1][k + 1] + c13 * A[i + 1][j - 1][k + 1] +
                     c21 * A[i - 1][j][k + 1] + c23 * A[i + 1][j][k + 1] +
                     c31 * A[i - 1][j + 1][k + 1] + c33 * A[i + 1][j + 1][k + 1];
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) A[i][j][k] = (float)((i + j + k) % 12) / 12.0f;
  conv3d();
  return 0;
}
