// The runner: parse, select cases, register them with Google Benchmark, run, write the results, compare.
#include "cudabench/main.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <signal.h>

#include <chrono>
#include <functional>
#include <set>
#include <cmath>
#include <filesystem>
#include <optional>
#include <iostream>
#include <regex>

#include "app/commands.hpp"
#include "app/fanout.hpp"
#include "app/options.hpp"
#include "app/results_output.hpp"
#include "app/supervisor.hpp"
#include "app/table_reporter.hpp"
#include "reports/csv.hpp"
#include "cudabench/registry.hpp"
#include "harness/atomic_file.hpp"
#include "harness/device_query.hpp"
#include "harness/interrupt.hpp"
#include "harness/measure.hpp"
#include "harness/results.hpp"
#include "harness/results_json.hpp"
#include "harness/run_info.hpp"
#include "harness/trace_recorder.hpp"

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
  write_file_atomically(path, trace.dump(1) + "\n");
  std::size_t cases = 0, ops = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e.value("ph", std::string()) != "X") continue;
    cases += e.value("cat", std::string()) == "stage" && e.value("name", std::string()) == phase_name(phase::trace);
    ops += e.value("pid", 0) % 1000 != 0;
  }
  const std::string activity = trace.contains("otherData") ? trace["otherData"].value("device_activity", std::string()) : "";
  if (activity.rfind("none: ", 0) == 0)
    fmt::print("trace: {} ({} traced case(s); no device activity recorded: {})\n", path, cases, activity.substr(6));
  else
    fmt::print("trace: {} ({} traced case(s), {} GPU operations; open in https://ui.perfetto.dev or chrome://tracing)\n", path, cases, ops);
}

}  // namespace

