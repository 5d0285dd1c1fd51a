// Block-wide sums shared by the reduce kernels (reduce.cu, reduce_recursive.cu).
#pragma once

#include "kernels/reduce.cuh"

namespace kernels::reduce_detail {

__device__ inline float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

/// Sum over the block by warp shuffles; the result is valid in thread 0.
__device__ inline float block_sum_shuffle(float v) {
  __shared__ float warp_sums[reduce_config::block / 32];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
  return threadIdx.x < 32 ? warp_sum(v) : 0.0f;
}

}  // namespace kernels::reduce_detail
