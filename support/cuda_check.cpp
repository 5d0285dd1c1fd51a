// Out-of-line message formatting for the error-check family.
#include "cudabench/cuda_check.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace cudabench {
namespace {
/// `file` without the "./" and "../" a build relative to its folder puts before it (ccache's base directory
/// does), so a message names measure/measure.cpp, as -ffile-prefix-map makes of an absolute path.
const char* project_relative(const char* file) {
  if (!file) return "?";
  for (;;) {
    if (file[0] == '.' && file[1] == '/')
      file += 2;
    else if (file[0] == '.' && file[1] == '.' && file[2] == '/')
      file += 3;
    else
      return file;
  }
}

std::string format_status(const char* library, long code, const char* text, const char* call, const char* file,
                          int line, const char* name) {
  return fmt::format("{} error {}{}{} ({}) in `{}` at {}:{}", library, code, name ? " " : "", name ? name : "",
                     text ? text : "?", call, project_relative(file), line);
}
}  // namespace

void throw_status(const char* library, long code, const char* text, const char* call, const char* file, int line,
                  const char* name) {
  throw cuda_error(format_status(library, code, text, call, file, line, name));
}

void log_status(const char* library, long code, const char* text, const char* call, const char* file, int line,
                const char* name) noexcept {
  try {
    std::fprintf(stderr, "warning: %s\n", format_status(library, code, text, call, file, line, name).c_str());
  } catch (...) { std::fprintf(stderr, "warning: %s error %ld in %s\n", library, code, call); }
}

}  // namespace cudabench
