// A failed write to standard output as one line and exit status 2.
#include "app/results_output.hpp"

#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <system_error>

namespace cudabench::app {

int with_checked_stdout(const char* who, int (*command)(int, char**), int argc, char** argv) {
  // A reader that goes away (`| head -1`) shows as EPIPE on the next write, reported below, not as a death
  // by SIGPIPE with no message.
  ::signal(SIGPIPE, SIG_IGN);
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
