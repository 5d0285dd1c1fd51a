// CPU references of the matmul family.
#pragma once

namespace kernels {

/// Row-major C = A B, i-k-j loop order (the cache-friendly sequential baseline).
void matmul_cpu(const float* a, const float* b, float* c, int n);
/// One element of A B in double, with the sum of |a_ik b_kj| that bounds its rounding error.
double matmul_reference_at(const float* a, const float* b, int n, int row, int col, double* abs_sum);

}  // namespace kernels
