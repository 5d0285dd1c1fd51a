// Launchers of the vector and dot families: c = a + b, and per-block partial dot products.
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

}  // namespace kernels
