// The case driver's GPU state: the stream its cases are timed on, their events, the L2 flusher and the probes
// (measure.cpp times samples with it, case_tracing.cpp traces them).
#pragma once

#include "measure/gpu_probes.hpp"
#include "measure/l2_flush.hpp"
#include "measure/measure.hpp"

namespace cudabench {

/// The stream every GPU case is timed on, its events and the L2 flusher. The stream is a blocking one,
/// so cases that use the legacy default stream (cudaMemcpy) are ordered with its events.
struct case_driver::gpu_state {
  explicit gpu_state(std::size_t l2_bytes) : main(cudaStreamDefault), flusher(l2_bytes) {}
  stream main;
  event start, stop;
  l2_flusher flusher;
  clock_probe probe;
  stream_blocker blocker;
};

}  // namespace cudabench
