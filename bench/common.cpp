// Sampled positions and unwritten-output checks for bench cases.
#include "bench/common.hpp"

#include <fmt/format.h>

#include <charconv>
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
    // Plain decimal digits with an optional fraction ("2", "0.5"): no space, sign, exponent or hexadecimal.
    const std::string_view text(v);
    const std::size_t point = text.find('.');
    const auto digits = [](std::string_view d) {
      return !d.empty() && d.find_first_not_of("0123456789") == std::string_view::npos;
    };
    const bool plain =
        digits(text.substr(0, point)) && (point == std::string_view::npos || digits(text.substr(point + 1)));
    double pct = -1;
    if (plain) std::from_chars(text.data(), text.data() + text.size(), pct);
    if (!(pct >= 0 && pct <= 100))
      throw cudabench::usage_error("CUDABENCH_EXTRA_WORK is '" + std::string(v).substr(0, 40) +
                                   "'; expected a percentage from 0 to 100 in plain decimal (such as 2 or 0.5)");
    return pct / 100;
  }();
  return fraction;
}

double extra_work_fraction(std::string_view case_variant) {
  const char* only = std::getenv("CUDABENCH_EXTRA_WORK_VARIANT");
  return !only || !*only || case_variant == only ? extra_work_fraction() : 0.0;
}

std::string extra_work_note(double f) {
  return f > 0 ? fmt::format("CUDABENCH_EXTRA_WORK: {:g}% more real work than declared", f * 100) : "";
}

std::string check_all_written(const float* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::isnan(out[i])) return "element " + std::to_string(i) + " was not written";
  return {};
}

}  // namespace bench
