// The runner's --help examples and family list, taken from the families registered in this binary.
#include "app/program_name.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>
#include <optional>

#include "cudabench/presets.hpp"
#include "cudabench/registry.hpp"

namespace cudabench::app {
namespace {

/// The first `most` distinct values of the index-th parameter of `family`'s cases, joined by commas.
std::string axis_values(const suite& s, const std::string& family, std::size_t index, std::size_t most = 2) {
  std::vector<std::string> values;
  for (const case_def& c : s.cases) {
    if (c.family != family) continue;
    std::string_view params = c.params;
    for (std::size_t i = 0; i < index && !params.empty(); ++i)
      params = params.find('/') == std::string_view::npos ? std::string_view() : params.substr(params.find('/') + 1);
    const std::string value(params.substr(0, params.find('/')));
    if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
    if (values.size() == most) break;
  }
  return fmt::format("{}", fmt::join(values, ","));
}

bool registers(const suite& s, std::string_view family) {
  return std::any_of(s.families.begin(), s.families.end(), [&](const family_def& f) { return f.name == family; });
}

/// Examples from `s`'s own families (the suite's own examples where its families are all there).
help_examples examples_of(const suite& s) {
  help_examples ex;
  if (registers(s, "conv2d") && registers(s, "image") && registers(s, "dot")) return ex;
  ex = {"FAMILY, FAMILY/VARIANT", "--sizes=FAMILY=N,N", "--axis=FAMILY.AXIS=V,V"};
  if (s.cases.empty()) return ex;
  const case_def& first = s.cases.front();
  const auto other = std::find_if(s.cases.begin(), s.cases.end(),
                                  [&](const case_def& c) { return c.family == first.family && c.variant != first.variant; });
  ex.filter = fmt::format("{}, {}/{}", first.family, first.family, (other == s.cases.end() ? first : *other).variant);
  for (const family_def& f : s.families)
    if (f.takes_sizes && !f.axes.empty()) {
      if (const std::string v = axis_values(s, f.name, 0); !v.empty()) ex.sizes = fmt::format("--sizes={}={}", f.name, v);
      break;
    }
  // A family's last axis is its size axis only where it has that one axis alone.
  std::optional<std::pair<std::string, std::size_t>> axis;
  for (const family_def& f : s.families) {
    if (f.axes.size() >= 2 || (f.axes.size() == 1 && !f.takes_sizes)) { axis = {f.name, f.axes.size() - 1}; break; }
    if (!axis && !f.axes.empty()) axis = {f.name, 0};
  }
  if (axis) {
    const family_def& f = *std::find_if(s.families.begin(), s.families.end(), [&](const family_def& d) { return d.name == axis->first; });
    if (const std::string v = axis_values(s, f.name, axis->second); !v.empty())
      ex.axis = fmt::format("--axis={}.{}={}", f.name, f.axes[axis->second], v);
  }
  return ex;
}

/// The --help list of `s`'s families: each one's name and case count, and its description.
void list_families(const suite& s, const std::string& preset_name, help_examples& ex) {
  if (s.families.empty()) {
    ex.families_title = "families: none registered in this binary";
    return;
  }
  std::size_t width = 0;
  for (const family_def& f : s.families) width = std::max(width, f.name.size());
  ex.families_title = fmt::format("families (cases in preset {}):", preset_name);
  for (const family_def& f : s.families) {
    const auto n = std::count_if(s.cases.begin(), s.cases.end(), [&](const case_def& c) { return c.family == f.name; });
    ex.families.emplace_back(fmt::format("{:<{}} {:>3}", f.name, width, n), f.description);
  }
}

}  // namespace

help_examples program_help_examples(const std::string& preset_name) {
  try {
    const suite s = build_suite(preset_by_name(preset_name));
    help_examples ex = examples_of(s);
    list_families(s, preset_name, ex);
    return ex;
  } catch (const std::exception& e) {  // a registration mistake: the help still helps, and says what is wrong
    help_examples ex;
    ex.families_title = fmt::format("families: cannot be listed: {}", e.what());
    return ex;
  }
}

}  // namespace cudabench::app
