// Device-side probes of the harness: the SM clock during a measurement, and a calibrated spin
// (the known slowdown that --inject-slowdown adds to validate verdicts).
#pragma once

#include <cuda_runtime.h>

#include "cudabench/cuda_handles.hpp"

namespace cudabench {

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

/// Holds a stream back while the host queues the timed work, so the start event does not fire on an idle
/// GPU before the work's launches arrive (launch latency would be timed otherwise). hold() enqueues a
/// one-thread kernel that spins on a flag in pinned host memory; release() sets the flag. The kernel gives
/// up after `timeout_ns` (work that waits on the host itself would deadlock otherwise) and says so.
class stream_blocker {
 public:
  explicit stream_blocker(double timeout_ns = 100e6);
  void hold(cudaStream_t s);
  void release() noexcept;
  /// After the stream has synchronised: whether the last hold gave up before release() came.
  bool timed_out() const;

 private:
  pinned_buffer<int> flags_;  ///< [0] release (host writes), [1] timed out (device writes)
  double timeout_ns_;
};

/// Holds a stream for a scope (none when given no blocker): released at the end of the scope, also when
/// queuing the work throws.
class scoped_hold {
 public:
  scoped_hold(stream_blocker* b, cudaStream_t s) : b_(b) {
    if (b_) b_->hold(s);
  }
  ~scoped_hold() {
    if (b_) b_->release();
  }
  scoped_hold(const scoped_hold&) = delete;
  scoped_hold& operator=(const scoped_hold&) = delete;

 private:
  stream_blocker* b_;
};

/// Enqueues a one-thread kernel on `s` that busy-waits for `ns` nanoseconds of %globaltimer.
void spin_for(cudaStream_t s, double ns);

}  // namespace cudabench
