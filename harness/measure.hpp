// The case driver: builds and checks a case's fixture, measures it, and reports through Google Benchmark.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/cuda_handles.hpp"
#include "harness/device_info.hpp"
#include "harness/fixture.hpp"
#include "harness/l2_flush.hpp"
#include "harness/presets.hpp"

namespace harness {

/// What one repetition of a case recorded beyond its time (goes into the JSON row).
struct run_record {
  std::string stop;     ///< "noise" or "time_cap"
  std::string cache;    ///< "cold" or "hot"
  std::size_t samples = 0;
  int batch = 1;        ///< runs per sample (tiny hot kernels are timed over a batch of launches)
  double sm_clock_mhz = 0;       ///< mean SM clock measured right after each kept sample
  std::size_t clock_discards = 0; ///< samples dropped because the SM clock was throttled
  bool injected = false;          ///< --inject-slowdown added work to this case
  bool held = false;              ///< the stream was held until each sample's work was queued (stream_blocker)
  double noise = 0;     ///< relative standard error of the mean
  bool correct = true;  ///< false for cases wrong by design (histogram/naive)
  std::string note;
};

enum class case_outcome { passed, skipped, failed };

/// How cases are measured beyond the preset: forced cache state, injected slowdown.
struct measure_settings {
  std::optional<cache_state> cache_override;
  std::optional<std::string> inject_regex;
  double inject_pct = 0;
  double throttle_fraction = 0.75;  ///< samples with the SM clock under this fraction of its peak are discarded
  /// Hold the stream until a sample's work is queued, so launch latency stays out of the timed region
  /// (off under profilers, which serialise launches, and with --no-blocking-kernel).
  bool hold_stream = true;
};

class case_driver {
 public:
  case_driver(const device_info& device, const preset& p, measure_settings settings = {});
  ~case_driver();
  case_driver(const case_driver&) = delete;
  case_driver& operator=(const case_driver&) = delete;

  /// The body of every registered case.
  void run(benchmark::State& st, const case_def& c);

  const std::map<std::string, std::vector<run_record>>& records() const { return records_; }
  const std::map<std::string, case_outcome>& outcomes() const { return outcomes_; }

 private:
  struct gpu_state;
  fixture& fixture_for(const case_def& c);
  std::vector<double> measure_gpu(fixture& fx, const case_def& c, run_record& rec);
  std::vector<double> measure_cpu(fixture& fx, const case_def& c, run_record& rec);
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
  double fresh_run_s_ = 0;  ///< duration of the verification run of a just-built fixture (counts as warm-up)
  std::map<std::string, std::string> known_failures_, known_skips_;
  std::map<std::string, std::vector<run_record>> records_;
  std::map<std::string, case_outcome> outcomes_;
  std::set<std::string> unheld_;  ///< cases whose queued work turned out to wait on the host
};

/// Prefix that marks a skip inside an error message on Google Benchmark 1.7 (no SkipWithMessage there).
inline constexpr const char* skip_prefix = "skipped: ";

}  // namespace harness
