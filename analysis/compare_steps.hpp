// The steps of a comparison of two runs that are not a case's verdict: the checks that the runs can be compared
// and the notes of how they were made (run_checks.cpp), and the holding of flags that one machine has not
// confirmed (flag_holds.cpp). Used by compare.cpp; not installed.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "analysis/compare.hpp"
#include "analysis/gates.hpp"
#include "results/results.hpp"

namespace cudabench::comparing {

/// "5%", "2.3%": a gate as people read it.
inline std::string pct(double fraction) {
  const double p = 100 * fraction;
  return std::fabs(p - std::round(p)) < 0.05 ? fmt::format("{:.0f}%", p) : fmt::format("{:.1f}%", p);
}

/// The run's GPU as a comparison names it: its model, "no GPU", "unknown device".
std::string device_label(const run_result& r);

/// Refuses runs of two GPU models or clocks (a note instead when `allow`: --allow-device-mismatch); notes a
/// driver or runtime that changed.
void check_devices(const run_result& base, const run_result& cur, comparison& out, bool allow);

/// Refuses runs that differ as `problem` says (cases built differently: a Debug build against a Release one;
/// another preset: a quick run's sizes and repetitions against a nightly's read as changes); a note instead
/// when `allow` (the option `allow_option` asks for it). A run that does not say how it was built or of which
/// preset it is is taken as compatible.
void check_mismatch(const std::string& problem, const run_result& base, const run_result& cur, comparison& out,
                    bool allow, const char* allow_option);

/// Refuses gates learned on another GPU model than the current run's (a note instead with
/// --allow-device-mismatch); notes gates of another preset.
void check_gates(const gate_table& g, const run_result& cur, comparison& out, bool allow);

/// Records which machine facts differ between the runs (the boards by their uuids where nothing more was
/// recorded), and says so in a note.
void check_machines(const run_result& base, const run_result& cur, comparison& out);

/// Says how many cases that name a control were judged as measured because one run did not measure it.
void note_unnormalized(const run_result& cur, comparison& out);

/// Notes what the runs say of how they were made: clocks measured far apart, injected slowdowns, the user's
/// --benchmark_context keys.
void note_run_settings(const run_result& base, const run_result& cur, comparison& out);

/// Each case judged by its own processes is tested at alpha, so a comparison of many unchanged cases would flag one
/// of them by chance in most runs. Among those cases a flag stands only where it is a discovery at a false
/// discovery rate of alpha (Benjamini-Hochberg: the i-th smallest of m p-values at most i/m x alpha); one that is
/// significant on its own only is held as unconfirmed, for more processes to settle (bisect's --extra-time, the
/// nightly's confirmation). With nothing changed, a flag then stands in at most alpha of the comparisons.
void hold_chance_flags(comparison& out);

/// A flag stands only where both runs come from one machine: no recorded fact of the machines differs and no
/// limit moved beyond its gate. Elsewhere a flag of a case whose device code and launches match the baseline's
/// is the machine's (same code); any other is unconfirmed until both revisions are measured on one machine.
void hold_flags_of_other_machines(comparison& out);

}  // namespace cudabench::comparing
