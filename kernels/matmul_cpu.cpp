// CPU references of the matmul family.
#include "kernels/matmul_cpu.hpp"

#include <cmath>
#include <cstddef>

namespace kernels {

void matmul_cpu(const float* a, const float* b, float* c, int n) {
  for (std::size_t i = 0; i < std::size_t(n) * n; ++i) c[i] = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      const float aik = a[std::size_t(i) * n + k];
      const float* brow = b + std::size_t(k) * n;
      float* crow = c + std::size_t(i) * n;
      for (int j = 0; j < n; ++j) crow[j] += aik * brow[j];
    }
}

double matmul_reference_at(const float* a, const float* b, int n, int row, int col, double* abs_sum) {
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
