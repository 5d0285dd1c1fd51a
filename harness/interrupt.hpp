// An interrupted run: the signal (SIGINT, SIGTERM) the application's handler recorded, which the case
// driver reads after every sample to stop cleanly.
#pragma once

#include <atomic>
#include <stdexcept>

namespace cudabench {

/// The signal that asked the run to stop, 0 while none did. Written by a signal handler (lock-free).
inline std::atomic<int>& interrupt_signal() noexcept {
  static std::atomic<int> signal{0};
  return signal;
}

/// Thrown inside a case when a stop was asked for: the case is abandoned after its current sample.
class case_interrupted : public std::runtime_error {
 public:
  case_interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace cudabench
