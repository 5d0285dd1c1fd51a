// The command table (its rows in app/command_table.cpp, each command's handler in app/commands/NAME.cpp or, for
// the runner, app/runner.cpp), and what dispatches a command line to it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "app/outputs.hpp"
#include "cli/option_table.hpp"
#include "cli/options.hpp"
#include "cli/requests.hpp"
#include "io/child_process.hpp"
#include "results/device_info.hpp"

namespace cudabench::app {

/// Every command, the runner first, in the order help and the docs list them.
cli::command_list command_table();
/// The command called `name` by its name (compare, report, ...; not the runner), or nullptr.
const cli::command_spec* command_by_name(std::string_view name);
/// The row of `name` ("run" for the runner); std::logic_error for a name that is no command.
const cli::command_spec& command_named(std::string_view name);

/// Parses, answers --help, runs the handler of `cmd` and reports a usage or input error in one line (exit status 2).
/// `args`: the command's arguments (without argv[0] and the command's name); `argv`: the process's.
int run_command_line(const cli::command_spec& cmd, const std::vector<std::string>& args, char** argv);

/// parse_command_line, help and the docs' reference over this program's command table.
cli::command_line parse_command_line(std::string_view name, const std::vector<std::string>& args);
cli::run_options parse_run_options(const std::vector<std::string>& args);
std::string command_help(std::string_view name, const cli::help_examples& ex = {});
/// The runner's --help examples and family list, from the families registered in this binary (built for the
/// preset `preset_name`); the suite's own examples where the suite's families are there.
cli::help_examples program_help_examples(const std::string& preset_name);
std::string options_reference_markdown();
std::string options_summary_markdown();

/// Refuses (usage_error) standard input ("-") named more than once among a command's inputs: it can be read once.
void refuse_standard_input_twice(const std::vector<std::string>& inputs);

/// A command over result files ends at once at a signal (nothing there stops after a step), and reads standard
/// input at most once: set up at the start of its handler.
class file_command_guard {
 public:
  file_command_guard(const std::vector<std::string>& inputs, std::string_view name);

 private:
  stop_at_once at_once_;
};

/// Every command of the table but the runner: argv[1] names it. Exit status 0, 1 (regression; bisect: nothing
/// found), 2 (usage/input) or the command's own (command_spec::exit_status).
int report_main(int argc, char** argv);

}  // namespace cudabench::app
