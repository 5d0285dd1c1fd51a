// CPU references of the image family.
#include "kernels/image_cpu.hpp"

#include <algorithm>
#include <cmath>

namespace kernels {

void invert_cpu(const std::uint8_t* in, std::uint8_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = std::uint8_t(255 - in[i]);
}

void saturate_rgb_cpu(const std::uint8_t* in, std::uint8_t* out, std::size_t pixels, float factor) {
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
