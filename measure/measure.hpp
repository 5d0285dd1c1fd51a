// The case driver: builds and checks a case's fixture, measures it, and records the results in memory.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cudabench/fixture.hpp"
#include "cudabench/presets.hpp"
#include "measure/energy.hpp"
#include "measure/pattern.hpp"
#include "results/device_info.hpp"
#include "results/results_model.hpp"

namespace cudabench {

struct summary;  // results/stats.hpp

class trace_recorder;

/// How cases are measured beyond the preset: forced cache state, injected slowdown.
struct measure_settings {
  std::optional<cache_state> cache_override;
  std::optional<std::string> inject_regex;
  double inject_pct = 0;
  double throttle_fraction = 0.75;  ///< samples with the SM clock under this fraction of its peak are discarded
  /// Hold the stream until a sample's work is queued, so launch latency stays out of the timed region
  /// (off under profilers, which serialise launches, and with --no-blocking-kernel).
  bool hold_stream = true;
  /// --trace: after a case's last repetition, one more sample runs traced (not timed) into this recorder.
  trace_recorder* tracer = nullptr;
  /// After a GPU case's first repetition, one more sample runs traced (not timed) into this recorder, and the
  /// case records its code identity from it (results/code_identity.hpp); none under a profiler.
  trace_recorder* identifier = nullptr;
  /// Check a fresh fixture's result against its reference; off in the later rounds of a run, whose first
  /// round checked every case on its own fresh random input.
  bool check = true;
  /// GPU cases: the energy window, clocks and throttle reasons read from NVML around the timed samples (energy.hpp).
  energy_settings energy;
};

/// What sampling a CPU case gave: the per-run times of its samples and how it stopped.
struct cpu_samples {
  std::vector<double> seconds;  ///< one per sample: a batch's time divided by its size
  std::string stop;             ///< "noise" or "time_cap"
  int batch = 1;                ///< runs per sample (tiny cases are timed over a batch)
  double cpu_per_run_s = 0;     ///< host CPU time per run over the measurement
  bool injected = false;
};

/// Warms up and samples a CPU fixture under `policy` (host clock). `already_warm_s` counts towards the
/// warm-up (the verification run of a fresh fixture); `inject_pct` adds busy time as --inject-slowdown does.
/// Each sample costs O(1), and sampling stops at policy.max_time_s or policy.max_samples at the latest.
cpu_samples sample_cpu(fixture& fx, const sampling_policy& policy, double already_warm_s = 0, double inject_pct = 0);

/// How Google Benchmark saw a case end (its run data): ok, skipped with the reason, or failed with it.
struct reported_outcome {
  case_status status = case_status::ok;
  std::string message;
};
reported_outcome outcome_of(const benchmark::BenchmarkReporter::Run& run);

class case_driver {
 public:
  case_driver(const device_info& device, const preset& p, measure_settings settings = {});
  ~case_driver();
  case_driver(const case_driver&) = delete;
  case_driver& operator=(const case_driver&) = delete;

  /// The body of every registered case: one call per repetition.
  void run(benchmark::State& st, const case_def& c);

  /// --identify: `c` built and run once, unchecked, then once traced, neither timed; its code identity, or why it
  /// has none (`problem`: a CPU case, no device, no CUPTI, a case that skipped or failed).
  code_identity identify_case(const case_def& c);

  /// Everything measured so far, by case name.
  const std::map<std::string, case_result>& results() const { return results_; }

 private:
  struct gpu_state;
  fixture& fixture_for(const case_def& c);
  std::vector<double> measure_gpu(fixture& fx, const case_def& c, repetition& rep);
  /// How a GPU case's samples are timed: after an L2 flush (cold), with the stream held until the sample's work
  /// is queued (hold), `batch` runs between the two events, and `inject_ns` of added GPU time a run.
  struct gpu_timing {
    bool cold = false;
    bool hold = false;
    int batch = 1;
    double inject_ns = 0;
  };
  /// One timed sample of `c`: its seconds a run, and (untimed, after it) the SM clock into `clock_mhz`. A held
  /// sample whose work waited on the host is timed again unheld, and the case is unheld from then on.
  double timed_gpu_run(fixture& fx, const case_def& c, gpu_timing& how, double& clock_mhz);
  /// A finished repetition's counters, note and label, told to Google Benchmark's `st` too.
  void record_repetition(benchmark::State& st, const case_def& c, fixture& fx, const summary& s, repetition& rep);
  /// The board's meter, made at the first GPU case; null with energy off.
  energy_meter* meter();
  /// How this repetition gets its energy: a window around its timed samples, a window of its runs back to back
  /// after them (a case too short for the first), or none (the reason into the record).
  enum class energy_way { none, timed, back_to_back };
  energy_way energy_way_for(const case_def& c, double warm_median, run_record& rec);
  /// A short case's energy window: its runs back to back (no L2 flush between them) in batches of about
  /// energy_settings::back_to_back_s, untimed for its time, until the window is reached.
  void measure_energy_back_to_back(fixture& fx, double warm_median, run_record& rec, const case_def& c);
  std::vector<double> measure_cpu(fixture& fx, const case_def& c, repetition& rep);
  case_timeline trace_sample(fixture& fx, const case_def& c);
  code_identity identify_sample(fixture& fx);
  cache_state cache_of(const case_def& c) const { return settings_.cache_override.value_or(c.cache); }
  bool injected(const case_def& c) const;
  void skip(benchmark::State& st, const std::string& name, const std::string& why);
  void fail(benchmark::State& st, const std::string& name, const std::string& why);

  const device_info& device_;
  const preset& preset_;
  measure_settings settings_;
  std::unique_ptr<gpu_state> gpu_;
  std::string cached_name_;
  std::unique_ptr<fixture> cached_;
  double fresh_run_s_ = 0;            ///< duration of the verification run of a just-built fixture (counts as warm-up)
  double setup_s_ = 0, check_s_ = 0;  ///< host time to build, and to run and check, the fixture just built (0: reused)
  std::map<std::string, case_result> results_;
  std::set<std::string> unheld_;                ///< cases whose queued work turned out to wait on the host
  std::optional<name_pattern> inject_pattern_;  ///< --inject-slowdown's pattern, compiled once
  std::unique_ptr<energy_meter> meter_;
  std::map<std::string, double> energy_counters_;  ///< the last GPU repetition's energy and clock counters
};

}  // namespace cudabench
