// Baseline against current: a verdict per case from a test (the rank test, or the medians against a learned
// gate's drift) and the gate, plus run-level checks.
#pragma once

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/energy.hpp"
#include "analysis/gates.hpp"
#include "results/results.hpp"

namespace cudabench {

/// inconclusive: tested, too noisy to tell; not_gated: reported with its change, never tested, never failing;
/// machine_differs: a `limits` case moved beyond its gate, or a flag that a measurement on one machine did not
/// confirm (the machine changed, not the code; never failing); unconfirmed: a change beyond the gate between runs
/// of different machines, which only a measurement of both revisions on one machine can confirm (`confirm`; never
/// failing, exit status 3); same_code: such a change of a case whose device code and launches match the
/// baseline's (never failing, never confirmed).
enum class verdict {
  regression,
  improvement,
  unchanged,
  inconclusive,
  not_gated,
  unconfirmed,
  same_code,
  machine_differs,
  new_case,
  missing,
  failed,
  skipped
};
const char* to_string(verdict v);
/// Every verdict, in the order reports count them.
inline constexpr verdict all_verdicts[] = {verdict::regression,   verdict::improvement,     verdict::unchanged,
                                           verdict::inconclusive, verdict::not_gated,       verdict::unconfirmed,
                                           verdict::same_code,    verdict::machine_differs, verdict::new_case,
                                           verdict::missing,      verdict::failed,          verdict::skipped};
/// A flag that stands only once one machine measured both sides: a regression or an improvement.
inline bool is_flag(verdict v) { return v == verdict::regression || v == verdict::improvement; }

/// The exit status of a comparison without a regression or a lost case that left flags undecided (unconfirmed, or
/// measured throttled): not 1, so that a script that reads 1 as a regression never fails because the machine
/// changed, and not 0, so that it never passes a case it could not judge.
inline constexpr int exit_unconfirmed = 3;

/// Defaults chosen from A/A runs on an H100 (docs/validation.md says how).
struct compare_settings {
  double threshold = 0.05;  ///< relative median change that matters for device-bound cases (5%)
  /// The same for host-bound cases (CPU baselines, pageable/managed copies, host merges). Unset: they are
  /// reported but never gate, because on the H100 VM their medians moved by up to 5x between runs.
  std::optional<double> host_threshold;
  /// Without a learned gate, a change must also exceed this many times the samples' robust CV (1.4826 x MAD /
  /// median: one disturbed repetition does not widen it).
  double noise_floor = 3;
  /// Two runs of one machine whose samples are fresh processes (rounds), where no learned gate applies, calibrate
  /// themselves (their processes' spread) and flag a significant change of at least this (1%).
  double practical_floor = 0.01;
  /// Two runs of one machine whose host-bound case was measured in one process a side: its gate without
  /// --host-threshold (10%; across machines it stays not gated).
  double one_machine_host_threshold = 0.10;
  double alpha = 0.01;  ///< significance level of the Mann-Whitney U test
  bool allow_device_mismatch = false;
  bool allow_build_mismatch = false;  ///< compare runs whose cases were built differently (a note instead of a refusal)
  bool allow_preset_mismatch = false;  ///< compare runs of different presets (a note instead of a refusal)
  /// Gates learned from history (gates.hpp): a device-bound case's learned gate replaces `threshold` for it.
  std::shared_ptr<const gate_table> gates;
  /// Unset gates: whether the gates file kept beside the baseline (run_store::gates_file_beside) is read when present
  /// (false: --gates none).
  bool gates_beside_baseline = true;
  /// How energy per operation is judged (energy.hpp), and whether its regression fails the comparison.
  energy_gate_settings energy;
};

/// A timeline metric of a case traced in both runs (--trace). Informational: it never decides a verdict.
struct timeline_change {
  std::string metric;
  double base = 0, cur = 0;
  /// Worth showing: a fraction moved by 0.1 or more, a count changed, a duration moved by 10% and 5 us or
  /// more, a bandwidth by 10% or more.
  bool notable() const;
};

struct case_comparison {
  std::string name;
  std::string family;
  verdict v = verdict::unchanged;
  std::string method;  ///< "rank test", "medians vs drift of N runs", "threshold only (...)", "not gated"
  double base_median_s = 0, cur_median_s = 0;
  double change = 0;                     ///< cur/base - 1
  double base_noise = 0, cur_noise = 0;  ///< coefficient of variation of the repetitions
  std::size_t base_n = 0, cur_n = 0;
  std::optional<double> p_value;  ///< the test's; none where no test ran (one sample a side, aggregates, not gated)
  /// The smallest change that would be flagged: max(gate, the test's detectable change); NaN where no test ran.
  double detectable = 0;
  /// The change this case had to exceed: its learned gate, else max(its class's threshold, noise floor x CV); infinite
  /// for a case that is not gated, 0 where nothing was compared.
  double gate = 0;
  std::size_t gate_runs = 0;  ///< the runs its learned gate came from; 0: the default threshold
  /// Where the gate came from: "learned (N runs)", "default", or "" where the case has none.
  std::string gate_origin() const;
  std::string note;
  /// Where both runs measured the case's control (normalize.hpp): its name, the change of its rate (cur/base
  /// - 1; below 0: the current machine is slower there), and the case's change on the control's scale, which
  /// is what the test and the gate judged. Unset where the change was judged as measured.
  std::string control;
  std::optional<double> control_change, normalized_change;
  /// The change the verdict judged: the normalized one where there is one, else the measured one.
  double judged_change() const { return normalized_change.value_or(change); }
  std::vector<double> base_samples_s, cur_samples_s;
  std::vector<timeline_change> timeline;  ///< metrics present on both sides
  /// What identifies the device code the case ran, on each side ("" not recorded), and whether it differs.
  std::string base_code, cur_code;
  bool code_changed() const { return !base_code.empty() && !cur_code.empty() && base_code != cur_code; }
  bool same_code() const { return !base_code.empty() && base_code == cur_code; }
  /// The case was lost: it failed its check now but passed in the baseline, or it is missing although the
  /// current run selected it (or does not say what it selected). Fails the comparison like a regression.
  bool lost = false;
  /// Over energy_gate_settings::throttled_share of a side's samples were taken throttled: a regression or an
  /// improvement was held back as inconclusive.
  bool throttled = false;
  /// Judged by its own processes' spread against the practical floor (two runs of one machine, no learned gate);
  /// more processes of both sides can decide it where it is inconclusive.
  bool self_calibrated = false;
  /// The flag an `unconfirmed` verdict holds back until one machine measures it (regression or improvement),
  /// kept where `confirm` settles it; unset for any other.
  std::optional<verdict> held;
  /// The verdict as reports show it: "inconclusive (throttled)" where throttling held it back.
  std::string verdict_text() const { return throttled ? std::string(to_string(v)) + " (throttled)" : to_string(v); }
  /// Energy per operation in both runs and its own verdict; unset where neither run recorded energy.
  std::optional<energy_comparison> energy;
};

/// Whether more processes could settle a self-calibrated case: a flag held as unconfirmed, or an inconclusive shift
/// at or beyond its gate. One inconclusive only because it was too spread to show that a change within the gate
/// is none stays so: more processes would not make it a flag.
inline bool worth_more_processes(const case_comparison& c) {
  if (!c.self_calibrated || c.throttled) return false;
  return c.v == verdict::unconfirmed || (c.v == verdict::inconclusive && std::fabs(c.change) >= c.gate);
}

struct comparison {
  std::string base_source, cur_source;
  std::string base_device, cur_device;
  std::vector<std::string> header_notes;  ///< driver/runtime changes, injected slowdowns, ...
  /// The recorded machine facts that differ between the runs (board, VBIOS, power limit, host CPU, ...);
  /// empty where they match or either run did not record them.
  std::vector<machine_difference> machine_differences;
  /// Both runs recorded their board (uuid) and it is the same one.
  bool same_board = false;
  /// Both runs come from one machine: the same board, no recorded machine fact differs, and no limit moved
  /// beyond its gate. Only then does a flag stand without confirmation.
  bool same_machine = false;
  /// Why the runs are not of one machine ("board GPU-1 vs GPU-2; limits/read -3.1%"), "" when they are.
  std::string machine_change;
  compare_settings settings;
  std::vector<case_comparison> cases;
  /// Geometric mean of cur/base per family, over its gated cases measured in both runs: a case that is not
  /// gated (host-bound without --host-threshold, or declared) moves it no more than it moves a verdict.
  std::map<std::string, double> family_geomean;
  /// The same over each family's cases that are not gated, shown apart.
  std::map<std::string, double> family_geomean_not_gated;

