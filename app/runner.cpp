// The runner: parse, select cases, register them with Google Benchmark, run, write the results, compare.
#include "cudabench/main.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <set>
#include <cmath>
#include <filesystem>
#include <optional>
#include <iostream>
#include <regex>

#include "app/commands.hpp"
#include "app/fanout.hpp"
#include "app/option_table.hpp"
#include "app/options.hpp"
#include "app/outputs.hpp"
#include "app/results_output.hpp"
#include "app/supervisor.hpp"
#include "app/table_reporter.hpp"
#include "cudabench/registry.hpp"
#include "harness/atomic_file.hpp"
#include "harness/output_sink.hpp"
#include "harness/device_query.hpp"
#include "harness/interrupt.hpp"
#include "harness/measure.hpp"
#include "harness/results.hpp"
#include "harness/results_json.hpp"
#include "harness/run_info.hpp"
#include "harness/trace_recorder.hpp"
#include "reports/escape.hpp"

namespace cudabench::app {
namespace {

std::vector<const case_def*> select_cases(const suite& s, const std::string& filter) {
  // Google Benchmark's convention: a leading '-' negates the filter.
  const bool negate = !filter.empty() && filter[0] == '-';
  const std::regex re = user_regex(negate ? filter.substr(1) : filter, "--filter");
  std::vector<const case_def*> out;
  for (const auto& c : s.cases)
    if (std::regex_search(c.name(), re) != negate) out.push_back(&c);
  return out;
}

/// Before each case, "[i/N] name (about T left)" on standard error: T from the time the finished cases took.
class progress_meter {
 public:
  /// `before`: cases an earlier process of the same run already finished (they count, but not in the estimate).
  progress_meter(std::size_t total, bool quiet, std::size_t before = 0)
      : total_(total), index_(before), first_(before), quiet_(quiet), start_(std::chrono::steady_clock::now()) {}
  void starting(const std::string& name) {
    if (quiet_ || name == current_) return;  // later repetitions of the same case
    current_ = name;
    ++index_;
    std::string eta;
    if (index_ > first_ + 1) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      const double left = elapsed / double(index_ - first_ - 1) * double(total_ - index_ + 1);
      eta = left >= 60 ? fmt::format(" (about {:.0f} min {:02.0f} s left)", std::floor(left / 60), std::fmod(left, 60))
                       : fmt::format(" (about {:.0f} s left)", std::ceil(left));
    }
    fmt::print(stderr, "[{}/{}] {}{}\n", index_, total_, name, eta);
    std::fflush(stderr);
  }
 private:
  std::size_t total_, index_, first_;
  bool quiet_;
  std::chrono::steady_clock::time_point start_;
  std::string current_;
};

/// The recorded timeline with the device's name, and why it holds no device activity where it holds none.
const trace_log& finished_trace(trace_recorder& tracer, const device_info& dev) {
  trace_log& log = tracer.log();
  if (dev.available) log.device_names[dev.ordinal] = dev.name;
  if (!dev.available) log.note = "no GPU: " + dev.unavailable_reason;
  else if (!tracer.device_problem().empty()) log.note = tracer.device_problem();
  else if (log.ops.empty()) log.note = "no GPU case was traced";
  return log;
}

/// Writes a Chrome trace (chrome_trace's shape) and says what it holds: the traced cases, the GPU operations
/// (every event outside the host's process, 0 in each worker's numbering), or why there is no device activity.
void write_trace_file(const nlohmann::ordered_json& trace, const std::string& path) {
  output_sink(path).write(trace.dump(1) + "\n");
  std::size_t cases = 0, ops = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e.value("ph", std::string()) != "X") continue;
    cases += e.value("cat", std::string()) == "stage" && e.value("name", std::string()) == phase_name(phase::trace);
    ops += e.value("pid", 0) % 1000 != 0;
  }
  const std::string shown = reports::terminal_text(path);
  const std::string activity = trace.contains("otherData") ? trace["otherData"].value("device_activity", std::string()) : "";
  if (activity.rfind("none: ", 0) == 0)
    fmt::print("trace: {} ({} traced case(s); no device activity recorded: {})\n", shown, cases, activity.substr(6));
  else
    fmt::print("trace: {} ({} traced case(s), {} GPU operations; open in https://ui.perfetto.dev or chrome://tracing)\n", shown, cases, ops);
}

}  // namespace

