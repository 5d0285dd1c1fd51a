// The case registry: a registrar per family adds its cases at points of named axes; the runner builds them
// for a preset, in the order the registrations ask for.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cudabench/axes.hpp"
#include "cudabench/build_note.hpp"
#include "cudabench/errors.hpp"
#include "cudabench/fixture.hpp"
#include "cudabench/presets.hpp"

namespace cudabench {

/// Handed to a family's registrar: describe the family and add its cases.
class family_builder {
 public:
  family_builder(family_def& f, std::vector<case_def>& out, const preset& p) : family_(f), cases_(out), preset_(p) {}
  family_builder& describe(std::string text) {
    family_.description = std::move(text);
    return *this;
  }
  family_builder& tolerance(std::string text) {
    family_.tolerance = std::move(text);
    return *this;
  }
  /// Names a variant that plays `role` ("cpu", "naive", "sync", "vendor") in speedup tables; several calls
  /// for one role give candidates, and each table uses the first one present among its cases. A family that
  /// names no "cpu" reference and has a variant named "cpu" gets that one.
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

  /// Every combination of the axes' values in the preset in use, the first axis outermost. The command
  /// line replaces an axis's values (--sizes for the size axis, --axis for any). Throws std::logic_error
  /// when an axis has no values for the preset.
  std::vector<point> points(const std::vector<axis>& axes) { return points(point{}, axes); }
  std::vector<point> points(const axis& a) { return points(point{}, std::vector<axis>{a}); }
  /// `outer` followed by every combination of `axes`: the inner loop of axes that only some cases have.
  std::vector<point> points(const point& outer, const std::vector<axis>& axes);

  /// Adds a case of this family at `at`: its name's parameters are `at`'s values, its size the size axis's
  /// value (cases without a size axis give `c.size` themselves). Throws std::logic_error when `c` states
  /// params, or a size that `at` already gives.
  family_builder& add(const point& at, case_def c);
  /// Adds a case without axes (`family/variant`).
  family_builder& add(case_def c) { return add(point{}, std::move(c)); }

  const preset& preset_in_use() const { return preset_; }

 private:
  std::vector<std::int64_t> values_of(const axis& a) const;

  family_def& family_;
  std::vector<case_def>& cases_;
  const preset& preset_;
};

/// A family's registrar: called once per run with the builder (its preset: builder.preset_in_use()).
using family_registrar = void (*)(family_builder&);

/// Static registration object; use CB_REGISTER_FAMILY. Families run and are listed by `order`, then by
/// name: never in the order their objects happen to be linked.
struct registration {
  registration(const char* family, family_registrar fn, int order = 0);
};

struct suite {
  std::vector<family_def> families;
  std::vector<case_def> cases;
};

/// Every registered family, built for `p`. Throws usage_error when `p.sizes` or `p.axes` names a family or an
/// axis that does not exist, and std::logic_error for a registration mistake (a family registered twice,
/// two cases of one name, a case stating its own params, an axis without values for the preset).
suite build_suite(const preset& p);

/// When the limits family (cudabench/limits.hpp) runs: with --limits always (whatever the filter); without it,
/// where the filter selects it, in the nightly and full presets, and in the quick preset too in a binary that
/// declares so once (the suite, whose every family is shown against the limits): `CB_LIMITS_IN_EVERY_PRESET();`
struct limits_in_every_preset {
  limits_in_every_preset();
};
/// The binary declared CB_LIMITS_IN_EVERY_PRESET().
bool limits_in_every_preset_declared();

}  // namespace cudabench

/// Registers `fn` as the registrar of the family `family` (a bare identifier, used as the family's name).
/// An optional third argument is the family's order key (default 0; ties run by name):
/// `CB_REGISTER_FAMILY(saxpy, register_saxpy);` or `CB_REGISTER_FAMILY(saxpy, register_saxpy, 10);`
#define CB_REGISTER_FAMILY(family, ...) \
  static const ::cudabench::registration cb_registration_##family { #family, __VA_ARGS__ }

/// Runs the limits family in every preset (limits_in_every_preset); once in a binary, beside its registrations.
#define CB_LIMITS_IN_EVERY_PRESET() \
  static const ::cudabench::limits_in_every_preset cb_limits_in_every_preset {}
