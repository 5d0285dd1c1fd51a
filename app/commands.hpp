// The commands behind `./run_bench compare | report | trend | gates | fleet | bisect`, and the comparison step of a run.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "results/device_info.hpp"
#include "cli/options.hpp"
#include "app/outputs.hpp"

namespace cudabench::app {

/// The comparison settings the runner's options ask for (defaults from compare_settings).
compare_settings compare_settings_from(const run_options& o);

/// Compares (with the gates of `s`, else those beside the baseline unless s.gates_beside_baseline is false), and sends the comparison to every output of `outputs` (the terminal table, the requested files);
/// 1 when a regression was found, else 0. The comparison is also handed back through `out` when given.
int compare_and_report(const run_result& base, const run_result& cur, const compare_settings& s, const output_list& outputs,
                       comparison* out = nullptr);

/// <dir>/<gpu-model>/<preset>.json: where the baseline of this device and preset is stored.
std::string baseline_file_for(const device_info& d, const std::string& preset, const std::string& dir);

/// A baseline path from --compare-to: "auto" is the stored one for this device and preset under `dir`
/// (it must exist).
std::string resolve_baseline(const std::string& spec, const device_info& d, const std::string& preset, const std::string& dir);

/// `compare`, `report`, `trend`, `gates`, `fleet` and `bisect`: argv[1] is the command. Exit status 0, 1 (regression; bisect:
/// nothing found) or 2 (usage/input).
int report_main(int argc, char** argv);

}  // namespace cudabench::app