namespace {

/// The limits the run's cases are shown against ("% of limit"): those the run measured itself, else those of
/// the stored baseline of this GPU model (this preset's, else nightly's, else quick's), said either way.
void attach_limits(nlohmann::ordered_json& doc, const device_info& dev, const std::string& preset_name, const std::string& dir) {
  std::map<std::string, limit_rate> limits = measured_limits(doc);
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
  apply_limits(doc, limits, source);
  if (source != "this run") fmt::print("limits: this run measured none; % of limit uses those of the stored baseline {}\n", source);
}

/// How many selected cases a results document holds as measured, skipped and failed (by each case's first row).
struct outcome_counts {
  std::size_t measured = 0, skipped = 0, failed = 0;
};
outcome_counts count_outcomes(const nlohmann::ordered_json& doc) {
  outcome_counts n;
  std::set<std::string> seen;
  for (const auto& row : doc["benchmarks"]) {
    if (!seen.insert(row.value("run_name", std::string())).second) continue;
    if (row.value("error_occurred", false)) ++n.failed;
    else if (row.value("skipped", false)) ++n.skipped;
    else ++n.measured;
  }
  return n;
}

/// The cases of one process, run through Google Benchmark: in the runner itself (--watchdog=off) or in a
/// worker that a supervisor started (then `worker` is set: the cases report their start to it, the results
/// are saved after every finished case, and a lost CUDA context ends the worker at once).
struct case_execution {
  nlohmann::ordered_json host_context;
  std::map<std::string, measured_case> results;  ///< finished cases only
  std::optional<trace_recorder> tracer;
};

void execute_cases(case_execution& out, const run_options& opt, const preset& p, const suite& s,
                   const std::vector<const case_def*>& selected, const device_info& dev, const run_description& run,
                   const worker_link* worker, char** argv) {
  measure_settings ms;
  if (opt.cache != "declared") ms.cache_override = opt.cache == "hot" ? cache_state::hot : cache_state::cold;
  ms.inject_regex = opt.inject_regex;
  ms.inject_pct = opt.inject_pct;
  ms.hold_stream = !opt.profile && !opt.no_blocking_kernel;
  if (opt.trace_path) ms.tracer = &out.tracer.emplace();
  case_driver driver(dev, p, ms);
  progress_meter progress(worker ? worker->cases_total() : selected.size(), opt.quiet, worker ? worker->cases_before() : 0);
  table_reporter display(dev, run.info, worker ? worker->cases_total() : selected.size(), driver.results(),
                         worker ? worker->cases_before() : 0);
  std::set<std::string> finished;
  auto finished_results = [&] {
    std::map<std::string, measured_case> done;
    for (const auto& [name, m] : driver.results())
      if (finished.count(name)) done.emplace(name, m);
    return done;
  };
  auto save = [&] {  // the worker's results so far: what its supervisor keeps if it dies in the next case
    write_file_atomically(worker->results_path(),
                          results_document(display.host_context(), dev, run, s, selected, finished_results()).dump(1) + "\n");
  };
  bool saved_once = false;
  for (const case_def* c : selected) {
    auto* b = benchmark::RegisterBenchmark(c->name().c_str(), [&, c](benchmark::State& st) {
      const std::string name = c->name();
      if (worker) {
        if (!saved_once) { save(); saved_once = true; }
        worker->starting(name);
      }
      if (!interrupt_signal().load()) progress.starting(name);  // stopping: the rest are passed over silently
      driver.run(st, *c);
      const auto it = driver.results().find(name);
      if (it == driver.results().end() || finished.count(name)) return;
      const measured_case& m = it->second;
      if (m.outcome == case_outcome::passed && m.repetitions.size() < std::size_t(p.repetitions)) return;
      finished.insert(name);
      if (!worker) return;
      save();
      if (m.outcome == case_outcome::failed && c->on == where::gpu && dev.available) {
        if (const std::string lost = lost_context_error(); !lost.empty()) {
          // Every later CUDA call of this process would fail: the supervisor goes on in a fresh one.
          std::fflush(stdout);
          std::_Exit(worker_exit_context_lost);
        }
      }
    });
    b->Iterations(1)->Repetitions(p.repetitions)->UseManualTime()->Unit(benchmark::kMicrosecond);
  }
  // Google Benchmark drives the repetitions; its flags were read by our parser, so it gets none.
  int gb_argc = 1;
  benchmark::Initialize(&gb_argc, argv);
  benchmark::RunSpecifiedBenchmarks(&display);
  benchmark::Shutdown();
  out.host_context = display.host_context();
  out.results = finished_results();
}

/// The rows the workers wrote, in the order of the selection (family_index renumbered to it), and a failed
/// row for each case a worker could not finish (hung, or its process died).
nlohmann::ordered_json assemble_document(const supervised_run& sr, const device_info& dev, const run_description& run,
                                         const suite& s, const std::vector<const case_def*>& selected) {
  std::map<std::string, measured_case> faulted;
  for (const auto& [name, why] : sr.faulted) faulted[name] = {case_outcome::failed, why, {}};
  nlohmann::ordered_json context = sr.context.is_object() ? sr.context : nlohmann::ordered_json::object();
  const nlohmann::ordered_json worker_device = context.value("device", nlohmann::ordered_json());
  nlohmann::ordered_json doc = results_document(context, dev, run, s, selected, faulted);
  if (worker_device.is_object()) {  // the worker's description: it is the process that used the device
    doc["context"]["device"] = worker_device;
    doc["context"]["cudabench_device"] = sr.context.value("cudabench_device", std::string("none"));
  }
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  std::map<std::string, std::vector<nlohmann::ordered_json>> own;
  for (const auto& row : doc["benchmarks"]) own[row.value("run_name", std::string())].push_back(row);
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const std::string name = selected[i]->name();
    auto it = sr.rows.find(name);
    const std::vector<nlohmann::ordered_json>* from = it != sr.rows.end() ? &it->second : nullptr;
    if (!from) if (auto o = own.find(name); o != own.end()) from = &o->second;
    if (!from) continue;
    for (nlohmann::ordered_json row : *from) {
      row["family_index"] = i;
      rows.push_back(std::move(row));
    }
  }
  doc["benchmarks"] = std::move(rows);
  return doc;
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
  write_file_atomically(worker.results_path(), results_document(ex.host_context, dev, finished, s, selected, ex.results).dump(1) + "\n");
  if (ex.tracer && !worker.trace_path().empty())
    write_file_atomically(worker.trace_path(), chrome_trace(finished_trace(*ex.tracer, dev)).dump(1) + "\n");
  if (sig) return 128 + sig;
  for (const auto& [name, m] : ex.results)
    if (m.outcome == case_outcome::failed) return 1;
  return 0;
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  run_options opt;
  try {
    opt = parse_run_options(args);
  } catch (const usage_error& e) {
    fmt::print(stderr, "run_bench: {}\n\n{}", e.what(), run_usage());
    return 2;
  }
  if (opt.help) {
    fmt::print("{}", run_usage());
    return 0;
  }
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
    run.time_unit = opt.time_unit;
    if (opt.inject_regex) run.injected = fmt::format("{}:{:g}", *opt.inject_regex, opt.inject_pct);
    if (worker) {
      install_stop_signals();
      return run_as_worker(*worker, opt, p, s, selected, run, argv);
    }
    const bool supervised = opt.watchdog_s > 0;
    // A supervisor only describes the device; its workers create the contexts.
    const device_info dev = query_device(opt.device, !supervised);

