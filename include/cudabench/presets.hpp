// Presets: how many repetitions, when a case has measured enough, and the axis values chosen on the
// command line (the axes' own values per preset are the families', cudabench/axes.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cudabench/errors.hpp"

namespace cudabench {

/// When a case stops measuring (see stats.hpp's stop_rule).
struct sampling_policy {
  int min_samples = 10;              ///< never stop on noise before this many samples
  double min_time_s = 0.05;          ///< ... nor before this much accumulated measured time
  double max_time_s = 0.5;           ///< stop at this much measured time whatever the noise
  double target_noise = 0.005;       ///< relative standard error of the mean to stop at (0.5%, as nvbench)
  double warmup_s = 0.01;            ///< untimed runs before measuring, at least one
  std::size_t max_samples = 100000;  ///< stop at this many samples whatever the noise (no case samples forever)
};

struct preset {
  std::string name;     ///< "quick", "nightly" or "full": the key of an axis's values
  int level = 0;        ///< 0 quick, 1 nightly, 2 full
  int repetitions = 1;  ///< per case in each round (a round is one worker process)
  int rounds = 1;       ///< rounds, each running every selected case in a shuffled order
  sampling_policy sampling;
  /// Sizes chosen on the command line (--sizes=FAMILY=N,N,...), by family: they replace the values of the
  /// family's size axes.
  std::map<std::string, std::vector<std::int64_t>> sizes;
  /// Axis values chosen on the command line (--axis=FAMILY.AXIS=v,v,...), by "FAMILY.AXIS": they replace the
  /// values of the family's axes of that name.
  std::map<std::string, std::vector<std::int64_t>> axes;
};

/// "quick", "nightly" or "full"; throws cudabench::usage_error for anything else.
preset preset_by_name(const std::string& name);

}  // namespace cudabench
