// 5x5 convolution kernels: naive and shared-memory tiled, mask in constant memory.
#include "kernels/conv2d.cuh"

#include "cudabench/cuda_check.hpp"

namespace kernels {
namespace {
using cfg = conv2d_config;
__constant__ float mask_c[conv_mask * conv_mask];

__global__ void naive_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  float sum = 0;
#pragma unroll
  for (int i = 0; i < conv_mask; ++i)
#pragma unroll
    for (int j = 0; j < conv_mask; ++j) {
      const int r = row + i - conv_radius, c = col + j - conv_radius;
      if (r >= 0 && r < n && c >= 0 && c < n) sum += mask_c[i * conv_mask + j] * in[std::size_t(r) * n + c];
    }
  out[std::size_t(row) * n + col] = sum;
}

__global__ void __launch_bounds__(cfg::tile * cfg::tile) tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  constexpr int span = cfg::tile + 2 * conv_radius;
  __shared__ float tile[span][span + 1];  // +1: no bank conflicts on column walks
  const int row0 = blockIdx.y * cfg::tile - conv_radius, col0 = blockIdx.x * cfg::tile - conv_radius;
  for (int k = threadIdx.y * cfg::tile + threadIdx.x; k < span * span; k += cfg::tile * cfg::tile) {
    const int r = row0 + k / span, c = col0 + k % span;
    tile[k / span][k % span] = (r >= 0 && r < n && c >= 0 && c < n) ? in[std::size_t(r) * n + c] : 0.0f;
  }
  __syncthreads();
  const int row = blockIdx.y * cfg::tile + threadIdx.y, col = blockIdx.x * cfg::tile + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0;
#pragma unroll
  for (int i = 0; i < conv_mask; ++i)
#pragma unroll
    for (int j = 0; j < conv_mask; ++j) sum += mask_c[i * conv_mask + j] * tile[threadIdx.y + i][threadIdx.x + j];
  out[std::size_t(row) * n + col] = sum;
}

dim3 grid_for(int n) { return dim3((n + cfg::tile - 1) / cfg::tile, (n + cfg::tile - 1) / cfg::tile); }
}  // namespace

void conv2d_set_mask(const float* h_mask, cudaStream_t s) {
  CB_CHECK(cudaMemcpyToSymbolAsync(mask_c, h_mask, sizeof(float) * conv_mask * conv_mask, 0, cudaMemcpyHostToDevice, s));
  CB_CHECK(cudaStreamSynchronize(s));  // h_mask may be a temporary
}

void conv2d_naive(const float* d_in, float* d_out, int n, cudaStream_t s) {
  naive_kernel<<<grid_for(n), dim3(cfg::tile, cfg::tile), 0, s>>>(d_in, d_out, n);
  CB_CHECK_LAUNCH("conv2d naive_kernel");
}

void conv2d_tiled(const float* d_in, float* d_out, int n, cudaStream_t s) {
  tiled_kernel<<<grid_for(n), dim3(cfg::tile, cfg::tile), 0, s>>>(d_in, d_out, n);
  CB_CHECK_LAUNCH("conv2d tiled_kernel");
}

}  // namespace kernels
