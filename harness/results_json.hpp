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

/// A measured limit: a case of the `limits` family's median rate, in bytes/s ("B/s"), FLOP/s or launches/s ("1/s").
struct limit_rate {
  double rate = 0;
  std::string unit;
};

/// The limits a results document measured itself (its passing `limits/...` cases), by case name.
std::map<std::string, limit_rate> measured_limits(const nlohmann::ordered_json& doc);

/// Records `limits` in the document (context.cudabench.limits, each with `source`: "this run" or the stored
/// baseline it came from) and gives every row of a case that names one of them (case_def::limit) its
/// fraction of it, "limit_fraction": the row's bytes_per_second (flops_per_second for a FLOP/s limit,
/// items_per_second for a 1/s one) over the limit's rate. Nothing happens without limits.
void apply_limits(nlohmann::ordered_json& doc, const std::map<std::string, limit_rate>& limits, const std::string& source);

/// The median over a case's repetitions of its time and of each counter (what a table shows for it).
repetition median_repetition(const measured_case& m);

}  // namespace cudabench
