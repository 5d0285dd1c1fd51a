// The vector and dot families' host interface: c = a + b and per-block partial dot products. The
// launchers (their kernels are in vector.cu) and the CPU references the checks compare with.
#pragma once

#include <cuda_runtime.h>
#include <cstddef>

namespace kernels {

struct vector_config {
  static constexpr int block = 256;
  static constexpr int dot_blocks = 1024;  ///< partial sums per dot-product launch
};

void vector_add(const float* d_a, const float* d_b, float* d_c, std::size_t n, cudaStream_t s);
/// Writes vector_config::dot_blocks partial sums of a.b (shared-memory tree per block) to d_partials.
void dot_partials(const float* d_a, const float* d_b, std::size_t n, float* d_partials, cudaStream_t s);

// CPU references: plain C++, unit-tested without a GPU.

inline void vector_add_cpu(const float* a, const float* b, float* c, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

/// a.b accumulated in double.
inline double dot_cpu(const float* a, const float* b, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += double(a[i]) * b[i];
  return s;
}

}  // namespace kernels
