// Named parameter axes: a case's parameters (`n`, `streams`, ...) with their values per preset; a point of
// them names the case and gives its problem size.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cudabench {

/// An axis's values by preset name ("quick", "nightly", "full").
using values_by_preset = std::map<std::string, std::vector<std::int64_t>>;

/// A named parameter of a family's cases. `size`: the axis is the cases' problem size (what reports plot
/// against; at most one per case), and `--sizes=FAMILY=N,...` replaces its values.
/// `--axis=FAMILY.NAME=v,...` replaces the values of any axis. `max`: the largest value the family's cases can
/// run (what their index types and launch shapes hold); a larger one from the command line is refused.
struct axis {
  std::string name;
  values_by_preset values;
  bool size = false;
  std::int64_t max = std::numeric_limits<std::int32_t>::max();
};

/// The problem-size axis `name` (the matrix side, the element count, ...), at most `max`.
inline axis size_axis(std::string name, values_by_preset values,
                      std::int64_t max = std::numeric_limits<std::int32_t>::max()) {
  return {std::move(name), std::move(values), true, max};
}
/// Any other axis (streams, chunks, threads, ...), at most `max`.
inline axis int_axis(std::string name, values_by_preset values,
                     std::int64_t max = std::numeric_limits<std::int32_t>::max()) {
  return {std::move(name), std::move(values), false, max};
}
/// The same values for every preset.
inline values_by_preset every_preset(const std::vector<std::int64_t>& v) {
  return {{"quick", v}, {"nightly", v}, {"full", v}};
}

/// One value of each of a case's axes, in the order of the axes: the case name ends in them
/// (`matmul/tiled/1024`, `dot/threads_streams/16777216/4`), and the size axis's value is the case's size.
class point {
 public:
  /// The value of axis `name`; throws std::out_of_range when the point has no such axis.
  std::int64_t operator[](const std::string& name) const;
  /// The value of axis `name` as T (`at.get<std::size_t>("n")`); throws std::out_of_range when T cannot hold
  /// it (never narrowed: a size of 4294967296 read as int would otherwise become 0).
  template <typename T>
  T get(const std::string& name) const {
    const std::int64_t v = (*this)[name];
    if constexpr (std::is_integral_v<T>) {  // std::in_range is C++20; CUDA sources include this as C++17
      const bool fits =
          std::is_signed_v<T>
              ? v >= std::int64_t(std::numeric_limits<T>::min()) && v <= std::int64_t(std::numeric_limits<T>::max())
              : v >= 0 && std::uint64_t(v) <= std::uint64_t(std::numeric_limits<T>::max());
      if (!fits) throw std::out_of_range("axis '" + name + "': " + std::to_string(v) + " does not fit the case's type");
    }
    return static_cast<T>(v);
  }
  /// The values joined by '/', the case name's parameters ("" for no axis).
  std::string params() const;
  /// Whether one of the axes is a size axis, and its value (0 when none).
  bool has_size() const;
  double size() const;
  /// This point with one more axis value after its own.
  point with(const axis& a, std::int64_t value) const;

 private:
  struct coordinate {
    std::string name;
    std::int64_t value;
    bool size;
  };
  std::vector<coordinate> coordinates_;
};

}  // namespace cudabench
