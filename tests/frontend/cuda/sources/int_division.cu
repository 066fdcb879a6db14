// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): addresses built from integer division and remainder by a
// runtime divisor, which ptxas lowers to I2F.U32.RP, MUFU.RCP, F2I.U32.TRUNC and integer
// corrections. Thread i reads in[(i % cols) * rows + i / cols] (a transposed walk) and
// in[(unsigned)i / ucols] (unsigned quotient).
extern "C" __global__ void int_division(const float* in, float* out, int cols, int rows, unsigned ucols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[(i % cols) * rows + i / cols];
  float b = in[static_cast<unsigned>(i) / ucols];
  out[i] = a + b;
}
