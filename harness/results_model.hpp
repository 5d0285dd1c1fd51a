// What a run measured, in memory: one record per case with a row per repetition. The JSON is written from
// it (results_json.hpp), the terminal table reads it, and a comparison reads the JSON made from it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/timeline.hpp"

namespace cudabench {

/// What one repetition of a case recorded beyond its time (the "cudabench" object of its JSON row).
struct run_record {
  std::string stop;     ///< "noise" or "time_cap"
  std::string cache;    ///< "cold" or "hot"
  std::size_t samples = 0;
  int batch = 1;        ///< runs per sample (tiny cases are timed over a batch of runs)
  double sm_clock_mhz = 0;        ///< mean SM clock measured right after each kept sample
  std::size_t clock_discards = 0; ///< samples dropped because the SM clock was throttled
  bool injected = false;          ///< --inject-slowdown added work to this case
  bool held = false;              ///< the stream was held until each sample's work was queued (stream_blocker)
  double noise = 0;     ///< relative standard error of the mean
  bool correct = true;  ///< false for cases wrong by design (histogram/naive)
  std::string note;
};

/// One timed repetition: its time, rates and what it recorded.
struct repetition {
  double real_time_s = 0;                  ///< median of the repetition's samples
  double cpu_time_s = 0;                   ///< host CPU time per run during the measurement
  std::map<std::string, double> counters;  ///< rates, noise, samples, clock, the fixture's own counters
  std::string label;
  run_record record;
};

enum class case_outcome { passed, skipped, failed };

/// A case of the run: passed with its repetitions, or skipped/failed with the reason.
struct measured_case {
  case_outcome outcome = case_outcome::passed;
  std::string message;               ///< why skipped or failed
  std::vector<repetition> repetitions;
  std::optional<case_timeline> timeline;  ///< one traced sample after the last repetition (--trace)
};

}  // namespace cudabench
