// Matrix multiply kernels (naive, shared-memory tiled) and the cuBLAS SGEMM reference.
#include "kernels/matmul.cuh"

#include "cudabench/cuda_check.hpp"
#include "kernels/vendor_handle.hpp"

namespace kernels {
namespace {
using cfg = matmul_config;

__global__ void naive_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += a[std::size_t(row) * n + k] * b[std::size_t(k) * n + col];
  c[std::size_t(row) * n + col] = sum;
}

__global__ void __launch_bounds__(cfg::tile * cfg::tile) tiled_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                                                     float* __restrict__ c, int n) {
  __shared__ float ta[cfg::tile][cfg::tile], tb[cfg::tile][cfg::tile];
  const int row = blockIdx.y * cfg::tile + threadIdx.y, col = blockIdx.x * cfg::tile + threadIdx.x;
  float sum = 0;
  for (int k0 = 0; k0 < n; k0 += cfg::tile) {
    ta[threadIdx.y][threadIdx.x] = row < n && k0 + threadIdx.x < n ? a[std::size_t(row) * n + k0 + threadIdx.x] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = col < n && k0 + threadIdx.y < n ? b[std::size_t(k0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < cfg::tile; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) c[std::size_t(row) * n + col] = sum;
}

dim3 grid_for(int n) { return dim3((n + cfg::tile - 1) / cfg::tile, (n + cfg::tile - 1) / cfg::tile); }
}  // namespace

void matmul_naive(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s) {
  naive_kernel<<<grid_for(n), dim3(cfg::tile, cfg::tile), 0, s>>>(d_a, d_b, d_c, n);
  CB_CHECK_LAUNCH("matmul naive_kernel");
}

void matmul_tiled(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s) {
  tiled_kernel<<<grid_for(n), dim3(cfg::tile, cfg::tile), 0, s>>>(d_a, d_b, d_c, n);
  CB_CHECK_LAUNCH("matmul tiled_kernel");
}

struct cublas_sgemm::impl {
  vendor_handle<cublasHandle_t, cublasDestroy> handle;
};

cublas_sgemm::cublas_sgemm() : impl_(std::make_unique<impl>()) {
  cublasHandle_t h = nullptr;
  CB_CHECK(cublasCreate(&h));
  impl_->handle = vendor_handle<cublasHandle_t, cublasDestroy>(h);
  CB_CHECK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
}

cublas_sgemm::~cublas_sgemm() = default;

void cublas_sgemm::run(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s) {
  const float alpha = 1, beta = 0;
  CB_CHECK(cublasSetStream(impl_->handle, s));
  CB_CHECK(cublasSgemm(impl_->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, d_b, n, d_a, n, &beta, d_c, n));
}

}  // namespace kernels
