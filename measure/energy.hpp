// A case's energy window, its samples' clocks and throttle reasons, read from NVML around its timed samples.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cudabench/presets.hpp"
#include "measure/nvml.hpp"
#include "results/energy.hpp"

namespace cudabench {

/// How energy is measured (--no-energy, --energy-window).
struct energy_settings {
  bool on = true;
  /// The least energy window: a case whose timed samples are shorter repeats its sample until it is reached. 0: the
  /// timed samples alone (the quick preset's default), whatever updates of the counter they saw.
  double window_s = 1.0;
  /// Cases whose run takes at least this long (warm-up median) get their energy window around their timed samples,
  /// one per run: on the first of their repetitions in the run's first round. Shorter cases get it from their runs
  /// back to back after their timed samples (back_to_back_s), or none where window_s is 0 (they say why).
  double min_run_s = 0.1;
  /// A later round of a run with rounds: no window here (the first round measured each case's energy).
  bool later_round = false;
  double power_period_s = 0.01;   ///< the power sampling period where the board has no energy counter
  double max_uncertainty = 0.05;  ///< an energy less certain than this is not reported (its reason is)
  double min_busy = 0.5;  ///< nor one of a window in which the GPU ran the case less than this share of the time
  /// A case shorter than min_run_s gets its window after its timed samples, from batches of its runs back to back
  /// lasting about this long each (its L2 not flushed between them).
  double back_to_back_s = 1e-3;
};

/// The energy window a preset's cases get unless --energy-window says: 0.1 s, one period of a counter updated every
/// 0.1 s (H100, H200), so two updates in a row, in the first round of a run with rounds, so that every GPU case's
/// window adds well under 15% to the nightly's time (docs/validation.md, "What a verdict costs"); in the quick preset
/// (level 0) the timed samples alone, so that energy adds little to its time.
inline double default_energy_window_s(const preset& p) { return p.level == 0 ? 0.0 : 0.1; }

/// The energy window `confirm` measures a held energy flag with, in each of its processes: three periods of the
/// counter, so that where a flag is settled the times of a window's ends are a third as uncertain for its length as
/// in one period's window.
inline constexpr double confirm_energy_window_s = 0.3;

/// What a finished window gives a repetition: its record and its counters (energy_counters, the unit's).
struct energy_result {
  energy_record record;
  std::map<std::string, double> counters;
};

/// One board's meter, used by one case at a time. Where the board has the energy counter, a thread of the meter's
/// own reads it back to back from begin() to finish() (a reading costs a few milliseconds of host time on some
/// hosts, so the case's thread never waits for one); the window runs between two updates it saw while the case's
/// samples or batches ran, and the runs within it are counted from the GPU span of each. Boards without the
/// counter sample power on that thread instead.
///
/// Around timed samples: begin(), after_sample() after each, timed_done() after the last, then (while
/// window_reached() is false) more samples, each told with untimed_sample(), then finish(). A window of a case's
/// runs back to back (a case too short for a window of its timed samples): begin(), then untimed_sample() as each
/// batch completes, with the next one already queued (the call's time is the batch's end), while window_reached()
/// is false; then finish().
class energy_meter {
 public:
  energy_meter(const std::string& uuid, const std::string& pci_bus_id, energy_settings s);
  ~energy_meter();
  energy_meter(const energy_meter&) = delete;
  energy_meter& operator=(const energy_meter&) = delete;

  /// Why the board cannot be read ("" when it can).
  const std::string& problem() const { return board_.problem(); }
  const energy_settings& settings() const { return settings_; }

  /// Starts a window: the counter's reader (or the power sampler) starts; the violation counters are read.
  void begin();
  /// After a timed sample of `seconds` (`runs` runs) of GPU time of the case's work: the memory clock and the clock
  /// event reasons; true when a throttle reason was set (the SM clock is the GPU probe's, measure.cpp).
  bool after_sample(double seconds, double runs = 1);
  /// After the last timed sample: the violation counters read again (the throttle times are of the timed samples).
  void timed_done();
  /// After an untimed sample, or a batch of runs back to back, of `seconds` of GPU time (`runs` runs), just ended.
  void untimed_sample(double seconds, double runs = 1);
  /// Two updates of the counter seen within the samples at least settings().window_s apart (a window_s of 0: the
  /// timed samples alone) whose energy is within max_uncertainty, or the counter stopped updating; of wall time where
  /// power is sampled.
  bool window_reached() const;
  /// Ends the window: `throttled` of the kept samples were flagged; `unit` is what the energy is given per.
  energy_result finish(std::size_t throttled, const energy_unit& unit);

 private:
  void reset();  ///< a new window: nothing read, nothing counted
  void count(double seconds, double runs);
  std::map<std::string, std::uint64_t> violations() const;
  energy_record window_energy(double& joules, double& runs);
  /// window_energy's counter part: the updates the reader saw within the samples.
  void counter_energy(energy_record& e, double& joules, double& runs, double& busy_s);
  class power_sampler;
  class counter_watcher;
  struct sample_end {
    double t, runs, gpu_s;  ///< when it ended; the runs and GPU time of all samples up to it
  };

  nvml_board board_;
  energy_settings settings_;
  std::unique_ptr<power_sampler> sampler_;
  std::unique_ptr<counter_watcher> watcher_;  ///< the counter's reader
  std::vector<sample_end> ends_;              ///< ... and the samples' ends
  double runs_ = 0, busy_s_ = 0;
  double t0_ = 0, timed_end_ = 0;
  std::map<std::string, std::uint64_t> violations_start_, violations_end_;
  std::map<std::string, double> reason_s_;  ///< time of the timed samples under each sampled reason
  bool reasons_read_ = false;
  double mem_sum_ = 0;
  std::size_t mem_n_ = 0;
};

}  // namespace cudabench
