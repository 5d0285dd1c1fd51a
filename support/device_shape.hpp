// The shape of the current device that launchers size their grids by.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <atomic>

#include "cudabench/cuda_check.hpp"

namespace kernels {

/// Streaming multiprocessors of the current device; asked of the runtime once per device, so launchers
/// can call it on every launch.
inline int sm_count() {
  int device = 0;
  CB_CHECK(cudaGetDevice(&device));
  static std::array<std::atomic<int>, 64> known{};
  const bool cached = device >= 0 && device < int(known.size());
  if (cached)
    if (const int sms = known[device].load(std::memory_order_relaxed)) return sms;
  int sms = 0;
  CB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (cached) known[device].store(sms, std::memory_order_relaxed);
  return sms;
}

}  // namespace kernels
