// The comparison step compare, confirm and a run with --compare-to share: the settings the options ask for, and
// a comparison sent to every output.
#pragma once

#include <functional>

#include "analysis/compare.hpp"
#include "app/outputs.hpp"
#include "cli/options.hpp"

namespace cudabench::app {

/// The comparison settings the options ask for (defaults from compare_settings).
compare_settings compare_settings_from(const cli::compare_options& o);

/// Compares with the gates of `s`, else those run_store::gates_for finds.
comparison compare_with_gates(const run_result& base, const run_result& cur, const compare_settings& s);

/// Says on standard error how many cases could not be judged (a side mostly throttled), the cause of exit 3.
void say_not_judged(const comparison& c);

/// Compares (with the gates of `s`, else those run_store::gates_for finds), lets `amend` change the comparison
/// (confirm resolves its unconfirmed flags there), and sends it to every output of `outputs` (the terminal table,
/// the requested files); its exit status (comparison::exit_status). The comparison is also handed back through
/// `out` when given.
int compare_and_report(const run_result& base, const run_result& cur, const compare_settings& s,
                       const output_list& outputs, comparison* out = nullptr,
                       const std::function<void(comparison&)>& amend = {});

}  // namespace cudabench::app
