// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): as in Rodinia (nw, bfs, srad), the kernel is defined in a .cu
// that the main .cu includes; its parameter names come from there.
#include "include_kernel.cu"

void run(float* d, int n) { add_offset<<<(n + 255) / 256, 256>>>(d, 1.0f, n); }
