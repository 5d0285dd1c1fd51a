// Random inputs and comparisons shared by the CPU references and the checks (plain C++).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/counter_random.hpp"

namespace kernels {

/// A fresh seed for every check, so each run tests the kernels on new data.
inline std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t(rd()) << 32) ^ rd();
}

/// Runs fn(begin, end) over [0, n) in chunks of 2^20 on all cores.
template <typename Fn>
void parallel_chunks(std::size_t n, Fn fn) {
  constexpr std::size_t chunk = std::size_t(1) << 20;
  const std::size_t chunks = (n + chunk - 1) / chunk;
  const std::size_t workers = std::min<std::size_t>(chunks, std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t c; (c = next.fetch_add(1)) < chunks;) fn(c * chunk, std::min(n, (c + 1) * chunk));
  };
  std::vector<std::thread> pool;
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

// Element i depends on (seed, i) alone (support/counter_random.hpp): not on the thread count, and the same
// values kernels/device_fill.cuh writes on the device for that seed.
inline void fill_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed) {
  parallel_chunks(n, [=](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) p[i] = counter_random::byte(seed, i);
  });
}

inline void fill_uniform(float* p, std::size_t n, float lo, float hi, std::uint64_t seed) {
  parallel_chunks(n, [=](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) p[i] = counter_random::uniform(seed, i, lo, hi);
  });
}

/// n floats uniform in [lo, hi) from a fresh seed.
inline std::vector<float> uniform_floats(std::size_t n, float lo, float hi) {
  std::vector<float> v(n);
  fill_uniform(v.data(), n, lo, hi, fresh_seed());
  return v;
}

inline void fill_ints(int* p, std::size_t n, int lo, int hi_exclusive, std::uint64_t seed) {
  parallel_chunks(n, [=](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) p[i] = counter_random::uniform_int(seed, i, lo, hi_exclusive);
  });
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
