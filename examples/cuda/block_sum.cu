// SPDX-License-Identifier: Apache-2.0
// A template kernel: each block of BLOCK threads sums BLOCK floats in shared memory (a tree
// reduction) and writes one partial sum. Pick an instantiation by the name people write:
// foresight predict examples/cuda/block_sum.cu --kernel "block_sum<256>" --gpu h100 --grid 4096 --block 256
template <int BLOCK>
__global__ void block_sum(const float* in, float* out) {
  __shared__ float tile[BLOCK];
  const unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned half = BLOCK / 2; half > 0; half >>= 1) {
    if (t < half) tile[t] += tile[t + half];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = tile[0];
}

template __global__ void block_sum<128>(const float*, float*);
template __global__ void block_sum<256>(const float*, float*);
template __global__ void block_sum<512>(const float*, float*);
