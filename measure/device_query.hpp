// Reads the device description off the CUDA runtime, or records why there is no usable device.
#pragma once

#include <string>

#include "results/device_info.hpp"

namespace cudabench {

/// Why cudaGetDeviceCount failed with `cuda_error` (a cudaError_t), in words a user acts on: no NVIDIA driver
/// at all (the runtime finds no libcuda: driver_version 0), a driver older than the runtime, no GPU, or CUDA's
/// own words for anything else.
std::string no_device_reason(int cuda_error, int driver_version, int runtime_version);

/// Never throws: a missing driver or device comes back as available == false with the reason.
/// `create_context`: also make the device current and create its context (outside any timed region); a
/// process that only describes the device for others (a supervisor of worker processes) passes false.
device_info query_device(int ordinal, bool create_context = true);

/// Empty while the current device's context still works; else the sticky error (an illegal address, a
/// kernel trap, ...) that poisoned it, as "cudaErrorName: description". Every later CUDA call of this
/// process fails with it.
std::string lost_context_error();

/// Free device memory in bytes (0 without a device).
std::size_t free_device_memory();

}  // namespace cudabench
