// The command table: every command of the program in the order help and the docs list them, and the one path
// a command line takes through it (parse, --help, the handler, a usage or input error in one line).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "analysis/run_store.hpp"
#include "app/commands.hpp"
#include "app/results_output.hpp"
#include "cli/program_name.hpp"
#include "cudabench/main.hpp"
#include "io/format.hpp"
#include "measure/energy.hpp"

namespace cudabench::app {

using namespace cudabench::cli;  // the command line (cli/) is the commands' own

// The handlers: the runner's in app/runner.cpp, the others' in app/commands/NAME.cpp.
int run_handler(const run_request& r);
int compare_handler(const compare_request& r);
int report_handler(const report_request& r);
int trend_handler(const trend_request& r);
int gates_handler(const gates_request& r);
int bisect_handler(const bisect_request& r);
int fleet_handler(const fleet_request& r);
int confirm_handler(const confirm_request& r);
int store_handler(const store_request& r);

namespace {
/// The row's handler of a command: its request built from the command line (cli/requests.hpp), then its handler.
template <typename Request, Request (*of)(const command_line&), int (*handler)(const Request&)>
int with_request(const command_line& cl) {
  return handler(of(cl));
}

// The commands, a row each, in the order help and the docs list them. Laid out by hand.
// clang-format off
const std::array<command_spec, 9> rows{
    command_spec{.name = "run",
                 .about = "Runs the CUDA benchmark suite (Google Benchmark cases named family/variant/parameters).",
                 .exit_status = "0 all cases ran or were skipped; 1 a case failed its check, or --compare-to found a "
                                "regression; 2 usage or input error; 3 --compare-to's only flags are unconfirmed (the "
                                "baseline is of another machine: `confirm` measures them on this one) or it could not "
                                "judge cases measured throttled; 130/143 "
                                "interrupted (the finished cases are written, marked incomplete)",
                 .handler = with_request<run_request, run_request_of, run_handler>, .named = false},
    command_spec{.name = "compare", .inputs = "BASELINE.json CURRENT.json", .input_count = 2,
                 .about = "Compares two runs case by case (median change, noise, the Mann-Whitney U test or a learned "
                          "gate's drift) and gives each a verdict.",
                 .exit_status = "0 no regression, 1 at least one regression or a lost case, 2 usage or input error, "
                                "3 no regression but unconfirmed flags (the runs are of different machines: `confirm` "
                                "measures both revisions on one; with --gate-energy, energy flags too, and energy "
                                "changes beyond the gate with too few windows to test) or cases it could not judge "
                                "because a side was measured mostly throttled",
                 .handler = with_request<compare_request, compare_request_of, compare_handler>},
    command_spec{.name = "confirm", .inputs = "BASELINE.json CURRENT.json", .input_count = 2,
                 .about = fmt::format("Compares two runs as compare does; where their machines differ, so that a flag is unconfirmed, "
                          "builds the baseline's revision and the current one (as bisect builds revisions), measures the "
                          "flagged cases in fresh processes alternating between the two on this machine, and settles each "
                          "flag: confirmed by the same flag, reported as it is where the flag measured here is the "
                          "opposite, or the machine's where it measured unchanged (machine differs, with the change "
                          "measured here); a flag it could not settle stays unconfirmed. With --gate-energy, unconfirmed "
                          "energy flags are measured and settled the same way, by their energy verdict here, in 5 "
                          "processes a revision at least (what the energy's rank test needs to flag at alpha 0.01), each of "
                          "one round where energy flags alone are held (a run measures energy in its first round only), "
                          "with energy windows of {:g} s unless --energy-window is passed on.",
                          confirm_energy_window_s),
                 .exit_status = "0 no regression, 1 a confirmed regression (or one measured here) or a lost case, 2 usage "
                                "or input error (also when the revisions cannot be built or measured here, or a run's "
                                "git_revision is not a full commit hash of this repository), 3 flags it could not settle "
                                "(measured inconclusive or throttled here, or a run of a dirty tree)",
                 .handler = with_request<confirm_request, confirm_request_of, confirm_handler>, .passes_rest = true},
    command_spec{.name = "report", .inputs = "RESULT.json", .input_count = 1,
                 .about = "Speedup tables of one run: each variant against its family's reference variants.",
                 .handler = with_request<report_request, report_request_of, report_handler>},
    command_spec{.name = "trend", .inputs = "RESULT_DIR", .input_count = 1,
                 .about = "One line per case over the runs in RESULT_DIR (oldest first), flagging steps that hold to "
                          "the latest runs (a step whose latest runs are back is shown as returned) and each family's "
                          "geomean, over the gated device cases; host-bound and not-gated cases are listed apart, as "
                          "compare gates them only with --host-threshold or, for two runs of one host, a host gate; "
                          "files that cannot be read are named and left out.",
                 .exit_status = "0 the trend is written (a step is shown, never failing), 2 usage or input error",
                 .handler = with_request<trend_request, trend_request_of, trend_handler>},
    command_spec{.name = "gates", .inputs = "RUNS...", .input_count = 1,
                 .about = "Learns each gated device case's gate, the larger of --floor and --k times its drift between "
                          "runs, from runs of one GPU model and preset (files, or directories of them as trend reads); "
                          "compare uses the gates file through --gates, or beside the baseline.",
                 .handler = with_request<gates_request, gates_request_of, gates_handler>, .more_inputs = true},
    command_spec{.name = "bisect", .inputs = "--good=REV --bad=REV --filter=REGEX", .input_count = 0,
                 .about = fmt::format("Finds the commit that made the --filter cases slower: builds revisions of the "
                                      "repository it is started in, each in a worktree apart, runs the binary on them "
                                      "(arguments after -- go to it; default --preset={}) and bisects over the cases "
                                      "the comparison of the two ends flags as regressions.",
                                      bisect_options::suite_preset),
                 .exit_status = "0 the first bad commit found, 1 nothing to bisect (no regression between the ends) or "
                                "no single commit named (skipped revisions, --time-limit), 2 usage or input error",
                 .handler = with_request<bisect_request, bisect_request_of, bisect_handler>, .passes_rest = true},
    command_spec{.name = "fleet", .inputs = "PATH...", .input_count = 1,
                 .about = "Puts runs of different GPU models side by side (result files, or directories of nightly "
                          "results: their latest run and its verdict file): per case each model's median, noise and % "
                          "of its own limit, its ratio to the reference model, its verdict against its own baseline, or"
                          " missing.",
                 .exit_status = "0 written, 1 a model's verdict file says its comparison failed, 2 usage or input error",
                 .handler = with_request<fleet_request, fleet_request_of, fleet_handler>, .more_inputs = true},
    command_spec{.name = "store", .inputs = "baseline|gates|slot|history|runs|latest|learned|place FILE",
                 .input_count = 2,
                 .about = fmt::format("Prints where the run store keeps a file, as the commands and the CI scripts find "
                                      "it: baseline RESULT.json, the stored baseline of its GPU model and preset "
                                      "(<baseline-dir>/<model>/<preset>.json); gates BASELINE.json, the gates file kept "
                                      "beside it (X.json -> {}); slot RESULT.json, its <model>/<preset>; history "
                                      "RESULT.json, its folder of the --history-dir store, and runs, that folder's {}/. "
                                      "Of a results folder DIR (a nightly's, or a history store's <model>/<preset>): "
                                      "runs DIR, its DIR/{}; latest DIR, its newest run (DIR/{}); learned DIR, the gates "
                                      "learned from its runs (DIR/{}). place -: for each NUL-separated path under a "
                                      "history store's top read from standard input, a line KIND FOLDER STAMP (KIND one "
                                      "of model, folder, runs, run, verdict, learned; FOLDER its <model>/<preset>, STAMP "
                                      "a run's or verdict's time, - where none), or outside and the layout ({}).",
                                      run_store::gates_file_beside("X.json"), run_store::runs_folder,
                                      run_store::runs_folder, run_store::latest_run, run_store::learned_gates,
                                      run_store::history_layout()),
                 .exit_status = "0 printed, 2 usage or input error (a file that is no result, a name that is no "
                                "directory, a result of another preset than --of-preset)",
                 .handler = with_request<store_request, store_request_of, store_handler>},
};
// clang-format on

/// The rows in order, as the parser and help take them.
const std::array<const command_spec*, rows.size()> commands = [] {
  std::array<const command_spec*, rows.size()> out{};
  for (std::size_t i = 0; i < rows.size(); ++i) out[i] = &rows[i];
  return out;
}();

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
run_options parse_run_options(const std::vector<std::string>& args) { return parse_command_line("run", args).options; }
std::string command_help(std::string_view name, const help_examples& ex) {
  return command_help(commands, command_named(name), ex);
}
std::string options_reference_markdown() { return options_reference_markdown(commands); }
std::string options_summary_markdown() { return options_summary_markdown(commands); }

file_command_guard::file_command_guard(const std::vector<std::string>& inputs, std::string_view name)
    : at_once_(fmt::format("{} {}", program_name(), name)) {
  refuse_standard_input_twice(inputs);
}

void refuse_standard_input_twice(const std::vector<std::string>& inputs) {
  if (std::count(inputs.begin(), inputs.end(), "-") > 1)
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
    const std::string meant = closest_command(commands, name);
    fmt::print(stderr, "{}: {} (see {} --help)\n", program_name(),
               name.empty() ? "expected " + command_names(commands, "or")
               : meant.empty()
                   ? fmt::format("unknown command '{}': expected {}", printable(name), command_names(commands, "or"))
                   : fmt::format("unknown command '{}': did you mean {}?", printable(name), meant),
               program_title());
    return 2;
  }
  return run_command_line(*cmd, std::vector<std::string>(args.begin() + 1, args.end()), argv);
}
}  // namespace

int report_main(int argc, char** argv) {
  if (argc > 0) name_program_from(argv[0]);  // cudabench-report, or ./run_bench where the script starts it
  const std::string who = program_name();
  return with_checked_stdout(who.c_str(), report_command, argc, argv);
}

// The public name (cudabench/main.hpp) of what a project calls to name its program.
void name_program(std::string_view name) { cli::name_program_as(name); }

}  // namespace cudabench::app
