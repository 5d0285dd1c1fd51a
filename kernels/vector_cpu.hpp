// CPU references of the vector, dot and reduce families.
#pragma once

#include <cstddef>

namespace kernels {

void vector_add_cpu(const float* a, const float* b, float* c, std::size_t n);
/// a.b accumulated in double.
double dot_cpu(const float* a, const float* b, std::size_t n);
/// Sum accumulated in double.
double sum_cpu(const float* in, std::size_t n);

}  // namespace kernels
