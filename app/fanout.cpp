// One child process per device (this binary again, for one device), then the merge.
#include "app/fanout.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "app/outputs.hpp"
#include "app/results_output.hpp"
#include "app/rounds.hpp"
#include "cli/program_name.hpp"
#include "io/atomic_file.hpp"
#include "io/child_process.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "io/output_sink.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"

namespace cudabench::app {

using namespace cudabench::cli;  // the command line (cli/) is the commands' own
namespace {
/// The per-device processes, started in order; each one's output goes to its log in `dir`.
struct device_processes {
  std::vector<int> ordinals;
  std::vector<child_process> children;  ///< children[i] runs device ordinals[i]
};

std::string json_of(const std::string& dir, int d) { return fmt::format("{}/dev{}.json", dir, d); }
std::string log_of(const std::string& dir, int d) { return fmt::format("{}/dev{}.log", dir, d); }

/// Starts one process per device (none after a stop signal); a process that cannot start ends the run, and
/// the ones already started with it.
device_processes start_devices(const std::vector<int>& devices, const std::vector<std::string>& args,
                               const std::string& dir) {
  device_processes out;
  const std::string self = this_program();
  const std::vector<std::string> environment = inherited_environment("");
  for (int d : devices) {
    if (interrupt_signal().load()) break;
    child_spec spec;
    spec.argv = child_arguments(args, d, json_of(dir, d));
    spec.argv.insert(spec.argv.begin(), self);
    spec.environment = environment;
    spec.output_path = log_of(dir, d);
    try {
      out.children.emplace_back(spec);
    } catch (const input_error& e) { throw input_error(fmt::format("--devices: device {}: {}", d, e.what())); }
    out.ordinals.push_back(d);
    fmt::print("device {}: started (log {})\n", d, *spec.output_path);
  }
  std::fflush(stdout);
  return out;
}

/// What device `d`'s process left, given its exit status.
device_run result_of(const std::string& dir, int d, int status) {
  device_run run;
  run.ordinal = d;
  const std::string json = json_of(dir, d);
  std::error_code ec;
  if (std::filesystem::exists(json, ec)) {
    try {
      run.result = load_run(json, summaries::left_to_assembly);  // merge_device_runs summarizes
    } catch (const input_error& e) { run.problem = fmt::format("its results cannot be read: {}", e.what()); }
  } else {
    run.problem =
        WIFEXITED(status) ? fmt::format("exit status {} and no result", WEXITSTATUS(status)) : "the process was killed";
  }
  return run;
}

/// Waits for every device's process, saying each one's end as it comes; the runs in ordinal order, and the
/// worst exit status (1 for a process killed by a signal).
std::vector<device_run> wait_for_devices(device_processes& p, const std::string& dir, int& worst) {
  std::vector<device_run> runs;
  while (const std::optional<std::size_t> i = wait_any(p.children)) {
    const int d = p.ordinals[*i], status = *p.children[*i].status();
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    worst = std::max(worst, code);
    runs.push_back(result_of(dir, d, status));
    const std::string last = log_tail(log_of(dir, d));
    fmt::print("device {}: exit {}: {}\n", d, code, last.empty() ? "no output" : last);
    std::fflush(stdout);
  }
  std::sort(runs.begin(), runs.end(), [](auto& a, auto& b) { return a.ordinal < b.ordinal; });
  return runs;
}

}  // namespace

/// What a fan-out cannot do, refused before any device starts: each device writes its own report files (with
/// a .devN suffix), so none of them can be standard output; a stored baseline is one device's run; the merged
/// --json must not overwrite the baseline the devices compare with. Returns the merged run's outputs, checked.
output_list check_fanout_outputs(const run_plan& plan) {
  const run_outputs& files = plan.files;
  if (plan.baseline.save)
    throw usage_error("--save-baseline stores the run of one device: give --device=N instead of --devices");
  if (files.benchmark_csv_path)
    throw usage_error(
        "Google Benchmark's CSV (--benchmark_out_format=csv, --benchmark_format=csv) holds one device's run: "
        "give --json for the merged results, or --device=N");
  if (files.console_out_path)
    throw usage_error(
        "--benchmark_out_format=console: the table is one device's run: give --json for the merged results, "
        "or --device=N");
  std::vector<std::pair<std::string_view, std::optional<std::string>>> named{{"--verdict", files.verdict_path},
                                                                             {"--trace", files.trace_path}};
  for (const reports::report_format& f : reports::report_formats())
    named.emplace_back(f.option, report_path(files, f.option));
  for (const reports::live_format& f : reports::live_formats()) named.emplace_back(f.option, files.live_path(f.option));
  for (const auto& [option, path] : named)
    if (is_stdout(path))
      throw usage_error(fmt::format(
          "{} - with --devices: each device writes its own {} file (NAME.devN); give a file name", option, option));
  output_list merged;
  add_results_json(merged, files, "merged results");
  const std::optional<std::string>& compare_to = plan.baseline.compare_to;
  const bool named_baseline = compare_to && *compare_to != "auto";
  merged.check(named_baseline ? files_read(plan.comparison, {*compare_to}, *compare_to)
                              : files_read(plan.comparison, {}));
  return merged;
}

int run_on_devices(const run_plan& plan, int visible) {
  const std::vector<int> devices = parse_device_list(*plan.devices, visible);
  output_list merged_out = check_fanout_outputs(plan);
  const run_outputs& files = plan.files;
  std::optional<standard_output_aside> aside;  // --json -: the merged document alone on standard output
  if (is_stdout(files.json_path) || is_stdout(files.json_copy_path)) aside.emplace();
  const std::string dir = make_temp_directory("cudabench-devices");

  install_stop_signals();  // ^C: each device's run stops after its current sample and writes what it finished
  // Every device runs its rounds in the same orders: one seed for all (recorded in each device's results).
  std::vector<std::string> device_args = plan.args;
  if (!plan.shuffle_seed) device_args.push_back(fmt::format("--shuffle-seed={}", fresh_shuffle_seed()));
  device_processes processes = start_devices(devices, device_args, dir);
  int worst = 0;
  std::vector<device_run> runs = wait_for_devices(processes, dir, worst);
  const int sig = interrupt_signal().load();
  std::size_t finished = 0;  // with a signal, each device wrote the cases it finished (marked incomplete)
  for (const device_run& r : runs)
    if (r.result) finished += r.result->cases.size();
  const bool wanted = files.json_path.has_value();
  run_result merged = wanted && (finished > 0 || !sig) ? merge_device_runs(std::move(runs)) : run_result();
  if (sig) {
    merged.mark_incomplete(signal_name(sig));
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return finish_interrupted(sig, merged, merged_out, files.json_path, "", "the finished cases of each device are");
  }
  merged_out.end_together({.run = &merged});
  if (worst == 0) {  // every device's log and results are in the merge; a failing device's stay to be read
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  } else {
    fmt::print("per-device logs and results: {}\n", dir);
  }
  return worst;
}

int run_on_devices(const run_plan& plan) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  return run_on_devices(plan, count);
}

}  // namespace cudabench::app
