// SPDX-License-Identifier: Apache-2.0
// The resampling step of a particle filter (after Rodinia's findIndex): each thread finds the
// first CDF entry at or above its uniform draw u[i] by scanning the CDF, and takes that
// particle's coordinates. All lanes of a warp read the same CDF entry at the same time (warp-
// uniform: PORPLE puts CDF in constant memory); the scan is branch-free so its trip count is n.
// foresight place examples/place/particle_filter.cu --gpu k20c --grid 16 --block 128 --arg n=2048
__global__ void find_index(const float* CDF, const float* u, const float* arrayX, const float* arrayY,
                           float* xj, float* yj, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float draw = u[i];
    int index = n - 1;
    for (int x = n - 1; x >= 0; --x) {
      index = CDF[x] >= draw ? x : index;
    }
    xj[i] = arrayX[index];
    yj[i] = arrayY[index];
  }
}
