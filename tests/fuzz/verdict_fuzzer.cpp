// Fuzz target: the verdict file reader (what fleet reads of each comparison). The input is the file, held in
// memory (a memfd, read through /proc/self/fd), so nothing is left on disk. Any input must end in a verdict
// file or an input_error; any other exception, a crash or a sanitizer report is a finding.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "io/errors.hpp"
#include "reports/verdict_file.hpp"

namespace {
/// The one in-memory file each input is written to, and the path that reads it.
int memory_file() {
  static const int fd = [] {
    const int f = ::memfd_create("verdict-fuzz", MFD_CLOEXEC);
    if (f < 0) std::abort();
    return f;
  }();
  return fd;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = memory_file();
  if (::ftruncate(fd, 0) != 0 || (size > 0 && ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size))) std::abort();
  try {
    (void)cudabench::reports::read_verdict_file("/proc/self/fd/" + std::to_string(fd));
  } catch (const cudabench::input_error&) {
  }
  return 0;
}
