// Sampled positions and unwritten-output checks for bench cases.
#include "bench/common.hpp"

#include <cmath>
#include <random>

#include "kernels/host_data.hpp"

namespace bench {

std::vector<std::pair<int, int>> sampled_positions(int n, int count) {
  std::vector<std::pair<int, int>> out{{0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}};
  std::mt19937_64 g(kernels::fresh_seed());
  std::uniform_int_distribution<int> d(0, n - 1);
  while (int(out.size()) < count) out.emplace_back(d(g), d(g));
  return out;
}

std::string check_all_written(const float* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::isnan(out[i])) return "element " + std::to_string(i) + " was not written";
  return {};
}

}  // namespace bench
