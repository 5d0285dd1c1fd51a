// Launchers of the image family's kernels (4K inversion and saturation). Kernels live in image.cu.
#pragma once

#include <cuda_runtime.h>

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
void launch_saturate_rgb(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t pixels, float factor, cudaStream_t s);

}  // namespace kernels
