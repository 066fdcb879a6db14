/* 2DCONV: 3x3 convolution of a 2-D image (PolyBench/GPU's 2DConvolution), written for Foresight's
 * C loop frontend. One thread per interior pixel: i -> y, j -> x.
 * Run: foresight predict examples/cloop/2dconv.c --gpu tk1 */
#ifndef N
#define N 4096
#endif
#pragma cgpredict trace(N=512)

float A[N][N], B[N][N];

static void conv2d(void) {
  const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f, c12 = -0.3f, c22 = 0.6f, c32 = -0.9f,
              c13 = 0.4f, c23 = 0.7f, c33 = 0.10f;
#pragma cgpredict kernel grid(2) block(32,8)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      B[i][j] = c11 * A[i - 1][j - 1] + c12 * A[i][j - 1] + c13 * A[i + 1][j - 1] +
                c21 * A[i - 1][j] + c22 * A[i][j] + c23 * A[i + 1][j] +
                c31 * A[i - 1][j + 1] + c32 * A[i][j + 1] + c33 * A[i + 1][j + 1];
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) A[i][j] = (float)((i + j) % 17) / 17.0f;
  conv2d();
  return 0;
}
