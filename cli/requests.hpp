// What each command asks for: a request a command, built here from its parsed command line. A handler in app/
// reads its own request; the options object the option table writes into stays in cli/.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/option_table.hpp"
#include "cli/options.hpp"

namespace cudabench::cli {

/// A run of the benchmark binary: its options, its arguments as given (a run starts itself again for its workers
/// and its --devices children) and the process's argv.
struct run_request : run_options {
  std::vector<std::string> args;
  char** argv = nullptr;
};

/// compare BASELINE CURRENT.
struct compare_request : compare_options, report_files {
  std::vector<std::string> inputs;
};

/// confirm BASELINE CURRENT: a comparison, and how the two revisions are built and measured here.
struct confirm_request : compare_options, report_files, bisect_options {
  std::vector<std::string> inputs;
  std::vector<std::string> binary_args;  ///< what followed --: the benchmark binary's own arguments
};

/// report RUN.
struct report_request : report_options, report_files {
  std::vector<std::string> inputs;
};

/// trend DIR.
struct trend_request : compare_options, trend_options, report_files {
  std::vector<std::string> inputs;
};

/// gates RUNS...
struct gates_request : gates_options {
  std::vector<std::string> inputs;
};

/// fleet PATH...
struct fleet_request : fleet_options, report_files {
  std::vector<std::string> inputs;
};

/// store WHAT FILE.
struct store_request : store_options {
  std::string baseline_dir;  ///< --baseline-dir
  std::vector<std::string> inputs;
};

/// bisect --good --bad --filter: the search, or with ends_dir the two ends measured.
struct bisect_request : bisect_options, compare_options {
  std::string filter = ".";              ///< --filter as written: each measured revision's binary gets it
  bool filter_given = false;             ///< --filter was given (bisect requires it)
  std::optional<std::string> json_path;  ///< --json: the search's outcome
  std::vector<std::string> binary_args;  ///< what followed --: the benchmark binary's own arguments
};

run_request run_request_of(const command_line& cl);
compare_request compare_request_of(const command_line& cl);
confirm_request confirm_request_of(const command_line& cl);
report_request report_request_of(const command_line& cl);
trend_request trend_request_of(const command_line& cl);
gates_request gates_request_of(const command_line& cl);
fleet_request fleet_request_of(const command_line& cl);
store_request store_request_of(const command_line& cl);
bisect_request bisect_request_of(const command_line& cl);

/// The path an output option of the report files names (--json, --md, --html, --csv, --verdict), by the option
/// table's row of `option`; std::logic_error for an option that is no report file.
const std::optional<std::string>& report_path(const report_files& files, std::string_view option);

}  // namespace cudabench::cli
