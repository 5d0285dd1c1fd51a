// The value parsers the option table's actions use: numbers, device lists, --sizes, regular expressions.
#include "cli/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

#include "io/format.hpp"

namespace cudabench::cli {

namespace {
/// The whole of `text` as a number of type T written in decimal (std::from_chars: no space around it, no '+',
/// no hexadecimal, nothing out of T's range, no infinity or NaN); nothing for anything else. Every number an
/// option takes is read through this one.
template <typename T>
std::optional<T> strict_number(std::string_view text) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if constexpr (std::is_floating_point_v<T>)
    if (!std::isfinite(v)) return std::nullopt;
  return v;
}

/// The items of a comma-separated list ("" items included, so "1,,2" is refused by whoever reads them).
std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = list.find(',', start);
    out.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}
}  // namespace

int parse_int(const std::string& text, const std::string& what, int lo, int hi) {
  const std::optional<long long> v = strict_number<long long>(text);  // 64 bits: nothing wraps into the range
  if (!v || *v < lo || *v > hi)
    throw usage_error(fmt::format("{} expects a whole number from {} to {}, got '{}'", what, lo, hi, printable(text)));
  return int(*v);
}

double parse_double(const std::string& text, const std::string& what, double lo, double hi) {
  const std::optional<double> v = strict_number<double>(text);
  if (!v || *v < lo || *v > hi)
    throw usage_error(fmt::format("{} expects a number from {:g} to {:g}, got '{}'", what, lo, hi, printable(text)));
  return *v;
}

std::vector<int> parse_device_list(const std::string& spec, int count) {
  std::vector<int> out;
  if (spec == "all") {
    for (int d = 0; d < count; ++d) out.push_back(d);
  } else {
    for (const std::string& item : split_commas(spec)) {
      const bool digits = !item.empty() && item.size() < 8 && item.find_first_not_of("0123456789") == std::string::npos;
      if (!digits)
        throw usage_error(
            fmt::format("--devices expects 'all' or a comma-separated list of device ordinals such as 0,2; got '{}'",
                        printable(spec)));
      const int d = std::stoi(item);
      if (d >= count)
        throw usage_error("--devices: device " + std::to_string(d) + " does not exist (" + std::to_string(count) +
                          " visible)");
      if (std::find(out.begin(), out.end(), d) != out.end())
        throw usage_error("--devices: device " + std::to_string(d) + " is listed twice");
      out.push_back(d);
    }
  }
  if (out.empty()) throw usage_error("--devices: no CUDA device to run on");
  return out;
}

namespace {
/// "N,N,..." as distinct positive whole numbers of 64 bits (each family then refuses what its cases cannot run;
/// a value twice would make one case twice); `option` and `spec` name the value in the message.
std::vector<std::int64_t> positive_list(const std::string& text, const std::string& option, const std::string& spec) {
  std::vector<std::int64_t> list;
  for (const std::string& item : split_commas(text)) {
    const std::optional<std::int64_t> parsed = strict_number<std::int64_t>(item);
    const std::int64_t v = parsed.value_or(0);
    if (v <= 0)
      throw usage_error(fmt::format("{}: '{}' in '{}' is not a positive whole number (1 to {})", option,
                                    printable(item), printable(spec), std::numeric_limits<std::int64_t>::max()));
    if (std::find(list.begin(), list.end(), v) != list.end())
      throw usage_error(fmt::format("{}: {} appears twice in '{}'", option, v, printable(spec)));
    list.push_back(v);
  }
  return list;
}
}  // namespace

void parse_sizes(const std::string& spec, std::map<std::string, std::vector<std::int64_t>>& into) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw usage_error("--sizes expects FAMILY=N,N,... (for example conv2d=1024,4096), got '" + spec + "'");
  const std::string family = spec.substr(0, eq);
  if (into.count(family)) throw usage_error("--sizes: family '" + family + "' is given twice");
  into[family] = positive_list(spec.substr(eq + 1), "--sizes", spec);
}

void parse_axis(const std::string& spec, std::map<std::string, std::vector<std::int64_t>>& into) {
  const auto eq = spec.find('='), dot = spec.find('.');
  if (eq == std::string::npos || dot == 0 || dot == std::string::npos || dot + 1 >= eq || eq + 1 == spec.size())
    throw usage_error("--axis expects FAMILY.AXIS=V,V,... (for example dot.streams=2,4), got '" + spec + "'");
  const std::string key = spec.substr(0, eq);
  if (into.count(key)) throw usage_error("--axis: '" + key + "' is given twice");
  into[key] = positive_list(spec.substr(eq + 1), "--axis", spec);
}

gates_choice gates_choice::parse(const std::string& value) {
  if (value.empty()) throw usage_error("--gates needs a gates file (the gates command writes one) or 'none'");
  if (value == "none") return {source::none, {}};
  return {source::file, value};
}

name_pattern user_regex(const std::string& pattern, const std::string& option) { return name_pattern(pattern, option); }

}  // namespace cudabench::cli
