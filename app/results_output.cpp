// The results document on standard output.
#include "app/results_output.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <system_error>

#include "harness/atomic_file.hpp"
#include "harness/errors.hpp"

namespace cudabench::app {

results_on_stdout::results_on_stdout() {
  std::cout.flush();
  std::fflush(stdout);
  fd_ = ::dup(STDOUT_FILENO);
  if (fd_ < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    throw input_error(fmt::format("--json -: cannot set standard output aside: {}", std::strerror(errno)));
}

results_on_stdout::~results_on_stdout() {
  if (fd_ < 0) return;
  std::cout.flush();
  std::fflush(stdout);
  ::dup2(fd_, STDOUT_FILENO);
  ::close(fd_);
}

void results_on_stdout::write(const std::string& text) {
  if (!write_all(fd_, text))
    throw input_error(fmt::format("--json -: writing the results to standard output failed: {}", std::strerror(errno)));
}

int with_checked_stdout(const char* who, int (*command)(int, char**), int argc, char** argv) {
  int status = 0;
  try {
    status = command(argc, argv);
  } catch (const std::system_error& e) {  // fmt::print on a standard output that cannot be written
    std::fprintf(stderr, "%s: cannot write to standard output: %s\n", who, e.code().message().c_str());
    return 2;
  }
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    std::fprintf(stderr, "%s: cannot write to standard output: %s\n", who, std::strerror(errno ? errno : EIO));
    return 2;
  }
  return status;
}

}  // namespace cudabench::app
