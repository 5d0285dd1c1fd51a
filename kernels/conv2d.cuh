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
  // conv2d_fast: a block of fast_cols x fast_threads_y threads computes fast_cols x (fast_threads_y x
  // fast_rows) outputs, each thread a column strip of fast_rows from a shared tile, 5 inputs a row at a time.
  // On the H100 at 16384^2: 64 x 4 x 16 0.805 ms with the tile copied by cp.async (register-staged 0.906 ms;
  // 32 x 8 x 8 0.946 ms), docs/results.md.
  static constexpr int fast_cols = 64;
  static constexpr int fast_threads_y = 4;
  static constexpr int fast_rows = 16;
};

/// Copies the 25 mask weights into constant memory (used by both kernels), ordered on `s`.
void conv2d_set_mask(const float* h_mask, cudaStream_t s);
/// One thread per output, inputs from global memory, mask in constant memory.
void conv2d_naive(const float* d_in, float* d_out, int n, cudaStream_t s);
/// Input tiles in shared memory, mask in constant memory.
void conv2d_tiled(const float* d_in, float* d_out, int n, cudaStream_t s);
/// Ours, beyond the source: each thread computes a strip of fast_rows outputs down a column of a shared
/// tile, reading each input row once into registers and adding it to every output it touches.
void conv2d_fast(const float* d_in, float* d_out, int n, cudaStream_t s);

}  // namespace kernels
