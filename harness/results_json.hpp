// The run's results written as Google Benchmark JSON, straight from the in-memory model: the rows Google
// Benchmark's own JSON reporter would write (repetitions, then mean/median/stddev/cv aggregates), the
// device description and cudabench's metadata in the context.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudabench/registry.hpp"
#include "harness/device_info.hpp"
#include "harness/results_model.hpp"
#include "harness/run_info.hpp"

namespace cudabench {

/// How the run was made, beyond the preset and revision run_info holds.
struct run_description {
  run_info info;
  std::string cache = "declared";        ///< --cache: declared, hot or cold
  std::optional<std::string> injected;   ///< --inject-slowdown as "REGEX:PCT"
  /// ns, us, ms or s for every row (--benchmark_time_unit); unset: per case, the largest unit in which its
  /// median is at least 100 (three significant digits even where a tool prints whole units).
  std::optional<std::string> time_unit;
  /// The signal that stopped the run early ("SIGINT", "SIGTERM"): the document holds the finished cases only.
  std::optional<std::string> interrupted_by;
};

/// The whole document. `context` holds the host description (date, host_name, num_cpus, caches, ...);
/// the device and the run's metadata are added to it. Cases appear in the order of `selected`; a selected
/// case with no result (not run) has no row.
nlohmann::ordered_json results_document(nlohmann::ordered_json context, const device_info& device,
                                        const run_description& run, const suite& s,
                                        const std::vector<const case_def*>& selected,
                                        const std::map<std::string, measured_case>& results);

/// The median over a case's repetitions of its time and of each counter (what a table shows for it).
repetition median_repetition(const measured_case& m);

}  // namespace cudabench
