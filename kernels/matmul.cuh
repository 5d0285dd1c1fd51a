// Launchers of the matmul family: C = A B for square row-major fp32 matrices, and the cuBLAS reference.
#pragma once

#include <cuda_runtime.h>

#include <memory>

namespace kernels {

/// Launch shapes. naive and tiled: 16x16 threads, one output each; the tiled kernel stages 16x16 tiles of A
/// and B. fast: a block of (fast_bm / fast_tm) x (fast_bn / fast_tn) threads computes a fast_bm x fast_bn
/// tile of C, each thread fast_tm x fast_tn outputs, stepping through k fast_bk at a time with two shared
/// buffers (the next slice is loaded while the current one is used).
struct matmul_config {
  static constexpr int tile = 16;
  static constexpr int fast_bm = 128, fast_bn = 128, fast_bk = 8;
  static constexpr int fast_tm = 8, fast_tn = 8;
  static constexpr int fast_threads = (fast_bm / fast_tm) * (fast_bn / fast_tn);
};

void matmul_naive(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);
void matmul_tiled(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);
/// Ours, beyond the source: register-blocked SGEMM on the CUDA cores (8x8 outputs a thread, 128x128 a block,
/// float4 loads, double-buffered shared tiles). Any n; n a multiple of 128 with 16-byte aligned pointers
/// takes the path without bounds checks.
void matmul_fast(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);

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
