// The case registry: each bench/ file registers one family; the runner builds them for a preset.
#pragma once

#include <string>
#include <vector>

#include "harness/fixture.hpp"
#include "harness/presets.hpp"

namespace harness {

/// Handed to a family's registrar: describe the family and add its cases.
class family_builder {
 public:
  explicit family_builder(family_def& f, std::vector<case_def>& out) : family_(f), cases_(out) {}
  family_builder& describe(std::string text) { family_.description = std::move(text); return *this; }
  family_builder& tolerance(std::string text) { family_.tolerance = std::move(text); return *this; }
  /// Names a variant that plays `role` ("cpu", "naive", "sync", "vendor") in speedup tables; several calls
  /// for one role give candidates, and each table uses the first one present among its cases.
  family_builder& reference(const std::string& role, std::string variant) {
    family_.references[role].push_back(std::move(variant));
    return *this;
  }
  family_builder& add(case_def c) { c.family = family_.name; cases_.push_back(std::move(c)); return *this; }

 private:
  family_def& family_;
  std::vector<case_def>& cases_;
};

using family_registrar = void (*)(family_builder&, const preset&);

/// Static registration object; use CB_REGISTER_FAMILY.
struct registration {
  registration(const char* family, family_registrar fn);
};

struct suite {
  std::vector<family_def> families;
  std::vector<case_def> cases;
};

/// Every registered family, built for `p`.
suite build_suite(const preset& p);

}  // namespace harness

#define CB_REGISTER_FAMILY(family, fn) static const ::harness::registration cb_registration_##family{#family, fn}
