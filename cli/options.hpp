// What a command line asks for (run_options), and the value parsers the option table's actions use.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/run_store.hpp"
#include "io/errors.hpp"
#include "measure/pattern.hpp"

namespace cudabench::cli {

/// Which learned gates a comparison uses (--gates=FILE|none).
struct gates_choice {
  enum class source {
    beside_baseline,  ///< no --gates: the gates file kept beside the baseline, when there is one
    none,             ///< --gates=none: no learned gates, not even those beside the baseline
    file,             ///< --gates=FILE: the gates of that file
  };
  source from = source::beside_baseline;
  std::string file;  ///< the gates file of source::file

  /// The choice a --gates value makes: "none", else a file; throws usage_error for an empty value.
  static gates_choice parse(const std::string& value);
  /// Whether --gates was given (anything but the default).
  bool given() const { return from != source::beside_baseline; }
  /// The gates file --gates names (none for --gates=none or no --gates).
  std::optional<std::string> named_file() const {
    return from == source::file ? std::optional<std::string>(file) : std::nullopt;
  }
};

/// What a comparison reads (a run with --compare-to, compare, bisect; trend reads the threshold and the device rule).
struct compare_options {
  std::optional<double> threshold_pct;
  std::optional<double> host_threshold_pct;
  std::optional<double> noise_floor;
  std::optional<double> alpha;
  bool allow_device_mismatch = false;
  bool allow_build_mismatch = false;           ///< compare runs whose cases were built differently
  bool allow_preset_mismatch = false;          ///< compare runs of different presets
  gates_choice gates;                          ///< --gates=FILE|none: the learned gates a comparison uses
  std::optional<double> energy_threshold_pct;  ///< --energy-threshold: the gate of a change of energy per operation
  bool gate_energy = false;                    ///< --gate-energy: an energy regression fails the comparison
};

/// The report files a run, compare, report, trend and fleet write, and the results document (run, bisect, fleet).
struct report_files {
  std::optional<std::string> json_path;
  std::optional<std::string> md_path, html_path, verdict_path, csv_path;
};

/// What a run writes besides its report files: its own documents, texts and live outputs, and the form of its
/// rows.
struct run_outputs : report_files {
  std::optional<std::string> trace_path;  ///< --trace=FILE: Chrome trace-event JSON of traced samples
  /// Each live output's FILE, by its option (reports::live_formats): the cases as they finish.
  std::map<std::string, std::string, std::less<>> live_paths;
  /// The file the live output `option` names, where it was given.
  std::optional<std::string> live_path(std::string_view option) const {
    const auto path = live_paths.find(option);
    return path == live_paths.end() ? std::nullopt : std::optional<std::string>(path->second);
  }
  std::optional<std::string> time_unit;  ///< --benchmark_time_unit: ns, us, ms or s for every row and the table
  bool report_aggregates_only = false;  ///< --benchmark_report_aggregates_only: no repetition rows where aggregates are
  std::optional<std::string>
      benchmark_csv_path;  ///< --benchmark_out_format=csv / --benchmark_format=csv: Google Benchmark's CSV
  /// A second place for the results JSON, as Google Benchmark writes its file and its standard output: the JSON
  /// --benchmark_out=FILE beside --json FILE2 (this is FILE), or beside --benchmark_format=json (this is "-").
  std::optional<std::string> json_copy_path;
  std::optional<std::string> console_out_path;  ///< --benchmark_out_format=console: the table written to this file
};

/// What a run reads (the suite binary, and a user's binary linked with cudabench::main).
struct run_options : compare_options, run_outputs {
  name_filter filter;         ///< --filter: the cases selected
  bool filter_given = false;  ///< --filter was given (bisect requires it)
  bool list = false;
  std::optional<std::string> identify_path;  ///< --identify=FILE: each case's code identity, untimed, to FILE
  bool limits = false;                       ///< --limits: the limits family runs alongside the selected cases
  bool help = false;
  std::string preset = "quick";
  std::optional<int> repetitions;
  std::optional<int> rounds;                  ///< --rounds: worker processes the repetitions are spread over
  std::optional<bool> random_interleaving;    ///< --benchmark_enable_random_interleaving
  std::optional<std::uint64_t> shuffle_seed;  ///< --shuffle-seed: the seed of the rounds' case orders
  std::string rounds_for = "gated";           ///< --rounds-for: the cases the rounds spread (gated or all)
  bool list_names_only = false;               ///< --benchmark_list_tests: names only, as Google Benchmark lists
  std::optional<double> min_time_s;           ///< --benchmark_min_time: least measured time per repetition
  std::optional<double> warmup_s;             ///< --benchmark_min_warmup_time
  bool display_aggregates_only = false;  ///< --benchmark_display_aggregates_only (the table shows medians either way)
  bool counters_tabular = false;         ///< --benchmark_counters_tabular: every counter a column in the table
  std::vector<std::pair<std::string, std::string>> context;  ///< --benchmark_context=KEY=VALUE: top-level context keys
  std::optional<bool> color;              ///< --benchmark_color: the table's colour (unset: auto, on a terminal)
  std::optional<std::string> compare_to;  ///< a baseline file, or "auto"
  bool save_baseline = false;
  int device = 0;
  bool quiet = false;                       ///< no "[i/N] case" progress lines on standard error, no [i/N] in the table
  bool verbose = false;                     ///< the table names each skipped case under its reason
  bool profile = false;                     ///< under a profiler: a few clean samples per case, one repetition
  bool no_blocking_kernel = false;          ///< do not hold the stream while a sample's work is queued
  bool energy = true;                       ///< GPU cases' energy, clocks and throttling from NVML (off: --no-energy)
  std::optional<double> energy_window_s;    ///< --energy-window: the least energy window (unset: the preset's)
  double energy_min_run_s = 0.1;            ///< --energy-min-run: shorter cases' windows are of their runs back to back
  std::optional<std::string> inject_regex;  ///< --inject-slowdown=REGEX:PCT (validation runs only)
  double inject_pct = 0;
  std::string cache = "declared";      ///< declared | hot | cold: L2 state of GPU cases
  std::optional<std::string> devices;  ///< --devices=all|0,2: one process per device, results merged
  std::map<std::string, std::vector<std::int64_t>> sizes;      ///< --sizes=FAMILY=N,N,...: a family's sizes
  std::map<std::string, std::vector<std::int64_t>> axes;       ///< --axis=FAMILY.AXIS=V,V,...: by "FAMILY.AXIS"
  std::string baseline_dir{run_store::default_baselines_dir};  ///< where --save-baseline and --compare-to=auto look
  /// --watchdog: the cases run in a worker process; one that makes no progress for this long is killed and
  /// failed, one that loses the CUDA context or dies is failed, and the rest go on in a fresh worker.
  /// 0 (--watchdog=off): the cases run in this process, with no such protection.
  double watchdog_s = 300;
  std::optional<std::string> profiler;  ///< --nsys / --ncu: "nsys" or "ncu" (the cudabench-run wrapper starts it)
  bool profile_plan = false;            ///< --profile-plan: print what the cudabench-run wrapper needs, then exit
};

/// What report reads besides its report files.
struct report_options {
  std::string format = "text";  ///< report --format: text, gab or bmf
};

/// What trend reads besides the threshold, the device rule and --html.
struct trend_options {
  std::size_t hold = 3;                 ///< trend --hold: runs a step must hold for
  std::optional<std::string> site_dir;  ///< trend --site=DIR: the dashboard of a history store, written there
  std::string repository;               ///< trend --repository=URL: where a run's commit links to ("" none)
};

/// What gates reads.
struct gates_options {
  std::optional<std::string> gates_out;  ///< gates --out=FILE
  std::optional<double> gate_floor_pct;  ///< gates --floor
  std::optional<double> gate_k;          ///< gates --k
  std::optional<int> gate_min_runs;      ///< gates --min-runs
};

/// What fleet reads besides its report files.
struct fleet_options {
  std::optional<std::string> reference;  ///< fleet --reference: the model the ratios divide by
};

/// What store reads besides --baseline-dir.
struct store_options {
  std::optional<std::string> history_dir;  ///< store --history-dir: a history store
  std::optional<std::string> of_preset;    ///< store --of-preset: the preset the result must be of
};

/// What bisect reads besides --filter, the comparison's options and --json.
struct bisect_options {
  static constexpr const char* suite_binary = "build/bench/cudabench";  ///< --binary of the suite's own repository
  static constexpr const char* suite_preset = "nightly";                ///< the preset each revision runs unless told
  std::optional<std::string> good, bad;      ///< bisect --good / --bad: the revisions at each end
  std::optional<std::string> build_command;  ///< bisect --build: the shell command that builds a revision
  std::optional<std::string> binary;         ///< bisect --binary: the benchmark binary, relative to the worktree
  int processes = 2;                         ///< bisect --processes: benchmark processes per measured revision
  std::optional<double> time_limit_s;        ///< bisect --time-limit
  std::optional<std::string> ends_dir;       ///< bisect --ends: measure the two ends only, their results written there
  /// bisect --skip-same-code: with --ends, measure only the cases whose code identity changed (and the controls).
  bool skip_same_code = false;
  /// bisect --ends and confirm --extra-time: how long more alternating pairs of processes may be measured while
  /// a self-calibrated case is inconclusive (0: none).
  double extra_time_s = 300;
  static constexpr int max_extra_pairs = 20;  ///< at most this many more pairs, whatever time is left
};

/// The format of --benchmark_out without --benchmark_out_format.
constexpr const char* default_benchmark_out_format = "json";

/// Everything a command line can say: the option table's actions write here, and each command reads its own
/// part (a run its run_options, gates its gates_options, ...).
struct command_options : run_options,
                         report_options,
                         trend_options,
                         gates_options,
                         fleet_options,
                         store_options,
                         bisect_options {};

/// The device ordinals of a --devices value ("all" or "0,2") for a machine with `count` devices;
/// throws usage_error naming what is wrong (an ordinal that does not exist, a malformed list, no device).
std::vector<int> parse_device_list(const std::string& spec, int count);

/// The arguments of the child process that runs `args` on one device, by the option table: --devices,
/// --device, --json and --benchmark_out(_format) are replaced (--device=N, --json=JSON), and the other outputs
/// (--md, --html, --csv, --verdict, --trace) get a ".devN" suffix.
std::vector<std::string> child_arguments(const std::vector<std::string>& args, int device, const std::string& json);

/// Parses one --sizes value, "FAMILY=N,N,..." (positive whole numbers), into `into`; throws usage_error.
void parse_sizes(const std::string& spec, std::map<std::string, std::vector<std::int64_t>>& into);
/// Parses one --axis value, "FAMILY.AXIS=V,V,..." (positive whole numbers), into `into` by "FAMILY.AXIS".
void parse_axis(const std::string& spec, std::map<std::string, std::vector<std::int64_t>>& into);

/// Compiles a regular expression the user gave `option` (--filter, --inject-slowdown) in RE2 syntax, matched
/// in linear time: at most 1,000 characters, else (or when invalid) usage_error naming the option.
name_pattern user_regex(const std::string& pattern, const std::string& option);

/// Parses a whole number or a percentage; `what` names the option in the error.
int parse_int(const std::string& text, const std::string& what, int lo, int hi);
double parse_double(const std::string& text, const std::string& what, double lo, double hi);

}  // namespace cudabench::cli
