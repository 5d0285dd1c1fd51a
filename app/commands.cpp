// The compare, report, trend, gates, fleet and bisect commands, and the comparison step of a run.
#include "app/commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <future>
#include <optional>
#include <set>

#include "app/bisect.hpp"
#include "io/child_process.hpp"
#include "cli/option_table.hpp"
#include "cli/program_name.hpp"
#include "app/results_output.hpp"
#include "io/format.hpp"
#include "analysis/gates.hpp"
#include "io/output_sink.hpp"
#include "reports/escape.hpp"
#include "reports/fleet.hpp"
#include "reports/trend.hpp"
#include "reports/writer.hpp"

namespace cudabench::app {

namespace {
/// The gates file beside a baseline, when there is one.
std::shared_ptr<const gate_table> gates_beside(const std::string& baseline) {
  const std::string path = gates_file_beside(baseline);
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return nullptr;
  return std::make_shared<const gate_table>(load_gates(path));
}
}  // namespace

compare_settings compare_settings_from(const run_options& o) {
  compare_settings s;
  if (o.gates_path && *o.gates_path == "none") s.gates_beside_baseline = false;
  else if (o.gates_path) s.gates = std::make_shared<const gate_table>(load_gates(*o.gates_path));
  if (o.threshold_pct) s.threshold = *o.threshold_pct / 100;
  if (o.alpha) s.alpha = *o.alpha;
  if (o.host_threshold_pct) s.host_threshold = *o.host_threshold_pct / 100;
  if (o.noise_floor) s.noise_floor = *o.noise_floor;
  s.allow_device_mismatch = o.allow_device_mismatch;
  s.allow_build_mismatch = o.allow_build_mismatch;
  s.allow_preset_mismatch = o.allow_preset_mismatch;
  return s;
}

int compare_and_report(const run_result& base, const run_result& cur, const compare_settings& s, const output_list& outputs,
                       comparison* out) {
  compare_settings with = s;
  if (!with.gates && with.gates_beside_baseline) with.gates = gates_beside(base.source);
  const comparison c = compare_runs(base, cur, with);
  outputs.writers().write_comparison(c, cur);
  if (out) *out = c;
  return c.failing() ? 1 : 0;
}

std::string baseline_file_for(const device_info& d, const std::string& preset, const std::string& dir) {
  return fmt::format("{}/{}/{}.json", dir, d.model_slug(), preset);
}

std::string resolve_baseline(const std::string& spec, const device_info& d, const std::string& preset, const std::string& dir) {
  if (spec != "auto") return spec;
  std::string path = baseline_file_for(d, preset, dir);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw input_error(fmt::format("{}: no stored baseline for {} / {} (store one with --save-baseline)", path,
                                  d.available ? d.name : "no GPU", preset));
  return path;
}

namespace {
/// A trend reads every .json file of its directory: one of its outputs there would be read by the next trend.
void refuse_outputs_among_trend_inputs(const run_options& o, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path where = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  for (const auto& [option, path] : {std::pair{"--html", &o.html_path}}) {
    if (!*path || descriptor_named(**path)) continue;
    const fs::path target = fs::weakly_canonical(fs::absolute(final_target(**path), ec), ec);
    if (target.extension() == ".json" && target.parent_path() == where)
      throw usage_error(fmt::format("{} {} is a .json file in the trend directory {}: refused, the next trend would read it as a run",
                                    option, **path, dir));
  }
}

/// The runs `gates` reads: each file as given (unreadable: input_error), and each directory's runs as trend reads
/// them (unreadable: named on standard error and left out). A file named twice (itself and in its directory,
/// or through a link) is read once: a run paired with itself would pull the drift down.
std::vector<run_result> gates_runs(const std::vector<std::string>& inputs, const std::string& out) {
  namespace fs = std::filesystem;
  std::vector<run_result> runs;
  std::vector<std::string> files;
  std::set<std::string> seen;
  auto first_time = [&](const std::string& f) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(f, ec);
    return seen.insert(ec ? f : canonical.string()).second;
  };
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      files.push_back(in);
      if (first_time(in)) runs.push_back(load_run(in));
      continue;
    }
    const std::vector<std::string> found = reports::trend_inputs(in);
    for (const std::string& f : found) {
      files.push_back(f);
      if (!first_time(f)) continue;
      try {
        runs.push_back(load_run(f));
      } catch (const input_error& e) {
        fmt::print(stderr, "{} gates: left out: {}\n", program_name(), printable(e.what()));
      }
    }
    if (found.empty()) throw input_error(in + ": holds no .json results");
  }
  check_distinct_outputs({{"--out", out}}, files);
  return runs;
}

