// The recursive sum: each grid's block 0 tail-launches the next level from the device. Built with
// relocatable device code (its own module, so the other reduce kernels load without dynamic parallelism,
// which compute-sanitizer's racecheck, synccheck and initcheck do not support).
#include <algorithm>

#include "cudabench/cuda_check.hpp"
#include "kernels/reduce.hpp"
#include "support/block_sum.cuh"

namespace kernels {
namespace {
using cfg = reduce_config;

__global__ void __launch_bounds__(cfg::block)
    recursive_kernel(const float* __restrict__ in, std::size_t n, float* out, float* spare, float* result) {
  const std::size_t chunk = std::size_t(blockDim.x) * cfg::items;
  const std::size_t start = std::size_t(blockIdx.x) * chunk + threadIdx.x;
  float sum = 0;
#pragma unroll
  for (int k = 0; k < cfg::items; ++k) {
    const std::size_t idx = start + std::size_t(k) * blockDim.x;
    if (idx < n) sum += in[idx];
  }
  sum = detail::block_sum<cfg::block>(sum);
  if (threadIdx.x != 0) return;
  if (gridDim.x == 1) {
    *result = sum;
    return;
  }
  out[blockIdx.x] = sum;
  if (blockIdx.x == 0) {
    // Runs after this whole grid has finished, so every block's partial is in `out`.
    const std::size_t m = gridDim.x;
    const unsigned blocks = unsigned((m + chunk - 1) / chunk);
    recursive_kernel<<<blocks, blockDim.x, 0, cudaStreamTailLaunch>>>(out, m, spare, out, result);
  }
}

}  // namespace

std::size_t reduce_recursive_scratch(std::size_t n) {
  const std::size_t chunk = std::size_t(cfg::block) * cfg::items;
  return std::max<std::size_t>(1, (n + chunk - 1) / chunk);
}

void reduce_recursive(const float* d_in, std::size_t n, float* d_a, float* d_b, float* d_result, cudaStream_t s) {
  const unsigned blocks = unsigned(reduce_recursive_scratch(n));
  recursive_kernel<<<blocks, cfg::block, 0, s>>>(d_in, n, d_a, d_b, d_result);
  CB_CHECK_LAUNCH("reduce recursive_kernel");
}

}  // namespace kernels
