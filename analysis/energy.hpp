// Energy per operation judged like time (a verdict of its own, apart from the time verdict), and how much of a
// case's sampling ran throttled.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "results/results_model.hpp"

namespace cudabench {

/// How energy changes are judged (compare --energy-threshold, --gate-energy).
struct energy_gate_settings {
  /// Relative change of the median energy per operation that counts (1.5%, the floor of the learned time gates):
  /// on an H100, an A/A pair of reduce's 1 GiB cases moved by at most 0.9%, and 2% more work by 1.9 to 2.6%, over
  /// five 1 s windows a side (docs/validation.md).
  double threshold = 0.015;
  bool gating = false;           ///< an energy regression fails the comparison (--gate-energy)
  double throttled_share = 0.5;  ///< over this share of a side's kept samples throttled: its time verdict is held back
};

enum class energy_verdict { unchanged, regression, improvement, inconclusive, unmeasured };
/// "energy unchanged", "energy regression", ...
const char* to_string(energy_verdict v);
inline constexpr energy_verdict all_energy_verdicts[] = {energy_verdict::regression, energy_verdict::improvement,
                                                         energy_verdict::unchanged, energy_verdict::inconclusive,
                                                         energy_verdict::unmeasured};

/// A case's energy per operation in both runs, and its verdict.
struct energy_comparison {
  energy_verdict v = energy_verdict::unmeasured;
  std::string unit;          ///< "J/byte", "J/FLOP", "J/item" or "J/run"
  double base = 0, cur = 0;  ///< medians over the repetitions (one energy window each)
  double base_watts = 0, cur_watts = 0;
  double change = 0;              ///< cur/base - 1
  double gate = 0;                ///< max(threshold, noise floor x the larger CV of the windows)
  std::optional<double> p_value;  ///< the rank test's, with two windows a side or more
  std::size_t base_n = 0, cur_n = 0;
  std::string method;  ///< "rank test (N vs M windows)" or "threshold only (...)"
  std::string note;    ///< why unmeasured, where it is
};

/// The energy comparison of a case measured in both runs; nothing where neither run recorded energy for it
/// (CPU cases, files of schema version 1, runs with --no-energy).
std::optional<energy_comparison> compare_energy(const case_result& b, const case_result& c,
                                                const energy_gate_settings& s, double noise_floor, double alpha);

/// The share of a case's kept timed samples NVML reported throttled (0 where not recorded), and their counts.
double throttled_share(const case_result& c, std::size_t* throttled = nullptr, std::size_t* samples = nullptr);

/// "energy 0.21 nJ/byte ±0.3%": a value with an SI prefix on its unit ("J/byte" -> "nJ/byte").
std::string format_energy(double value, const std::string& unit);

}  // namespace cudabench
