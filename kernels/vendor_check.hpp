// cuBLAS and cuDNN members of the error-check family (see cuda_check.hpp); include where they are used.
#pragma once

#include <cublas_v2.h>
#ifdef CUDABENCH_HAVE_CUDNN  // the kernels built with cuDNN (CUDABENCH_WITH_CUDNN)
#include <cudnn.h>
#endif

#include "cudabench/cuda_check.hpp"

namespace cudabench {

inline void check(cublasStatus_t s, const char* call, const char* file, int line) {
  if (s != CUBLAS_STATUS_SUCCESS) throw_status("cuBLAS", s, cublasGetStatusString(s), call, file, line);
}
inline void check_nothrow(cublasStatus_t s, const char* call, const char* file, int line) noexcept {
  if (s != CUBLAS_STATUS_SUCCESS) log_status("cuBLAS", s, cublasGetStatusString(s), call, file, line);
}
#ifdef CUDABENCH_HAVE_CUDNN
inline void check(cudnnStatus_t s, const char* call, const char* file, int line) {
  if (s != CUDNN_STATUS_SUCCESS) throw_status("cuDNN", s, cudnnGetErrorString(s), call, file, line);
}
inline void check_nothrow(cudnnStatus_t s, const char* call, const char* file, int line) noexcept {
  if (s != CUDNN_STATUS_SUCCESS) log_status("cuDNN", s, cudnnGetErrorString(s), call, file, line);
}
#endif

}  // namespace cudabench
