// How the benchmark binary was built: the build of the code that registered its cases (each translation unit
// including cudabench/registry.hpp notes its own) and of cudabench's library, and whether two runs' builds
// may be compared.
#pragma once

#include <optional>
#include <string>

#include "results/results_model.hpp"

namespace cudabench {

/// The library's own build as Google Benchmark names it in context.library_build_type: "release" (NDEBUG) or "debug".
const char* library_build_type();

/// The build of the code that registered this binary's cases (its translation units together: the build types
/// they name, optimized only when all are, assertions on when any has them), or nothing when no unit said.
std::optional<code_build> registered_build();

/// "build type Debug, not optimized, assertions on": a build as messages show it.
std::string describe_build(const code_build& b);

/// A warning line for a run whose cases or library were not built optimized ("" when they were, or unknown).
std::string unoptimized_warning(const std::optional<code_build>& cases, const std::string& library);

/// Why two runs' builds differ (their build types, optimization or assertions), or "" when they match or
/// either is unknown (a run written before builds were recorded, or foreign Google Benchmark output).
std::string build_mismatch(const run_result& base, const run_result& cur);

}  // namespace cudabench
