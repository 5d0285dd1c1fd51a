// A run's cases as CSV, for spreadsheets and scripts.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "analysis/compare.hpp"
#include "results/results.hpp"

namespace cudabench::reports {

/// One row per case of `run`: name, status, median (us), repetitions, their CV (%), the in-run noise (%),
/// samples, throughputs, % of peak DRAM bandwidth and the skip/failure message; with a comparison, also
/// the baseline median, the change (%), the verdict and the test's p-value.
std::string results_csv(const cudabench::run_result& run, const cudabench::comparison* c = nullptr);

/// The rows of a results document (to_json's) in Google Benchmark's CSV schema: name, iterations, real_time,
/// cpu_time, time_unit, bytes_per_second, items_per_second, label, error_occurred, error_message, then one
/// column per other counter (quoted, sorted, as its CSVReporter writes). A skipped case is a row of its name,
/// error_occurred false and the reason.
std::string benchmark_csv(const nlohmann::ordered_json& doc);

}  // namespace cudabench::reports
