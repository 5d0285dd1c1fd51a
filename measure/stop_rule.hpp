// The stopping rule of the sampling loop: when a case has measured enough, by its preset's sampling policy.
#pragma once

#include <vector>

#include "cudabench/presets.hpp"
#include "results/stats.hpp"

namespace cudabench {

/// Why a case stopped measuring.
enum class stop_reason { none, noise, time_cap };
const char* to_string(stop_reason r);

/// Noise reached: at least min_samples, at least min_time_s measured, rel. std. error <= target.
/// Time cap: max_time_s measured, or max_samples taken (at least one sample). Otherwise keep going. O(1).
stop_reason stop_rule(const running_stats& samples, double measured_s, const sampling_policy& p);
/// The same over a whole list of samples (for tests and one-off checks; O(n)).
stop_reason stop_rule(const std::vector<double>& samples_s, double measured_s, const sampling_policy& p);

}  // namespace cudabench
