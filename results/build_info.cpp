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
}  // namespace

unit_build_note::unit_build_note(unit_build b) noexcept {
  try {
    noted_units().push_back(b);
  } catch (...) {  // out of memory at start-up: the build is then unknown, never a crash
  }
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
  return b;
}

std::string describe_build(const code_build& b) {
  return fmt::format("build type {}, {}, assertions {}", b.build_type.empty() ? "unknown" : b.build_type,
                     b.optimized ? "optimized" : "not optimized", b.assertions ? "on" : "off");
}

std::string unoptimized_warning(const std::optional<code_build>& cases, const std::string& library) {
  std::vector<std::string> what;
  if (cases && !cases->optimized) what.push_back("its cases were built without optimization (" + describe_build(*cases) + ")");
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
