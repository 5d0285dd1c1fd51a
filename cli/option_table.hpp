// The one table of command-line options: each option once, with its arity, validation, help and the commands
// that take it. Parsing, --help, the argv of --devices children, the profiling wrapper's plan and the
// options reference in the docs are all made from it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/options.hpp"

namespace cudabench::cli {

/// How an option takes its value.
enum class arity {
  flag,       ///< --name, no value
  value,      ///< --name=VALUE or --name VALUE
  benchmark,  ///< Google Benchmark's form: --benchmark_name=VALUE only; a bare --benchmark_name means "true"
};

/// What becomes of an option in the argv of one --devices child process.
enum class in_child {
  keep,     ///< passed as given
  suffix,   ///< an output file: FILE.json becomes FILE.devN.json
  replace,  ///< left out; the child gets its own --device=N and --json=FILE
};

struct command_spec;

/// Where the parse of one command line stands; the options' actions write into it.
struct parse_state {
  command_options& options;
  const command_spec& cmd;
  std::optional<std::string> benchmark_out, benchmark_out_format;  ///< resolved into --json / --csv at the end
};

struct option_spec;
/// Validates `value` ("" for a flag) and stores it; throws usage_error naming the option.
using option_action = void (*)(parse_state&, const option_spec&, const std::string& value);

struct option_spec {
  std::string_view name;   ///< "--filter"
  std::string_view alias;  ///< "-h", or empty
  arity kind = arity::value;
  std::string_view placeholder;  ///< what the value is, as help shows it ("REGEX"); empty for a flag
  std::string_view commands;     ///< the names of the commands that take it ("run compare"; run is the runner; * all)
  option_action apply = nullptr;
  /// An output file: `-` is standard output (at most one output of a command may be `-`), and the field of
  /// command_options it fills (none for a live output).
  std::optional<std::string> command_options::*output = nullptr;
  bool live = false;  ///< a live output (reports::live_formats): its file goes in command_options::live_paths
  in_child child = in_child::keep;
  bool whole_run = false;      ///< left out of each per-case run the cudabench-run wrapper starts under --ncu
  std::string_view elsewhere;  ///< said to a command that does not take it: what to use instead
  bool hidden = false;         ///< for the program's own use (the wrapper, its children): accepted, never listed
  /// What it does, as help shows it: made once, with the defaults rendered from the constants they come from.
  std::string help;
};

/// Every option, in the order --help lists them.
std::span<const option_spec> option_table();

/// The option called `name` (or with that alias), or nullptr.
const option_spec* find_option(std::string_view name);

/// True when the command `command_name` takes `o` (o.commands names it).
bool takes(const option_spec& o, std::string_view command_name);

/// The file the output option `spec` names in `o` (its field, or a live output's entry of live_paths); nullptr
/// where the option was not given or is no output.
const std::string* output_path(const command_options& o, const option_spec& spec);

/// One argument of a command line as the table reads it: an option (spec set, with its value), or a
/// positional argument (spec null, positional true), or an unknown option (spec null, positional false).
struct option_token {
  const option_spec* spec = nullptr;
  bool positional = false;
  std::string name;                 ///< the option as typed, without its value
  std::string value;                ///< "" for a flag; "true" for a bare --benchmark_ flag
  std::size_t first = 0, last = 0;  ///< the argv items it spans
};
/// Reads the argument at args[i]; throws usage_error when an option lacks its value or a flag has one.
option_token read_option(const std::vector<std::string>& args, std::size_t i);

struct command_line;
/// What a command does with its parsed command line: its exit status. Throws usage_error / input_error, which the
/// caller reports in one line (exit status 2).
using command_handler = int (*)(const command_line&);

/// One command, a row of the command table (app/command_table.cpp): its name, how it is called, what it does,
/// its handler (app/commands/NAME.cpp); the options a command takes are the option table's rows that name it.
struct command_spec {
  std::string_view name;    ///< "compare"; "run" for the runner, which is called without a name
  std::string_view inputs;  ///< the positional arguments as usage shows them ("BASELINE.json CURRENT.json")
  std::size_t input_count = 0;
  std::string about;
  std::string_view exit_status = "0 written, 2 usage or input error";  ///< a report command's, unless it says otherwise
  command_handler handler = nullptr;
  bool more_inputs = false;  ///< input_count or more positional arguments
  bool named = true;         ///< called by its name (false: the runner, the binary's own command line)
  bool passes_rest = false;  ///< the arguments after -- go to the benchmark binary it runs (bisect)
};

/// The commands, in the order help and the docs list them (the runner first).
using command_list = std::span<const command_spec* const>;
/// The named commands of `all` as a list for a message: "compare, report, trend, gates or bisect" (`last` "or"/"and").
std::string command_names(command_list all, std::string_view last);
/// The one of `names` that `typed` is a slip of (a character added, dropped or changed, or two neighbours swapped;
/// two such slips in a name of 8 letters or more), the first of the closest; "" when none is that close.
std::string closest_name(std::string_view typed, const std::vector<std::string_view>& names);
/// The named command of `all` that `typed` is a slip of, "" none.
std::string closest_command(command_list all, std::string_view typed);
/// "./run_bench" or "./run_bench compare": how messages and usage name the command.
std::string command_title(const command_spec& c);

/// A command line parsed by the table: the options, and the positional arguments (compare, report, trend, gates,
/// fleet).
struct command_line {
  command_options options;
  std::vector<std::string> inputs;
  std::vector<std::string> args;    ///< the command's own arguments as given (without its name and what follows --)
  std::vector<std::string> passed;  ///< what followed -- (bisect: the benchmark binary's arguments)
  char** argv = nullptr;            ///< the process's argv (a run starts itself again for its workers)
};
/// Parses `args` (without argv[0], and for the named commands without the command's name) for `cmd`, one of
/// `all`. -h/--help anywhere wins (options.help, nothing else checked). Throws usage_error with a one-line message.
command_line parse_command_line(command_list all, const command_spec& cmd, const std::vector<std::string>& args);

/// What the options' help shows as examples ({filter}, {sizes}, {axis} in the table): the suite's families by
/// default, as the docs show them; a binary's --help gives its own (help_examples_for, runner.cpp).
struct help_examples {
  std::string filter = "conv2d, image/pinned";
  std::string sizes = "--sizes=conv2d=2048,8192";
  std::string axis = "--axis=dot.streams=2,4";
  /// The runner's --help ends with `families_title` and a line per family: its name and case count, and
  /// its description (none in the docs, which describe the suite's families themselves).
  std::string families_title;
  std::vector<std::pair<std::string, std::string>> families;
};

/// --help of `cmd` (one of `all`), made from the table, with `ex`'s examples.
std::string command_help(command_list all, const command_spec& cmd, const help_examples& ex = {});
/// cudabench-report --help: its commands and where their options are listed.
std::string commands_overview(command_list all);

/// The options reference (Markdown) of every command, for docs/reference.md's options block.
std::string options_reference_markdown(command_list all);
/// A compact table of each command's options, for README.md's options block.
std::string options_summary_markdown(command_list all);

/// What the cudabench-run wrapper needs of a command line, each field ended by a NUL byte: the profiler
/// ("nsys", "ncu" or "none"), the preset, the --json file ("" when none), then the count and the items of the
/// binary's own arguments (without --nsys/--ncu), then the count and the items of each per-case profiled
/// run's arguments (without the filters, the outputs and the baseline options of the whole run).
/// `o` is what `args` parsed into.
std::string profile_plan(const run_options& o, const std::vector<std::string>& args);

}  // namespace cudabench::cli
