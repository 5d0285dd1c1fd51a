// 5x5 convolution kernels: naive and shared-memory tiled (the source's), and ours beyond it (fast: column
// strips of outputs per thread from a shared tile); mask in constant memory.
#include "kernels/conv2d.hpp"

#include <cstdint>

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

__global__ void __launch_bounds__(cfg::tile* cfg::tile)
    tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
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

/// Copies 16 bytes from global to shared memory without passing through registers (zeros when !valid).
__device__ __forceinline__ void copy16_async(float* smem, const float* gmem, bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(valid ? 16 : 0) : "memory");
}

/// Async (n a multiple of 4, 16-byte aligned rows): the tile is copied with cp.async in 16-byte pieces, 4
/// columns of halo a side so every piece is aligned, all in flight at once and none held in registers.
/// Otherwise every load of the tile is issued into registers before any is stored.
template <bool Async>
__global__ void __launch_bounds__(cfg::fast_cols* cfg::fast_threads_y)
    fast_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  constexpr int out_rows = cfg::fast_threads_y * cfg::fast_rows;
  constexpr int pad = Async ? 4 : conv_radius;  // halo columns stored each side
  constexpr int rows = out_rows + 2 * conv_radius, cols = cfg::fast_cols + 2 * pad;
  constexpr int threads = cfg::fast_cols * cfg::fast_threads_y;
  __shared__ __align__(16) float tile[rows][cols];
  const int row0 = blockIdx.y * out_rows - conv_radius, col0 = blockIdx.x * cfg::fast_cols - pad;
  const int tid = threadIdx.y * cfg::fast_cols + threadIdx.x;
  if constexpr (Async) {
    constexpr int quads = cols / 4;
    for (int k = tid; k < rows * quads; k += threads) {
      const int r = row0 + k / quads, c = col0 + (k % quads) * 4;
      const bool inside = r >= 0 && r < n && c >= 0 && c < n;  // n % 4 == 0: a piece is all in or all out
      copy16_async(&tile[k / quads][(k % quads) * 4], inside ? in + std::size_t(r) * n + c : in, inside);
    }
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
  } else {
    constexpr int loads = (rows * cols + threads - 1) / threads;
    float staged[loads];
#pragma unroll
    for (int l = 0; l < loads; ++l) {
      const int k = tid + l * threads;
      const int r = row0 + k / cols, c = col0 + k % cols;
      staged[l] = (k < rows * cols && r >= 0 && r < n && c >= 0 && c < n) ? __ldg(in + std::size_t(r) * n + c) : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < loads; ++l) {
      const int k = tid + l * threads;
      if (k < rows * cols) tile[k / cols][k % cols] = staged[l];
    }
  }
  __syncthreads();
  float acc[cfg::fast_rows];
#pragma unroll
  for (int j = 0; j < cfg::fast_rows; ++j) acc[j] = 0;
  const int top = threadIdx.y * cfg::fast_rows, left = threadIdx.x + pad - conv_radius;
#pragma unroll
  for (int i = 0; i < cfg::fast_rows + 2 * conv_radius; ++i) {  // input row top + i feeds outputs j with 0 <= i - j < 5
    float v[conv_mask];
#pragma unroll
    for (int x = 0; x < conv_mask; ++x) v[x] = tile[top + i][left + x];
#pragma unroll
    for (int j = 0; j < cfg::fast_rows; ++j) {
      const int mr = i - j;
      if (mr >= 0 && mr < conv_mask) {
#pragma unroll
        for (int x = 0; x < conv_mask; ++x) acc[j] = fmaf(mask_c[mr * conv_mask + x], v[x], acc[j]);
      }
    }
  }
  const int col = blockIdx.x * cfg::fast_cols + threadIdx.x;
  if (col >= n) return;
#pragma unroll
  for (int j = 0; j < cfg::fast_rows; ++j) {
    const int row = blockIdx.y * out_rows + top + j;
    if (row < n) out[std::size_t(row) * n + col] = acc[j];
  }
}

dim3 grid_for(int n) { return dim3((n + cfg::tile - 1) / cfg::tile, (n + cfg::tile - 1) / cfg::tile); }
}  // namespace

void conv2d_set_mask(const float* h_mask, cudaStream_t s) {
  CB_CHECK(
      cudaMemcpyToSymbolAsync(mask_c, h_mask, sizeof(float) * conv_mask * conv_mask, 0, cudaMemcpyHostToDevice, s));
  CB_CHECK(cudaStreamSynchronize(s));  // h_mask may be a temporary
}

void conv2d_naive(const float* d_in, float* d_out, int n, cudaStream_t s) {
  naive_kernel<<<grid_for(n), dim3(cfg::tile, cfg::tile), 0, s>>>(d_in, d_out, n);
  CB_CHECK_LAUNCH("conv2d naive_kernel");
}

void conv2d_fast(const float* d_in, float* d_out, int n, cudaStream_t s) {
  constexpr int out_rows = cfg::fast_threads_y * cfg::fast_rows;
  const dim3 grid((n + cfg::fast_cols - 1) / cfg::fast_cols, (n + out_rows - 1) / out_rows);
  const dim3 block(cfg::fast_cols, cfg::fast_threads_y);
  if (n % 4 == 0 && reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0)
    fast_kernel<true><<<grid, block, 0, s>>>(d_in, d_out, n);
  else
    fast_kernel<false><<<grid, block, 0, s>>>(d_in, d_out, n);
  CB_CHECK_LAUNCH("conv2d fast_kernel");
}

void conv2d_tiled(const float* d_in, float* d_out, int n, cudaStream_t s) {
  tiled_kernel<<<grid_for(n), dim3(cfg::tile, cfg::tile), 0, s>>>(d_in, d_out, n);
  CB_CHECK_LAUNCH("conv2d tiled_kernel");
}

}  // namespace kernels
