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
};

/// out[i] = 255 - in[i] for n bytes (16 bytes per thread where aligned).
void launch_invert(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t n, cudaStream_t s);
/// Saturation change of interleaved RGB pixels; see saturate_rgb_cpu for the function.
void launch_saturate_rgb(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t pixels, float factor, cudaStream_t s);

}  // namespace kernels
