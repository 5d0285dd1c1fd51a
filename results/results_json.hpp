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

namespace cudabench {

/// What the registry declared of a run, as the model keeps it: each family's description, references and tables
/// by name, and the cases the run selected, in order (the runner makes it from the registry's suite).
struct declared_cases {
  std::map<std::string, family_refs> families;
  std::vector<case_meta> selection;
};

/// The run the measuring side hands on, as recorded: `host` is Google Benchmark's description of the host;
/// `settings` how the run was made, as the runner settled it (without a GPU, `energy_absent` says so;
/// `interrupted_by` marks it incomplete; `build` is the registering code's); cases appear in the order of the
/// selection, those with a result in `results` (by name) as cases, every one in the selection. Its cases are not
/// summarized: what a worker records for its supervisor, whose assembly summarizes them.
run_result recorded_run(nlohmann::ordered_json host, const device_info& device, const run_settings& settings,
                        const declared_cases& declared, const std::map<std::string, case_result>& results);
/// The run assembled: recorded_run with each case summarized once (run_builder::finish).
run_result make_run_result(nlohmann::ordered_json host, const device_info& device, const run_settings& settings,
                           const declared_cases& declared, const std::map<std::string, case_result>& results);

/// The whole document. `time_unit`: ns, us, ms or s for every row (--benchmark_time_unit); unset: ns, the
/// same for every case on every machine. `aggregates_only` (--benchmark_report_aggregates_only): a case with
/// aggregates gets those rows only, as Google Benchmark then writes.
nlohmann::ordered_json to_json(const run_result& run, const std::optional<std::string>& time_unit = std::nullopt,
                               bool aggregates_only = false);

}  // namespace cudabench
