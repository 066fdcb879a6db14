// SPDX-License-Identifier: Apache-2.0
// Rodinia-like BFS: the two level-synchronous kernels (expand the frontier over CSR edges; then
// commit the next frontier), on a torus graph of degree 4 so that every level has the same shape.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void bfs_expand(const int* rowptr, const int* cols, int* mask, int* updating,
                                      const int* visited, int* cost, int nodes) {
  int v = blockIdx.x * BLOCK + threadIdx.x;
  if (v < nodes && mask[v]) {
    mask[v] = 0;
    for (int e = rowptr[v]; e < rowptr[v + 1]; ++e) {
      int u = cols[e];
      if (!visited[u]) {
        cost[u] = cost[v] + 1;
        updating[u] = 1;
      }
    }
  }
}

extern "C" __global__ void bfs_commit(int* mask, int* updating, int* visited, int* over, int nodes) {
  int v = blockIdx.x * BLOCK + threadIdx.x;
  if (v < nodes && updating[v]) {
    mask[v] = 1;
    visited[v] = 1;
    *over = 1;
    updating[v] = 0;
  }
}