    // Everything that can be refused is refused before the first case runs.
    const std::optional<std::string> json_path = opt.json_path;
    const std::optional<std::string> baseline_path =
        opt.save_baseline ? std::optional(baseline_file_for(dev, p.name, opt.baseline_dir)) : std::nullopt;
    if (json_path && !is_stdout(json_path)) check_writable(*json_path);
    if (opt.verdict_path && !opt.compare_to)
      throw usage_error("--verdict is the verdict of a comparison: it needs --compare-to");
    if (opt.trace_path) check_writable(*opt.trace_path);
    std::optional<std::string> compare_path;
    if (opt.compare_to) compare_path = resolve_baseline(*opt.compare_to, dev, p.name, opt.baseline_dir);
    compare_settings cmp = compare_settings_from(opt);
    const bool csv_out = is_stdout(cmp.csv_path);
    if (csv_out) cmp.csv_path.reset();  // --csv -: written at the end, to standard output
    {
      std::vector<std::pair<std::string, std::string>> outs;
      if (json_path) outs.emplace_back("--json", *json_path);
      if (baseline_path) outs.emplace_back("--save-baseline", *baseline_path);
      if (opt.trace_path) outs.emplace_back("--trace", *opt.trace_path);
      for (const auto& [option, path] : {std::pair{"--md", &cmp.md_path}, std::pair{"--html", &cmp.html_path},
                                         std::pair{"--verdict", &cmp.json_path}, std::pair{"--csv", &cmp.csv_path}})
        if (*path) outs.emplace_back(option, **path);
      check_distinct_outputs(outs, compare_path ? std::vector<std::string>{*compare_path} : std::vector<std::string>{});
    }
    if (compare_path) {  // readable, and of this GPU model: known now, so refused before the first case
      const run_result base = load_run(*compare_path);
      const std::string here = dev.available ? dev.name : "no GPU";
      if (!cmp.allow_device_mismatch && !base.device)
        throw input_error(fmt::format("{}: has no device description (context.device), so its GPU cannot be checked against {}; "
                                      "pass --allow-device-mismatch to compare anyway", *compare_path, here));
      const std::string there = base.device ? (base.device->available ? base.device->name : "no GPU") : "unknown";
      if (!cmp.allow_device_mismatch && there != here)
        throw input_error(fmt::format("{}: a baseline of {}, and this run is on {}: refused before running; "
                                      "pass --allow-device-mismatch to compare anyway", *compare_path, there, here));
    }
    check_report_outputs(cmp);  // without a comparison, --md and --html get the run's own report
    if (baseline_path) {
      std::error_code ec;
      std::filesystem::create_directories(std::filesystem::path(*baseline_path).parent_path(), ec);
      if (ec) throw input_error(fmt::format("{}: cannot create the baseline directory: {}", *baseline_path, ec.message()));
      check_writable(*baseline_path);
    }

