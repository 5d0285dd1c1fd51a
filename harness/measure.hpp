// The case driver: builds and checks a case's fixture, measures it, and reports through Google Benchmark.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <optional>
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
  double noise = 0;     ///< relative standard error of the mean
  bool correct = true;  ///< false for cases wrong by design (histogram/naive)
  std::string note;
};

enum class case_outcome { passed, skipped, failed };

class case_driver {
 public:
  case_driver(const device_info& device, const preset& p);
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
  std::vector<double> measure_gpu(fixture& fx, const case_def& c, std::string& stop);
  std::vector<double> measure_cpu(fixture& fx, std::string& stop);
  void skip(benchmark::State& st, const std::string& name, const std::string& why);
  void fail(benchmark::State& st, const std::string& name, const std::string& why);

  const device_info& device_;
  const preset& preset_;
  std::unique_ptr<gpu_state> gpu_;
  std::string cached_name_;
  std::unique_ptr<fixture> cached_;
  double fresh_run_s_ = 0;  ///< duration of the verification run of a just-built fixture (counts as warm-up)
  std::map<std::string, std::string> known_failures_, known_skips_;
  std::map<std::string, std::vector<run_record>> records_;
  std::map<std::string, case_outcome> outcomes_;
};

/// Prefix that marks a skip inside an error message on Google Benchmark 1.7 (no SkipWithMessage there).
inline constexpr const char* skip_prefix = "skipped: ";

}  // namespace harness
