// SPDX-License-Identifier: Apache-2.0
// Compile check of include/foresight/placement.cuh (ctest examples.placement_accessor_compiles,
// with nvcc): the stencil of examples/place/stencil_coef.cu reading its coefficient table
// through a PlacedArray, once with the placement chosen at run time and once per placement at
// compile time, and the host side of every placement. Nothing here runs without a GPU.
#include <foresight/placement.cuh>

#define RADIUS 4

__global__ void stencil_runtime(foresight::PlacedArray<float> coef, const float* in, float* out, int n) {
  extern __shared__ float tile[];
  const foresight::View<float> c = coef.view(tile, 0, 2 * RADIUS + 1);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= RADIUS && i < n - RADIUS) {
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += c[k + RADIUS] * in[i + k];
    out[i] = sum;
  }
}

template <foresight::Memory M>
__global__ void stencil_fixed(foresight::PlacedArray<float> coef, const float* in, float* out, int n) {
  extern __shared__ float tile[];
  const foresight::View<float> c = coef.view(tile, 0, 2 * RADIUS + 1);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= RADIUS && i < n - RADIUS) {
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += foresight::load<M>(c, k + RADIUS) * in[i + k];
    out[i] = sum;
  }
}

template __global__ void stencil_fixed<foresight::Memory::Global>(foresight::PlacedArray<float>, const float*, float*, int);
template __global__ void stencil_fixed<foresight::Memory::ReadOnly>(foresight::PlacedArray<float>, const float*, float*, int);
template __global__ void stencil_fixed<foresight::Memory::Texture>(foresight::PlacedArray<float>, const float*, float*, int);
template __global__ void stencil_fixed<foresight::Memory::Shared>(foresight::PlacedArray<float>, const float*, float*, int);
template __global__ void stencil_fixed<foresight::Memory::Constant>(foresight::PlacedArray<float>, const float*, float*, int);

/// Host side: every placement of the coefficient table, then one launch.
cudaError_t run(const float* dCoef, const float* dIn, float* dOut, int n, foresight::Memory where, cudaStream_t stream) {
  foresight::PlacedArray<float> coef{dCoef, foresight::Memory::Global};
  cudaError_t e = cudaSuccess;
  size_t shared = 0;
  switch (where) {
    case foresight::Memory::Constant: e = foresight::placeInConstant(coef, 2 * RADIUS + 1); break;
    case foresight::Memory::Texture: e = foresight::placeInTexture(coef, 2 * RADIUS + 1); break;
    case foresight::Memory::Shared:
      coef.where = where;
      shared = (2 * RADIUS + 1) * sizeof(float);
      e = foresight::reserveShared(stencil_runtime, shared);
      break;
    case foresight::Memory::PersistingL2:
      e = foresight::placeInPersistingL2(stream, dCoef, (2 * RADIUS + 1) * sizeof(float));
      break;
    default: coef.where = where; break;
  }
  if (e != cudaSuccess) return e;
  stencil_runtime<<<(n + 255) / 256, 256, shared, stream>>>(coef, dIn, dOut, n);
  e = cudaGetLastError();
  const cudaError_t r = foresight::releaseTexture(coef);
  return e != cudaSuccess ? e : r;
}