namespace {

/// The limits the run's cases are shown against ("% of limit"): those the run measured itself, else those of
/// the stored baseline of this GPU model (this preset's, else nightly's, else quick's), said either way.
void attach_limits(run_result& run, const device_info& dev, const std::string& preset_name, const std::string& dir) {
  std::map<std::string, limit_rate> limits = measured_limits(run);
  std::string source = "this run";
  if (limits.empty() && dev.available) {
    for (const std::string& p : {preset_name, std::string("nightly"), std::string("quick")}) {
      const std::string path = baseline_file_for(dev, p, dir);
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) continue;
      try {
        for (const auto& [name, l] : load_run(path).limits) limits[name] = {l.rate, l.unit};
      } catch (const input_error& e) {
        fmt::print(stderr, "run_bench: limits not taken from {}: {}\n", path, e.what());
      }
      if (!limits.empty()) { source = path; break; }
    }
  }
  if (limits.empty()) {
    if (dev.available) fmt::print("limits: none measured (no limits case ran) and none stored for {}: no % of limit\n", dev.name);
    return;
  }
  apply_limits(run, limits, source);
  if (source != "this run") fmt::print("limits: this run measured none; % of limit uses those of the stored baseline {}\n", source);
}

/// How many cases a run holds as measured, skipped and failed.
struct outcome_counts {
  std::size_t measured = 0, skipped = 0, failed = 0;
  std::size_t total() const { return measured + skipped + failed; }
};
outcome_counts count_outcomes(const run_result& run) {
  outcome_counts n;
  for (const case_result& c : run.cases) {
    if (c.status == case_status::failed) ++n.failed;
    else if (c.status == case_status::skipped) ++n.skipped;
    else ++n.measured;
  }
  return n;
}

/// The cases of one process, run through Google Benchmark: in the runner itself (--watchdog=off) or in a
/// worker that a supervisor started (then `worker` is set: the cases report their start to it, the results
/// are saved after every finished case, and a lost CUDA context ends the worker at once).
struct case_execution {
  nlohmann::ordered_json host_context;
  std::map<std::string, case_result> results;  ///< finished cases only
  std::optional<trace_recorder> tracer;
};

measure_settings measure_settings_from(const run_options& opt, case_execution& out) {
  measure_settings ms;
  if (opt.cache != "declared") ms.cache_override = opt.cache == "hot" ? cache_state::hot : cache_state::cold;
  ms.inject_regex = opt.inject_regex;
  ms.inject_pct = opt.inject_pct;
  ms.hold_stream = !opt.profile && !opt.no_blocking_kernel;
  if (opt.trace_path) ms.tracer = &out.tracer.emplace();
  return ms;
}

/// The body Google Benchmark runs for each repetition of one case, and what is done once the case finished.
class case_body {
 public:
  case_body(case_driver& driver, progress_meter& progress, const preset& p, const device_info& dev, const worker_link* worker,
            std::function<void(const std::set<std::string>&)> save)
      : driver_(driver), progress_(progress), preset_(p), dev_(dev), worker_(worker), save_(std::move(save)) {}

  void run(benchmark::State& st, const case_def& c) {
    const std::string name = c.name();
    if (worker_) {
      if (!saved_once_) { save_(finished_); saved_once_ = true; }
      worker_->starting(name);
    }
    if (!interrupt_signal().load()) progress_.starting(name);  // stopping: the rest are passed over silently
    driver_.run(st, c);
    const auto it = driver_.results().find(name);
    if (it == driver_.results().end() || finished_.count(name)) return;
    const case_result& m = it->second;
    if (m.status == case_status::ok && m.repetitions.size() < std::size_t(preset_.repetitions)) return;
    finished_.insert(name);
    if (!worker_) return;
    save_(finished_);
    if (m.status == case_status::failed && c.on == where::gpu && dev_.available) {
      if (const std::string lost = lost_context_error(); !lost.empty()) {
        // Every later CUDA call of this process would fail: the supervisor goes on in a fresh one.
        std::fflush(stdout);
        std::_Exit(worker_exit_context_lost);
      }
    }
  }
  const std::set<std::string>& finished() const { return finished_; }

 private:
  case_driver& driver_;
  progress_meter& progress_;
  const preset& preset_;
  const device_info& dev_;
  const worker_link* worker_;
  std::function<void(const std::set<std::string>&)> save_;
  std::set<std::string> finished_;
  bool saved_once_ = false;
};

/// The driver's finished cases.
std::map<std::string, case_result> finished_only(const case_driver& driver, const std::set<std::string>& finished) {
  std::map<std::string, case_result> done;
  for (const auto& [name, m] : driver.results())
    if (finished.count(name)) done.emplace(name, m);
  return done;
}

