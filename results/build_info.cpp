// The build of the code that registered the cases, noted by each of its translation units, and the library's own.
#include "results/build_info.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>
#include <vector>

#include "cudabench/build_note.hpp"

namespace cudabench {
namespace {
std::vector<unit_build>& noted_units() {
  static std::vector<unit_build> units;
  return units;
}
std::vector<library_build>& noted_libraries() {
  static std::vector<library_build> libraries;
  return libraries;
}
std::string& noted_flags() {
  static std::string flags;
  return flags;
}
}  // namespace

// (Out of memory at start-up leaves the build unknown, never a crash.)
unit_build_note::unit_build_note(unit_build b) noexcept {
  try {
    noted_units().push_back(b);
  } catch (...) {}
}

library_build_note::library_build_note(const char* target, int build) noexcept {
  try {
    noted_libraries().push_back(library_build{target ? target : "", (build & 1) != 0, (build & 2) != 0});
  } catch (...) {}
}

build_flags_note::build_flags_note(const char* flags) noexcept {
  try {
    noted_flags() = flags ? flags : "";
  } catch (...) {}
}

const char* library_build_type() {
#ifdef NDEBUG
  return "release";
#else
  return "debug";
#endif
}

std::optional<code_build> registered_build() {
  if (noted_units().empty()) return std::nullopt;
  std::set<std::string> types;
  code_build b;
  b.optimized = true;
  for (const unit_build& u : noted_units()) {
    if (u.build_type && *u.build_type) types.insert(u.build_type);
    b.optimized = b.optimized && u.optimized;
    b.assertions = b.assertions || u.assertions;
  }
  for (const std::string& t : types) b.build_type += (b.build_type.empty() ? "" : "+") + t;
  b.flags = noted_flags();
  b.libraries = noted_libraries();
  for (const library_build& l : b.libraries) b.optimized = b.optimized && l.optimized;
  return b;
}

std::string describe_build(const code_build& b) {
  return fmt::format("build type {}, {}, assertions {}", b.build_type.empty() ? "unknown" : b.build_type,
                     b.optimized ? "optimized" : "not optimized", b.assertions ? "on" : "off");
}

std::string unoptimized_warning(const std::optional<code_build>& cases, const std::string& library) {
  std::vector<std::string> what, slow_libraries;
  if (cases) {
    for (const library_build& l : cases->libraries)
      if (!l.optimized) slow_libraries.push_back(l.target);
  }
  if (!slow_libraries.empty())
    what.push_back(fmt::format("the project's {} {} {} built without optimization",
                               slow_libraries.size() == 1 ? "library" : "libraries", fmt::join(slow_libraries, ", "),
                               slow_libraries.size() == 1 ? "was" : "were"));
  else if (cases && !cases->optimized)
    what.push_back("its cases were built without optimization (" + describe_build(*cases) + ")");
  if (library == "debug") what.push_back("cudabench's library was built for debugging");
  if (what.empty()) return "";
  return fmt::format("warning: {}: timings are not those of an optimized build (build with CMAKE_BUILD_TYPE=Release)",
                     fmt::join(what, " and "));
}

std::string build_mismatch(const run_result& base, const run_result& cur) {
  const std::optional<code_build>& b = base.settings.build;
  const std::optional<code_build>& c = cur.settings.build;
  if (!b || !c) return "";
  if (b->build_type == c->build_type && b->optimized == c->optimized && b->assertions == c->assertions) return "";
  return fmt::format("different builds ({} vs {})", describe_build(*b), describe_build(*c));
}

}  // namespace cudabench
