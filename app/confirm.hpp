// `run_bench confirm`: a comparison whose flags came from runs of different machines, settled on this one by
// measuring both revisions here.
#pragma once

#include "analysis/compare.hpp"
#include "app/commands.hpp"

namespace cudabench::app {

/// `confirm BASELINE.json CURRENT.json`: compares the two runs as `compare` does; where flags are unconfirmed
/// (the runs are of different machines), builds the baseline's revision and the current run's (as bisect builds
/// revisions, with --build, --binary and --binary-cache), measures the flagged cases in fresh processes
/// alternating between the two on this machine (--processes each), and settles each flag by that comparison: a
/// regression or improvement it confirms, else `machine differs` with the change measured here. The outputs are
/// compare's, of the settled comparison; the exit status too (1 a confirmed regression).
int confirm_handler(const cli::confirm_request& r);

/// Settles each unconfirmed flag of `c`, time's and energy's, by `here`, the comparison of both revisions measured
/// on one machine: the same flag confirms it, the opposite flag is reported as it is, unchanged there makes it the
/// machine's (`machine differs`, `energy machine differs`), anything else leaves it unconfirmed. An energy flag of a
/// case `here` does not hold stays unconfirmed. An energy flag held between runs of one machine (too few windows
/// a side) that is unchanged `here` is `energy unchanged`: the machine did not differ. Notes the counts, `how` saying
/// where they were measured.
void settle_flags(comparison& c, const comparison& here, const std::string& how);

/// The arguments confirm's processes run the binary with: `args`; `--rounds=1` where every flag `c` holds is
/// energy's alone (a run measures energy in its first round only, so more rounds a process would measure nothing
/// the energy verdict uses) and `args` sets no rounds; and where an energy flag is held, windows of
/// confirm_energy_window_s unless `args` sets --energy-window.
std::vector<std::string> process_arguments(const comparison& c, std::vector<std::string> args);

/// "^(a/b/(1|2)|c/d/3)$": a filter that selects exactly `names` (case names), shared prefixes written once.
std::string exact_filter(const std::vector<std::string>& names);

}  // namespace cudabench::app
