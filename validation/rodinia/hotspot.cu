// SPDX-License-Identifier: Apache-2.0
// Rodinia-like HOTSPOT: one explicit time step of the chip thermal model on a ROWS x COLS grid,
// 5-point stencil plus the power term, one thread per cell; the manifest launches ITER steps.
#ifndef BX
#define BX 16
#endif
#ifndef BY
#define BY 16
#endif

extern "C" __global__ void hotspot_step(const float* power, const float* temp, float* out, int rows, int cols,
                                        float cap, float rx, float ry, float rz, float step) {
  int c = blockIdx.x * BX + threadIdx.x;
  int r = blockIdx.y * BY + threadIdx.y;
  if (r >= rows || c >= cols) return;
  const float amb = 80.0f;
  float t = temp[r * cols + c];
  float n = temp[(r > 0 ? r - 1 : r) * cols + c];
  float s = temp[(r < rows - 1 ? r + 1 : r) * cols + c];
  float w = temp[r * cols + (c > 0 ? c - 1 : c)];
  float e = temp[r * cols + (c < cols - 1 ? c + 1 : c)];
  float delta = (step / cap) * (power[r * cols + c] + (s + n - 2.0f * t) / ry + (e + w - 2.0f * t) / rx +
                                (amb - t) / rz);
  out[r * cols + c] = t + delta;
}
