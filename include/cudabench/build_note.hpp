// How the code that registers cases was compiled: every translation unit that includes this header (through
// registry.hpp) records its build type, whether the compiler optimized it and whether assert() is on, so that
// each results file says how the benchmark binary was built and a debug build is warned about.
#pragma once

namespace cudabench {

/// One translation unit's build. `build_type`: the CMake configuration its target was built in (the package's
/// targets define CUDABENCH_USER_BUILD_TYPE for the code that links them), or "" where that is not known.
struct unit_build {
  const char* build_type;
  bool optimized;   ///< the compiler optimized it (__OPTIMIZE__)
  bool assertions;  ///< assert() is on (no NDEBUG)
};

/// Records one translation unit's build; this header makes one per unit that includes it.
struct unit_build_note {
  explicit unit_build_note(unit_build b) noexcept;
};

/// Records a library of the project's own linked into the benchmark, as its compiler saw it (`build`: 1 optimized,
/// 2 assertions on). The package's configure step writes these for each benchmark (cmake/cudabench_builds.cmake).
struct library_build_note {
  library_build_note(const char* target, int build) noexcept;
};

/// Records the compiler flags of the benchmark's build type (written by the package's configure step).
struct build_flags_note {
  explicit build_flags_note(const char* flags) noexcept;
};

}  // namespace cudabench

// Not for the library's own units (their build is the library's, recorded apart), nor for device compilation.
#if !defined(CUDABENCH_LIBRARY_UNIT) && !defined(__CUDA_ARCH__)
#ifndef CUDABENCH_USER_BUILD_TYPE
#define CUDABENCH_USER_BUILD_TYPE ""
#endif
namespace {
const ::cudabench::unit_build_note cb_unit_build_note{::cudabench::unit_build{
    CUDABENCH_USER_BUILD_TYPE,
#if defined(__OPTIMIZE__)
    true,
#else
    false,
#endif
#if defined(NDEBUG)
    false,
#else
    true,
#endif
}};
}  // namespace
#endif
