// Counter-based random values: element i of a seeded input is a function of (seed, i) alone, the same on the
// host and on the device, so a device can fill its own input and a check rebuild the host copy from the seed.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define KERNELS_HD __host__ __device__ __forceinline__
#else
#define KERNELS_HD inline
#endif

namespace kernels::counter_random {

/// SplitMix64's finaliser of the i-th step from `seed`: 64 well-mixed bits per (seed, i).
KERNELS_HD std::uint64_t bits(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Uniform in [lo, hi): 24 random bits scaled exactly, so host and device round the same way (for ranges
/// whose width is a power of two, as every input here uses, the product is exact and one addition rounds).
KERNELS_HD float uniform(std::uint64_t seed, std::uint64_t i, float lo, float hi) {
  const float u = float(std::uint32_t(bits(seed, i) >> 40)) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * u;
}

/// Uniform integer in [lo, hi_exclusive): the high 32 bits scaled to the range (Lemire's multiply).
KERNELS_HD int uniform_int(std::uint64_t seed, std::uint64_t i, int lo, int hi_exclusive) {
  const std::uint64_t range = std::uint64_t(std::int64_t(hi_exclusive) - lo);
  return lo + int((std::uint64_t(std::uint32_t(bits(seed, i) >> 32)) * range) >> 32);
}

/// One random byte per element.
KERNELS_HD std::uint8_t byte(std::uint64_t seed, std::uint64_t i) { return std::uint8_t(bits(seed, i) >> 56); }

}  // namespace kernels::counter_random
