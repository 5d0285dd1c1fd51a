// Host memory check for bench cases.
#include "bench/common.hpp"

#include <unistd.h>

namespace bench {

void require_host_memory(double bytes) {
  const double avail = double(::sysconf(_SC_AVPHYS_PAGES)) * double(::sysconf(_SC_PAGESIZE));
  if (avail > 0 && bytes > 0.8 * avail)
    throw harness::skip_case(fmt::format("needs {:.2f} GiB of host memory, {:.2f} GiB available", bytes / (1 << 30), avail / (1 << 30)));
}

}  // namespace bench
