// How the selected cases of one process run: registered with Google Benchmark, which drives their
// repetitions through the case driver, with a progress line each, saved after each in a worker.
#include "app/case_execution.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>

#include "analysis/same_code.hpp"
#include "app/declared_cases.hpp"
#include "app/foreign_benchmarks.hpp"
#include "app/outputs.hpp"
#include "app/rounds.hpp"
#include "app/table_reporter.hpp"
#include "cli/program_name.hpp"
#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "measure/device_query.hpp"
#include "measure/host_info.hpp"
#include "measure/startup_times.hpp"
#include "results/results_json.hpp"

namespace cudabench::app {
namespace {
/// Before each case, "[i/N] name (about T left)" on standard error: T from the time the finished cases took.
class progress_meter {
 public:
  /// `before`: cases an earlier process of the same run already finished (they count, but not in the estimate).
  /// `round`: "round R/N" while a run of several rounds is in its R-th.
  progress_meter(std::size_t total, bool quiet, std::size_t before = 0, std::string round = "")
      : total_(total),
        index_(before),
        first_(before),
        quiet_(quiet),
        round_(std::move(round)),
        start_(std::chrono::steady_clock::now()) {}
  void starting(const std::string& name) {
    if (quiet_ || name == current_) return;  // later repetitions of the same case
    current_ = name;
    ++index_;
    std::string eta;
    if (index_ > first_ + 1) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      const double left = elapsed / double(index_ - first_ - 1) * double(total_ - index_ + 1);
      const long s = std::lround(std::ceil(left));  // whole seconds first: 119.7 s is 2 min 00 s, not 1 min 60 s
      eta = s >= 60 ? fmt::format("about {} min {:02} s left", s / 60, s % 60) : fmt::format("about {} s left", s);
    }
    std::string note = round_;
    if (!eta.empty()) note += (note.empty() ? "" : ", ") + eta;
    if (!note.empty()) note = " (" + note + ")";
    fmt::print(stderr, "[{}/{}] {}{}\n", index_, total_, printable(name), note);
    std::fflush(stderr);
  }

 private:
  std::size_t total_, index_, first_;
  bool quiet_;
  std::string round_;
  std::chrono::steady_clock::time_point start_;
  std::string current_;
};

}  // namespace

/// The recorded timeline with the device's name, and why it holds no device activity where it holds none.
const trace_log& finished_trace(trace_recorder& tracer, const device_info& dev) {
  trace_log& log = tracer.log();
  if (dev.available) log.device_names[dev.ordinal] = dev.name;
  if (!dev.available)
    log.note = "no GPU: " + dev.unavailable_reason;
  else if (!tracer.device_problem().empty())
    log.note = tracer.device_problem();
  else if (log.ops.empty())
    log.note = "no GPU case was traced";
  return log;
}

namespace {
/// The plan's measurement with this process's part: its tracers, whether it checks, its round's energy.
measure_settings measure_settings_for(const execution_settings& ex, case_execution& out, const worker_link* worker,
                                      bool gpu_cases) {
  measure_settings ms = ex.measure;
  if (ex.trace) ms.tracer = &out.tracer.emplace();
  // Under a profiler CUPTI is the profiler's; elsewhere every GPU case records the code it ran (a process without
  // one to run does not load CUPTI).
  if (ex.identify && gpu_cases && watch_module_loads().empty())
    ms.identifier = out.tracer ? &*out.tracer : &out.tracer.emplace();
  startup_phase_done("cupti");
  ms.check = !worker || worker->round() == 1;
  ms.energy.later_round = worker && worker->round() > 1;  // with rounds, the first round measures energy
  return ms;
}

/// The repetitions this process runs of `c`: its round's share, or every round's for a case the rounds do
/// not spread (see spread_over_rounds), which runs in the first round only.
int repetitions_here(const case_def& c, const preset& p, const execution_settings& ex, const worker_link* worker) {
  const bool rounds = worker && worker->rounds() > 1;
  return rounds && !spread_over_rounds(c, ex.spread_every_case) ? p.repetitions * worker->rounds() : p.repetitions;
}

/// The body Google Benchmark runs for each repetition of one case, and what is done once the case finished.
class case_body {
 public:
  case_body(case_driver& driver, progress_meter& progress, const preset& p, const execution_settings& ex,
            const device_info& dev, const worker_link* worker, std::function<void(const case_def&)> finished)
      : driver_(driver),
        progress_(progress),
        preset_(p),
        ex_(ex),
        dev_(dev),
        worker_(worker),
        finished_case_(std::move(finished)) {}

