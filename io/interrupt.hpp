// An interrupted run: the signal (SIGINT, SIGTERM) the application's handler recorded, which the case
// driver reads after every sample to stop cleanly.
#pragma once

#include <signal.h>
#include <time.h>

#include <atomic>
#include <stdexcept>
#include <string>

namespace cudabench {

/// The signal that asked the run to stop, 0 while none did. Written by a signal handler (lock-free).
inline std::atomic<int>& interrupt_signal() noexcept {
  static std::atomic<int> signal{0};
  return signal;
}

/// A signal's name, "SIG" and the system's abbreviation ("SIGINT", "SIGTERM", "SIGSEGV"), or "signal N" where
/// the system has none: what a run records for its stop signal and what a message says a process died of.
std::string signal_name(int sig);

/// What a stop signal is, from a signal handler (async-signal-safe): 1 the first, 0 the same signal again
/// within a second (`timeout` and a terminal can deliver one ^C twice: to the process and to its group), 2 a
/// later one (the user insists: end at once). The first is recorded in interrupt_signal().
inline int classify_stop_signal(int sig) noexcept {
  static std::atomic<long long> first_ms{0};
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  const long long ms = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 + 1;  // never 0
  long long none = 0;
  if (first_ms.compare_exchange_strong(none, ms)) {
    interrupt_signal().store(sig);
    return 1;
  }
  return ms - first_ms.load() < 1000 ? 0 : 2;
}

/// Thrown inside a case when a stop was asked for: the case is abandoned after its current sample.
class case_interrupted : public std::runtime_error {
 public:
  case_interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace cudabench
