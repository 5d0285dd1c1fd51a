# cudabench_library(NAME SOURCES...): a static library of the package, target cudabench_NAME with the alias
# and export name cudabench::NAME, position-independent so a user may link it into a shared object too.
function(cudabench_library name)
  add_library(cudabench_${name} STATIC ${ARGN})
  add_library(cudabench::${name} ALIAS cudabench_${name})
  set_target_properties(cudabench_${name} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  # The public headers are C++20: a project that names no standard gets it for its C++ (not its CUDA) code.
  target_compile_features(cudabench_${name} PUBLIC cxx_std_20)
  # Its units' build is the library's (library_build_type), not the build of the code that registers cases.
  target_compile_definitions(cudabench_${name} PRIVATE CUDABENCH_LIBRARY_UNIT)
endfunction()
