// The one writer of the results schema: a run (results_model.hpp) as Google Benchmark JSON, with the rows
// Google Benchmark's own JSON reporter would write (repetitions, then mean/median/stddev/cv aggregates), the
// device description and cudabench's metadata in the context. results.hpp holds the one reader.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/device_info.hpp"
#include "results/results_model.hpp"
#include "results/run_info.hpp"

namespace cudabench {

/// How the run was made, beyond the preset and revision run_info holds.
struct run_description {
  run_info info;
  std::string cache = "declared";             ///< --cache: declared, hot or cold
  std::optional<std::string> injected;        ///< --inject-slowdown as "REGEX:PCT"
  std::optional<std::uint64_t> shuffle_seed;  ///< the seed of the rounds' shuffled case orders
  /// The signal that stopped the run early ("SIGINT", "SIGTERM"): the run holds the finished cases only.
  std::optional<std::string> interrupted_by;
  /// Why no case's energy is read though there is a GPU ("--no-energy", "--profile ..."); "" where it is read.
  std::string energy_off;
};

/// What the registry declared of a run, as the model keeps it: each family's description, references and tables
/// by name, and the cases the run selected, in order (the runner makes it from the registry's suite).
struct declared_cases {
  std::map<std::string, family_refs> families;
  std::vector<case_meta> selection;
};

/// The run the measuring side hands on: `host` is Google Benchmark's description of the host; cases appear
/// in the order of the selection, those with a result in `results` (by name) as cases, every one in the selection.
run_result make_run_result(nlohmann::ordered_json host, const device_info& device, const run_description& run,
                           const declared_cases& declared, const std::map<std::string, case_result>& results);

/// The whole document. `time_unit`: ns, us, ms or s for every row (--benchmark_time_unit); unset: ns, the
/// same for every case on every machine. `aggregates_only` (--benchmark_report_aggregates_only): a case with
/// aggregates gets those rows only, as Google Benchmark then writes.
nlohmann::ordered_json to_json(const run_result& run, const std::optional<std::string>& time_unit = std::nullopt,
                               bool aggregates_only = false);

}  // namespace cudabench
