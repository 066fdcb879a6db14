// SPDX-License-Identifier: Apache-2.0
// CSR sparse matrix-vector product, one warp per row (SHOC's vector kernel): every lane of a
// warp reads the same rowDelimiters entries (a broadcast, PORPLE's case for constant memory),
// the lanes stride over the row's nonzeros, and a shuffle reduction sums them.
// foresight place examples/place/spmv_vector.cu --gpu k20c --grid 512 --block 128 --arg rows=2048 --trip spmv_vector.cu:15=2 --array vec=8192 --array rowDelimiters=8196
__global__ void spmv_vector(const float* val, const int* cols, const int* rowDelimiters, const float* vec,
                            float* out, int rows) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32;
  int lane = t % 32;
  if (row < rows) {
    int begin = rowDelimiters[row];
    int end = rowDelimiters[row + 1];
    float sum = 0.0f;
    for (int j = begin + lane; j < end; j += 32) {
      sum += val[j] * vec[cols[j]];
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) out[row] = sum;
  }
}
