// A repetition's energy window, clocks and throttling (the "energy" object of a row's "cudabench" object), and
// the unit of work a case's energy is given per.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <string>

namespace cudabench {

/// How a repetition's energy was measured, and how its samples' clocks were held. The figures per run go in the
/// repetition's counters (energy_counters); this keeps how they were obtained and how far they can be trusted.
struct energy_record {
  std::string method;        ///< "counter" (NVML's energy counter) or "sampled power"; "" when none was read
  std::string absent;        ///< why there is no energy figure ("" when there is one)
  double window_s = 0;       ///< wall time between the two energy readings
  double runs = 0;           ///< runs of the case in the window (the timed samples' and the energy phase's)
  double extra_s = 0;        ///< of the window, the energy phase that repeated the case after its timed samples
  double busy_fraction = 0;  ///< GPU-timed share of the window
  double uncertainty = 0;    ///< relative bound of the energy's error from the readings (docs/reference.md)
  /// Runs back to back in each of the window's batches, where the window was of such batches after the timed
  /// samples (a case too short for a window of its own samples; no L2 flush between its runs); 0 otherwise.
  double back_to_back = 0;
  std::size_t throttled_samples = 0;         ///< kept timed samples after which NVML reported a throttle reason
  std::map<std::string, double> throttle_s;  ///< time under each throttle reason during the timed samples
  std::string throttle_source;               ///< "violation counters" or "sampled reasons" ("" none read)
};

nlohmann::ordered_json to_json(const energy_record& e);
/// The record of an "energy" object, read in one pass over its members; `where` ("cudabench.energy") names it in
/// messages (input_error on a field of the wrong type, a number out of its range, null).
energy_record energy_record_from_json(const nlohmann::ordered_json& j, const std::string& where);

/// A number an energy field may hold: from 0 to `most`, whole where `whole`.
struct energy_bound {
  const char* key;
  double most;
  bool whole;
};
/// `v` as a number within `b`; else input_error naming `field`: a string, null (a NaN literal), an array, an object,
/// a non-finite, negative or out-of-range number.
double checked_energy_number(const nlohmann::ordered_json& v, const std::string& field, const energy_bound& b);

/// The work a case's energy is given per: J/FLOP for a case that declares FLOPs (compute-bound), else J/byte for
/// one that declares bytes (memory-bound), else J/item, else J per run. The same rule gives a limit its unit.
struct energy_unit {
  const char* counter;  ///< the repetition's counter: joules_per_flop, joules_per_byte, joules_per_item or energy_j
  const char* unit;     ///< "J/FLOP", "J/byte", "J/item" or "J/run"
  double per_run;       ///< units of work per run (1 for J/run)
};
energy_unit energy_unit_of(double bytes, double items, double flops);

/// The counters of the energy figures per run (also the names reports and compare read).
namespace energy_counters {
inline constexpr const char* joules = "energy_j";  ///< joules per run of the case
inline constexpr const char* watts = "power_w";    ///< mean power over the window
inline constexpr const char* memory_clock = "mem_clock_mhz";
inline constexpr const char* throttled = "throttled_samples";
}  // namespace energy_counters

/// The energy counters of a repetition (a row of schema version 2 on), each within its physical range: joules
/// per run and per unit of work, watts, the memory clock, a count of samples.
inline constexpr energy_bound energy_counter_bounds[] = {
    {energy_counters::joules, 1e9, false},   {"joules_per_flop", 1e9, false},
    {"joules_per_byte", 1e9, false},         {"joules_per_item", 1e9, false},
    {energy_counters::watts, 1e5, false},    {energy_counters::memory_clock, 1e6, false},
    {energy_counters::throttled, 1e15, true}};

}  // namespace cudabench
