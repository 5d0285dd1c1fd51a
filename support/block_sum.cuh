// Block-wide sums, shared by the kernels that reduce (kernels/reduce.cu, reduce_recursive.cu and vector.cu, and
// limits/limits_kernels.cu of the library's limits family): by warp shuffles, or by the source material's
// shared-memory tree.
#pragma once

namespace kernels::detail {

__device__ inline float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

/// Sum over a block of at most `Block` threads; the result is valid in thread 0. Every thread must call it.
template <int Block>
__device__ inline float block_sum(float v) {
  __shared__ float warp_sums[Block / 32];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
  return threadIdx.x < 32 ? warp_sum(v) : 0.0f;
}

/// The source material's shared-memory tree over a block of `Block` threads (a power of two): each step adds
/// the upper half into the lower. The result is valid in every thread. Every thread must call it.
template <int Block>
__device__ inline float block_tree_sum(float v) {
  __shared__ float cache[Block];
  cache[threadIdx.x] = v;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) cache[threadIdx.x] += cache[threadIdx.x + half];
    __syncthreads();
  }
  return cache[0];
}

}  // namespace kernels::detail
