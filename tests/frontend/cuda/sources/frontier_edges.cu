// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): Rodinia BFS's frontier expansion, written fresh: a data-dependent
// `if` (line 11), a loop over `starting .. starting + no_of_edges` of a node record (line 12) and
// a data-dependent `if` in its body (line 14). Nothing but hints decides them.
struct Node {
  int starting;
  int no_of_edges;
};
extern "C" __global__ void frontier_edges(const Node* nodes, const int* edges, const int* mask, int* cost, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && mask[tid]) {
    for (int i = nodes[tid].starting; i < nodes[tid].no_of_edges + nodes[tid].starting; i++) {
      const int id = edges[i];
      if (cost[id] < 0) cost[id] = cost[tid] + 1;
    }
  }
}
