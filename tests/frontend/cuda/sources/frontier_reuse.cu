// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): frontier_lines.cu on bool masks that the kernel clears, as
// Rodinia's BFS does (written fresh). ptxas reuses the register of the mask's byte load for the
// loop's start, so only the reaching load may seed the `for`'s induction variable.
struct Node {
  int starting;
  int no_of_edges;
};
extern "C" __global__ void frontier_reuse(const Node* nodes, const int* edges, bool* mask, bool* updating,
                                          const bool* visited, int* cost, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && mask[tid]) {
    mask[tid] = false;
    for (int i = nodes[tid].starting;
         i < nodes[tid].no_of_edges + nodes[tid].starting;
         i++) {
      const int id = edges[i];
      if (!visited[id]) {
        cost[id] = cost[tid] + 1;
        updating[id] = true;
      }
    }
  }
}
