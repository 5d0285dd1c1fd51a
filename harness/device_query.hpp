// Reads the device description off the CUDA runtime, or records why there is no usable device.
#pragma once

#include "harness/device_info.hpp"

namespace cudabench {

/// Never throws: a missing driver or device comes back as available == false with the reason.
device_info query_device(int ordinal);

/// Free device memory in bytes (0 without a device).
std::size_t free_device_memory();

}  // namespace cudabench
