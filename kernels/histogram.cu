// Histogram kernels (naive, global atomics, shared memory with CPU or GPU merge) and the CUB reference.
#include "kernels/histogram.hpp"

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cstdint>

#include "cudabench/cuda_check.hpp"
#include "kernels/stream_loads.cuh"
#include "support/device_shape.hpp"

namespace kernels {
namespace {
using cfg = histogram_config;

unsigned grid_for(std::size_t n) {
  return unsigned(std::clamp<std::size_t>((n + cfg::block - 1) / cfg::block, 1, 65535));
}

__global__ void naive_kernel(const int* __restrict__ in, std::size_t n, unsigned* hist) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    hist[in[i]]++;  // racy on purpose: the source's first version
}

__global__ void atomic_global_kernel(const int* __restrict__ in, std::size_t n, unsigned* hist) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    atomicAdd(&hist[in[i]], 1u);
}

__global__ void __launch_bounds__(cfg::block)
    shared_kernel(const int* __restrict__ in, std::size_t n, unsigned* partials) {
  __shared__ unsigned local[histogram_bins];
  for (int b = threadIdx.x; b < histogram_bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < histogram_bins; b += blockDim.x)
    partials[std::size_t(blockIdx.x) * histogram_bins + b] = local[b];
}

/// Counts the values stream_grid gives a thread into its block's shared histogram (values outside
/// [0, 256) are not counted).
struct count_visitor {
  unsigned* local;
  __device__ void operator()(int v) {
    if (unsigned(v) < unsigned(histogram_bins)) atomicAdd(&local[v], 1u);
  }
  __device__ void operator()(int4 a) {
    (*this)(a.x);
    (*this)(a.y);
    (*this)(a.z);
    (*this)(a.w);
  }
  __device__ void operator()(int4 a, int4 b) {
    (*this)(a);
    (*this)(b);
  }
};

__global__ void __launch_bounds__(cfg::fast_block)
    fast_kernel(const int* __restrict__ in, std::size_t n, unsigned* __restrict__ hist) {
  __shared__ unsigned local[histogram_bins];
  for (int b = threadIdx.x; b < histogram_bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  count_visitor count{local};
  detail::stream_grid<int4>(in, n, count);
  __syncthreads();
  for (int b = threadIdx.x; b < histogram_bins; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}

__global__ void merge_kernel(const unsigned* __restrict__ partials, unsigned* hist) {
  const int bin = blockIdx.x * blockDim.x + threadIdx.x;
  if (bin >= histogram_bins) return;
  unsigned sum = 0;
  for (int b = 0; b < cfg::shared_blocks; ++b) sum += partials[std::size_t(b) * histogram_bins + bin];
  hist[bin] = sum;
}
}  // namespace

void histogram_naive(const int* d_in, std::size_t n, unsigned* d_hist, cudaStream_t s) {
  CB_CHECK(cudaMemsetAsync(d_hist, 0, histogram_bins * sizeof(unsigned), s));
  naive_kernel<<<grid_for(n), cfg::block, 0, s>>>(d_in, n, d_hist);
  CB_CHECK_LAUNCH("histogram naive_kernel");
}

void histogram_atomic_global(const int* d_in, std::size_t n, unsigned* d_hist, cudaStream_t s) {
  CB_CHECK(cudaMemsetAsync(d_hist, 0, histogram_bins * sizeof(unsigned), s));
  atomic_global_kernel<<<grid_for(n), cfg::block, 0, s>>>(d_in, n, d_hist);
  CB_CHECK_LAUNCH("histogram atomic_global_kernel");
}

void histogram_shared_partials(const int* d_in, std::size_t n, unsigned* d_partials, cudaStream_t s) {
  shared_kernel<<<cfg::shared_blocks, cfg::block, 0, s>>>(d_in, n, d_partials);
  CB_CHECK_LAUNCH("histogram shared_kernel");
}

void histogram_merge_partials(const unsigned* d_partials, unsigned* d_hist, cudaStream_t s) {
  merge_kernel<<<1, histogram_bins, 0, s>>>(d_partials, d_hist);
  CB_CHECK_LAUNCH("histogram merge_kernel");
}

void histogram_fast(const int* d_in, std::size_t n, unsigned* d_hist, cudaStream_t s) {
  const std::size_t wanted =
      std::max<std::size_t>(1, (n + 16 * cfg::fast_block - 1) / (16 * cfg::fast_block));  // >= 16 values a thread
  const unsigned blocks = unsigned(std::min<std::size_t>(wanted, std::size_t(cfg::fast_blocks_per_sm) * sm_count()));
  CB_CHECK(cudaMemsetAsync(d_hist, 0, histogram_bins * sizeof(unsigned), s));
  fast_kernel<<<blocks, cfg::fast_block, 0, s>>>(d_in, n, d_hist);
  CB_CHECK_LAUNCH("histogram fast_kernel");
}

cub_call cub_histogram(const int* d_in, std::size_t n, unsigned* d_hist) {
  return cub_call([=](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, d_in, d_hist, histogram_bins + 1, 0, histogram_bins,
                                               static_cast<long long>(n), s);
  });
}

}  // namespace kernels
