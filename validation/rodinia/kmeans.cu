// SPDX-License-Identifier: Apache-2.0
// Rodinia-like KMEANS assignment step: each thread takes one point (features stored
// feature-major, so the warp reads consecutive points) and finds its nearest of K centres.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void kmeans_assign(const float* features, const float* centres, int* membership, int npoints,
                                         int nfeatures, int nclusters) {
  int p = blockIdx.x * BLOCK + threadIdx.x;
  if (p >= npoints) return;
  int best = 0;
  float bestDist = 3.4e38f;
  for (int c = 0; c < nclusters; ++c) {
    float d = 0.0f;
    for (int f = 0; f < nfeatures; ++f) {
      float diff = features[f * npoints + p] - centres[c * nfeatures + f];
      d += diff * diff;
    }
    if (d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  membership[p] = best;
}
