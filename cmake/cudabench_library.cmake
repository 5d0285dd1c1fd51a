# cudabench_library(NAME SOURCES...): a static library of the package, target cudabench_NAME with the alias
# and export name cudabench::NAME, position-independent so a user may link it into a shared object too.
# Its headers are seen through an include root of its own folder alone (cudabench_folder_root): a unit sees the
# folders of the libraries it links and no other, so an include of a layer it may not use fails to compile.
function(cudabench_library name)
  add_library(cudabench_${name} STATIC ${ARGN})
  add_library(cudabench::${name} ALIAS cudabench_${name})
  set_target_properties(cudabench_${name} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  # The public headers are C++20: a project that names no standard gets it for its C++ (not its CUDA) code.
  target_compile_features(cudabench_${name} PUBLIC cxx_std_20)
  # Its units' build is the library's (library_build_type), not the build of the code that registers cases.
  target_compile_definitions(cudabench_${name} PRIVATE CUDABENCH_LIBRARY_UNIT)
  cudabench_folder_root(root)
  target_include_directories(cudabench_${name} PUBLIC $<BUILD_INTERFACE:${root}>)
endfunction()

# cudabench_folder_root(VAR): the include root of the calling folder F, CUDABENCH_LAYERS_DIR/F, which holds one
# link, F, to the folder; `#include "F/x.hpp"` finds it there, and nothing of the folders beside it.
function(cudabench_folder_root var)
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  if(NOT folder IN_LIST CUDABENCH_FOLDERS)
    message(FATAL_ERROR "${folder}/ is no folder of CUDABENCH_FOLDERS (the top-level CMakeLists.txt)")
  endif()
  set(root ${CUDABENCH_LAYERS_DIR}/${folder})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${root}/${folder} SYMBOLIC)
  set(${var} ${root} PARENT_SCOPE)
endfunction()

# cudabench_public_headers(TARGET HEADER... [WITH FOLDER...]): the public headers (include/cudabench/HEADER,
# installed as they are) whose code is TARGET's, a library of the calling folder F (a header-only one: the lowest
# library that uses it). Its units and the code that links it see them through an include root of their own,
# CUDABENCH_LAYERS_DIR/public/F, which holds a link cudabench/HEADER to each, never through the whole of include/:
# a unit sees the public headers of the libraries it links and no other. WITH names the folders whose public
# headers TARGET's own include; their roots go with TARGET's to the code that links it. One call per folder;
# tests/layering_lint.py reads these calls.
function(cudabench_public_headers target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "WITH")
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(root ${CUDABENCH_LAYERS_DIR}/public/${folder})
  file(REMOVE_RECURSE ${root})  # a header taken off the list is seen no more
  file(MAKE_DIRECTORY ${root}/cudabench)
  foreach(header IN LISTS arg_UNPARSED_ARGUMENTS)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/include/cudabench/${header})
      message(FATAL_ERROR "${folder}/CMakeLists.txt: include/cudabench/${header} does not exist")
    endif()
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include/cudabench/${header} ${root}/cudabench/${header} SYMBOLIC)
  endforeach()
  set(roots $<BUILD_INTERFACE:${root}>)
  foreach(other IN LISTS arg_WITH)
    list(APPEND roots $<BUILD_INTERFACE:${CUDABENCH_LAYERS_DIR}/public/${other}>)
  endforeach()
  target_include_directories(${target} PUBLIC ${roots})
endfunction()
