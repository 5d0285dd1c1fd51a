// The grid-stride fill of a seeded input on the device (support/counter_random.hpp): header-only, so the
// installed limits library writes its inputs with it too without linking kernels/.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cudabench/cuda_check.hpp"
#include "support/counter_random.hpp"

namespace kernels::fill {

inline constexpr int block = 256;

template <typename T, typename Value>
__global__ void fill_kernel(T* __restrict__ d, std::size_t n, Value value) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    d[i] = value(i);
}

struct uniform_value {
  std::uint64_t seed;
  float lo, hi;
  __device__ float operator()(std::size_t i) const { return counter_random::uniform(seed, i, lo, hi); }
};
struct int_value {
  std::uint64_t seed;
  int lo, hi;
  __device__ int operator()(std::size_t i) const { return counter_random::uniform_int(seed, i, lo, hi); }
};
struct byte_value {
  std::uint64_t seed;
  __device__ std::uint8_t operator()(std::size_t i) const { return counter_random::byte(seed, i); }
};

/// Writes value(i) to d[i] for i < n on `s`; `launch_name` ("launch fill_bytes_device") names it in an error.
template <typename T, typename Value>
void launch(T* d, std::size_t n, Value value, cudaStream_t s, const char* launch_name) {
  const auto grid = unsigned(std::clamp<std::size_t>((n + block - 1) / block, 1, 65535));
  fill_kernel<<<grid, block, 0, s>>>(d, n, value);
  ::cudabench::check(cudaGetLastError(), launch_name, __FILE__, __LINE__);
}

}  // namespace kernels::fill
