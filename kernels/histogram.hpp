// The histogram family's host interface: 256 bins over int data in [0, 256). The launchers (their kernels
// are in histogram.cu) and the CPU references the checks compare with.
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/cub_call.hpp"

namespace kernels {

constexpr int histogram_bins = 256;

/// Launch shape of the histogram kernels.
struct histogram_config {
  static constexpr int block = 256;
  static constexpr int shared_blocks = 1024;  ///< blocks (and partial histograms) of the shared-memory variants
  static constexpr int fast_block = 512;      ///< histogram_fast: threads a block
  static constexpr int fast_blocks_per_sm = 2;
};

/// The racy teaching kernel: hist[bin]++ without atomics (loses counts by design). Zeroes hist first.
void histogram_naive(const int* d_in, std::size_t n, unsigned* d_hist, cudaStream_t s);
/// atomicAdd on the global histogram. Zeroes hist first.
void histogram_atomic_global(const int* d_in, std::size_t n, unsigned* d_hist, cudaStream_t s);
/// Per-block histograms in shared memory, written to d_partials[shared_blocks][256].
void histogram_shared_partials(const int* d_in, std::size_t n, unsigned* d_partials, cudaStream_t s);
/// Sums the partial histograms into d_hist on the GPU.
void histogram_merge_partials(const unsigned* d_partials, unsigned* d_hist, cudaStream_t s);

/// Ours, beyond the source: zeroes hist, then one launch of fast_blocks_per_sm blocks an SM, each counting
/// int4-loaded values into a shared histogram (values outside [0, 256) are not counted) and adding its
/// non-zero bins to hist with global atomics.
void histogram_fast(const int* d_in, std::size_t n, unsigned* d_hist, cudaStream_t s);

/// cub::DeviceHistogram::HistogramEven with 257 levels over [0, 256).
cub_call cub_histogram(const int* d_in, std::size_t n, unsigned* d_hist);

// CPU references: plain C++, unit-tested without a GPU.

/// hist[v]++ for each value (hist has 256 entries, zeroed here).
inline void histogram_cpu(const int* in, std::size_t n, unsigned* hist) {
  std::fill(hist, hist + 256, 0u);
  for (std::size_t i = 0; i < n; ++i) hist[in[i]]++;
}

/// Sums `blocks` partial histograms of 256 bins into hist.
inline void merge_partials_cpu(const unsigned* partials, int blocks, unsigned* hist) {
  std::fill(hist, hist + 256, 0u);
  for (int b = 0; b < blocks; ++b)
    for (int k = 0; k < 256; ++k) hist[k] += partials[std::size_t(b) * 256 + k];
}

}  // namespace kernels
