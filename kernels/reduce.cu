// Sum reductions: shared-memory tree, warp shuffle and CUB (the recursive one, which launches from the
// device, is in reduce_recursive.cu).
#include "kernels/reduce.hpp"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdint>

#include "cudabench/cuda_check.hpp"
#include "kernels/stream_loads.cuh"
#include "support/block_sum.cuh"
#include "support/device_shape.hpp"

namespace kernels {
namespace {
using cfg = reduce_config;

__global__ void __launch_bounds__(cfg::block)
    tree_kernel(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  float sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    sum += in[i];
  sum = detail::block_tree_sum<cfg::block>(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(cfg::block)
    shuffle_kernel(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  float sum = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride)
    sum += (in[i] + in[i + stride]) + (in[i + 2 * stride] + in[i + 3 * stride]);
  for (; i < n; i += stride) sum += in[i];
  sum = detail::block_sum<cfg::block>(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

/// A thread's running sum of the values stream_grid gives it (each vector pair summed as a tree first).
struct sum_visitor {
  float sum = 0;
  __device__ void operator()(float4 a, float4 b) { sum += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)); }
  __device__ void operator()(float4 a) { sum += (a.x + a.y) + (a.z + a.w); }
  __device__ void operator()(float x) { sum += x; }
};

/// One pass: float4 loads, a block sum, then the last block to finish sums every block's partial.
__global__ void __launch_bounds__(cfg::block)
    fast_kernel(const float* __restrict__ in, std::size_t n, float* __restrict__ partials,
                unsigned* __restrict__ counter, float* __restrict__ result) {
  sum_visitor v;
  detail::stream_grid<float4>(in, n, v);
  const float sum = detail::block_sum<cfg::block>(v.sum);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();  // the partial is visible before the count says so
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  float total = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) total += __ldcg(partials + b);
  total = detail::block_sum<cfg::block>(total);
  if (threadIdx.x == 0) {
    *result = total;
    *counter = 0;  // ready for the next launch
  }
}

unsigned first_pass_blocks(std::size_t n) {
  return unsigned(std::clamp<std::size_t>((n + cfg::block - 1) / cfg::block, 1, cfg::max_blocks));
}

/// Two launches of `pass`: one block a slice of the input into d_partials, then one block over the partials.
template <auto pass>
void two_passes(const float* d_in, std::size_t n, float* d_partials, float* d_result, cudaStream_t s) {
  const unsigned blocks = first_pass_blocks(n);
  pass<<<blocks, cfg::block, 0, s>>>(d_in, n, d_partials);
  CB_CHECK_LAUNCH("reduce first pass");
  pass<<<1, cfg::block, 0, s>>>(d_partials, blocks, d_result);
  CB_CHECK_LAUNCH("reduce final pass");
}
}  // namespace

void reduce_shared_tree(const float* d_in, std::size_t n, float* d_partials, float* d_result, cudaStream_t s) {
  two_passes<tree_kernel>(d_in, n, d_partials, d_result, s);
}

void reduce_warp_shuffle(const float* d_in, std::size_t n, float* d_partials, float* d_result, cudaStream_t s) {
  two_passes<shuffle_kernel>(d_in, n, d_partials, d_result, s);
}

void reduce_fast(const float* d_in, std::size_t n, float* d_partials, unsigned* d_counter, float* d_result,
                 cudaStream_t s) {
  // Enough blocks to keep DRAM busy (8 per SM), no more than the work needs (8 floats a thread) or max_blocks.
  const std::size_t wanted = std::max<std::size_t>(1, (n + 8 * cfg::block - 1) / (8 * cfg::block));
  const unsigned blocks =
      unsigned(std::min<std::size_t>({wanted, std::size_t(8) * sm_count(), std::size_t(cfg::max_blocks)}));
  fast_kernel<<<blocks, cfg::block, 0, s>>>(d_in, n, d_partials, d_counter, d_result);
  CB_CHECK_LAUNCH("reduce fast_kernel");
}

cub_call cub_sum(const float* d_in, std::size_t n, float* d_result) {
  return cub_call([=](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceReduce::Sum(temp, bytes, d_in, d_result, static_cast<long long>(n), s);
  });
}

}  // namespace kernels
