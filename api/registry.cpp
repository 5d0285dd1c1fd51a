// Family registration: families built in the order their registrations ask for, cases at points of axes,
// and the command line's axis values checked against the families that have those axes.
#include "cudabench/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace cudabench {
namespace {
struct registered_family {
  std::string name;
  family_registrar fn;
  int order;
};

std::vector<registered_family>& registrars() {
  static std::vector<registered_family> r;
  return r;
}

bool& limits_everywhere() {
  static bool declared = false;
  return declared;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

const family_def* find_family(const suite& s, const std::string& name) {
  for (const auto& f : s.families)
    if (f.name == name) return &f;
  return nullptr;
}

/// --sizes and --axis name families and axes that exist, and never the same axis twice.
void check_command_line_axes(const suite& s, const preset& p) {
  for (const auto& [family, sizes] : p.sizes) {
    const family_def* f = find_family(s, family);
    if (!f) throw usage_error("--sizes: no family named '" + family + "' (see --list)");
    if (!f->takes_sizes)
      throw usage_error("--sizes: family '" + family + "' does not take sizes from the command line");
  }
  for (const auto& [key, values] : p.axes) {
    const auto dot = key.find('.');
    const std::string family = key.substr(0, dot), name = dot == std::string::npos ? "" : key.substr(dot + 1);
    const family_def* f = find_family(s, family);
    if (!f) throw usage_error("--axis: no family named '" + family + "' (see --list)");
    if (std::find(f->axes.begin(), f->axes.end(), name) == f->axes.end())
      throw usage_error("--axis: family '" + family + "' has no axis '" + name + "' (its axes: " + joined(f->axes) +
                        ")");
  }
}

/// `values` from the command line option `given` ("--sizes=conv2d"), each within the axis's largest value.
const std::vector<std::int64_t>& within_max(const std::vector<std::int64_t>& values, const axis& a,
                                            const std::string& family, const std::string& given) {
  for (std::int64_t v : values)
    if (v > a.max)
      throw usage_error(given + ": " + std::to_string(v) + " is over the largest " + a.name + " that " + family +
                        " runs (" + std::to_string(a.max) + ")");
  return values;
}

}  // namespace

registration::registration(const char* family, family_registrar fn, int order) {
  registrars().push_back({family, fn, order});
}

limits_in_every_preset::limits_in_every_preset() { limits_everywhere() = true; }

bool limits_in_every_preset_declared() { return limits_everywhere(); }

std::vector<std::int64_t> family_builder::values_of(const axis& a) const {
  if (auto it = preset_.axes.find(family_.name + "." + a.name); it != preset_.axes.end()) {
    if (a.size && preset_.sizes.count(family_.name))
      throw usage_error("--axis=" + it->first + " and --sizes=" + family_.name + " both set the size axis '" + a.name +
                        "'");
    return within_max(it->second, a, family_.name, "--axis=" + it->first);
  }
  if (a.size)
    if (auto it = preset_.sizes.find(family_.name); it != preset_.sizes.end())
      return within_max(it->second, a, family_.name, "--sizes=" + family_.name);
  if (auto it = a.values.find(preset_.name); it != a.values.end()) {
    for (std::int64_t v : it->second)
      if (v > a.max)
        throw std::logic_error("family '" + family_.name + "': axis '" + a.name + "' lists " + std::to_string(v) +
                               ", over its max");
    return it->second;
  }
  throw std::logic_error("family '" + family_.name + "': axis '" + a.name + "' has no values for the preset '" +
                         preset_.name + "'");
}

std::vector<point> family_builder::points(const point& outer, const std::vector<axis>& axes) {
  std::vector<point> out{outer};
  for (const axis& a : axes) {
    if (std::find(family_.axes.begin(), family_.axes.end(), a.name) == family_.axes.end())
      family_.axes.push_back(a.name);
    family_.takes_sizes = family_.takes_sizes || a.size;
    std::vector<point> next;
    for (const point& p : out)
      for (std::int64_t v : values_of(a)) next.push_back(p.with(a, v));
    out = std::move(next);
  }
  return out;
}

family_builder& family_builder::add(const point& at, case_def c) {
  if (!c.params.empty())
    throw std::logic_error("case " + family_.name + "/" + c.variant + ": params come from the axes, not the case ('" +
                           c.params + "')");
  if (at.has_size() && c.size != 0)
    throw std::logic_error("case " + family_.name + "/" + c.variant +
                           ": its size comes from its size axis, not the case");
  c.family = family_.name;
  c.params = at.params();
  if (at.has_size()) c.size = at.size();
  for (const case_def& other : cases_)
    if (other.family == c.family && other.name() == c.name())
      throw std::logic_error("two cases are named '" + c.name() + "'");
  cases_.push_back(std::move(c));
  return *this;
}

namespace {
/// The family's variant named "cpu" plays the "cpu" role unless the family named another.
void default_cpu_reference(family_def& f, const std::vector<case_def>& cases) {
  if (f.references.count("cpu")) return;
  for (const case_def& c : cases)
    if (c.family == f.name && c.variant == "cpu") {
      f.references["cpu"] = {"cpu"};
      return;
    }
}
}  // namespace

suite build_suite(const preset& p) {
  std::vector<registered_family> order = registrars();
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.order != b.order ? a.order < b.order : a.name < b.name;
  });
  suite s;
  s.families.reserve(order.size());
  for (const registered_family& r : order) {
    if (find_family(s, r.name)) throw std::logic_error("the family '" + r.name + "' is registered twice");
    s.families.push_back(family_def{.name = r.name});
    family_builder b(s.families.back(), s.cases, p);
    r.fn(b);
    default_cpu_reference(s.families.back(), s.cases);
  }
  check_command_line_axes(s, p);
  return s;
}

}  // namespace cudabench
