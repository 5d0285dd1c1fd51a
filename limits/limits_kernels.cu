// The limits family's kernels: a read-only stream, an FMA-bound loop and an empty kernel.
#include "limits/limits_kernels.cuh"

#include "cudabench/cuda_check.hpp"
#include "support/block_sum.cuh"
#include "support/device_shape.hpp"
#include "support/fill_kernel.cuh"

namespace kernels {
namespace {
using cfg = limits_config;

__global__ void __launch_bounds__(cfg::block)
    read_kernel(const float4* __restrict__ in, std::size_t n4, float* __restrict__ partials) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  float sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    const float4 v = __ldcs(in + i);  // streaming: no reuse, so no point keeping it in L2
    sum += (v.x + v.y) + (v.z + v.w);
  }
  sum = detail::block_sum<cfg::block>(sum);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(cfg::block)
    fma_kernel(const float* __restrict__ seed, float* __restrict__ out, int threads, float a, float b) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  float x[cfg::fma_chains];
#pragma unroll
  for (int c = 0; c < cfg::fma_chains; ++c) x[c] = seed[t] + float(c);
  for (int i = 0; i < cfg::fma_iterations; ++i)
#pragma unroll
    for (int c = 0; c < cfg::fma_chains; ++c) x[c] = fmaf(x[c], a, b);
  float sum = 0;
#pragma unroll
  for (int c = 0; c < cfg::fma_chains; ++c) sum += x[c];
  out[t] = sum;
}

__global__ void empty_kernel() {}
}  // namespace

int read_stream_blocks() { return sm_count() * cfg::read_blocks_per_sm; }

void read_stream(const float4* in, std::size_t n4, float* partials, cudaStream_t s) {
  read_kernel<<<read_stream_blocks(), cfg::block, 0, s>>>(in, n4, partials);
  CB_CHECK_LAUNCH("limits read_kernel");
}

void fma_throughput(const float* seed, float* out, int threads, float a, float b, cudaStream_t s) {
  fma_kernel<<<(threads + cfg::block - 1) / cfg::block, cfg::block, 0, s>>>(seed, out, threads, a, b);
  CB_CHECK_LAUNCH("limits fma_kernel");
}

void limits_fill_bytes(std::uint8_t* d, std::size_t n, std::uint64_t seed, cudaStream_t s) {
  fill::launch(d, n, fill::byte_value{seed}, s, "launch limits_fill_bytes");
}

void limits_fill_uniform(float* d, std::size_t n, float lo, float hi, std::uint64_t seed, cudaStream_t s) {
  fill::launch(d, n, fill::uniform_value{seed, lo, hi}, s, "launch limits_fill_uniform");
}

void empty_kernels(int count, cudaStream_t s) {
  for (int i = 0; i < count; ++i) {
    empty_kernel<<<1, 1, 0, s>>>();
    CB_CHECK_LAUNCH("limits empty_kernel");
  }
}

}  // namespace kernels
