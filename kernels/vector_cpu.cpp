// CPU references of the vector, dot and reduce families.
#include "kernels/vector_cpu.hpp"

namespace kernels {

void vector_add_cpu(const float* a, const float* b, float* c, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

double dot_cpu(const float* a, const float* b, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += double(a[i]) * b[i];
  return s;
}

double sum_cpu(const float* in, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += in[i];
  return s;
}

}  // namespace kernels
