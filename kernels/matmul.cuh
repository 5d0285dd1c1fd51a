// Launchers of the matmul family: C = A B for square row-major fp32 matrices, and the cuBLAS reference.
#pragma once

#include <cuda_runtime.h>

#include <memory>

namespace kernels {

/// Launch shape: 16x16 threads, one output each; the tiled kernel stages 16x16 tiles of A and B.
struct matmul_config {
  static constexpr int tile = 16;
};

void matmul_naive(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);
void matmul_tiled(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);

/// cublasSgemm in pedantic fp32 math (no TF32); owns its handle.
class cublas_sgemm {
 public:
  cublas_sgemm();
  ~cublas_sgemm();
  cublas_sgemm(const cublas_sgemm&) = delete;
  cublas_sgemm& operator=(const cublas_sgemm&) = delete;
  /// Row-major C = A B (computed as column-major C^T = B^T A^T).
  void run(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace kernels
