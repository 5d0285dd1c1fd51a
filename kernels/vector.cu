// Vector add and the per-block dot product.
#include "kernels/vector.hpp"

#include <algorithm>

#include "cudabench/cuda_check.hpp"
#include "support/block_sum.cuh"

namespace kernels {
namespace {
using cfg = vector_config;

__global__ void add_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    c[i] = a[i] + b[i];
}

__global__ void __launch_bounds__(cfg::block)
    dot_kernel(const float* __restrict__ a, const float* __restrict__ b, std::size_t n, float* __restrict__ partials) {
  float sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    sum += a[i] * b[i];
  sum = detail::block_tree_sum<cfg::block>(sum);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}
}  // namespace

void vector_add(const float* d_a, const float* d_b, float* d_c, std::size_t n, cudaStream_t s) {
  const unsigned grid = unsigned(std::clamp<std::size_t>((n + cfg::block - 1) / cfg::block, 1, 132 * 32));
  add_kernel<<<grid, cfg::block, 0, s>>>(d_a, d_b, d_c, n);
  CB_CHECK_LAUNCH("vector add_kernel");
}

void dot_partials(const float* d_a, const float* d_b, std::size_t n, float* d_partials, cudaStream_t s) {
  dot_kernel<<<cfg::dot_blocks, cfg::block, 0, s>>>(d_a, d_b, n, d_partials);
  CB_CHECK_LAUNCH("dot_kernel");
}

}  // namespace kernels
