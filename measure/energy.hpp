// A case's energy window, its samples' clocks and throttle reasons, read from NVML around its timed samples.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "measure/nvml.hpp"
#include "results/energy.hpp"

namespace cudabench {

/// How energy is measured (--no-energy, --energy-window).
struct energy_settings {
  bool on = true;
  double window_s = 1.0;  ///< the least energy window: a case whose timed samples are shorter repeats its sample
  /// Only cases whose run takes at least this long (warm-up median) get an energy window, one per process: on the
  /// first of their repetitions there (with rounds, one a round). Shorter cases say why they have none.
  double min_run_s = 1e-3;
  double power_period_s = 0.01;   ///< the power sampling period where the board has no energy counter
  double max_uncertainty = 0.05;  ///< an energy less certain than this is not reported (its reason is)
  double min_busy = 0.5;     ///< nor one of a window in which the GPU ran the case less than this share of the time
  double edge_wait_s = 0.1;  ///< how long a reading of the energy counter waits for the counter's next update
};

/// What a finished window gives a repetition: its record and its counters (energy_counters, the unit's).
struct energy_result {
  energy_record record;
  std::map<std::string, double> counters;
};

/// One board's meter, used by one case at a time: begin(), after_sample() after each timed sample, timed_done()
/// after the last, then (while window_reached() is false) more untimed samples, then finish().
class energy_meter {
 public:
  energy_meter(const std::string& uuid, const std::string& pci_bus_id, energy_settings s);
  ~energy_meter();
  energy_meter(const energy_meter&) = delete;
  energy_meter& operator=(const energy_meter&) = delete;

  /// Why the board cannot be read ("" when it can).
  const std::string& problem() const { return board_.problem(); }
  const energy_settings& settings() const { return settings_; }

  /// Starts a window: the energy counter read at its next update (or the power sampler started), the violation
  /// counters read.
  void begin();
  /// After a timed sample of `seconds` of the case's work: the memory clock and the clock event reasons; true
  /// when a throttle reason was set (the SM clock is the GPU probe's, measure.cpp).
  bool after_sample(double seconds);
  /// After the last timed sample: the violation counters read again (the throttle times are of the timed samples).
  void timed_done();
  /// The window has reached settings().window_s of wall time.
  bool window_reached() const;
  /// Ends the window: `runs` of the case ran in it, `busy_s` of it timed by the GPU; `throttled` of the kept
  /// samples were flagged; `unit` is what the energy is given per.
  energy_result finish(double runs, double busy_s, std::size_t throttled, const energy_unit& unit);

 private:
  struct counter_reading {
    std::uint64_t mj = 0;
    double t = 0;        ///< when the reading saw the update
    double stale_s = 0;  ///< the time within which the update happened (the energy's uncertainty at this end)
  };
  counter_reading read_at_update() const;
  std::map<std::string, std::uint64_t> violations() const;
  energy_record window_energy(double runs, double busy_s, double& joules);
  class power_sampler;

  nvml_board board_;
  energy_settings settings_;
  std::unique_ptr<power_sampler> sampler_;
  bool counter_ = false;
  counter_reading start_{};
  double t0_ = 0, timed_end_ = 0;
  std::map<std::string, std::uint64_t> violations_start_, violations_end_;
  std::map<std::string, double> reason_s_;  ///< time of the timed samples under each sampled reason
  bool reasons_read_ = false;
  double mem_sum_ = 0;
  std::size_t mem_n_ = 0;
};

}  // namespace cudabench
