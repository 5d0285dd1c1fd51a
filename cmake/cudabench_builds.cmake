# The build of what a benchmark times, for the package's config file: an optimized build where the project chose
# none, and each benchmark binary told how the project's own libraries linked into it were built.

# A single-config generator with no build type builds every target unoptimized (72 ms instead of 0.38 ms for a
# CPU loop, 28x for a library of the project's own): the whole project is built as Release then. The cache entry
# is read when the build files are generated, so targets made before find_package(cudabench) get it too.
function(_cudabench_default_build_type)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config OR NOT "${CMAKE_BUILD_TYPE}" STREQUAL "")
    return()
  endif()
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type (Release: cudabench's package chose it where none was set)" FORCE)
  set(CMAKE_BUILD_TYPE Release PARENT_SCOPE)
  if(NOT cudabench_FIND_QUIETLY)
    message(STATUS "cudabench: no CMAKE_BUILD_TYPE: the whole project is built as Release (-O3, NDEBUG); set CMAKE_BUILD_TYPE to choose")
  endif()
endfunction()

# _cudabench_link_closure(TARGET OUT_PROJECT_LIBS OUT_LINKS_CUDABENCH): the project's own (not imported) library
# targets TARGET links, directly or through others, and whether it links cudabench.
function(_cudabench_link_closure target out_libs out_cudabench)
  set(todo ${target})
  set(seen "")
  set(libs "")
  set(links_cudabench FALSE)
  while(todo)
    list(POP_FRONT todo t)
    foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(deps ${t} ${property})
      foreach(dep IN LISTS deps)
        string(REGEX REPLACE "^\\$<(LINK_ONLY|BUILD_INTERFACE|BUILD_LOCAL_INTERFACE):(.*)>$" "\\2" dep "${dep}")
        if(dep MATCHES "^cudabench::")
          set(links_cudabench TRUE)
        endif()
        if(NOT TARGET "${dep}" OR dep IN_LIST seen)
          continue()
        endif()
        list(APPEND seen "${dep}")
        get_target_property(aliased ${dep} ALIASED_TARGET)
        if(aliased)
          set(dep ${aliased})
        endif()
        get_target_property(imported ${dep} IMPORTED)
        get_target_property(type ${dep} TYPE)
        if(imported)
          continue()
        endif()
        list(APPEND todo ${dep})
        if(type MATCHES "^(STATIC|SHARED|MODULE|OBJECT)_LIBRARY$" AND NOT dep IN_LIST libs)
          list(APPEND libs ${dep})
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(${out_libs} "${libs}" PARENT_SCOPE)
  set(${out_cudabench} ${links_cudabench} PARENT_SCOPE)
endfunction()

# _cudabench_targets(DIR OUT): the targets made in DIR and its subdirectories.
function(_cudabench_targets dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _cudabench_targets("${sub}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} "${targets}" PARENT_SCOPE)
endfunction()

# _cudabench_c_string(OUT TEXT): TEXT as a C string literal.
function(_cudabench_c_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(STRIP "${text}" text)
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# _cudabench_write_bench_note(PATH CONFIG): a benchmark's unit for one build type (declarations and notes from the
# caller).
function(_cudabench_write_bench_note path config)
  string(TOUPPER "${config}" upper)
  _cudabench_c_string(flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${upper}}")
  file(CONFIGURE OUTPUT "${path}" CONTENT [[
// How the benchmark @bench@ was built (written by cudabench's package): the C++ flags of its build type, and the
// project's own libraries it links.
#include <cudabench/build_note.hpp>

@declarations@
namespace {
const ::cudabench::build_flags_note cb_flags{@flags@};
@notes@}  // namespace
]] @ONLY)
endfunction()

# Run at the end of the project's configure: each library of the project's own that a benchmark links gets a
# function compiled with its flags that says whether its compiler optimized it (and kept assertions); each
# benchmark (an executable linking cudabench) gets a unit that notes those libraries and the flags of its build
# type for its results (cudabench/build_note.hpp), so that an unoptimized library is recorded and warned about.
function(_cudabench_note_builds)
  set(dir "${CMAKE_BINARY_DIR}/cudabench_builds")
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CXX" IN_LIST languages)
    return()
  endif()
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  _cudabench_targets("${CMAKE_SOURCE_DIR}" targets)
  foreach(bench IN LISTS targets)
    get_target_property(type ${bench} TYPE)
    if(NOT type STREQUAL "EXECUTABLE")
      continue()
    endif()
    _cudabench_link_closure(${bench} libs links_cudabench)
    if(NOT links_cudabench)
      continue()
    endif()
    set(declarations "")
    set(notes "")
    foreach(lib IN LISTS libs)
      string(MAKE_C_IDENTIFIER "cudabench_build_of_${lib}" fn)
      get_target_property(noted ${lib} CUDABENCH_BUILD_NOTE)
      if(NOT noted)
        file(CONFIGURE OUTPUT "${dir}/${fn}.cpp" CONTENT [[
// The build of the project's target @lib@ as its compiler saw it (written by cudabench's package for the results
// of the benchmarks linking it): 1 optimized, 2 assertions on.
extern "C" int @fn@();
#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
extern "C" int @fn@() {
  int build = 0;
#if defined(__OPTIMIZE__)
  build |= 1;
#endif
#if !defined(NDEBUG)
  build |= 2;
#endif
  return build;
}
]] @ONLY)
        target_sources(${lib} PRIVATE "${dir}/${fn}.cpp")
        set_target_properties(${lib} PROPERTIES CUDABENCH_BUILD_NOTE TRUE)
      endif()
      _cudabench_c_string(name "${lib}")
      string(APPEND declarations "extern \"C\" int ${fn}();\n")
      string(APPEND notes "const ::cudabench::library_build_note cb_library_${fn}{${name}, ${fn}()};\n")
    endforeach()
    string(MAKE_C_IDENTIFIER "${bench}" id)
    if(multi_config)
      foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
        _cudabench_write_bench_note("${dir}/${id}_${config}.cpp" "${config}")
      endforeach()
      target_sources(${bench} PRIVATE "${dir}/${id}_$<CONFIG>.cpp")
    else()
      _cudabench_write_bench_note("${dir}/${id}.cpp" "${CMAKE_BUILD_TYPE}")
      target_sources(${bench} PRIVATE "${dir}/${id}.cpp")
    endif()
  endforeach()
endfunction()

_cudabench_default_build_type()
get_property(_cudabench_deferred GLOBAL PROPERTY CUDABENCH_BUILD_NOTES_DEFERRED)
if(NOT _cudabench_deferred AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.19)
  set_property(GLOBAL PROPERTY CUDABENCH_BUILD_NOTES_DEFERRED TRUE)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _cudabench_note_builds)
endif()
unset(_cudabench_deferred)
