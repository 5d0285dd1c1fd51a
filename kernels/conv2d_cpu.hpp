// CPU references of the conv2d family.
#pragma once

#include <cstddef>

namespace kernels {

/// Sequential 5x5 convolution with zero padding (the source paper's CPU baseline).
void conv2d_cpu_seq(const float* in, float* out, int n, const float* mask);
/// The same over `threads` threads, split by rows.
void conv2d_cpu_par(const float* in, float* out, int n, const float* mask, int threads);
/// One output computed in double: the check's reference at a sampled position; `abs_sum` (if given)
/// receives sum |w x|, which bounds its rounding error.
double conv2d_reference_at(const float* in, int n, const float* mask, int row, int col, double* abs_sum = nullptr);

}  // namespace kernels
