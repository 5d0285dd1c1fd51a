// The runner: parse, select cases, register them with Google Benchmark, run, write the results, compare.
#include "cudabench/main.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <signal.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <iostream>
#include <regex>

#include "app/commands.hpp"
#include "app/fanout.hpp"
#include "app/options.hpp"
#include "app/results_output.hpp"
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
  progress_meter(std::size_t total, bool quiet) : total_(total), quiet_(quiet), start_(std::chrono::steady_clock::now()) {}
  void starting(const std::string& name) {
    if (quiet_ || name == current_) return;  // later repetitions of the same case
    current_ = name;
    ++index_;
    std::string eta;
    if (index_ > 1) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      const double left = elapsed / double(index_ - 1) * double(total_ - index_ + 1);
      eta = left >= 60 ? fmt::format(" (about {:.0f} min {:02.0f} s left)", std::floor(left / 60), std::fmod(left, 60))
                       : fmt::format(" (about {:.0f} s left)", std::ceil(left));
    }
    fmt::print(stderr, "[{}/{}] {}{}\n", index_, total_, name, eta);
    std::fflush(stderr);
  }
 private:
  std::size_t total_, index_ = 0;
  bool quiet_;
  std::chrono::steady_clock::time_point start_;
  std::string current_;
};

extern "C" void record_interrupt(int sig) { cudabench::interrupt_signal().store(sig); }

/// SIGINT and SIGTERM ask the run to stop after the current sample; a second one ends it at once.
void install_interrupt_handlers() {
  struct sigaction sa{};
  sa.sa_handler = record_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_RESETHAND;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

/// Writes the run's timeline and says what it holds (or why it holds no device activity).
void write_trace(trace_recorder& tracer, const device_info& dev, const std::string& path) {
  trace_log& log = tracer.log();
  if (dev.available) log.device_names[dev.ordinal] = dev.name;
  if (!dev.available) log.note = "no GPU: " + dev.unavailable_reason;
  else if (!tracer.device_problem().empty()) log.note = tracer.device_problem();
  else if (log.ops.empty()) log.note = "no GPU case was traced";
  write_file_atomically(path, chrome_trace(log).dump(1) + "\n");
  std::size_t cases = 0;
  for (const host_range& r : log.ranges) cases += r.category == "stage" && r.name == phase_name(phase::trace);
  if (log.note.empty())
    fmt::print("trace: {} ({} traced case(s), {} GPU operations; open in https://ui.perfetto.dev or chrome://tracing)\n", path, cases, log.ops.size());
  else
    fmt::print("trace: {} ({} traced case(s); no device activity recorded: {})\n", path, cases, log.note);
}

}  // namespace

namespace {
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
    if (opt.devices && !opt.list) return run_on_devices(opt, args);
    if (!opt.list) install_interrupt_handlers();
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
    const suite s = build_suite(p);
    const std::vector<const case_def*> selected = select_cases(s, opt.filter);
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
        fmt::print("{:<44} {}{}{}\n", c->name(), c->on == where::gpu ? "gpu" : "cpu",
                   c->on == where::gpu && c->cache == cache_state::cold ? " cold-L2" : "",
                   c->on == where::cpu || c->host_bound ? " host-bound" : "");
      return 0;
    }
    const device_info dev = query_device(opt.device);
    run_description run;
    run.info = collect_run_info(p.name, p.repetitions);
    run.cache = opt.cache;
    run.time_unit = opt.time_unit;
    if (opt.inject_regex) run.injected = fmt::format("{}:{:g}", *opt.inject_regex, opt.inject_pct);

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

    measure_settings ms;
    if (opt.cache != "declared") ms.cache_override = opt.cache == "hot" ? cache_state::hot : cache_state::cold;
    ms.inject_regex = opt.inject_regex;
    ms.inject_pct = opt.inject_pct;
    ms.hold_stream = !opt.profile && !opt.no_blocking_kernel;
    std::optional<trace_recorder> tracer;
    if (opt.trace_path) ms.tracer = &tracer.emplace();
    case_driver driver(dev, p, ms);
    progress_meter progress(selected.size(), opt.quiet);
    for (const case_def* c : selected) {
      auto* b = benchmark::RegisterBenchmark(c->name().c_str(), [&driver, &progress, c](benchmark::State& st) {
        progress.starting(c->name());
        driver.run(st, *c);
      });
      b->Iterations(1)->Repetitions(p.repetitions)->UseManualTime()->Unit(benchmark::kMicrosecond);
    }
    // Google Benchmark drives the repetitions; its flags were read above, so it gets none.
    int gb_argc = 1;
    benchmark::Initialize(&gb_argc, argv);

    table_reporter display(dev, run.info, selected.size(), driver.results());
    benchmark::RunSpecifiedBenchmarks(&display);
    benchmark::Shutdown();

    if (const int sig = interrupt_signal().load()) {
      // Stopped early: the finished cases go to --json marked incomplete (nothing else: no comparison, no
      // baseline, no reports); with none finished, an existing file is left as it was.
      const char* signal_name = sig == SIGINT ? "SIGINT" : "SIGTERM";
      const std::size_t finished = driver.results().size();
      std::string where = "nothing written";
      if (json_path && finished > 0) {
        run.interrupted_by = signal_name;
        const std::string text = results_document(display.host_context(), dev, run, s, selected, driver.results()).dump(2) + "\n";
        if (results_out) results_out->write(text);
        else write_file_atomically(*json_path, text);
        where = fmt::format("the finished ones are in {} (marked incomplete)", *json_path);
      } else if (json_path) {
        where = fmt::format("{} left as it was", *json_path);
      }
      fmt::print(stderr, "\nrun_bench: interrupted by {} after {} of {} case(s); {}\n", signal_name, finished, selected.size(), where);
      return 128 + sig;
    }

    int failed = 0, skipped = 0, passed = 0;
    for (auto& [name, m] : driver.results())
      (m.outcome == case_outcome::failed ? failed : m.outcome == case_outcome::skipped ? skipped : passed)++;
    fmt::print("\n{} case(s): {} measured, {} skipped, {} failed\n", selected.size(), passed, skipped, failed);
    if (tracer) write_trace(*tracer, dev, *opt.trace_path);

    int status = failed ? 1 : 0;
    const bool own_report = !compare_path && (cmp.md_path || cmp.html_path || cmp.csv_path);
    if (json_path || compare_path || baseline_path || own_report || csv_out) {
      const nlohmann::ordered_json doc = results_document(display.host_context(), dev, run, s, selected, driver.results());
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