/// `gates RUNS... --out FILE`: learns the gates and writes the file, then says what it learned.
int gates_command(const run_options& o, const std::vector<std::string>& inputs) {
  if (!o.gates_out) throw usage_error("gates needs --out FILE: where the gates file is written");
  const output_sink sink(*o.gates_out);
  sink.check();
  gate_settings gs;
  if (o.gate_floor_pct) gs.floor = *o.gate_floor_pct / 100;
  if (o.gate_k) gs.k = *o.gate_k;
  if (o.gate_min_runs) gs.min_runs = std::size_t(*o.gate_min_runs);
  const gate_table t = learn_gates(gates_runs(inputs, *o.gates_out), gs);
  std::optional<standard_output_aside> aside;
  if (sink.is_standard_output()) aside.emplace();
  sink.write(gates_json(t));
  std::size_t own_drift = 0;  // cases with enough pairs of one board for a drift of their own
  for (const auto& [name, g] : t.cases) own_drift += g.same_board_gate > 0;
  const std::size_t boards = t.boards().size();
  fmt::print("gates: {}: {} case(s) learned from {} run(s) of {} on {} board(s) (preset {}; floor {:.1f}%, k {:g}, at least {} runs a "
             "case; {} with a drift of one board of their own)\n",
             printable(*o.gates_out), t.cases.size(), t.runs.size(), printable(t.device),
             boards ? std::to_string(boards) : "unrecorded", printable(t.preset), 100 * gs.floor, gs.k, gs.min_runs, own_drift);
  return 0;
}

/// `fleet PATH...`: the runs side by side, to the terminal and every requested file; 1 when a model's verdict
/// file says its comparison failed.
int fleet_command(const run_options& o, const std::vector<std::string>& inputs) {
  output_list outputs = report_outputs(o, "--verdict");
  outputs.add("--json", o.json_path, reports::fleet_json_writer());
  outputs.check(inputs);
  std::vector<reports::fleet_member> members = reports::fleet_members(inputs);
  // A directory stands for the run and verdict files in it, which an output must not overwrite either.
  std::vector<std::string> read = inputs;
  for (const reports::fleet_member& m : members) {
    read.push_back(m.source);
    if (!m.verdict_source.empty()) read.push_back(m.verdict_source);
  }
  outputs.check_distinct(read);
  const reports::fleet f = reports::build_fleet(std::move(members), o.reference);
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  outputs.writers().write_fleet(f);
  return f.failing() ? 1 : 0;
}

