// CPU references of the image family: grayscale inversion, RGB inversion and saturation.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kernels {

/// out[i] = 255 - in[i]
void invert_cpu(const std::uint8_t* in, std::uint8_t* out, std::size_t n);
/// Changes the saturation of interleaved RGB pixels: each channel moves away from (factor > 1) or towards
/// the pixel's luma (0.299 R + 0.587 G + 0.114 B), then is rounded and clamped to [0, 255].
void saturate_rgb_cpu(const std::uint8_t* in, std::uint8_t* out, std::size_t pixels, float factor);

}  // namespace kernels
