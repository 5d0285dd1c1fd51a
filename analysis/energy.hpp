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
  /// An energy regression fails the comparison, and an unconfirmed energy flag leaves it undecided (exit 3), as
  /// time's do (--gate-energy).
  bool gating = false;
  double throttled_share = 0.5;  ///< over this share of a side's kept samples throttled: its time verdict is held back
};

/// The windows a side needs for an energy verdict: the rank test of fewer cannot reach alpha = 0.01.
inline constexpr std::size_t min_energy_windows = 3;

/// Energy verdicts follow time's: not_judged, fewer than min_energy_windows windows a side (no test); unconfirmed,
/// an energy flag between runs that are not of one machine, or, with --gate-energy, a change beyond the gate that
/// too few windows left untested (`confirm` measures it on one machine, in more processes); same_code, such a
/// change of a case whose device code and launches match the baseline's; machine_differs, an unconfirmed energy
/// flag that one machine measured unchanged.
enum class energy_verdict {
  unchanged,
  regression,
  improvement,
  inconclusive,
  unmeasured,
  not_judged,
  unconfirmed,
  same_code,
  machine_differs
};
/// "energy unchanged", "energy regression", ...
const char* to_string(energy_verdict v);
inline constexpr energy_verdict all_energy_verdicts[] = {
    energy_verdict::regression,   energy_verdict::improvement, energy_verdict::unchanged,
    energy_verdict::inconclusive, energy_verdict::unmeasured,  energy_verdict::not_judged,
    energy_verdict::unconfirmed,  energy_verdict::same_code,   energy_verdict::machine_differs};
/// An energy regression or improvement.
inline bool is_flag(energy_verdict v) { return v == energy_verdict::regression || v == energy_verdict::improvement; }

/// A case's energy per operation in both runs, and its verdict.
struct energy_comparison {
  energy_verdict v = energy_verdict::unmeasured;
  std::string unit;          ///< "J/byte", "J/FLOP", "J/item" or "J/run"
  double base = 0, cur = 0;  ///< medians over the repetitions (one energy window each)
  double base_watts = 0, cur_watts = 0;
  double change = 0;              ///< cur/base - 1
  double gate = 0;                ///< max(threshold, noise floor x the larger robust CV of the windows)
  std::optional<double> p_value;  ///< the rank test's, with min_energy_windows windows a side or more
  std::size_t base_n = 0, cur_n = 0;
  std::string method;  ///< "rank test (N vs M windows)" or "N vs M windows: a test needs 3 a side"
  std::string note;    ///< why unmeasured, held or settled, where it is
  /// The flag an `unconfirmed` energy verdict holds back (regression or improvement), kept where `confirm`
  /// settled it; unset for any other.
  std::optional<energy_verdict> held;
};

/// The energy comparison of a case measured in both runs; nothing where neither run recorded energy for it
/// (CPU cases, files of schema version 1, runs with --no-energy).
std::optional<energy_comparison> compare_energy(const case_result& b, const case_result& c,
                                                const energy_gate_settings& s, double noise_floor, double alpha);

/// A case whose time is not gated (declared so, or host-bound where nothing gates it) has no energy flag either:
/// a flag, or one held as unconfirmed, becomes `not_judged`, its change reported in the note.
void not_gated_energy(energy_comparison& e);

/// The fewest windows a side (min_energy_windows or more) whose rank test can reach `alpha` at all: 5 at 0.01 (with
/// 3 a side its smallest p-value is 0.1, so such a verdict can be unchanged or inconclusive but never a flag).
std::size_t energy_windows_to_flag(double alpha);

/// Across machines (`why` says what differs), an energy flag stands as no time flag does: a case with the
/// baseline's device code and launches (`same_code`) gets `same_code`, any other `unconfirmed` with its direction
/// held. Says whether it held `e`.
bool hold_energy_of_other_machine(energy_comparison& e, bool same_code, const std::string& why);

/// The share of a case's kept timed samples NVML reported throttled (0 where not recorded), and their counts.
double throttled_share(const case_result& c, std::size_t* throttled = nullptr, std::size_t* samples = nullptr);

/// "energy 0.21 nJ/byte ±0.3%": a value with an SI prefix on its unit ("J/byte" -> "nJ/byte").
std::string format_energy(double value, const std::string& unit);

}  // namespace cudabench
