// Human-readable times and rates.
#include "io/format.hpp"

#include <fmt/format.h>

#include <utility>

namespace cudabench {

double units_per_second(std::string_view unit) {
  static constexpr std::pair<std::string_view, double> units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};
  for (const auto& [name, per_second] : units)
    if (unit == name) return per_second;
  return 0;
}

std::string format_time(double s) {
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.2f} us", s * 1e6);
  return fmt::format("{:.1f} ns", s * 1e9);
}

std::string format_rate(double v, const char* unit) {
  if (v >= 1e12) return fmt::format("{:.2f} T{}", v / 1e12, unit);
  if (v >= 1e9) return fmt::format("{:.2f} G{}", v / 1e9, unit);
  if (v >= 1e6) return fmt::format("{:.2f} M{}", v / 1e6, unit);
  return fmt::format("{:.2f} {}", v, unit);
}

std::string printable(std::string_view text, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= limit) return out + "...";
    const unsigned char ch = static_cast<unsigned char>(text[i]);
    if (ch >= 0x20 && ch < 0x7f) out += char(ch);
    else out += fmt::format("\\x{:02x}", ch);
  }
  return out;
}

}  // namespace cudabench
