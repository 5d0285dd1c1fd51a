// Sum reductions: shared-memory tree, warp shuffle, recursive by tail launch, and CUB.
// Built with relocatable device code for the device-side launches.
#include "kernels/reduce.cuh"

#include <cub/device/device_reduce.cuh>

#include <algorithm>

#include "cudabench/cuda_check.hpp"

namespace kernels {
namespace {
using cfg = reduce_config;

__device__ float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

/// Sum over the block by warp shuffles; the result is valid in thread 0.
__device__ float block_sum_shuffle(float v) {
  __shared__ float warp_sums[cfg::block / 32];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
  return threadIdx.x < 32 ? warp_sum(v) : 0.0f;
}

__global__ void __launch_bounds__(cfg::block) tree_kernel(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  __shared__ float cache[cfg::block];
  float sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) sum += in[i];
  cache[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) cache[threadIdx.x] += cache[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = cache[0];
}

__global__ void __launch_bounds__(cfg::block) shuffle_kernel(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  float sum = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) sum += (in[i] + in[i + stride]) + (in[i + 2 * stride] + in[i + 3 * stride]);
  for (; i < n; i += stride) sum += in[i];
  sum = block_sum_shuffle(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(cfg::block) recursive_kernel(const float* __restrict__ in, std::size_t n, float* out,
                                                               float* spare, float* result) {
  const std::size_t chunk = std::size_t(blockDim.x) * cfg::items;
  const std::size_t start = std::size_t(blockIdx.x) * chunk + threadIdx.x;
  float sum = 0;
#pragma unroll
  for (int k = 0; k < cfg::items; ++k) {
    const std::size_t idx = start + std::size_t(k) * blockDim.x;
    if (idx < n) sum += in[idx];
  }
  sum = block_sum_shuffle(sum);
  if (threadIdx.x != 0) return;
  if (gridDim.x == 1) { *result = sum; return; }
  out[blockIdx.x] = sum;
  if (blockIdx.x == 0) {
    // Runs after this whole grid has finished, so every block's partial is in `out`.
    const std::size_t m = gridDim.x;
    const unsigned blocks = unsigned((m + chunk - 1) / chunk);
    recursive_kernel<<<blocks, blockDim.x, 0, cudaStreamTailLaunch>>>(out, m, spare, out, result);
  }
}

unsigned first_pass_blocks(std::size_t n) {
  return unsigned(std::clamp<std::size_t>((n + cfg::block - 1) / cfg::block, 1, cfg::max_blocks));
}
}  // namespace

void reduce_shared_tree(const float* d_in, std::size_t n, float* d_partials, float* d_result, cudaStream_t s) {
  const unsigned blocks = first_pass_blocks(n);
  tree_kernel<<<blocks, cfg::block, 0, s>>>(d_in, n, d_partials);
  CB_CHECK_LAUNCH("reduce tree_kernel");
  tree_kernel<<<1, cfg::block, 0, s>>>(d_partials, blocks, d_result);
  CB_CHECK_LAUNCH("reduce tree_kernel (final)");
}

void reduce_warp_shuffle(const float* d_in, std::size_t n, float* d_partials, float* d_result, cudaStream_t s) {
  const unsigned blocks = first_pass_blocks(n);
  shuffle_kernel<<<blocks, cfg::block, 0, s>>>(d_in, n, d_partials);
  CB_CHECK_LAUNCH("reduce shuffle_kernel");
  shuffle_kernel<<<1, cfg::block, 0, s>>>(d_partials, blocks, d_result);
  CB_CHECK_LAUNCH("reduce shuffle_kernel (final)");
}

std::size_t reduce_recursive_scratch(std::size_t n) {
  const std::size_t chunk = std::size_t(cfg::block) * cfg::items;
  return std::max<std::size_t>(1, (n + chunk - 1) / chunk);
}

void reduce_recursive(const float* d_in, std::size_t n, float* d_a, float* d_b, float* d_result, cudaStream_t s) {
  const unsigned blocks = unsigned(reduce_recursive_scratch(n));
  recursive_kernel<<<blocks, cfg::block, 0, s>>>(d_in, n, d_a, d_b, d_result);
  CB_CHECK_LAUNCH("reduce recursive_kernel");
}

cub_sum::cub_sum(const float* d_in, std::size_t n, float* d_result) : in_(d_in), n_(n), result_(d_result) {
  CB_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes_, in_, result_, static_cast<long long>(n_)));
  CB_CHECK(cudaMalloc(&temp_, temp_bytes_));
}

cub_sum::~cub_sum() { CB_CHECK_NOTHROW(cudaFree(temp_)); }

void cub_sum::run(cudaStream_t s) {
  CB_CHECK(cub::DeviceReduce::Sum(temp_, temp_bytes_, in_, result_, static_cast<long long>(n_), s));
}

}  // namespace kernels
