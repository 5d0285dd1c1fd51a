// A case's energy window, its samples' clocks and throttle reasons, read from NVML around its timed samples.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

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
  double min_run_s = 2e-3;
  /// A later round of a run with rounds: no window here (the first round measured each case's energy).
  bool later_round = false;
  double power_period_s = 0.01;   ///< the power sampling period where the board has no energy counter
  double max_uncertainty = 0.05;  ///< an energy less certain than this is not reported (its reason is)
  double min_busy = 0.5;     ///< nor one of a window in which the GPU ran the case less than this share of the time
  double edge_wait_s = 0.1;  ///< how long a reading of the energy counter waits for the counter's next update
  /// Samples up to this long read the counter after each one, and the window runs from the first update seen to
  /// the last (no waiting with the GPU idle); longer samples wait for an update at each end of the window.
  double poll_below_s = 2e-3;
  double poll_every_s = 5e-4;  ///< ... at most this often (a reading costs the host tens of microseconds)
  /// A case shorter than min_run_s gets its window after its timed samples, from batches of its runs back to back
  /// lasting about this long each (its L2 not flushed between them).
  double back_to_back_s = 1e-3;
};

/// The energy window a preset's cases get unless --energy-window says: 0.25 s, in the first round of a run with
/// rounds, so that every GPU case's window adds at most 15% to the nightly's time (docs/validation.md, "What a
/// verdict costs"); in the quick preset (level 0) the timed samples alone, so that energy adds little to its time.
inline double default_energy_window_s(const preset& p) { return p.level == 0 ? 0.0 : 0.25; }

/// What a finished window gives a repetition: its record and its counters (energy_counters, the unit's).
struct energy_result {
  energy_record record;
  std::map<std::string, double> counters;
};

/// One board's meter, used by one case at a time: begin(), after_sample() after each timed sample, timed_done()
/// after the last, then (while window_reached() is false) more samples, each told with untimed_sample(), then
/// finish().
class energy_meter {
 public:
  energy_meter(const std::string& uuid, const std::string& pci_bus_id, energy_settings s);
  ~energy_meter();
  energy_meter(const energy_meter&) = delete;
  energy_meter& operator=(const energy_meter&) = delete;

  /// Why the board cannot be read ("" when it can).
  const std::string& problem() const { return board_.problem(); }
  const energy_settings& settings() const { return settings_; }

  /// Starts a window for samples of about `sample_s` each: up to settings().poll_below_s the counter is read after
  /// each sample and the window's ends are the updates seen; longer ones wait here for the counter's next update
  /// (or the power sampler starts); the violation counters are read.
  void begin(double sample_s = 0);
  /// After a timed sample of `seconds` (`runs` runs) of the case's work: the memory clock and the clock event
  /// reasons; true when a throttle reason was set (the SM clock is the GPU probe's, measure.cpp).
  bool after_sample(double seconds, double runs = 1);
  /// After the last timed sample: the violation counters read again (the throttle times are of the timed samples).
  void timed_done();
  /// After an untimed sample of the energy phase.
  void untimed_sample(double seconds, double runs = 1);
  /// The window has reached settings().window_s (between the updates seen, where the counter is read after each
  /// sample; of wall time otherwise), or a counter that is read after each sample stopped updating.
  bool window_reached() const;
  /// Ends the window: `throttled` of the kept samples were flagged; `unit` is what the energy is given per.
  energy_result finish(std::size_t throttled, const energy_unit& unit);

  /// A window of the case's runs back to back (a case too short for a window of its timed samples): the counter is
  /// read on a thread of its own while they run, so that no reading leaves the GPU idle. After begin_back_to_back(),
  /// batch_done() as each batch completes, with the next one already queued (the call's time is the batch's end),
  /// while window_reached() is false; then finish(). The runs between two updates are interpolated within the
  /// batches around them. Boards without the counter sample power instead (begin()'s fallback).
  void begin_back_to_back();
  /// A batch of `runs` runs has just completed, `gpu_s` of GPU time between its events.
  void batch_done(double runs, double gpu_s);

 private:
  struct counter_reading {
    std::uint64_t mj = 0;
    double t = 0;                 ///< when the reading saw the update
    double stale_s = 0;           ///< the time within which the update happened (the energy's uncertainty at this end)
    double runs = 0, busy_s = 0;  ///< the case's runs and GPU time up to the reading
  };
  counter_reading read_at_update() const;
  void reset();  ///< a new window: nothing read, nothing counted
  void count(double seconds, double runs);
  std::map<std::string, std::uint64_t> violations() const;
  energy_record window_energy(double& joules, double& runs);
  /// window_energy's counter part for a back-to-back window: the updates the watcher saw within the batches.
  void back_to_back_energy(energy_record& e, double& joules, double& runs, double& busy_s);
  class power_sampler;
  class counter_watcher;
  struct batch_end {
    double t, runs, gpu_s;  ///< when it completed; the runs and GPU time of all batches up to it
  };

  nvml_board board_;
  energy_settings settings_;
  std::unique_ptr<power_sampler> sampler_;
  std::unique_ptr<counter_watcher> watcher_;  ///< a back-to-back window's reader of the counter
  std::vector<batch_end> batches_;            ///< ... and its batches' ends
  bool counter_ = false;
  bool polled_ = false;  ///< the counter is read after each sample (begin's sample_s under poll_below_s)
  counter_reading start_{}, end_{};
  std::uint64_t last_mj_ = 0;  ///< the counter at the last reading after a sample
  double last_t_ = 0;
  int updates_ = 0;  ///< updates seen after samples (polled_)
  double runs_ = 0, busy_s_ = 0;
  double t0_ = 0, timed_end_ = 0;
  std::map<std::string, std::uint64_t> violations_start_, violations_end_;
  std::map<std::string, double> reason_s_;  ///< time of the timed samples under each sampled reason
  bool reasons_read_ = false;
  double mem_sum_ = 0;
  std::size_t mem_n_ = 0;
};

}  // namespace cudabench
