// Image kernels: byte inversion (vectorised) and RGB saturation.
#include "kernels/image.hpp"

#include <algorithm>

#include "cudabench/cuda_check.hpp"

namespace kernels {
namespace {

__global__ void __launch_bounds__(image_config::block)
    invert_kernel(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t tid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool aligned =
      (reinterpret_cast<std::uintptr_t>(in) % 16 == 0) && (reinterpret_cast<std::uintptr_t>(out) % 16 == 0);
  std::size_t done = 0;
  if (aligned) {
    const std::size_t vec = n / 16;
    const uint4* vin = reinterpret_cast<const uint4*>(in);
    uint4* vout = reinterpret_cast<uint4*>(out);
    for (std::size_t i = tid; i < vec; i += stride) {
      uint4 v = vin[i];
      vout[i] = make_uint4(~v.x, ~v.y, ~v.z, ~v.w);  // 255 - p == ~p for bytes
    }
    done = vec * 16;
  }
  for (std::size_t i = done + tid; i < n; i += stride) out[i] = std::uint8_t(255 - in[i]);
}

__global__ void __launch_bounds__(image_config::block)
    saturate_kernel(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, std::size_t pixels,
                    float factor) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < pixels; p += stride) {
    const std::uint8_t r = in[3 * p], g = in[3 * p + 1], b = in[3 * p + 2];
    const float luma = __fadd_rn(__fadd_rn(__fmul_rn(0.299f, r), __fmul_rn(0.587f, g)), __fmul_rn(0.114f, b));
    const std::uint8_t c[3] = {r, g, b};
#pragma unroll
    for (int k = 0; k < 3; ++k) {
      float v = __fadd_rn(luma, __fmul_rn(factor, __fsub_rn(float(c[k]), luma)));
      out[3 * p + k] = std::uint8_t(fminf(fmaxf(v, 0.0f), 255.0f) + 0.5f);
    }
  }
}

unsigned grid_for(std::size_t work_items) {
  std::size_t blocks = (work_items + image_config::block - 1) / image_config::block;
  return unsigned(std::clamp<std::size_t>(blocks, 1, image_config::max_blocks));
}

}  // namespace

void launch_invert(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t n, cudaStream_t s) {
  invert_kernel<<<grid_for((n + 15) / 16), image_config::block, 0, s>>>(d_in, d_out, n);
  CB_CHECK_LAUNCH("invert_kernel");
}

void launch_invert_mapped(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t n, cudaStream_t s) {
  invert_kernel<<<std::min<unsigned>(grid_for((n + 15) / 16), image_config::mapped_blocks), image_config::block, 0,
                  s>>>(d_in, d_out, n);
  CB_CHECK_LAUNCH("invert_kernel");
}

void launch_saturate_rgb(const std::uint8_t* d_in, std::uint8_t* d_out, std::size_t pixels, float factor,
                         cudaStream_t s) {
  saturate_kernel<<<grid_for(pixels), image_config::block, 0, s>>>(d_in, d_out, pixels, factor);
  CB_CHECK_LAUNCH("saturate_kernel");
}

}  // namespace kernels
