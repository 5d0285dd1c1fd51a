// Launchers of the conv2d family: 5x5 fp32 mask, zero padding, output the size of the input.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace kernels {

constexpr int conv_mask = 5;
constexpr int conv_radius = conv_mask / 2;

/// Launch shape: one thread per output; the tiled kernel stages (tile + 4)^2 inputs in shared memory.
struct conv2d_config {
  static constexpr int tile = 16;
};

/// Copies the 25 mask weights into constant memory (used by both kernels), ordered on `s`.
void conv2d_set_mask(const float* h_mask, cudaStream_t s);
/// One thread per output, inputs from global memory, mask in constant memory.
void conv2d_naive(const float* d_in, float* d_out, int n, cudaStream_t s);
/// Input tiles in shared memory, mask in constant memory.
void conv2d_tiled(const float* d_in, float* d_out, int n, cudaStream_t s);

}  // namespace kernels
