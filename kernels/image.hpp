// The image family's host interface (4K inversion and saturation): the launchers (their kernels are in
// image.cu) and the CPU references the checks compare with.
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace kernels {

/// Launch shape of the image kernels.
struct image_config {
  static constexpr int block = 256;
  static constexpr int max_blocks = 132 * 16;  ///< grid-stride beyond this
  /// Grid of the inversion on mapped host memory: 32 blocks of 256 threads, one 16-byte read each in flight
  /// (128 KiB), so that every thread's write goes out while other threads' reads are still coming in. On the
  /// H100 over PCIe 5 (docs/results.md), 20-44 blocks (80-176 KiB in flight) took 203-208 us for the 4K
  /// image, 16 blocks 227-235 us (the bus idles between requests), and the launcher's usual 2112 blocks
  /// 251 us (every thread reads before any writes).
  static constexpr int mapped_blocks = 32;
};

/// out[i] = 255 - in[i] for n bytes (16 bytes per thread where aligned).
void launch_invert(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t n, cudaStream_t s);
/// The same where d_in and d_out are pinned host memory mapped into the device (cudaHostGetDevicePointer):
/// the kernel reads and writes over the bus, both directions at once, on a grid of image_config::mapped_blocks.
void launch_invert_mapped(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t n, cudaStream_t s);
/// Saturation change of interleaved RGB pixels; see saturate_rgb_cpu for the function.
void launch_saturate_rgb(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t pixels, float factor,
                         cudaStream_t s);

// CPU references: plain C++, unit-tested without a GPU.

/// out[i] = 255 - in[i]
inline void invert_cpu(const std::uint8_t* in, std::uint8_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = std::uint8_t(255 - in[i]);
}

/// Changes the saturation of interleaved RGB pixels: each channel moves away from (factor > 1) or towards
/// the pixel's luma (0.299 R + 0.587 G + 0.114 B), then is rounded and clamped to [0, 255].
inline void saturate_rgb_cpu(const std::uint8_t* in, std::uint8_t* out, std::size_t pixels, float factor) {
  for (std::size_t p = 0; p < pixels; ++p) {
    const std::uint8_t* px = in + 3 * p;
    const float luma = 0.299f * px[0] + 0.587f * px[1] + 0.114f * px[2];
    for (int c = 0; c < 3; ++c) {
      float v = luma + factor * (float(px[c]) - luma);
      out[3 * p + c] = std::uint8_t(std::clamp(v, 0.0f, 255.0f) + 0.5f);
    }
  }
}

}  // namespace kernels
