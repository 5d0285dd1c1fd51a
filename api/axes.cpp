// Points of named axes: the values of a case's parameters, its name's parameter part and its size.
#include "cudabench/axes.hpp"

#include <stdexcept>

namespace cudabench {

std::int64_t point::operator[](const std::string& name) const {
  for (const coordinate& c : coordinates_)
    if (c.name == name) return c.value;
  throw std::out_of_range("the point " + params() + " has no axis '" + name + "'");
}

std::string point::params() const {
  std::string out;
  for (const coordinate& c : coordinates_) out += (out.empty() ? "" : "/") + std::to_string(c.value);
  return out;
}

bool point::has_size() const {
  for (const coordinate& c : coordinates_)
    if (c.size) return true;
  return false;
}

double point::size() const {
  for (const coordinate& c : coordinates_)
    if (c.size) return double(c.value);
  return 0;
}

point point::with(const axis& a, std::int64_t value) const {
  for (const coordinate& c : coordinates_)
    if (c.name == a.name) throw std::logic_error("axis '" + a.name + "' given twice in one point");
  if (a.size && has_size()) throw std::logic_error("two size axes in one point ('" + a.name + "' and another)");
  point out = *this;
  out.coordinates_.push_back({a.name, value, a.size});
  return out;
}

}  // namespace cudabench
