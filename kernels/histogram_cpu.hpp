// CPU reference of the histogram family.
#pragma once

#include <cstddef>

namespace kernels {

/// hist[v]++ for each value (hist has 256 entries, zeroed here).
void histogram_cpu(const int* in, std::size_t n, unsigned* hist);
/// Sums `blocks` partial histograms of 256 bins into hist.
void merge_partials_cpu(const unsigned* partials, int blocks, unsigned* hist);

}  // namespace kernels