/// compare, report, trend, gates or fleet over a parsed command line. Every output of the command is checked before any
/// input is read; with one on standard output ("-"), the terminal text goes to standard error.
int run_report_command(command cmd, const command_line& cl) {
  const std::string name(command_info(cmd).name);
  const run_options& o = cl.options;
  const std::vector<std::string>& inputs = cl.inputs;
  const stop_at_once at_once(program_name() + " " + name);  // nothing here can stop after a step: a signal ends it
  try {
    if (std::count(inputs.begin(), inputs.end(), "-") > 1)
      throw usage_error("standard input (-) is named more than once: it can be read once, give the others as files");
    if (cmd == command::gates) return gates_command(o, inputs);
    if (cmd == command::fleet) return fleet_command(o, inputs);
    std::unique_ptr<reports::writer> terminal;  // a dashboard export goes to standard output in place of the tables
    if (cmd == command::report && o.format == "gab") terminal = reports::gab_writer();
    if (cmd == command::report && o.format == "bmf") terminal = reports::bmf_writer();
    const output_list outputs = report_outputs(o, "--verdict", std::move(terminal));
    outputs.check(cmd == command::trend    ? reports::trend_inputs(inputs[0])
                  : cmd == command::compare ? files_read(o, inputs, inputs[0])
                                            : inputs);
    if (cmd == command::trend) refuse_outputs_among_trend_inputs(o, inputs[0]);
    std::optional<standard_output_aside> aside;
    if (outputs.uses_standard_output()) aside.emplace();
    if (cmd == command::compare) {
      // The two files are read at once (the readers share nothing), so large files take the time of one;
      // the baseline's problem is still the one named when both have one.
      auto reading_base = std::async(std::launch::async, [&] { return load_run(inputs[0]); });
      std::optional<run_result> cur;
      std::exception_ptr cur_problem;
      try {
        cur = load_run(inputs[1]);
      } catch (...) {
        cur_problem = std::current_exception();
      }
      const run_result base = reading_base.get();
      if (cur_problem) std::rethrow_exception(cur_problem);
      return compare_and_report(base, *cur, compare_settings_from(o), outputs);
    }
    if (cmd == command::report) {
      outputs.writers().write_run(load_run(inputs[0]));
      return 0;
    }
    const double threshold = o.threshold_pct ? *o.threshold_pct / 100 : 0.05;
    outputs.writers().write_trend(reports::build_trend(inputs[0], threshold, o.hold, o.allow_device_mismatch));
    return 0;
  } catch (const usage_error& e) {
    fmt::print(stderr, "{} {}: {}\n", program_name(), name, printable(e.what()));
    return 2;
  } catch (const input_error& e) {
    fmt::print(stderr, "{} {}: {}\n", program_name(), name, printable(e.what()));
    return 2;
  }
}

int run_bisect_command(const command_line& cl, const std::vector<std::string>& binary_args) {
  try {
    return bisect_command(cl.options, binary_args);
  } catch (const usage_error& e) {
    fmt::print(stderr, "{} bisect: {} (see {} bisect --help)\n", program_name(), printable(e.what()), program_title());
    return 2;
  } catch (const input_error& e) {
    fmt::print(stderr, "{} bisect: {}\n", program_name(), printable(e.what()));
    return 2;
  }
}

int report_command(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string name = args.empty() ? "" : args[0];
  if (name == "-h" || name == "--help") {
    fmt::print("{}", commands_overview());
    return 0;
  }
  const std::optional<command> cmd = command_by_name(name);
  if (!cmd) {
    fmt::print(stderr, "{}: {} (see {} --help)\n", program_name(),
               name.empty() ? "expected " + command_names("or")
                            : fmt::format("unknown command '{}': expected {}", printable(name), command_names("or")),
               program_title());
    return 2;
  }
  // bisect passes what follows -- to the benchmark binary it runs
  std::vector<std::string> own(args.begin() + 1, args.end()), binary_args;
  if (const auto dashes = std::find(own.begin(), own.end(), "--"); *cmd == command::bisect && dashes != own.end()) {
    binary_args.assign(dashes + 1, own.end());
    own.erase(dashes, own.end());
  }
  command_line cl;
  try {
    cl = parse_command_line(*cmd, own);
  } catch (const usage_error& e) {
    fmt::print(stderr, "{} {}: {} (see {} {} --help)\n", program_name(), name, printable(e.what()), program_title(), name);
    return 2;
  }
  if (cl.options.help) {  // examples from this binary's families (bisect's --filter), as the runner's --help
    fmt::print("{}", command_help(*cmd, program_help_examples(run_options{}.preset)));
    return 0;
  }
  if (*cmd == command::bisect) return run_bisect_command(cl, binary_args);
  return run_report_command(*cmd, cl);
}

}  // namespace

int report_main(int argc, char** argv) {
  const std::string who = program_name();
  return with_checked_stdout(who.c_str(), report_command, argc, argv);
}

}  // namespace cudabench::app
