// The reduce family's host interface: the sum of n floats into one, on the device. The launchers (their
// kernels are in reduce.cu and reduce_recursive.cu) and the CPU reference the checks compare with.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/cub_call.hpp"

namespace kernels {

struct reduce_config {
  static constexpr int block = 256;
  static constexpr int max_blocks = 1024;  ///< first-pass blocks of the two-pass variants (grid-stride)
  static constexpr int items = 8;          ///< elements per thread per level of the recursive variant
};

/// Two passes of a shared-memory tree reduction; d_partials holds max_blocks floats.
void reduce_shared_tree(const float* d_in, std::size_t n, float* d_partials, float* d_result, cudaStream_t s);
/// Two passes of a warp-shuffle reduction; d_partials holds max_blocks floats.
void reduce_warp_shuffle(const float* d_in, std::size_t n, float* d_partials, float* d_result, cudaStream_t s);
/// Ours, beyond the source: one launch; each block sums float4 loads (grid-stride), writes its partial and
/// counts itself done on `d_counter` (one unsigned, zero before the first call; left zero after each); the last
/// block sums the partials into d_result. d_partials holds max_blocks floats.
void reduce_fast(const float* d_in, std::size_t n, float* d_partials, unsigned* d_counter, float* d_result,
                 cudaStream_t s);
/// Floats each of the two scratch buffers of reduce_recursive needs for n inputs.
std::size_t reduce_recursive_scratch(std::size_t n);
/// One launch from the host; each level tail-launches the next (dynamic parallelism,
/// cudaStreamTailLaunch) until one block is left.
void reduce_recursive(const float* d_in, std::size_t n, float* d_a, float* d_b, float* d_result, cudaStream_t s);

/// cub::DeviceReduce::Sum.
cub_call cub_sum(const float* d_in, std::size_t n, float* d_result);

// CPU reference: plain C++, unit-tested without a GPU.

/// Sum accumulated in double.
inline double sum_cpu(const float* in, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += in[i];
  return s;
}

}  // namespace kernels
