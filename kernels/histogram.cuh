// Launchers of the histogram family: 256 bins over int data in [0, 256). Kernels live in histogram.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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

/// cub::DeviceHistogram::HistogramEven with 257 levels over [0, 256); temp storage owned by the object.
class cub_histogram {
 public:
  cub_histogram(const int* d_in, std::size_t n, unsigned* d_hist);
  ~cub_histogram();
  cub_histogram(const cub_histogram&) = delete;
  cub_histogram& operator=(const cub_histogram&) = delete;
  void run(cudaStream_t s);
 private:
  const int* in_;
  std::size_t n_;
  unsigned* hist_;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

}  // namespace kernels
