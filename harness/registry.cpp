// Family registration, in the order the registering objects are linked.
#include "cudabench/registry.hpp"

#include "harness/errors.hpp"

namespace cudabench {
namespace {
std::vector<std::pair<const char*, family_registrar>>& registrars() {
  static std::vector<std::pair<const char*, family_registrar>> r;
  return r;
}
}  // namespace

registration::registration(const char* family, family_registrar fn) { registrars().emplace_back(family, fn); }

suite build_suite(const preset& p) {
  suite s;
  s.families.reserve(registrars().size());
  for (auto& [name, fn] : registrars()) {
    s.families.push_back(family_def{name, {}, {}, {}});
    family_builder b(s.families.back(), s.cases, p);
    fn(b, p);
  }
  for (const auto& [family, sizes] : p.sizes) {
    const family_def* f = nullptr;
    for (const auto& candidate : s.families)
      if (candidate.name == family) f = &candidate;
    if (!f) throw usage_error("--sizes: no family named '" + family + "' (see --list)");
    if (!f->takes_sizes) throw usage_error("--sizes: family '" + family + "' does not take sizes from the command line");
  }
  return s;
}

}  // namespace cudabench
