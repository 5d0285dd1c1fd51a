// Seeded inputs written on the device: the values support/host_data.hpp's fills write on the host for the
// same seed, without a host copy or a transfer (a check rebuilds the host copy from the seed when it needs it).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace kernels {

void fill_uniform_device(float* d, std::size_t n, float lo, float hi, std::uint64_t seed, cudaStream_t s);
void fill_ints_device(int* d, std::size_t n, int lo, int hi_exclusive, std::uint64_t seed, cudaStream_t s);
void fill_bytes_device(std::uint8_t* d, std::size_t n, std::uint64_t seed, cudaStream_t s);

}  // namespace kernels
