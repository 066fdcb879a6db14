// SPDX-License-Identifier: Apache-2.0
// Rodinia-like SRAD (speckle-reducing anisotropic diffusion): kernel 1 computes the four
// directional derivatives and the diffusion coefficient per pixel, kernel 2 updates the image.
#ifndef BX
#define BX 16
#endif
#ifndef BY
#define BY 16
#endif

extern "C" __global__ void srad1(const float* J, float* dN, float* dS, float* dW, float* dE, float* coef, int rows,
                                 int cols, float q0sqr) {
  int c = blockIdx.x * BX + threadIdx.x;
  int r = blockIdx.y * BY + threadIdx.y;
  if (r >= rows || c >= cols) return;
  int k = r * cols + c;
  float jc = J[k];
  float n = J[(r > 0 ? r - 1 : 0) * cols + c] - jc;
  float s = J[(r < rows - 1 ? r + 1 : rows - 1) * cols + c] - jc;
  float w = J[r * cols + (c > 0 ? c - 1 : 0)] - jc;
  float e = J[r * cols + (c < cols - 1 ? c + 1 : cols - 1)] - jc;
  float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  float l = (n + s + w + e) / jc;
  float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
  float den = 1.0f + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float cv = 1.0f / (1.0f + den);
  dN[k] = n;
  dS[k] = s;
  dW[k] = w;
  dE[k] = e;
  coef[k] = cv < 0.0f ? 0.0f : (cv > 1.0f ? 1.0f : cv);
}

extern "C" __global__ void srad2(float* J, const float* dN, const float* dS, const float* dW, const float* dE,
                                 const float* coef, int rows, int cols, float lambda) {
  int c = blockIdx.x * BX + threadIdx.x;
  int r = blockIdx.y * BY + threadIdx.y;
  if (r >= rows || c >= cols) return;
  int k = r * cols + c;
  float cn = coef[k];
  float cs = coef[(r < rows - 1 ? r + 1 : rows - 1) * cols + c];
  float cw = cn;
  float ce = coef[r * cols + (c < cols - 1 ? c + 1 : cols - 1)];
  float d = cn * dN[k] + cs * dS[k] + cw * dW[k] + ce * dE[k];
  J[k] = J[k] + 0.25f * lambda * d;
}
