// The names of an enum's values, said once in a table beside the enum and looked up by one helper.
#pragma once

#include <cstddef>
#include <utility>

namespace cudabench {

/// The name `names` gives `value` ({value, name} pairs), `unknown` where it gives none.
template <typename E, std::size_t N>
constexpr const char* name_in(const std::pair<E, const char*> (&names)[N], E value, const char* unknown = "?") {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return unknown;
}

}  // namespace cudabench
