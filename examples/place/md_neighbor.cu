// SPDX-License-Identifier: Apache-2.0
// Lennard-Jones forces over a neighbour list (after SHOC's md): neighList is stored
// neighbour-major (entry j of atom i at j * n + i, coalesced), positions are gathered through
// it (data-dependent), and each thread accumulates its atom's force.
// foresight place examples/place/md_neighbor.cu --gpu k20c --grid 64 --block 256 --arg n=16384 --arg maxNeighbors=32 --array position=262144 --branch md_neighbor.cu:17=0.5
__global__ void md_forces(const float4* position, const int* neighList, float4* force, int n, int maxNeighbors,
                          float cutsq, float lj1, float lj2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 ipos = position[i];
  float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int j = 0; j < maxNeighbors; ++j) {
    int k = neighList[j * n + i];
    float4 jpos = position[k];
    float dx = ipos.x - jpos.x, dy = ipos.y - jpos.y, dz = ipos.z - jpos.z;
    float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < cutsq) {
      float r2inv = 1.0f / r2;
      float r6inv = r2inv * r2inv * r2inv;
      float s = r2inv * r6inv * (lj1 * r6inv - lj2);
      f.x += dx * s;
      f.y += dy * s;
      f.z += dz * s;
    }
  }
  force[i] = f;
}
