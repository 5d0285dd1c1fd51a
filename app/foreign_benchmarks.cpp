// Google Benchmark's own registrations in a cudabench binary: listed through its --benchmark_list_tests into a
// string, run with a filter naming them, and taken from its reports into the results model.
#include "app/foreign_benchmarks.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <set>
#include <sstream>

#include "measure/host_info.hpp"
#include "measure/measure.hpp"
#include "measure/pattern.hpp"
#include "results/stats.hpp"

namespace cudabench::app {
namespace {
/// Sets Google Benchmark's flags the way its command line does (its flags are read by cudabench's parser, so
/// Google Benchmark itself is given only these).
void set_google_benchmark_flags(std::vector<std::string> flags) {
  std::vector<char*> argv;
  static char program[] = "cudabench";
  argv.push_back(program);
  for (std::string& f : flags) argv.push_back(f.data());
  argv.push_back(nullptr);
  int argc = int(argv.size()) - 1;
  benchmark::Initialize(&argc, argv.data());
}

/// Writes nothing: a listing goes to the stream it is given.
class silent_reporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

/// Google Benchmark's regular expression (POSIX extended or ECMAScript) matching exactly `name`.
std::string escaped(const std::string& name) {
  std::string out;
  for (char ch : name) {
    if (std::string_view(".[]{}()\\*+?^$|").find(ch) != std::string_view::npos) out += '\\';
    out += ch;
  }
  return out;
}

std::string alternation(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : "|") + escaped(n);
  return "^(" + out + ")$";
}

/// Passes every report on to the table, and keeps each benchmark's repetitions as a case result; the noise of
/// a benchmark of two repetitions or more (the relative standard error of their mean, as cudabench's own cases
/// give that of their samples' mean) goes with each of them and with the line the table shows.
class collecting_reporter : public benchmark::BenchmarkReporter {
 public:
  collecting_reporter(table_reporter& display, google_benchmark_run& out) : display_(display), out_(out) {}
  bool ReportContext(const Context& c) override { return display_.ReportContext(c); }
  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> shown = runs;
    std::set<std::string> kept;
    for (Run& r : shown) {
      // The table names a row by its function name (the runner's own cases are registered by their full name).
      const std::string name = r.run_name.str();
      r.run_name = {};
      r.run_name.function_name = name;
      if (r.run_type == Run::RT_Iteration && keep(r, name)) kept.insert(name);
    }
    for (const std::string& name : kept) add_noise(out_.results[name]);
    for (Run& r : shown) {
      const auto it = out_.results.find(r.run_name.function_name);
      if (it == out_.results.end() || it->second.repetitions.empty()) continue;
      const counter_map& first = it->second.repetitions.front().counters;
      if (auto noise = first.find(noise_counter); noise != first.end())
        r.counters[noise_counter] = benchmark::Counter(noise->second);
    }
    display_.ReportRuns(shown);
  }
  void Finalize() override { display_.Finalize(); }

 private:
  /// Keeps a repetition that measured (true), or the case's end.
  bool keep(const Run& r, const std::string& name) {
    case_result& c = out_.results[name];
    c.name = name;
    const reported_outcome ended = outcome_of(r);
    if (ended.status != case_status::ok) {
      c.status = ended.status;
      c.message = ended.message;
      return false;
    }
    const benchmark::IterationCount iterations = std::max<benchmark::IterationCount>(r.iterations, 1);
    repetition rep;
    rep.real_time_s = r.real_accumulated_time / double(iterations);
    rep.cpu_time_s = r.cpu_accumulated_time / double(iterations);
    rep.iterations = std::size_t(iterations);
    for (const auto& [k, counter] : r.counters) rep.counters[k] = double(counter.value);
    rep.label = r.report_label;
    c.repetitions.push_back(std::move(rep));
    return true;
  }
  /// The spread of a case's repetitions as the noise counter of each (none with one repetition).
  static void add_noise(case_result& c) {
    if (c.repetitions.size() < 2) return;
    std::vector<double> times;
    for (const repetition& rep : c.repetitions) times.push_back(rep.real_time_s);
    const double noise_pct = 100 * summarize(times).rel_stderr();
    for (repetition& rep : c.repetitions) rep.counters[noise_counter] = noise_pct;
  }
  static constexpr const char* noise_counter = "noise_pct";
  table_reporter& display_;
  google_benchmark_run& out_;
};
}  // namespace

std::vector<std::string> google_benchmark_names() {
  std::ostringstream listed;
  silent_reporter lister;
  lister.SetOutputStream(&listed);
  lister.SetErrorStream(&listed);  // "Failed to match any benchmarks" where there are none
  set_google_benchmark_flags({"--benchmark_list_tests=true"});
  benchmark::RunSpecifiedBenchmarks(&lister, ".");
  set_google_benchmark_flags({"--benchmark_list_tests=false"});
  std::vector<std::string> names;
  std::set<std::string> seen;
  std::istringstream lines(listed.str());
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line.rfind("Failed to match", 0) != 0 && seen.insert(line).second) names.push_back(line);
  return names;
}

std::vector<std::string> select_google_benchmarks(const std::vector<std::string>& names, const name_filter& filter) {
  std::vector<std::string> out;
  for (const std::string& n : names)
    if (filter.selects(n)) out.push_back(n);
  return out;
}

std::string google_benchmark_filter_excluding(const std::vector<std::string>& names) {
  return names.empty() ? "" : "-" + alternation(names);
}

std::vector<std::string> google_benchmark_arguments(const google_benchmark_flags& f) {
#ifdef CUDABENCH_GBENCH_MIN_TIME_SUFFIX
  constexpr std::string_view seconds_suffix = "s";  // 1.8: "0.5s" (a plain number is read with a warning)
#else
  constexpr std::string_view seconds_suffix;  // 1.7: a plain number of seconds
#endif
  std::vector<std::string> args{fmt::format("--benchmark_repetitions={}", f.repetitions)};
  if (f.min_time_s) args.push_back(fmt::format("--benchmark_min_time={}{}", *f.min_time_s, seconds_suffix));
  if (f.min_warmup_time_s) args.push_back(fmt::format("--benchmark_min_warmup_time={}", *f.min_warmup_time_s));
  args.push_back(fmt::format("--benchmark_enable_random_interleaving={}", f.random_interleaving));
  return args;
}

google_benchmark_run run_google_benchmarks(const std::vector<std::string>& names, const google_benchmark_flags& flags,
                                           table_reporter& display) {
  google_benchmark_run out;
  if (names.empty()) return out;
  collecting_reporter collect(display, out);
  set_google_benchmark_flags(google_benchmark_arguments(flags));
  out.host = collect_host_info();
  benchmark::RunSpecifiedBenchmarks(&collect, alternation(names));
  set_google_benchmark_flags(google_benchmark_arguments({.min_time_s = 0.5, .min_warmup_time_s = 0}));  // its defaults
  return out;
}

void add_google_benchmark_cases(run_result& run, const std::vector<std::string>& names,
                                const std::map<std::string, case_result>& results) {
  const std::size_t before = run.cases.size();
  for (const std::string& name : names) {
    case_meta m;
    m.name = name;
    split_case_name(m);
    m.described = true;
    m.on_gpu = false;
    m.host_bound = true;
    run.selection.push_back(m);
    const auto it = results.find(name);
    if (it == results.end()) continue;
    case_result c = it->second;
    static_cast<case_meta&>(c) = m;
    run.cases.push_back(std::move(c));
  }
  run.finish_cases(before);
}

}  // namespace cudabench::app
