// Plain Google Benchmark code in a cudabench binary: the BENCHMARK() registrations linked into it, listed,
// selected by the same filter and run as host cases of the same results (names, times and counters as Google
// Benchmark gives them), so that a project can move its benchmarks to cudabench one at a time.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/table_reporter.hpp"
#include "measure/host_info.hpp"
#include "measure/pattern.hpp"
#include "results/results_model.hpp"

namespace cudabench::app {

/// The names of the benchmarks registered with Google Benchmark in this process, as its --benchmark_list_tests
/// gives them (`BM_x`, `BM_x/8`). Call it before the runner registers its own cases.
std::vector<std::string> google_benchmark_names();

/// Those of `names` that --filter selects (Google Benchmark's convention: a leading '-' negates it).
std::vector<std::string> select_google_benchmarks(const std::vector<std::string>& names, const name_filter& filter);

/// A Google Benchmark filter that matches none of `names` ("" when there are none): what the runner gives Google
/// Benchmark while it runs its own cases.
std::string google_benchmark_filter_excluding(const std::vector<std::string>& names);

/// What running Google Benchmark's benchmarks gave: each one's result, and the host they ran on.
struct google_benchmark_run {
  std::map<std::string, case_result> results;
  std::optional<host_info> host;
};

/// The --benchmark_* flags that shape a run, handed to Google Benchmark as its own command line would set them
/// (a benchmark's own MinTime(), Repetitions(), ... still win, as in Google Benchmark); unset: its defaults.
struct google_benchmark_flags {
  int repetitions = 1;
  std::optional<double> min_time_s;         ///< --benchmark_min_time
  std::optional<double> min_warmup_time_s;  ///< --benchmark_min_warmup_time
  bool random_interleaving = false;         ///< --benchmark_enable_random_interleaving
};

/// The arguments that set `f` in Google Benchmark's command line (its version's syntax for seconds: "0.5s" from
/// 1.8 on, "0.5" before).
std::vector<std::string> google_benchmark_arguments(const google_benchmark_flags& f);

/// Runs `names` with `flags`, shown by `display` as rows of the run's table.
google_benchmark_run run_google_benchmarks(const std::vector<std::string>& names, const google_benchmark_flags& flags,
                                           table_reporter& display);

/// Adds the Google Benchmark cases `names` to `run` after its own, as host-bound CPU cases, with their results.
void add_google_benchmark_cases(run_result& run, const std::vector<std::string>& names,
                                const std::map<std::string, case_result>& results);

}  // namespace cudabench::app
