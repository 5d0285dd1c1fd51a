// CPU reference of the histogram family.
#include "kernels/histogram_cpu.hpp"

#include <algorithm>

namespace kernels {

void histogram_cpu(const int* in, std::size_t n, unsigned* hist) {
  std::fill(hist, hist + 256, 0u);
  for (std::size_t i = 0; i < n; ++i) hist[in[i]]++;
}

void merge_partials_cpu(const unsigned* partials, int blocks, unsigned* hist) {
  std::fill(hist, hist + 256, 0u);
  for (int b = 0; b < blocks; ++b)
    for (int k = 0; k < 256; ++k) hist[k] += partials[std::size_t(b) * 256 + k];
}

}  // namespace kernels
