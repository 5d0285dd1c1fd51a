// The matmul family's host interface: C = A B for square row-major fp32 matrices. The launchers (their
// kernels and the cuBLAS reference are in matmul.cu) and the CPU references the checks compare with.
#pragma once

#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>
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
void matmul_fast(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s,
                 const sgemm_shape* shape = nullptr);

/// cublasSgemm in pedantic fp32 math (no TF32); owns its handle.
class cublas_sgemm {
 public:
  cublas_sgemm();
  ~cublas_sgemm();  ///< move-only, by its owned handle
  /// Row-major C = A B (computed as column-major C^T = B^T A^T).
  void run(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// CPU references: plain C++, unit-tested without a GPU.

/// Row-major C = A B, i-k-j loop order (the cache-friendly sequential baseline).
inline void matmul_cpu(const float* a, const float* b, float* c, int n) {
  for (std::size_t i = 0; i < std::size_t(n) * n; ++i) c[i] = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      const float aik = a[std::size_t(i) * n + k];
      const float* brow = b + std::size_t(k) * n;
      float* crow = c + std::size_t(i) * n;
      for (int j = 0; j < n; ++j) crow[j] += aik * brow[j];
    }
}

/// One element of A B in double, with the sum of |a_ik b_kj| that bounds its rounding error.
inline double matmul_reference_at(const float* a, const float* b, int n, int row, int col, double* abs_sum) {
  double sum = 0, mag = 0;
  for (int k = 0; k < n; ++k) {
    const double p = double(a[std::size_t(row) * n + k]) * b[std::size_t(k) * n + col];
    sum += p;
    mag += std::fabs(p);
  }
  if (abs_sum) *abs_sum = mag;
  return sum;
}

}  // namespace kernels
