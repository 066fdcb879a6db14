// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after reguly/laplace_vector laplace2d.cu (single precision): the same
// two kernels and launch, not a copy. A 2-D Jacobi step on an (IMAX + 2) x (JMAX + 2) float grid
// with a one-point halo: laplace_stencil writes the 4-neighbour average of a into anew,
// laplace_copy copies the interior of anew back into a. Blocks of 32 x 8 threads.
extern "C" __global__ void laplace_stencil(int imax, int jmax, float* anew, float* a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = imax + 2;
  if (i > 0 && j > 0 && i < imax + 1 && j < jmax + 1)
    anew[j * w + i] = 0.25f * (a[j * w + i + 1] + a[j * w + i - 1] + a[(j - 1) * w + i] +
                               a[(j + 1) * w + i]);
}

extern "C" __global__ void laplace_copy(int imax, int jmax, float* anew, float* a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = imax + 2;
  if (i > 0 && j > 0 && i < imax + 1 && j < jmax + 1) a[j * w + i] = anew[j * w + i];
}
