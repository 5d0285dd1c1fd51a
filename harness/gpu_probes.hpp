// Device-side probes of the harness: the SM clock during a measurement, and a calibrated spin
// (the known slowdown that --inject-slowdown adds to validate verdicts).
#pragma once

#include <cuda_runtime.h>

#include "harness/cuda_handles.hpp"

namespace harness {

/// Measures the SM clock with a one-thread kernel that counts clock64() cycles over ~5 us of %globaltimer.
/// Owns device and pinned buffers, so it is move-only.
class clock_probe {
 public:
  clock_probe();
  /// Enqueues a probe on `s` and a copy of its result to the host; read with mhz() after `s` synchronises.
  void enqueue(cudaStream_t s);
  /// SM clock in MHz of the last probe (0 if it could not tell).
  double mhz() const;
 private:
  device_buffer<unsigned long long> d_;
  pinned_buffer<unsigned long long> h_;
};

/// Enqueues a one-thread kernel on `s` that busy-waits for `ns` nanoseconds of %globaltimer.
void spin_for(cudaStream_t s, double ns);

}  // namespace harness
