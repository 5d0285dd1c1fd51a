// CPU references of the conv2d family.
#include "kernels/conv2d_cpu.hpp"

#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

namespace kernels {
namespace {
constexpr int m = 5, rad = 2;

void rows(const float* in, float* out, int n, const float* mask, int r0, int r1) {
  for (int row = r0; row < r1; ++row)
    for (int col = 0; col < n; ++col) {
      float sum = 0;
      for (int i = 0; i < m; ++i) {
        const int r = row + i - rad;
        if (r < 0 || r >= n) continue;
        for (int j = 0; j < m; ++j) {
          const int c = col + j - rad;
          if (c >= 0 && c < n) sum += mask[i * m + j] * in[std::size_t(r) * n + c];
        }
      }
      out[std::size_t(row) * n + col] = sum;
    }
}
}  // namespace

void conv2d_cpu_seq(const float* in, float* out, int n, const float* mask) { rows(in, out, n, mask, 0, n); }

void conv2d_cpu_par(const float* in, float* out, int n, const float* mask, int threads) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(rows, in, out, n, mask, int(std::int64_t(n) * t / threads), int(std::int64_t(n) * (t + 1) / threads));
  for (auto& th : pool) th.join();
}

double conv2d_reference_at(const float* in, int n, const float* mask, int row, int col, double* abs_sum) {
  double sum = 0, mag = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const int r = row + i - rad, c = col + j - rad;
      if (r < 0 || r >= n || c < 0 || c >= n) continue;
      const double p = double(mask[i * m + j]) * in[std::size_t(r) * n + c];
      sum += p;
      mag += std::fabs(p);
    }
  if (abs_sum) *abs_sum = mag;
  return sum;
}

}  // namespace kernels
