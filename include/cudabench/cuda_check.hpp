// The one error-check family: CUDA runtime, cuBLAS and cuDNN status codes, throwing and non-throwing.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace cudabench {

/// Thrown by a failed check; what() holds the library, the call text, file:line and the error string.
class cuda_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Formats and throws; kept out of line so the checks inline to a compare and a branch.
/// `name`: the status's symbolic name where the library has one (cudaErrorIllegalAddress).
[[noreturn]] void throw_status(const char* library, long code, const char* text, const char* call, const char* file,
                               int line, const char* name = nullptr);
/// Formats to stderr; for destructors and other places that must not throw.
void log_status(const char* library, long code, const char* text, const char* call, const char* file, int line,
                const char* name = nullptr) noexcept;

inline void check(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess) throw_status("CUDA", e, cudaGetErrorString(e), call, file, line, cudaGetErrorName(e));
}
inline void check_nothrow(cudaError_t e, const char* call, const char* file, int line) noexcept {
  if (e != cudaSuccess) log_status("CUDA", e, cudaGetErrorString(e), call, file, line, cudaGetErrorName(e));
}

}  // namespace cudabench

/// Throwing check of any status the `cudabench::check` overloads know (CUDA, cuBLAS, cuDNN).
#define CB_CHECK(call) ::cudabench::check((call), #call, __FILE__, __LINE__)
/// Non-throwing check, for destructors.
#define CB_CHECK_NOTHROW(call) ::cudabench::check_nothrow((call), #call, __FILE__, __LINE__)
/// Checks the launch just made (bad configuration, missing image for this GPU, ...).
#define CB_CHECK_LAUNCH(kernel_name) ::cudabench::check(cudaGetLastError(), "launch " kernel_name, __FILE__, __LINE__)
