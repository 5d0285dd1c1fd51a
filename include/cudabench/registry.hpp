// The case registry: a registrar per family adds its cases; the runner builds them for a preset.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cudabench/fixture.hpp"
#include "cudabench/presets.hpp"

namespace cudabench {

/// Handed to a family's registrar: describe the family and add its cases.
class family_builder {
 public:
  family_builder(family_def& f, std::vector<case_def>& out, const preset& p) : family_(f), cases_(out), preset_(p) {}
  family_builder& describe(std::string text) { family_.description = std::move(text); return *this; }
  family_builder& tolerance(std::string text) { family_.tolerance = std::move(text); return *this; }
  /// Names a variant that plays `role` ("cpu", "naive", "sync", "vendor") in speedup tables; several calls
  /// for one role give candidates, and each table uses the first one present among its cases.
  family_builder& reference(const std::string& role, std::string variant) {
    family_.references[role].push_back(std::move(variant));
    return *this;
  }
  /// Declares a per-size table for reports: `base`'s time (first candidate present), each variant's time,
  /// and each variant's speedup over the base (the layout of a paper's results table, say).
  family_builder& table(std::string title, std::vector<std::string> base, std::vector<std::string> variants) {
    family_.tables.push_back({std::move(title), std::move(base), std::move(variants)});
    return *this;
  }
  /// Adds a case of this family (its `family` field is filled in).
  family_builder& add(case_def c) { c.family = family_.name; cases_.push_back(std::move(c)); return *this; }

  /// The problem sizes to register: those given on the command line for this family (--sizes=FAMILY=...)
  /// when there are any, else the list of the preset's level (quick, nightly, full).
  template <typename T>
  std::vector<T> sizes(const std::vector<T>& quick, const std::vector<T>& nightly, const std::vector<T>& full) {
    family_.takes_sizes = true;
    if (auto it = preset_.sizes.find(family_.name); it != preset_.sizes.end()) return {it->second.begin(), it->second.end()};
    return preset_.pick(quick, nightly, full);
  }
  /// The same list for every preset (still replaced by --sizes).
  template <typename T>
  std::vector<T> sizes(const std::vector<T>& all) { return sizes(all, all, all); }

  const preset& preset_in_use() const { return preset_; }

 private:
  family_def& family_;
  std::vector<case_def>& cases_;
  const preset& preset_;
};

/// A family's registrar: called once per run with the builder and the preset.
using family_registrar = void (*)(family_builder&, const preset&);

/// Static registration object; use CB_REGISTER_FAMILY.
struct registration {
  registration(const char* family, family_registrar fn);
};

struct suite {
  std::vector<family_def> families;
  std::vector<case_def> cases;
};

/// Every registered family, built for `p`; throws usage_error when `p.sizes` names a family that does not
/// exist or does not take sizes.
suite build_suite(const preset& p);

}  // namespace cudabench

/// Registers `fn` as the registrar of the family `family` (a bare identifier, used as the family's name).
#define CB_REGISTER_FAMILY(family, fn) static const ::cudabench::registration cb_registration_##family{#family, fn}
