// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): a recursive device function, which nvcc cannot inline: the PTX
// keeps `.func _Z3fibi` with two `call`s to itself, the SASS a subroutine with CALL.REL/RET.
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __global__ void recursion(int* y, int n) {
  y[threadIdx.x] = fib(n);
}
