// The command table: every command of the program in the order help and the docs list them, and the one path
// a command line takes through it (parse, --help, the handler, a usage or input error in one line).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "app/commands.hpp"
#include "app/results_output.hpp"
#include "cli/program_name.hpp"
#include "io/format.hpp"
#include "io/format.hpp"

namespace cudabench::app {

// Each row is defined beside its handler: the runner's in app/runner.cpp, the others' in app/commands/NAME.cpp.
extern const command_spec cmd_run, cmd_compare, cmd_report, cmd_trend, cmd_gates, cmd_bisect, cmd_fleet;

namespace {
const std::array commands{&cmd_run, &cmd_compare, &cmd_report, &cmd_trend, &cmd_gates, &cmd_bisect, &cmd_fleet};

/// A usage error, a bad input or a failure of `cmd`, in one line: "PROGRAM COMMAND: what".
void say(const command_spec& cmd, const std::string& what) {
  fmt::print(stderr, "{}{}: {}\n", program_name(), cmd.named ? " " + std::string(cmd.name) : "", printable(what));
}
}  // namespace

command_list command_table() { return commands; }

const command_spec* command_by_name(std::string_view name) {
  for (const command_spec* c : commands)
    if (c->named && c->name == name) return c;
  return nullptr;
}

const command_spec& command_named(std::string_view name) {
  for (const command_spec* c : commands)
    if (c->name == name) return *c;
  throw std::logic_error(fmt::format("no command '{}'", name));
}

command_line parse_command_line(std::string_view name, const std::vector<std::string>& args) {
  return parse_command_line(commands, command_named(name), args);
}
command_options parse_run_options(const std::vector<std::string>& args) { return parse_command_line("run", args).options; }
std::string command_help(std::string_view name, const help_examples& ex) { return command_help(commands, command_named(name), ex); }
std::string options_reference_markdown() { return options_reference_markdown(commands); }
std::string options_summary_markdown() { return options_summary_markdown(commands); }

file_command_guard::file_command_guard(const command_line& cl, std::string_view name)
    : at_once_(fmt::format("{} {}", program_name(), name)) {
  if (std::count(cl.inputs.begin(), cl.inputs.end(), "-") > 1)
    throw usage_error("standard input (-) is named more than once: it can be read once, give the others as files");
}

int run_command_line(const command_spec& cmd, const std::vector<std::string>& args, char** argv) {
  command_line cl;
  try {
    std::vector<std::string> own = args, passed;  // what follows -- goes to the benchmark binary a command runs
    if (const auto dashes = std::find(own.begin(), own.end(), "--"); cmd.passes_rest && dashes != own.end()) {
      passed.assign(dashes + 1, own.end());
      own.erase(dashes, own.end());
    }
    cl = parse_command_line(commands, cmd, own);
    cl.passed = std::move(passed);
    cl.argv = argv;
  } catch (const usage_error& e) {
    say(cmd, fmt::format("{} (see {} --help)", e.what(), command_title(cmd)));
    return 2;
  }
  // --help, with examples from this binary's families; the wrapper's --profile-plan answers before it
  if (cl.options.help && !cl.options.profile_plan) {
    fmt::print("{}", command_help(commands, cmd, program_help_examples(run_options{}.preset)));
    return 0;
  }
  try {
    return cmd.handler(cl);
  } catch (const usage_error& e) {
    say(cmd, e.what());
    return 2;
  } catch (const input_error& e) {
    say(cmd, e.what());
    return 2;
  } catch (const std::exception& e) {
    say(cmd, e.what());
    return 1;
  }
}

namespace {
int report_command(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string name = args.empty() ? "" : args[0];
  if (name == "-h" || name == "--help") {
    fmt::print("{}", commands_overview(commands));
    return 0;
  }
  const command_spec* cmd = command_by_name(name);
  if (!cmd) {
    fmt::print(stderr, "{}: {} (see {} --help)\n", program_name(),
               name.empty() ? "expected " + command_names(commands, "or")
                            : fmt::format("unknown command '{}': expected {}", printable(name), command_names(commands, "or")),
               program_title());
    return 2;
  }
  return run_command_line(*cmd, std::vector<std::string>(args.begin() + 1, args.end()), argv);
}
}  // namespace

int report_main(int argc, char** argv) {
  const std::string who = program_name();
  return with_checked_stdout(who.c_str(), report_command, argc, argv);
}

}  // namespace cudabench::app
