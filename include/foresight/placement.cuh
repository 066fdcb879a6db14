// SPDX-License-Identifier: Apache-2.0
/// \file
/// Applying a `foresight place` plan to a kernel (docs/place.md#applying-a-plan). Header-only,
/// CUDA C++17, no other dependency. One kernel source serves every placement of a read-only
/// array: it reads the array through a `foresight::PlacedArray<T>` whose placement is chosen
/// at run time (the `where` field, a warp-uniform switch per access), or at compile time
/// (`foresight::load<M>(view, i)`, no switch). The host helpers do what each placement needs
/// before the launch: copy an array into the constant pool, create a texture object, reserve
/// dynamic shared memory for staged tiles, set a persisting-L2 access-policy window.
///
///   __global__ void stencil(foresight::PlacedArray<float> coef, const float* in, float* out, int n) {
///     extern __shared__ float tiles[];
///     foresight::View<float> c = coef.view(tiles, 0, 9);  // stages coef when it is Shared
///     ... c[k] ...
///   }
///   foresight::PlacedArray<float> coef{dCoef, foresight::Memory::Constant};
///   foresight::placeInConstant(coef, 9);                 // host, before the launch
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace foresight {

/// The placements `foresight place` recommends, in its report's order (G R T S C P).
enum class Memory : int { Global = 0, ReadOnly = 1, Texture = 2, Shared = 3, Constant = 4, PersistingL2 = 5 };

#ifndef FORESIGHT_CONSTANT_POOL_BYTES
/// Bytes of constant memory set aside for placed arrays (the GPU has 64 KiB in all; define
/// FORESIGHT_CONSTANT_POOL_BYTES before including this header to change it).
#define FORESIGHT_CONSTANT_POOL_BYTES 49152
#endif

/// The constant-memory pool arrays placed in constant memory are copied into, one per
/// translation unit (compiled without relocatable device code, each has its own).
static __constant__ unsigned char foresightConstantPool[FORESIGHT_CONSTANT_POOL_BYTES];

/// One thread's view of a placed array, after staging: indexed with the array's own (global)
/// element indices whatever the placement.
template <class T>
struct View {
  const T* global;
  Memory where;
  cudaTextureObject_t texture;
  unsigned constantOffset;  ///< bytes into foresightConstantPool
  const T* shared;          ///< Memory::Shared: the staged tile
  long long sharedBegin;    ///< Memory::Shared: the array index of the tile's first element

  /// Element `i` through the placement chosen at run time (a uniform switch).
  __device__ T operator[](long long i) const {
    switch (where) {
      case Memory::ReadOnly:
        return __ldg(global + i);
      case Memory::Texture:
        return tex1Dfetch<T>(texture, static_cast<int>(i));
      case Memory::Constant:
        return reinterpret_cast<const T*>(foresightConstantPool + constantOffset)[i];
      case Memory::Shared:
        return shared[i - sharedBegin];
      default:  // Global, PersistingL2 (an ordinary global load; the window is the stream's)
        return global[i];
    }
  }
};

/// Element `i` of `v` through placement `M` fixed at compile time (no switch): for kernels
/// instantiated once per placement, e.g. from a table of the feasible plans.
template <Memory M, class T>
__device__ T load(const View<T>& v, long long i) {
  if constexpr (M == Memory::ReadOnly) {
    return __ldg(v.global + i);
  } else if constexpr (M == Memory::Texture) {
    return tex1Dfetch<T>(v.texture, static_cast<int>(i));
  } else if constexpr (M == Memory::Constant) {
    return reinterpret_cast<const T*>(foresightConstantPool + v.constantOffset)[i];
  } else if constexpr (M == Memory::Shared) {
    return v.shared[i - v.sharedBegin];
  } else {
    return v.global[i];
  }
}

/// A read-only array and where it lives: passed to the kernel by value.
template <class T>
struct PlacedArray {
  const T* global = nullptr;  ///< the array in global memory: always set, the data's home
  Memory where = Memory::Global;
  cudaTextureObject_t texture = 0;  ///< Memory::Texture: set by placeInTexture()
  unsigned constantOffset = 0;      ///< Memory::Constant: set by placeInConstant()

  /// The view of this thread. When the array is placed in shared memory, the block copies
  /// elements [begin, begin + count) — the block's tile, as `foresight place` reports it — into
  /// `buffer` (dynamic shared memory of at least count × sizeof(T) bytes) and synchronises:
  /// every thread of the block must call it. Otherwise `buffer` is not touched.
  __device__ View<T> view(T* buffer, long long begin, long long count) const {
    View<T> v{global, where, texture, constantOffset, buffer, begin};
    if (where == Memory::Shared) {
      const long long threads = static_cast<long long>(blockDim.x) * blockDim.y * blockDim.z;
      const long long self = threadIdx.x + static_cast<long long>(blockDim.x) * (threadIdx.y + static_cast<long long>(blockDim.y) * threadIdx.z);
      for (long long k = self; k < count; k += threads) buffer[k] = global[begin + k];
      __syncthreads();
    }
    return v;
  }
};

/// Copies the array's first `count` elements into the constant pool at `offsetBytes` (a
/// multiple of sizeof(T)) and places it there. cudaErrorInvalidValue when it does not fit.
template <class T>
cudaError_t placeInConstant(PlacedArray<T>& a, size_t count, size_t offsetBytes = 0) {
  if (offsetBytes % sizeof(T) != 0 || offsetBytes + count * sizeof(T) > FORESIGHT_CONSTANT_POOL_BYTES) {
    return cudaErrorInvalidValue;
  }
  const cudaError_t e =
      cudaMemcpyToSymbol(foresightConstantPool, a.global, count * sizeof(T), offsetBytes, cudaMemcpyDeviceToDevice);
  if (e != cudaSuccess) return e;
  a.where = Memory::Constant;
  a.constantOffset = static_cast<unsigned>(offsetBytes);
  return cudaSuccess;
}

/// Creates a linear texture object over the array's first `count` elements (tex1Dfetch reads
/// up to 2^27 of them) and places it there. Destroy it with releaseTexture().
template <class T>
cudaError_t placeInTexture(PlacedArray<T>& a, size_t count) {
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = const_cast<T*>(a.global);
  resource.res.linear.desc = cudaCreateChannelDesc<T>();
  resource.res.linear.sizeInBytes = count * sizeof(T);
  cudaTextureDesc texture{};
  texture.readMode = cudaReadModeElementType;
  const cudaError_t e = cudaCreateTextureObject(&a.texture, &resource, &texture, nullptr);
  if (e == cudaSuccess) a.where = Memory::Texture;
  return e;
}

/// Destroys the texture object placeInTexture() created and places the array back in global memory.
template <class T>
cudaError_t releaseTexture(PlacedArray<T>& a) {
  if (a.where != Memory::Texture) return cudaSuccess;
  const cudaError_t e = cudaDestroyTextureObject(a.texture);
  a.texture = 0;
  a.where = Memory::Global;
  return e;
}

/// Lets `kernel` use `bytes` of dynamic shared memory per block (the staged tiles plus what the
/// kernel already uses): above the default 48 KiB it must opt in (Volta and later).
template <class Kernel>
cudaError_t reserveShared(Kernel* kernel, size_t bytes) {
  if (bytes <= 48 * 1024) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
}

/// Keeps [data, data + bytes) in the persisting part of the L2 for the kernels of `stream`
/// (Ampere and later): sets aside as much of the L2 as the device allows, up to `bytes`, and
/// gives the stream an access-policy window over the array (hits persist, the rest streams).
inline cudaError_t placeInPersistingL2(cudaStream_t stream, const void* data, size_t bytes, float hitRatio = 1.0f) {
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return e;
  cudaDeviceProp prop{};
  e = cudaGetDeviceProperties(&prop, device);
  if (e != cudaSuccess) return e;
  if (prop.persistingL2CacheMaxSize <= 0) return cudaErrorNotSupported;
  const size_t setAside = bytes < static_cast<size_t>(prop.persistingL2CacheMaxSize)
                              ? bytes
                              : static_cast<size_t>(prop.persistingL2CacheMaxSize);
  e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, setAside);
  if (e != cudaSuccess) return e;
  cudaStreamAttrValue value{};
  value.accessPolicyWindow.base_ptr = const_cast<void*>(data);
  value.accessPolicyWindow.num_bytes =
      bytes < static_cast<size_t>(prop.accessPolicyMaxWindowSize) ? bytes : static_cast<size_t>(prop.accessPolicyMaxWindowSize);
  value.accessPolicyWindow.hitRatio = hitRatio;
  value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  value.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  return cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value);
}

}  // namespace foresight
