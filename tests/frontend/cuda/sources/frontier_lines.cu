// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): frontier_edges.cu with its `for` written over three lines, as
// Rodinia's BFS writes it (written fresh): nvcc puts the start's load on line 12, the loop test
// and its loads on line 13, so `--trip frontier_lines.cu:13=N` must find the start elsewhere.
struct Node {
  int starting;
  int no_of_edges;
};
extern "C" __global__ void frontier_lines(const Node* nodes, const int* edges, const int* mask, int* cost, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && mask[tid]) {
    for (int i = nodes[tid].starting;
         i < nodes[tid].no_of_edges + nodes[tid].starting;
         i++) {
      const int id = edges[i];
      if (cost[id] < 0) cost[id] = cost[tid] + 1;
    }
  }
}
