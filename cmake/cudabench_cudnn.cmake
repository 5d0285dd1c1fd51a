# cuDNN for the suite's conv2d/cudnn cases, as CUDABENCH_WITH_CUDNN asks: AUTO uses it where it is found (the
# CUDA toolkit's directories, CMAKE_PREFIX_PATH, CUDNN_ROOT), ON requires it, OFF leaves it out. Without it the
# cases are still registered and skipped, saying "built without cuDNN". Sets CUDABENCH_HAVE_CUDNN.
string(TOUPPER "${CUDABENCH_WITH_CUDNN}" cudabench_cudnn_mode)
if(NOT cudabench_cudnn_mode MATCHES "^(AUTO|ON|OFF|TRUE|FALSE|YES|NO|1|0)$")
  message(FATAL_ERROR "CUDABENCH_WITH_CUDNN=${CUDABENCH_WITH_CUDNN}: expected AUTO, ON or OFF")
endif()
set(CUDABENCH_HAVE_CUDNN OFF)
if(cudabench_cudnn_mode STREQUAL "AUTO" OR CUDABENCH_WITH_CUDNN)
  find_library(CUDNN_LIBRARY cudnn HINTS ${CUDNN_ROOT} ENV CUDNN_ROOT ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
  find_path(CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDNN_ROOT} ENV CUDNN_ROOT ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
  if(CUDNN_LIBRARY AND CUDNN_INCLUDE_DIR)
    set(CUDABENCH_HAVE_CUDNN ON)
  elseif(NOT cudabench_cudnn_mode STREQUAL "AUTO")
    message(FATAL_ERROR "CUDABENCH_WITH_CUDNN=${CUDABENCH_WITH_CUDNN} and cuDNN was not found (cudnn.h: ${CUDNN_INCLUDE_DIR}, "
                        "libcudnn: ${CUDNN_LIBRARY}): install it (Debian: libcudnn9-dev-cuda-12), name its prefix in "
                        "CMAKE_PREFIX_PATH or CUDNN_ROOT, or configure with -DCUDABENCH_WITH_CUDNN=AUTO or OFF")
  endif()
endif()
if(CUDABENCH_HAVE_CUDNN)
  message(STATUS "cudabench: conv2d/cudnn with cuDNN (${CUDNN_LIBRARY})")
else()
  message(STATUS "cudabench: built without cuDNN (CUDABENCH_WITH_CUDNN=${CUDABENCH_WITH_CUDNN}): the conv2d/cudnn cases are skipped")
endif()