  void run(benchmark::State& st, const case_def& c) {
    const std::string name = c.name();
    if (worker_) worker_->starting(name);
    if (!started_) {
      started_ = true;
      startup_phase_done("benchmark");
      say_startup("its first case");
    }
    if (!interrupt_signal().load()) progress_.starting(name);  // stopping: the rest are passed over silently
    driver_.run(st, c);
    const auto it = driver_.results().find(name);
    if (it == driver_.results().end() || finished_.count(name)) return;
    const case_result& m = it->second;
    if (m.status == case_status::ok && m.repetitions.size() < std::size_t(repetitions_here(c, preset_, ex_, worker_)))
      return;
    finished_.insert(name);
    finished_case_(c);
    if (!worker_) return;
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
  const execution_settings& ex_;
  const device_info& dev_;
  const worker_link* worker_;
  std::function<void(const case_def&)> finished_case_;  ///< recorded (a worker) or told (on_case)
  std::set<std::string> finished_;
  bool started_ = false;
};

/// The driver's finished cases.
std::map<std::string, case_result> finished_only(const case_driver& driver, const std::set<std::string>& finished) {
  std::map<std::string, case_result> done;
  for (const auto& [name, m] : driver.results())
    if (finished.count(name)) done.emplace(name, m);
  return done;
}
}  // namespace

void execute_cases(case_execution& out, const execution_settings& ex, const preset& p, const suite& s,
                   const std::vector<const case_def*>& selected, const device_info& dev, const run_settings& run,
                   const worker_link* worker, char** argv, std::size_t cases_after, const case_listener& on_case) {
  const bool gpu_cases = dev.available && std::any_of(selected.begin(), selected.end(),
                                                      [](const case_def* c) { return c->on == where::gpu; });
  case_driver driver(dev, p, measure_settings_for(ex, out, worker, gpu_cases));
  const std::size_t total = worker ? worker->cases_total() : selected.size() + cases_after,
                    before = worker ? worker->cases_before() : 0;
  const bool rounds = worker && worker->rounds() > 1;
  progress_meter progress(total, ex.quiet, before,
                          rounds ? fmt::format("round {}/{}", worker->round(), worker->rounds()) : "");
  // With several rounds the run prints the table once they are all in; a round prints progress lines only.
  table_reporter display(dev, run, total, before, !rounds, ex.table);
  auto finished = [&](const case_def& c) {  // a worker's recorded, which its supervisor keeps if the worker dies later
    const case_result& m = driver.results().at(c.name());
    if (!worker) {
      if (on_case) on_case(m, 1, total);
      return;
    }
    const std::map<std::string, case_result> one{{c.name(), m}};
    worker->record(to_json(recorded_run(to_json(*out.host), dev, run, s, {&c}, one)).dump() + "\n");
  };
  case_body body(driver, progress, p, ex, dev, worker, finished);
  // The binary's own Google Benchmark registrations run apart from these (foreign_benchmarks.hpp).
  const std::string others = google_benchmark_filter_excluding(google_benchmark_names());
  for (const case_def* c : selected) {
    auto* b = benchmark::RegisterBenchmark(c->name().c_str(), [&body, c](benchmark::State& st) { body.run(st, *c); });
    b->Iterations(1)->Repetitions(repetitions_here(*c, p, ex, worker))->UseManualTime()->Unit(benchmark::kMicrosecond);
  }
  // Google Benchmark drives the repetitions; its flags were read by our parser, so it gets none.
  int gb_argc = 1;
  benchmark::Initialize(&gb_argc, argv);
  out.host = collect_host_info();  // after benchmark::Initialize, which names the executable
  benchmark::RunSpecifiedBenchmarks(&display, others);
  benchmark::Shutdown();
  out.results = finished_only(driver, body.finished());
}

/// The run a supervisor assembles from its workers: their cases in the order of the selection, and a failed
/// case for each one a worker could not finish (hung, or its process died).
run_result assemble_run(const supervised_run& sr, const device_info& dev, const run_settings& run, const suite& s,
                        const std::vector<const case_def*>& selected) {
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

/// A worker: runs the cases its supervisor listed, recording each one's results as it finishes, and exits.
int run_as_worker(const worker_link& worker, const execution_settings& settings, const preset& p, const suite& s,
                  const std::vector<const case_def*>& selected, const run_settings& run, char** argv) {
  const device_info dev = query_device(settings.device);
  case_execution ex;
  execution_settings here = settings;
  if (worker.trace_path().empty()) here.trace = false;               // a round before the last traces nothing
  execute_cases(ex, here, p, s, selected, dev, run, &worker, argv);  // each finished case recorded as it finished
  say_startup("its end");  // with the SASS hashing of the modules its cases loaded
  const int sig = interrupt_signal().load();
  if (ex.tracer && !worker.trace_path().empty()) {  // the worker's timeline, which its supervisor merges
    output_list trace;
    trace.add_text(
        "--trace", worker.trace_path(), "Chrome trace",
        [&] { return chrome_trace(finished_trace(*ex.tracer, dev)).dump(1) + "\n"; }, output_list::trace_order);
    trace.end({});
  }
  if (sig) return 128 + sig;
  for (const auto& [name, m] : ex.results)
    if (m.status == case_status::failed) return 1;
  return 0;
}

}  // namespace cudabench::app

namespace cudabench::app {

int identify_cases(const std::string& path, const execution_settings& ex, const preset& p,
                   const std::vector<const case_def*>& selected, const std::vector<std::string>& google) {
  case_identities ids;
  output_list outputs;
  outputs.add_text(
      "--identify", path, "identities JSON", [&ids] { return to_json(ids).dump(1) + "\n"; },
      output_list::document_order);
  outputs.check_writable();
  const device_info dev = query_device(ex.device);
  measure_settings ms;  // no check, no energy, no hold: one plain run, then one traced
  ms.check = false;
  ms.energy.on = false;
  ms.hold_stream = false;
  std::optional<trace_recorder> tracer;
  const bool gpu_cases = dev.available && std::any_of(selected.begin(), selected.end(),
                                                      [](const case_def* c) { return c->on == where::gpu; });
  if (gpu_cases && watch_module_loads().empty()) ms.identifier = &tracer.emplace();
  case_driver driver(dev, p, ms);
  std::size_t known = 0;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    if (const int sig = interrupt_signal().load()) return 128 + sig;
    const case_def& c = *selected[i];
    if (!ex.quiet) fmt::print(stderr, "[{}/{}] {} (identifying)\n", i + 1, selected.size(), printable(c.name()));
    const code_identity id = driver.identify_case(c);
    known += !id.digest.empty();
    ids.cases.push_back({c.name(), c.family, id.digest,
                         id.digest.empty() ? (id.problem.empty() ? "no device activity recorded" : id.problem) : ""});
  }
  for (const std::string& name : google) ids.cases.push_back({name, "", "", "a Google Benchmark registration"});
  outputs.end({});
  fmt::print(stderr, "{}: {} case(s) identified, {} with a known code identity: {}\n", cli::program_name(),
             ids.cases.size(), known, printable(path));
  return 0;
}

}  // namespace cudabench::app