void execute_cases(case_execution& out, const run_options& opt, const preset& p, const suite& s,
                   const std::vector<const case_def*>& selected, const device_info& dev, const run_description& run,
                   const worker_link* worker, char** argv) {
  case_driver driver(dev, p, measure_settings_from(opt, out));
  const std::size_t total = worker ? worker->cases_total() : selected.size(), before = worker ? worker->cases_before() : 0;
  progress_meter progress(total, opt.quiet, before);
  table_reporter display(dev, run.info, total, before);
  auto save = [&](const std::set<std::string>& finished) {  // the worker's results so far: what its supervisor keeps if it dies in the next case
    const run_result so_far = make_run_result(display.host_context(), dev, run, s, selected, finished_only(driver, finished));
    write_file_atomically(worker->results_path(), to_json(so_far).dump(1) + "\n");
  };
  case_body body(driver, progress, p, dev, worker, save);
  for (const case_def* c : selected) {
    auto* b = benchmark::RegisterBenchmark(c->name().c_str(), [&body, c](benchmark::State& st) { body.run(st, *c); });
    b->Iterations(1)->Repetitions(p.repetitions)->UseManualTime()->Unit(benchmark::kMicrosecond);
  }
  // Google Benchmark drives the repetitions; its flags were read by our parser, so it gets none.
  int gb_argc = 1;
  benchmark::Initialize(&gb_argc, argv);
  benchmark::RunSpecifiedBenchmarks(&display);
  benchmark::Shutdown();
  out.host_context = display.host_context();
  out.results = finished_only(driver, body.finished());
}

/// The run a supervisor assembles from its workers: their cases in the order of the selection, and a failed
/// case for each one a worker could not finish (hung, or its process died).
run_result assemble_run(const supervised_run& sr, const device_info& dev, const run_description& run,
                        const suite& s, const std::vector<const case_def*>& selected) {
  std::map<std::string, case_result> cases = sr.cases;
  for (const auto& [name, why] : sr.faulted) {
    case_result& c = cases[name];
    c = case_result{};
    c.status = case_status::failed;
    c.message = why;
  }
  // The worker's device description: it is the process that used the device.
  return make_run_result(sr.host, sr.device ? *sr.device : dev, run, s, selected, cases);
}

/// A worker: runs the cases its supervisor listed, saving its results after each, and exits.
int run_as_worker(const worker_link& worker, const run_options& opt, const preset& p, const suite& s,
                  const std::vector<const case_def*>& selected, const run_description& run, char** argv) {
  const device_info dev = query_device(opt.device);
  case_execution ex;
  execute_cases(ex, opt, p, s, selected, dev, run, &worker, argv);
  run_description finished = run;
  const int sig = interrupt_signal().load();
  if (sig) finished.interrupted_by = sig == SIGINT ? "SIGINT" : "SIGTERM";
  write_file_atomically(worker.results_path(), to_json(make_run_result(ex.host_context, dev, finished, s, selected, ex.results)).dump(1) + "\n");
  if (ex.tracer && !worker.trace_path().empty())
    write_file_atomically(worker.trace_path(), chrome_trace(finished_trace(*ex.tracer, dev)).dump(1) + "\n");
  if (sig) return 128 + sig;
  for (const auto& [name, m] : ex.results)
    if (m.status == case_status::failed) return 1;
  return 0;
}

/// Parses the runner's command line into `opt`; an exit status where the run ends there: --help, the
/// cudabench-run wrapper's --profile-plan, or a usage error (one line).
std::optional<int> read_command_line(const std::vector<std::string>& args, run_options& opt) {
  try {
    opt = parse_run_options(args);
    if (opt.profile_plan) {  // before anything else, --help included: the wrapper execs the binary after it
      const std::string plan = profile_plan(args);
      std::fwrite(plan.data(), 1, plan.size(), stdout);
      return 0;
    }
  } catch (const usage_error& e) {
    fmt::print(stderr, "run_bench: {} (see ./run_bench --help)\n", e.what());
    return 2;
  }
  if (!opt.help) return std::nullopt;
  fmt::print("{}", command_help(command::run));
  return 0;
}

/// Refuses, before anything runs, a baseline that cannot be read or is of another GPU model than this one
/// (unless the settings allow a mismatch).
void check_baseline_device(const std::string& compare_path, const device_info& dev, const compare_settings& cmp) {
  const run_result base = load_run(compare_path);
  const std::string here = dev.available ? dev.name : "no GPU";
  if (!cmp.allow_device_mismatch && !base.device)
    throw input_error(fmt::format("{}: has no device description (context.device), so its GPU cannot be checked against {}; "
                                  "pass --allow-device-mismatch to compare anyway", compare_path, here));
  const std::string there = base.device ? (base.device->available ? base.device->name : "no GPU") : "unknown";
  if (!cmp.allow_device_mismatch && there != here)
    throw input_error(fmt::format("{}: a baseline of {}, and this run is on {}: refused before running; "
                                  "pass --allow-device-mismatch to compare anyway", compare_path, there, here));
}

