// The commands behind `./run_bench compare | report | trend`, and the comparison step of a run.
#pragma once

#include <string>

#include "harness/compare.hpp"
#include "harness/device_info.hpp"
#include "harness/options.hpp"

namespace reports {

/// The comparison settings the runner's options ask for (defaults from harness::compare_settings).
harness::compare_settings compare_settings_from(const harness::run_options& o);

/// Throws input_error unless every requested output file can be written.
void check_report_outputs(const harness::compare_settings& s);

/// Compares, prints the terminal table, writes the requested files; 1 when a regression was found, else 0.
int compare_and_report(const harness::run_result& base, const harness::run_result& cur, const harness::compare_settings& s);

/// reports/baselines/<gpu-model>/<preset>.json in the source tree.
std::string baseline_file_for(const harness::device_info& d, const std::string& preset);

/// A baseline path from --compare-to: "auto" is the stored one for this device and preset (must exist).
std::string resolve_baseline(const std::string& spec, const harness::device_info& d, const std::string& preset);

/// `compare`, `report` and `trend`: argv[1] is the command. Exit status 0, 1 (regression) or 2 (usage/input).
int report_main(int argc, char** argv);

}  // namespace reports

// The runner uses these unqualified.
namespace harness {
using reports::baseline_file_for;
using reports::check_report_outputs;
using reports::compare_and_report;
using reports::compare_settings_from;
using reports::resolve_baseline;
}  // namespace harness