    std::optional<results_on_stdout> results_out;  // --json - / --csv -: the results alone on standard output
    if (is_stdout(json_path) || is_stdout(opt.csv_path)) results_out.emplace();

    // The cases run, in worker processes under a watchdog or here; either way a results document comes back.
    std::function<nlohmann::ordered_json(const run_description&)> document;
    case_execution here;
    supervised_run sr;
    if (supervised) {
      std::vector<std::string> names;
      for (const case_def* c : selected) names.push_back(c->name());
      sr = supervise(args, names, opt.watchdog_s, opt.trace_path.has_value());
      document = [&](const run_description& r) { return assemble_document(sr, dev, r, s, selected); };
    } else {
      install_stop_signals();
      execute_cases(here, opt, p, s, selected, dev, run, nullptr, argv);
      document = [&](const run_description& r) { return results_document(here.host_context, dev, r, s, selected, here.results); };
    }

    if (const int sig = interrupt_signal().load()) {
      // Stopped early: the finished cases go to --json marked incomplete (nothing else: no comparison, no
      // baseline, no reports); with none finished, an existing file is left as it was.
      const char* signal_name = sig == SIGINT ? "SIGINT" : "SIGTERM";
      run.interrupted_by = signal_name;
      const nlohmann::ordered_json doc = document(run);
      const outcome_counts n = count_outcomes(doc);
      const std::size_t finished = n.measured + n.skipped + n.failed;
      std::string where = "nothing written";
      if (json_path && finished > 0) {
        const std::string text = doc.dump(2) + "\n";
        if (results_out) results_out->write(text);
        else write_file_atomically(*json_path, text);
        where = fmt::format("the finished ones are in {} (marked incomplete)", *json_path);
      } else if (json_path) {
        where = fmt::format("{} left as it was", *json_path);
      }
      fmt::print(stderr, "\nrun_bench: interrupted by {} after {} of {} case(s); {}\n", signal_name, finished, selected.size(), where);
      return 128 + sig;
    }

    nlohmann::ordered_json doc = document(run);
    attach_limits(doc, dev, p.name, opt.baseline_dir);
    const outcome_counts n = count_outcomes(doc);
    fmt::print("\n{} case(s): {} measured, {} skipped, {} failed\n", selected.size(), n.measured, n.skipped, n.failed);
    if (opt.trace_path) {
      trace_log none;
      none.note = "no worker process wrote a timeline";
      write_trace_file(!supervised ? chrome_trace(finished_trace(*here.tracer, dev)) : sr.trace.is_null() ? chrome_trace(none) : sr.trace,
                       *opt.trace_path);
    }

    int status = n.failed ? 1 : 0;
    const bool own_report = !compare_path && (cmp.md_path || cmp.html_path || cmp.csv_path);
    if (json_path || compare_path || baseline_path || own_report || csv_out) {
      if (json_path || baseline_path) {
        const std::string text = doc.dump(2) + "\n";
        if (results_out) results_out->write(text);
        else if (json_path) { write_file_atomically(*json_path, text); fmt::print("results: {}\n", *json_path); }
        if (baseline_path) { write_file_atomically(*baseline_path, text); fmt::print("baseline saved: {}\n", *baseline_path); }
      }
      const std::string source = json_path && !results_out ? *json_path : "this run";
      const run_result current = parse_run(nlohmann::json(doc), source);
      comparison verdicts;
      if (compare_path) status = std::max(status, compare_and_report(load_run(*compare_path), current, cmp, &verdicts));
      if (own_report) report_run(current, cmp);
      if (csv_out) results_out->write(reports::results_csv(current, compare_path ? &verdicts : nullptr));
    }
    return status;
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
