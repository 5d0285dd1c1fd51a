// Random inputs and comparisons shared by the CPU references and the checks (plain C++).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>

namespace kernels {

/// A fresh seed for every check, so each run tests the kernels on new data.
inline std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t(rd()) << 32) ^ rd();
}

inline void fill_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t v = g();
    for (int k = 0; k < 8; ++k) p[i + k] = std::uint8_t(v >> (8 * k));
  }
  for (; i < n; ++i) p[i] = std::uint8_t(g());
}

inline void fill_uniform(float* p, std::size_t n, float lo, float hi, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  for (std::size_t i = 0; i < n; ++i) p[i] = d(g);
}

inline void fill_ints(int* p, std::size_t n, int lo, int hi_exclusive, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> d(lo, hi_exclusive - 1);
  for (std::size_t i = 0; i < n; ++i) p[i] = d(g);
}

/// Elementwise comparison with an absolute tolerance; returns "" or a description of the first mismatch.
template <typename T>
std::string compare_elements(const T* got, const T* want, std::size_t n, double tolerance) {
  std::size_t bad = 0, first = n;
  for (std::size_t i = 0; i < n; ++i) {
    double d = double(got[i]) - double(want[i]);
    if (!(d <= tolerance && -d <= tolerance)) {  // also catches NaN
      if (first == n) first = i;
      ++bad;
    }
  }
  if (!bad) return {};
  return std::to_string(bad) + " of " + std::to_string(n) + " elements differ; first at " + std::to_string(first) +
         ": got " + std::to_string(double(got[first])) + ", want " + std::to_string(double(want[first]));
}

}  // namespace kernels
