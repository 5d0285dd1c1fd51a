// Presets: which sizes run, how many repetitions, and when a case has measured enough.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cudabench {

/// When a case stops measuring (see stats.hpp's stop_rule).
struct sampling_policy {
  int min_samples = 10;        ///< never stop on noise before this many samples
  double min_time_s = 0.05;    ///< ... nor before this much accumulated measured time
  double max_time_s = 0.5;     ///< stop at this much measured time whatever the noise
  double target_noise = 0.005; ///< relative standard error of the mean to stop at (0.5%, as nvbench)
  double warmup_s = 0.01;      ///< untimed runs before measuring, at least one
  std::size_t max_samples = 100000;  ///< stop at this many samples whatever the noise (no case samples forever)
};

struct preset {
  std::string name;
  int level = 0;              ///< 0 quick, 1 nightly, 2 full
  int repetitions = 1;
  sampling_policy sampling;
  /// Sizes chosen on the command line (--sizes=FAMILY=N,N,...), by family; they replace the preset's lists
  /// of the families that take sizes through family_builder::sizes().
  std::map<std::string, std::vector<std::int64_t>> sizes;

  /// The list that belongs to this preset's level.
  template <typename T>
  std::vector<T> pick(const std::vector<T>& quick, const std::vector<T>& nightly, const std::vector<T>& full) const {
    return level == 0 ? quick : level == 1 ? nightly : full;
  }
};

/// "quick", "nightly" or "full"; throws cudabench::usage_error for anything else.
preset preset_by_name(const std::string& name);

}  // namespace cudabench
