// Out-of-line message formatting for the error-check family.
#include "cudabench/cuda_check.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace cudabench {
namespace {
std::string format_status(const char* library, long code, const char* text, const char* call,
                          const char* file, int line, const char* name) {
  return fmt::format("{} error {}{}{} ({}) in `{}` at {}:{}", library, code, name ? " " : "", name ? name : "",
                     text ? text : "?", call, file, line);
}
}  // namespace

void throw_status(const char* library, long code, const char* text, const char* call, const char* file,
                  int line, const char* name) {
  throw cuda_error(format_status(library, code, text, call, file, line, name));
}

void log_status(const char* library, long code, const char* text, const char* call, const char* file,
                int line, const char* name) noexcept {
  try {
    std::fprintf(stderr, "warning: %s\n", format_status(library, code, text, call, file, line, name).c_str());
  } catch (...) {
    std::fprintf(stderr, "warning: %s error %ld in %s\n", library, code, call);
  }
}

}  // namespace cudabench
