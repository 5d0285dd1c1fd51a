// Device-side block reductions shared by the dot and reduce kernels (include from .cu files only).
#pragma once

namespace kernels {

/// Sum over the block with a shared-memory tree (the textbook version the source teaches); `cache` holds
/// blockDim.x floats, blockDim.x is a power of two. The result is valid in thread 0.
__device__ inline float block_tree_sum(float v, float* cache) {
  cache[threadIdx.x] = v;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) cache[threadIdx.x] += cache[threadIdx.x + half];
    __syncthreads();
  }
  return cache[0];
}

}  // namespace kernels
