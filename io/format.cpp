// Human-readable times and rates.
#include "io/format.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace cudabench {

double units_per_second(std::string_view unit) {
  static constexpr std::pair<std::string_view, double> units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};
  for (const auto& [name, per_second] : units)
    if (unit == name) return per_second;
  return 0;
}

std::string format_time(double s) {
  if (s >= 1) return fmt::format(FMT_COMPILE("{:.3f} s"), s);
  if (s >= 1e-3) return fmt::format(FMT_COMPILE("{:.3f} ms"), s * 1e3);
  if (s >= 1e-6) return fmt::format(FMT_COMPILE("{:.2f} us"), s * 1e6);
  return fmt::format(FMT_COMPILE("{:.1f} ns"), s * 1e9);
}

std::string format_rate(double v, const char* unit) {
  if (v >= 1e12) return fmt::format(FMT_COMPILE("{:.2f} T{}"), v / 1e12, unit);
  if (v >= 1e9) return fmt::format(FMT_COMPILE("{:.2f} G{}"), v / 1e9, unit);
  if (v >= 1e6) return fmt::format(FMT_COMPILE("{:.2f} M{}"), v / 1e6, unit);
  return fmt::format(FMT_COMPILE("{:.2f} {}"), v, unit);
}

namespace {
std::string hex(unsigned char ch) { return fmt::format("\\x{:02x}", ch); }
/// The length of the well-formed UTF-8 sequence at the start of `s` (1 to 4 bytes), 0 where there is none.
std::size_t utf8_length(std::string_view s) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = at(0);
  const std::size_t n = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0;
  if (n == 0 || s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i)
    if ((at(i) & 0xc0) != 0x80) return 0;
  // No overlong form, no surrogate, nothing past U+10FFFF.
  if ((lead == 0xe0 && at(1) < 0xa0) || (lead == 0xed && at(1) > 0x9f) || (lead == 0xf0 && at(1) < 0x90) ||
      (lead == 0xf4 && at(1) > 0x8f))
    return 0;
  return n;
}
/// True for the UTF-8 sequence of a bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
/// U+2069): text that would reorder what a reader sees around it.
bool bidi_control(std::string_view s, std::size_t n) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  if (n == 2) return at(0) == 0xd8 && at(1) == 0x9c;
  if (n != 3 || at(0) != 0xe2) return false;
  return (at(1) == 0x80 && (at(2) == 0x8e || at(2) == 0x8f || (at(2) >= 0xaa && at(2) <= 0xae))) ||
         (at(1) == 0x81 && at(2) >= 0xa6 && at(2) <= 0xa9);
}
}  // namespace

std::string printable(std::string_view text, std::size_t limit) {
  if (text.size() <= limit && std::all_of(text.begin(), text.end(), [](char ch) { return ch >= 0x20 && ch < 0x7f; }))
    return std::string(text);  // printable ASCII, as it is
  std::string out;
  out.reserve(std::min(text.size(), limit));
  for (std::size_t i = 0; i < text.size();) {
    if (out.size() >= limit) return out + "...";
    const auto ch = static_cast<unsigned char>(text[i]);
    const std::size_t n = ch >= 0x80 ? utf8_length(text.substr(i)) : 1;
    const bool c1 = ch == 0xc2 && n == 2 && static_cast<unsigned char>(text[i + 1]) <= 0x9f;  // U+0080..U+009F
    // A control character (a bidirectional one included), or a byte of no UTF-8 character.
    if (n == 0 || ch < 0x20 || ch == 0x7f || c1 || bidi_control(text.substr(i), n)) {
      for (std::size_t j = 0; j < std::max<std::size_t>(n, 1); ++j) out += hex(static_cast<unsigned char>(text[i + j]));
      i += std::max<std::size_t>(n, 1);
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string printable(std::string_view text) { return printable(text, std::string_view::npos); }

}  // namespace cudabench
