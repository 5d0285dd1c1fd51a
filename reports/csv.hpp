// A run's cases as CSV, for spreadsheets and scripts.
#pragma once

#include <string>

#include "harness/compare.hpp"
#include "harness/results.hpp"

namespace cudabench::reports {

/// One row per case of `run`: name, status, median (us), repetitions, their CV (%), the in-run noise (%),
/// samples, throughputs, % of peak DRAM bandwidth and the skip/failure message; with a comparison, also
/// the baseline median, the change (%), the verdict and the rank test's p-value.
std::string results_csv(const cudabench::run_result& run, const cudabench::comparison* c = nullptr);

}  // namespace cudabench::reports
