// The conv2d family's host interface: 5x5 fp32 mask, zero padding, output the size of the input. The
// launchers (their kernels are in conv2d.cu) and the CPU references the checks compare with.
#pragma once

#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

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

// CPU references: plain C++, unit-tested without a GPU.

namespace cpu_detail {

inline constexpr int m = 5, rad = 2;

inline void rows(const float* in, float* out, int n, const float* mask, int r0, int r1) {
  for (int row = r0; row < r1; ++row)
    for (int col = 0; col < n; ++col) {
      float sum = 0;
      for (int i = 0; i < m; ++i) {
        const int r = row + i - rad;
        if (r < 0 || r >= n) continue;
        for (int j = 0; j < m; ++j) {
          const int c = col + j - rad;
          if (c >= 0 && c < n) sum += mask[i * m + j] * in[std::size_t(r) * n + c];
        }
      }
      out[std::size_t(row) * n + col] = sum;
    }
}

}  // namespace cpu_detail

/// Sequential 5x5 convolution with zero padding (the source paper's CPU baseline).
inline void conv2d_cpu_seq(const float* in, float* out, int n, const float* mask) {
  cpu_detail::rows(in, out, n, mask, 0, n);
}

/// The same over `threads` threads, split by rows.
inline void conv2d_cpu_par(const float* in, float* out, int n, const float* mask, int threads) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(cpu_detail::rows, in, out, n, mask, int(std::int64_t(n) * t / threads),
                      int(std::int64_t(n) * (t + 1) / threads));
  for (auto& th : pool) th.join();
}

/// One output computed in double: the check's reference at a sampled position; `abs_sum` (if given)
/// receives sum |w x|, which bounds its rounding error.
inline double conv2d_reference_at(const float* in, int n, const float* mask, int row, int col,
                                  double* abs_sum = nullptr) {
  using cpu_detail::m, cpu_detail::rad;
  double sum = 0, mag = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const int r = row + i - rad, c = col + j - rad;
      if (r < 0 || r >= n || c < 0 || c >= n) continue;
      const double p = double(mask[i * m + j]) * in[std::size_t(r) * n + c];
      sum += p;
      mag += std::fabs(p);
    }
  if (abs_sum) *abs_sum = mag;
  return sum;
}

}  // namespace kernels