/// What a run writes and what it compares against.
struct planned_outputs {
  output_list list;  ///< the terminal and the report files, with --json, --save-baseline and --trace named
  std::optional<std::string> json_path, baseline_path, compare_path;
  compare_settings cmp;
};

/// The run's outputs, each refused before the first case runs when it would overwrite an input or another
/// output or cannot be written; the baseline to compare against, refused when it is of another GPU model.
planned_outputs plan_outputs(const run_options& opt, const device_info& dev, const std::string& preset_name) {
  planned_outputs out{report_outputs(opt, "--verdict"), opt.json_path, std::nullopt, std::nullopt, compare_settings_from(opt)};
  if (opt.save_baseline) out.baseline_path = baseline_file_for(dev, preset_name, opt.baseline_dir);
  if (opt.verdict_path && !opt.compare_to) throw usage_error("--verdict is the verdict of a comparison: it needs --compare-to");
  if (opt.compare_to) out.compare_path = resolve_baseline(*opt.compare_to, dev, preset_name, opt.baseline_dir);
  out.list.add_elsewhere("--json", out.json_path);
  out.list.add_elsewhere("--save-baseline", out.baseline_path);
  out.list.add_elsewhere("--trace", opt.trace_path);
  out.list.check_distinct(out.compare_path ? std::vector<std::string>{*out.compare_path} : std::vector<std::string>{});
  if (out.compare_path) check_baseline_device(*out.compare_path, dev, out.cmp);
  if (out.baseline_path) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(*out.baseline_path).parent_path(), ec);
    if (ec) throw input_error(fmt::format("{}: cannot create the baseline directory: {}", *out.baseline_path, ec.message()));
  }
  out.list.check_writable();
  return out;
}

