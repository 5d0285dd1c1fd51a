// A run's plan: its request read once into the typed settings each part of a run takes. The runner hands each
// part its own settings (the cases to select, the preset, how cases are measured, the files, the comparison,
// the table, the --devices fan-out), never the request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/foreign_benchmarks.hpp"
#include "app/table_reporter.hpp"
#include "cli/requests.hpp"
#include "cudabench/presets.hpp"
#include "measure/measure.hpp"
#include "measure/pattern.hpp"

namespace cudabench::app {

/// Which cases a run selects, and whether it lists or identifies them instead of measuring them.
struct case_choice {
  name_filter filter;                        ///< --filter
  bool limits = false;                       ///< --limits: the limits family runs alongside the selected cases
  bool list = false;                         ///< --list
  bool list_names_only = false;              ///< --benchmark_list_tests: names only
  std::optional<std::string> identify_path;  ///< --identify=FILE
};

/// How a process measures its cases (here, or in a worker).
struct execution_settings {
  int device = 0;                  ///< --device
  measure_settings measure;        ///< cache, slowdown, stream hold and energy; each process adds its tracers
  bool trace = false;              ///< --trace: one more traced sample after each case's repetitions
  bool identify = true;            ///< each GPU case records its code identity (not under a profiler)
  bool quiet = false;              ///< no "[i/N] case" progress lines
  bool spread_every_case = false;  ///< the rounds spread every case (--rounds-for=all, --trace)
  table_style table;               ///< the table of the cases as they finish
};

/// The stored baselines a run reads or writes.
struct baseline_choice {
  std::optional<std::string> compare_to;  ///< --compare-to: a baseline file, or "auto"
  bool save = false;                      ///< --save-baseline
  std::string dir;                        ///< --baseline-dir
};

/// What a run records of how it was asked for (run_settings).
struct run_marks {
  std::string cache;          ///< --cache
  std::string energy_absent;  ///< why energy is not read, "" where it is
  std::string injected;       ///< --inject-slowdown as REGEX:PCT, "" without
};

/// A run, as its parts take it.
struct run_plan {
  /// The plan of the run `r` asks for.
  explicit run_plan(const cli::run_request& r);

  preset p;  ///< the preset with the options' repetitions, rounds, sampling, sizes and axes
  case_choice cases;
  execution_settings execution;
  cli::run_outputs files;
  cli::compare_options comparison;
  baseline_choice baseline;
  std::optional<std::string> devices;  ///< --devices: one process per device ("all" or ordinals), results merged
  double watchdog_s = 0;               ///< --watchdog: 0 runs the cases in this process
  std::optional<std::uint64_t> shuffle_seed;
  google_benchmark_flags google;  ///< the flags the binary's own Google Benchmark registrations run with
  run_marks marks;
  std::string rounds_note;        ///< said before the run where --rounds asked for more rounds than it can run
  std::vector<std::string> args;  ///< the command line, for the workers and the devices' processes
  char** argv = nullptr;
};

}  // namespace cudabench::app
