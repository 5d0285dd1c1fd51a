// Family registration, in the order the bench/ objects are linked.
#include "harness/registry.hpp"

#include <utility>

namespace harness {
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
    family_builder b(s.families.back(), s.cases);
    fn(b, p);
  }
  return s;
}

}  // namespace harness
