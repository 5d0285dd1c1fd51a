// Grid-stride fills of seeded inputs on the device, value for value those of the host fills.
#include "kernels/device_fill.cuh"

#include <algorithm>

#include "cudabench/cuda_check.hpp"
#include "kernels/counter_random.hpp"

namespace kernels {
namespace {
constexpr int block = 256;

unsigned grid_for(std::size_t n) { return unsigned(std::clamp<std::size_t>((n + block - 1) / block, 1, 65535)); }

template <typename T, typename Value>
__global__ void fill_kernel(T* __restrict__ d, std::size_t n, Value value) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
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
}  // namespace

void fill_uniform_device(float* d, std::size_t n, float lo, float hi, std::uint64_t seed, cudaStream_t s) {
  fill_kernel<<<grid_for(n), block, 0, s>>>(d, n, uniform_value{seed, lo, hi});
  CB_CHECK_LAUNCH("fill_uniform_device");
}

void fill_ints_device(int* d, std::size_t n, int lo, int hi_exclusive, std::uint64_t seed, cudaStream_t s) {
  fill_kernel<<<grid_for(n), block, 0, s>>>(d, n, int_value{seed, lo, hi_exclusive});
  CB_CHECK_LAUNCH("fill_ints_device");
}

void fill_bytes_device(std::uint8_t* d, std::size_t n, std::uint64_t seed, cudaStream_t s) {
  fill_kernel<<<grid_for(n), block, 0, s>>>(d, n, byte_value{seed});
  CB_CHECK_LAUNCH("fill_bytes_device");
}

}  // namespace kernels
