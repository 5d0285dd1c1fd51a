// The runner's --help examples and family list, taken from the families registered in this binary.
#include "app/commands.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>

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

/// Examples from `s`'s own families (the suite's own examples where its families are all there). They come from
/// the last families in the order: the library's own (limits, which measures the device) run first.
cli::help_examples examples_of(const suite& s) {
  cli::help_examples ex;
  if (registers(s, "conv2d") && registers(s, "image") && registers(s, "dot")) return ex;
  ex = {"FAMILY, FAMILY/VARIANT", "--sizes=FAMILY=N,N", "--axis=FAMILY.AXIS=V,V"};
  if (s.cases.empty()) return ex;
  const case_def& last = s.cases.back();
  const auto other = std::find_if(s.cases.begin(), s.cases.end(), [&](const case_def& c) {
    return c.family == last.family && c.variant != last.variant;
  });
  ex.filter = fmt::format("{}, {}/{}", last.family, last.family, (other == s.cases.end() ? last : *other).variant);
  const auto sized = std::find_if(s.families.rbegin(), s.families.rend(),
                                  [](const family_def& f) { return f.takes_sizes && !f.axes.empty(); });
  if (sized != s.families.rend())
    if (const std::string v = axis_values(s, sized->name, 0); !v.empty())
      ex.sizes = fmt::format("--sizes={}={}", sized->name, v);
  // --sizes is the form for a size axis (a family's first, where it has one): --axis shows another where there is one.
  const family_def* axis_family = nullptr;
  std::size_t axis = 0;
  for (auto f = s.families.rbegin(); f != s.families.rend(); ++f) {
    const std::size_t first_other = f->takes_sizes ? 1 : 0;
    if (f->axes.size() > first_other) {
      axis_family = &*f, axis = f->axes.size() - 1;
      break;
    }
    if (!axis_family && !f->axes.empty()) axis_family = &*f;
  }
  if (axis_family)
    if (const std::string v = axis_values(s, axis_family->name, axis); !v.empty())
      ex.axis = fmt::format("--axis={}.{}={}", axis_family->name, axis_family->axes[axis], v);
  return ex;
}

/// The --help list of `s`'s families: each one's name and case count, and its description.
void list_families(const suite& s, const std::string& preset_name, cli::help_examples& ex) {
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

cli::help_examples program_help_examples(const std::string& preset_name) {
  try {
    const suite s = build_suite(preset_by_name(preset_name));
    cli::help_examples ex = examples_of(s);
    list_families(s, preset_name, ex);
    return ex;
  } catch (const std::exception& e) {  // a registration mistake: the help still helps, and says what is wrong
    cli::help_examples ex;
    ex.families_title = fmt::format("families: cannot be listed: {}", e.what());
    return ex;
  }
}

}  // namespace cudabench::app