/// The results document to --json (a file or standard output) and --save-baseline, each said; then the
/// comparison, or without one the run's own report, to the terminal and the report files. Returns `status`,
/// or 1 when the comparison found a regression.
int write_outputs(const planned_outputs& out, run_result& current, const std::optional<std::string>& time_unit, int status) {
  if (out.json_path || out.baseline_path) {
    const std::string text = to_json(current, time_unit).dump(2) + "\n";
    if (out.json_path) {
      output_sink(*out.json_path).write(text);
      if (!is_stdout(out.json_path)) fmt::print("results: {}\n", reports::terminal_text(*out.json_path));
    }
    if (out.baseline_path) {
      output_sink(*out.baseline_path).write(text);
      fmt::print("baseline saved: {}\n", reports::terminal_text(*out.baseline_path));
    }
  }
  if (!out.compare_path && !out.list.has_report_files()) return status;
  if (out.json_path && !is_stdout(out.json_path)) current.source = *out.json_path;
  if (!out.compare_path) {
    out.list.writers().write_run(current);
    return status;
  }
  return std::max(status, compare_and_report(load_run(*out.compare_path), current, out.cmp, out.list));
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  run_options opt;
  if (const std::optional<int> done = read_command_line(args, opt)) return *done;
  try {
    const std::optional<worker_link> worker = worker_link::from_environment();
    if (opt.devices && !opt.list && !worker) return run_on_devices(opt, args);
    preset p = preset_by_name(opt.preset);
    if (opt.repetitions) p.repetitions = *opt.repetitions;
    if (opt.profile) {  // a profile wants a few clean runs, not thousands
      p.repetitions = 1;
      p.sampling = {.min_samples = 3, .min_time_s = 0, .max_time_s = 2.0, .target_noise = 1, .warmup_s = 0};
    }
    if (opt.min_time_s) {
      p.sampling.min_time_s = *opt.min_time_s;
      p.sampling.max_time_s = std::max(p.sampling.max_time_s, *opt.min_time_s);
    }
    if (opt.warmup_s) p.sampling.warmup_s = *opt.warmup_s;
    p.sizes = opt.sizes;
    p.axes = opt.axes;
    const suite s = build_suite(p);
    std::vector<const case_def*> selected = select_cases(s, opt.filter);
    if (worker) {  // exactly the cases the supervisor listed
      const std::vector<std::string> names = worker->cases();
      const std::set<std::string> wanted(names.begin(), names.end());
      std::erase_if(selected, [&](const case_def* c) { return !wanted.count(c->name()); });
    }
    if (selected.empty()) {
      fmt::print(stderr, "run_bench: no case matches --filter={} (see --list)\n", opt.filter);
      return 2;
    }
    if (opt.list) {
      if (opt.list_names_only) {  // as Google Benchmark's --benchmark_list_tests prints them
        for (const case_def* c : selected) fmt::print("{}\n", c->name());
        return 0;
      }
      for (const case_def* c : selected)
        fmt::print("{:<44} {}{}{}{}\n", c->name(), c->on == where::gpu ? "gpu" : "cpu",
                   c->on == where::gpu && c->cache == cache_state::cold ? " cold-L2" : "",
                   c->on == where::cpu || c->host_bound ? " host-bound" : "", c->gated ? "" : " not-gated");
      return 0;
    }
    run_description run;
    run.info = collect_run_info(p.name, p.repetitions);
    run.cache = opt.cache;
    if (opt.inject_regex) run.injected = fmt::format("{}:{:g}", *opt.inject_regex, opt.inject_pct);
    if (worker) {
      install_stop_signals();
      return run_as_worker(*worker, opt, p, s, selected, run, argv);
    }
    const bool supervised = opt.watchdog_s > 0;
    // A supervisor only describes the device; its workers create the contexts.
    const device_info dev = query_device(opt.device, !supervised);

    // Everything that can be refused is refused before the first case runs.
    const planned_outputs out = plan_outputs(opt, dev, p.name);
    const std::optional<std::string>& json_path = out.json_path;

    std::optional<standard_output_aside> aside;  // an output on standard output ("-") stands there alone
    if (out.list.uses_standard_output()) aside.emplace();

    // The cases run, in worker processes under a watchdog or here; either way the run's results come back.
    std::function<run_result(const run_description&)> results;
    case_execution here;
    supervised_run sr;
    if (supervised) {
      std::vector<std::string> names;
      for (const case_def* c : selected) names.push_back(c->name());
      sr = supervise(args, names, opt.watchdog_s, opt.trace_path.has_value());
      results = [&](const run_description& r) { return assemble_run(sr, dev, r, s, selected); };
    } else {
      install_stop_signals();
      execute_cases(here, opt, p, s, selected, dev, run, nullptr, argv);
      results = [&](const run_description& r) { return make_run_result(here.host_context, dev, r, s, selected, here.results); };
    }

    if (const int sig = interrupt_signal().load()) {
      // Stopped early: the finished cases go to --json marked incomplete (nothing else: no comparison, no
      // baseline, no reports); with none finished, an existing file is left as it was.
      const char* signal_name = sig == SIGINT ? "SIGINT" : "SIGTERM";
      run.interrupted_by = signal_name;
      const run_result partial = results(run);
      const std::size_t finished = count_outcomes(partial).total();
      std::string where = "nothing written";
      if (json_path && finished > 0) {
        output_sink(*json_path).write(to_json(partial, opt.time_unit).dump(2) + "\n");
        where = fmt::format("the finished ones are in {} (marked incomplete)", *json_path);
      } else if (json_path) {
        where = fmt::format("{} left as it was", *json_path);
      }
      fmt::print(stderr, "\nrun_bench: interrupted by {} after {} of {} case(s); {}\n", signal_name, finished, selected.size(), where);
      return 128 + sig;
    }

    run_result current = results(run);
    attach_limits(current, dev, p.name, opt.baseline_dir);
    const outcome_counts n = count_outcomes(current);
    fmt::print("\n{} case(s): {} measured, {} skipped, {} failed\n", selected.size(), n.measured, n.skipped, n.failed);
    if (opt.trace_path) {
      trace_log none;
      none.note = "no worker process wrote a timeline";
      write_trace_file(!supervised ? chrome_trace(finished_trace(*here.tracer, dev)) : sr.trace.is_null() ? chrome_trace(none) : sr.trace,
                       *opt.trace_path);
    }

    return write_outputs(out, current, opt.time_unit, n.failed ? 1 : 0);
  } catch (const worker_failed& e) {
    return e.status();
  } catch (const usage_error& e) {
    fmt::print(stderr, "run_bench: {}\n", e.what());
    return 2;
  } catch (const input_error& e) {
    fmt::print(stderr, "run_bench: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "run_bench: {}\n", e.what());
    return 1;
  }
}

}  // namespace

int run_main(int argc, char** argv) { return with_checked_stdout("run_bench", run, argc, argv); }

}  // namespace cudabench::app
