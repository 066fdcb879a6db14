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

// laplace2d_vector.cu (VECTOR_SIZE 4): the same step with one float4 (four grid points) per
// thread and 32 x 8 blocks over (IMAX + 2) / 4 x (JMAX + 2) vectors. As in the original, the
// bound is i < (IMAX + 2) / 4, so the last vector of a row reads the first one of the next row.
extern "C" __global__ void laplace_stencil_vec(int imax, int jmax, float4* anew, float4* a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = (imax + 2) / 4;
  if (i > 0 && j > 0 && i < w && j < jmax + 1) {
    const float4 c = a[j * w + i];
    const float4 l = a[j * w + i - 1];
    const float4 r = a[j * w + i + 1];
    const float4 u = a[(j - 1) * w + i];
    const float4 d = a[(j + 1) * w + i];
    anew[j * w + i] = make_float4(0.25f * (l.w + c.y + u.x + d.x), 0.25f * (c.x + c.z + u.y + d.y),
                                  0.25f * (c.y + c.w + u.z + d.z), 0.25f * (c.z + r.x + u.w + d.w));
  }
}

extern "C" __global__ void laplace_copy_vec(int imax, int jmax, float4* anew, float4* a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = (imax + 2) / 4;
  if (i > 0 && j > 0 && i < w && j < jmax + 1) a[j * w + i] = anew[j * w + i];
}
