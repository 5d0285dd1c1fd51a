// y = a x + y: one element per thread, a grid-stride loop.
#include "saxpy.cuh"

#include <cudabench/cuda_check.hpp>

namespace {
__global__ void saxpy_kernel(float a, const float* x, float* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    y[i] = a * x[i] + y[i];
}
}  // namespace

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t s) {
  constexpr int threads = 256;
  const int blocks = int((n + threads - 1) / threads < 65536 ? (n + threads - 1) / threads : 65536);
  saxpy_kernel<<<blocks, threads, 0, s>>>(a, d_x, d_y, n);
  CB_CHECK_LAUNCH("saxpy_kernel");
}
