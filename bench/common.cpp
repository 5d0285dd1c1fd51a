// Sampled positions and unwritten-output checks for bench cases.
#include "bench/common.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string_view>

#include "cudabench/errors.hpp"

#include "support/host_data.hpp"

namespace bench {

std::vector<std::pair<int, int>> sampled_positions(int n, int count) {
  std::vector<std::pair<int, int>> out{{0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}};
  std::mt19937_64 g(kernels::fresh_seed());
  std::uniform_int_distribution<int> d(0, n - 1);
  while (int(out.size()) < count) out.emplace_back(d(g), d(g));
  return out;
}

double extra_work_fraction() {
  static const double fraction = [] {
    const char* v = std::getenv("CUDABENCH_EXTRA_WORK");
    if (!v || !*v) return 0.0;
    char* end = nullptr;
    const double pct = std::strtod(v, &end);
    if (end == v || *end != '\0' || !(pct >= 0 && pct <= 100))
      throw cudabench::usage_error("CUDABENCH_EXTRA_WORK is '" + std::string(v).substr(0, 40) + "'; expected a percentage from 0 to 100");
    return pct / 100;
  }();
  return fraction;
}

std::string extra_work_note() {
  const double f = extra_work_fraction();
  return f > 0 ? fmt::format("CUDABENCH_EXTRA_WORK: {:g}% more real work than declared", f * 100) : "";
}

std::string check_all_written(const float* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::isnan(out[i])) return "element " + std::to_string(i) + " was not written";
  return {};
}

}  // namespace bench
