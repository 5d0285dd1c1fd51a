// Memory checks for fixtures: skip with the figures rather than fail an allocation half-way.
#include "cudabench/requirements.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "cudabench/fixture.hpp"
#include "measure/device_query.hpp"

namespace cudabench {

void require_device_memory(double bytes) {
  const double free_b = double(free_device_memory());
  if (bytes > 0.9 * free_b)
    throw skip_case(
        fmt::format("needs {:.2f} GiB of device memory, {:.2f} GiB free", bytes / (1 << 30), free_b / (1 << 30)));
}

void require_host_memory(double bytes) {
  const double avail = double(::sysconf(_SC_AVPHYS_PAGES)) * double(::sysconf(_SC_PAGESIZE));
  if (avail > 0 && bytes > 0.8 * avail)
    throw skip_case(
        fmt::format("needs {:.2f} GiB of host memory, {:.2f} GiB available", bytes / (1 << 30), avail / (1 << 30)));
}

}  // namespace cudabench
