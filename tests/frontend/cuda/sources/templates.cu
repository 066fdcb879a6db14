// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): kernels chosen by the name people write (docs/input-cuda.md
// "Kernel names"): two instantiations of one template, a template over a type, and a kernel in
// a namespace.
template <int BLOCK>
__global__ void block_sum(const float* in, float* out) {
  __shared__ float partial[BLOCK];
  partial[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

template <typename T>
__global__ void scale(T* data, T factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

namespace ops {
__global__ void fill(float* out, float value) { out[blockIdx.x * blockDim.x + threadIdx.x] = value; }
}  // namespace ops

template __global__ void block_sum<128>(const float*, float*);
template __global__ void block_sum<256>(const float*, float*);
template __global__ void scale<float>(float*, float, int);
