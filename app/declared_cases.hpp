// The registry's declarations as the results model keeps them: the runner's step from the registry's types
// (cudabench/registry.hpp) to the model's plain descriptions (declared_cases, results/results_json.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "cudabench/registry.hpp"
#include "results/device_info.hpp"
#include "results/results_json.hpp"
#include "results/results_model.hpp"

namespace cudabench::app {

/// What a registered case declares, as the model keeps it.
case_meta meta_of(const case_def& c);

/// The families of `s` and the cases of `selected`, in that order, as the model keeps them.
declared_cases declared_of(const suite& s, const std::vector<const case_def*>& selected);

/// The run of `selected` as recorded, its cases not summarized (recorded_run of results_json.hpp over
/// declared_of(s, selected)): what a worker records.
run_result recorded_run(nlohmann::ordered_json host, const device_info& device, const run_settings& run, const suite& s,
                        const std::vector<const case_def*>& selected,
                        const std::map<std::string, case_result>& results);
/// The run of `selected`, each case summarized once (make_run_result of results_json.hpp over declared_of(s,
/// selected)).
run_result make_run_result(nlohmann::ordered_json host, const device_info& device, const run_settings& run,
                           const suite& s, const std::vector<const case_def*>& selected,
                           const std::map<std::string, case_result>& results);

}  // namespace cudabench::app
