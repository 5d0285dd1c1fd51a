// The cases of one process, run through Google Benchmark: in the runner itself (--watchdog=off) or in a
// worker that a supervisor started; and the run a supervisor assembles from its workers.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/run_plan.hpp"
#include "app/supervisor.hpp"
#include "cudabench/registry.hpp"
#include "measure/host_info.hpp"
#include "measure/measure.hpp"
#include "measure/trace_recorder.hpp"
#include "results/results_json.hpp"

namespace cudabench::app {

/// What one process measured: the host, the finished cases, the trace.
struct case_execution {
  std::optional<host_info> host;               ///< collected once Google Benchmark is initialized
  std::map<std::string, case_result> results;  ///< finished cases only
  std::optional<trace_recorder> tracer;
};

/// Runs `selected` here. With `worker` set, each case reports its start to the supervisor, each finished case's
/// results are recorded (worker_link::record) as it finishes, and a lost CUDA context ends the process at once.
/// Without, the progress counts `cases_after` more (the binary's Google Benchmark registrations, run next), and
/// `on_case` hears of each case as it finishes.
void execute_cases(case_execution& out, const execution_settings& ex, const preset& p, const suite& s,
                   const std::vector<const case_def*>& selected, const device_info& dev, const run_settings& run,
                   const worker_link* worker, char** argv, std::size_t cases_after = 0,
                   const case_listener& on_case = {});

/// The run a supervisor assembles from its workers: their cases in the order of the selection, and a failed
/// case for each one a worker could not finish (hung, or its process died).
run_result assemble_run(const supervised_run& sr, const device_info& dev, const run_settings& run, const suite& s,
                        const std::vector<const case_def*>& selected);

/// A worker: runs the cases its supervisor listed, recording each one's results as it finishes; its exit status.
int run_as_worker(const worker_link& worker, const execution_settings& ex, const preset& p, const suite& s,
                  const std::vector<const case_def*>& selected, const run_settings& run, char** argv);

/// --identify=FILE (`path`): each selected case's code identity from one untimed, unchecked run of it traced with CUPTI
/// (case_driver::identify_case), and the binary's Google Benchmark registrations with none, written to FILE as an
/// identities file (analysis/same_code.hpp). 0, or 128 + the signal that stopped it.
int identify_cases(const std::string& path, const execution_settings& ex, const preset& p,
                   const std::vector<const case_def*>& selected, const std::vector<std::string>& google);

/// The recorded timeline with the device's name, and why it holds no device activity where it holds none.
const trace_log& finished_trace(trace_recorder& tracer, const device_info& dev);

}  // namespace cudabench::app
