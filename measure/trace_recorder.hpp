// What --trace records: the ranges of every case and stage, and for each traced sample the GPU operations
// (CUPTI's activity API) and the phases opened inside it.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "measure/nvtx_ranges.hpp"
#include "results/timeline.hpp"

namespace cudabench {

/// Starts watching the modules the driver loads (CUPTI's resource callback), so that the kernels a traced
/// sample records carry the hash of their SASS; once per process, before the cases' modules load (they load
/// at their first launch). Returns why it could not ("" when it watches), e.g. a profiler holds CUPTI. While
/// it watches, the kernels of a traced sample also carry their scalar arguments (device_op::args), read at
/// their launch through CUPTI's API callbacks, which are on only inside traced samples.
std::string watch_module_loads();

/// One per process at a time: it installs itself as the range observer for its lifetime. CUPTI starts at
/// the first traced GPU sample (never for a run of CPU cases) and records only around a case's traced
/// samples (begin_sample() of the first to stop()), so the timed samples run with no activity collection.
class trace_recorder final : public range_observer {
 public:
  trace_recorder();
  ~trace_recorder() override;
  trace_recorder(const trace_recorder&) = delete;
  trace_recorder& operator=(const trace_recorder&) = delete;

  /// Nanoseconds on the clock CUPTI's records use on Linux (CLOCK_REALTIME).
  static std::uint64_t now() noexcept;

  /// Starts a traced sample: from here phases are recorded, and with `device`, GPU operations too
  /// (CUPTI is started the first time; where it cannot start, device_problem() says why).
  void begin_sample(bool device);
  /// Ends it (after the caller has synchronised the device): the GPU operations CUPTI recorded since
  /// begin_sample, the phases, their metrics, and [begin, end] as the sample's host window. Operations are
  /// told apart by when CUPTI delivered them, not by their timestamps: CUPTI converts GPU timestamps to host
  /// time by interpolation, which can be off by more than the gap between two samples. Recording goes on,
  /// so the case's next sample finds CUPTI warm; begin_sample drops what ran in between (an L2 flush, a
  /// clock probe).
  case_timeline end_sample(std::uint64_t begin, std::uint64_t end);
  /// Stops recording after a case's last sample.
  void stop();
  /// Puts a case's chosen sample (its operations and phases) into the run's trace.
  void keep(const case_timeline& t);

  /// What the run recorded so far. `device_names` and `note` are the caller's to fill.
  trace_log& log() { return log_; }
  /// Why no GPU operation could be recorded ("" while CUPTI works or has not been needed).
  const std::string& device_problem() const { return problem_; }

  bool opened(const char* name, const char* category) noexcept override;
  void closed() noexcept override;

  /// CUPTI's buffer callbacks hand their records here.
  void add_ops(std::vector<device_op> ops);

 private:
  bool start_cupti();

  std::mutex mutex_;
  trace_log log_;
  std::vector<device_op> pending_;  ///< operations of the current sample, as CUPTI delivers them
  std::atomic<bool> sampling_{false};
  std::size_t sample_first_range_ = 0;  ///< log_.ranges index where the current sample's ranges begin
  bool cupti_started_ = false;
  bool recording_ = false;  ///< activity kinds enabled
  std::string problem_;
};

}  // namespace cudabench
