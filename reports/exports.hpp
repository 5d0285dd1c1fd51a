// A run's cases in the formats of CI dashboards: github-action-benchmark's customSmallerIsBetter and
// Bencher's Metric Format (BMF).
#pragma once

#include <nlohmann/json.hpp>

#include "results/results.hpp"

namespace cudabench::reports {

/// The repetitions a case ran (over all its rounds; not the rounds the statistics compare), or its samples where
/// the results hold no repetition rows (aggregates only).
std::size_t repetition_count(const cudabench::case_result& c);

/// github-action-benchmark, tool `customSmallerIsBetter`: an array with one entry per measured case
/// ({name, unit "us", value: the median over repetitions, range "± stddev" or the in-run noise, extra});
/// skipped and failed cases are left out (a time of 0 would read as an infinite change).
nlohmann::ordered_json gab_export(const cudabench::run_result& run);

/// Bencher Metric Format: {case: {"latency": {value, lower_value, upper_value} in nanoseconds (median,
/// fastest and slowest repetition), "throughput": items per second where the case declares items}};
/// skipped and failed cases are left out.
nlohmann::ordered_json bmf_export(const cudabench::run_result& run);

}  // namespace cudabench::reports
