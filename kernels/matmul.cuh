// Launchers of the matmul family: C = A B for square row-major fp32 matrices, and the cuBLAS reference.
#pragma once

#include <cuda_runtime.h>

#include <memory>

namespace kernels {

/// One shape of the fast SGEMM: a block of (bm / tm) x (bn / tn) threads computes a bm x bn tile of C, each
/// thread tm x tn outputs (in groups of 4 x 4 spread over the tile), stepping through k bk at a time with
/// two shared buffers (the next slice is loaded while the current one is used).
struct sgemm_shape {
  int bm, bn, bk, tm, tn;
};

/// Launch shapes. naive and tiled: 16x16 threads, one output each; the tiled kernel stages 16x16 tiles of A
/// and B. fast: fast_large, or fast_small where fast_large's tiles would leave SMs idle (fewer tiles than SMs).
struct matmul_config {
  static constexpr int tile = 16;
  static constexpr sgemm_shape fast_large{128, 128, 8, 8, 8};
  static constexpr sgemm_shape fast_small{64, 64, 16, 4, 4};
};

void matmul_naive(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);
void matmul_tiled(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);
/// Ours, beyond the source: register-blocked SGEMM on the CUDA cores (matmul_config's fast shapes, float4
/// loads, double-buffered shared tiles). Any n; n a multiple of the tile with 16-byte aligned pointers takes
/// the path without bounds checks. `shape` forces one (the tests use it); by default the launcher picks.
void matmul_fast(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s, const sgemm_shape* shape = nullptr);

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
