// SPDX-License-Identifier: Apache-2.0
// A 1-D 9-point stencil whose weights come from a small coefficient table: every lane reads the
// same coef[k] (warp-uniform, constant memory's case), and neighbouring threads reread each
// other's inputs (reuse across a block's threads: shared memory's case).
// foresight place examples/place/stencil_coef.cu --gpu k20c --grid 256 --block 256 --arg n=65536 --array coef=36
#define RADIUS 4
__global__ void stencil_coef(const float* in, const float* coef, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= RADIUS && i < n - RADIUS) {
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
      sum += coef[k + RADIUS] * in[i + k];
    }
    out[i] = sum;
  }
}