  std::size_t count(verdict v) const;
  std::size_t count(energy_verdict v) const;
  bool has_regression() const { return count(verdict::regression) > 0; }
  std::size_t lost() const;
  /// The cases that could not be judged because most samples of a side were taken throttled.
  std::size_t throttled() const;
  /// What makes `compare` exit 1: a regression or a lost case (or an energy regression with --gate-energy).
  bool failing() const {
    return has_regression() || lost() > 0 || (settings.energy.gating && count(energy_verdict::regression) > 0);
  }
  /// Something it could not judge that a pass would hide: an unconfirmed flag (an unconfirmed energy flag with
  /// --gate-energy), or a case held back because it was measured throttled.
  bool undecided() const {
    return count(verdict::unconfirmed) > 0 || throttled() > 0 ||
           (settings.energy.gating && count(energy_verdict::unconfirmed) > 0);
  }
  /// 1 failing, exit_unconfirmed where it is undecided and not failing, else 0.
  int exit_status() const { return failing() ? 1 : undecided() ? exit_unconfirmed : 0; }
};

/// Why runs of presets `base` and `cur` cannot be compared ("different presets ('nightly' vs 'quick': ...)"), or ""
/// when they can: the same preset, or a run that does not say its preset (foreign output).
std::string preset_mismatch(const std::string& base, const std::string& cur);

/// Whether a comparison judges case `c` rather than reporting it apart as not gated: declared gated, and not
/// host-bound unless host-bound cases are gated too (`host_gated`: --host-threshold). A family's geomeans are of
/// the cases judged on both sides (compare's, fleet's).
bool judged_case(const case_meta& c, bool host_gated);

/// Whether two runs recorded one machine: the same board (uuid), and none of the machine facts both recorded
/// differs (the limits are not looked at: compare_runs does that).
bool one_machine(const run_result& base, const run_result& cur);

/// Whether two runs recorded one host, for host-bound cases: the same host name, the same board (or none), and
/// none of the machine facts both recorded differs. A host-bound case's learned gate applies only then.
bool one_host(const run_result& base, const run_result& cur);

/// Compares two runs; throws input_error when the devices differ, or a run has no device description,
/// and that is not allowed (allow_device_mismatch), and when the runs are of different presets and that is not
/// allowed (allow_preset_mismatch).
comparison compare_runs(const run_result& base, const run_result& cur, const compare_settings& s);

}  // namespace cudabench
